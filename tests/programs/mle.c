/* Allocates and touches 1 GiB, page by page, with a result that depends on every page (so the
   compiler cannot drop the allocation). */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    size_t n = (size_t)1 << 30;
    volatile char *p = malloc(n);
    if (!p) return 7;
    unsigned long sum = 0;
    for (size_t i = 0; i < n; i += 4096) { p[i] = (char)i; sum += p[i]; }
    printf("%lu\n", sum);
    return 0;
}
