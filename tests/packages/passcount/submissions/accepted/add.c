#include <stdio.h>

int main(void) {
    long p, v;
    if (scanf("%ld %ld", &p, &v) != 2) return 1;
    printf("%ld\n", v + p);
    fflush(stdout);
    return 0;
}
