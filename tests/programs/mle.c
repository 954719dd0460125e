#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
    size_t n = (size_t)1 << 30;
    char *p = malloc(n);
    if (!p) return 7;
    memset(p, 1, n);
    printf("%d\n", p[n - 1]);
    return 0;
}
