(* The first line of the input says what to do: ac, re, tle or mle. *)
let () =
  match String.trim (read_line ()) with
  | "ac" -> print_endline "ok"
  | "re" -> failwith "contestant bug"
  | "tle" ->
      let x = ref 0 in
      while !x >= 0 do incr x done;
      print_int !x
  | "mle" ->
      let keep = ref [] in
      while true do keep := Array.make (1 lsl 17) 1 :: !keep done
  | _ -> ()
