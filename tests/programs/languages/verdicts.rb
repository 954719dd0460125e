# The first line of the input says what to do: ac, re, tle or mle.
case STDIN.gets.to_s.strip
when "ac"
  puts "ok"
when "re"
  raise "contestant bug"
when "tle"
  x = 0
  x += 1 while x >= 0
when "mle"
  keep = []
  loop { keep << ("x" * (1 << 20)) }
end
