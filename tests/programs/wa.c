#include <stdio.h>
int main(void) { printf("2 7 6\n1 5 9\n4 3 8\n"); return 0; }
