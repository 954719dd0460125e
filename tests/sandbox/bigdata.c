/* A 6 MiB program: its initialized data is read from the binary's pages at every run. */
#include <stdio.h>

static volatile unsigned char data[6 << 20] = {1};

int main(void) {
    unsigned long sum = 0;
    for (unsigned long i = 0; i < sizeof data; i += 4096)
        sum += data[i];
    printf("%lu\n", sum);
    return 0;
}
