#include <stdio.h>
int main(void) { for (;;) fputs("2 7 6 9 5 1 4 3 8 2 7 6 9 5 1 4 3 8\n", stdout); }
