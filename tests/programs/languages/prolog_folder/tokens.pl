% A module of the folder program: reads one whitespace-separated token as an atom.
:- module(tokens, [next_token/1]).

next_token(Token) :-
    read_line_to_string(user_input, Line),
    split_string(Line, " ", " ", [First|_]),
    atom_string(Token, First).
