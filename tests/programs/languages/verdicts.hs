-- The first line of the input says what to do: ac, re, tle or mle.
main :: IO ()
main = do
  mode <- getLine
  case takeWhile (/= ' ') mode of
    "ac" -> putStrLn "ok"
    "re" -> error "contestant bug"
    "tle" -> print (count 0)
    -- Shared by two consumers, the list is kept whole: far over the heap limit.
    "mle" -> let xs = [1 .. 100000000] :: [Int] in print (length xs + sum xs)
    _ -> return ()

count :: Int -> Int
count n = if n < 0 then n else count (n + 1)
