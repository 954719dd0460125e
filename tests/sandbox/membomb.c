#include <stdlib.h>
#include <string.h>
#include <stdio.h>
/* Allocates and touches 1 GiB in 1 MiB chunks. */
int main(void) {
    for (int i = 0; i < 1024; i++) {
        char *p = malloc(1 << 20);
        if (!p) { printf("malloc failed at %d MiB\n", i); return 1; }
        memset(p, i, 1 << 20);
    }
    printf("survived\n");
    return 0;
}
