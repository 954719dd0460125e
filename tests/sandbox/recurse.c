#include <stdio.h>
static int f(volatile int *x, int d) { volatile int buf[64]; buf[0] = d; return f(buf, d + 1) + buf[0] + *x; }
int main(void) { int z = 0; printf("%d\n", f(&z, 0)); return 0; }
