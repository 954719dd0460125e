% The first line of the input says what to do: ac, re, tle or mle.
main :-
    read_line_to_string(user_input, Line),
    atom_string(Mode, Line),
    run(Mode).

run(ac) :- write(ok), nl.
run(re) :- atom_length(re, L), Zero is L - 2, X is 1 // Zero, write(X), nl.
run(tle) :- count(0).
run(mle) :- numlist(1, 100000000, L), length(L, N), write(N), nl.

count(N) :- N1 is N + 1, count(N1).
