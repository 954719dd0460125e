main :: IO ()
main = putStrLn (1 + "not a number")
