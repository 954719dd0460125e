main :- write(.
