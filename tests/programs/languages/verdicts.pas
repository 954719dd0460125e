{ The first line of the input says what to do: ac, re, tle or mle. }
program verdicts;
type
  TBlock = array[0..1048575] of byte;
  PBlock = ^TBlock;
var
  mode: string;
  x, zero: int64;
  p: PBlock;
  i: longint;
begin
  readln(mode);
  zero := length(mode) - 2;
  if mode = 'ac' then
    writeln('ok')
  else if mode = 're' then
    writeln(10 div zero)
  else if mode = 'tle' then
  begin
    x := 0;
    while x >= 0 do
      x := x + 1;
    writeln(x)
  end
  else if mode = 'mle' then
    while true do
    begin
      new(p);
      for i := 0 to 255 do
        p^[i * 4096] := 1
    end
end.
