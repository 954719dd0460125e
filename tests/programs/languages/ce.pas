program broken;
var x: integer;
begin
  x := 'not a number';
end.
