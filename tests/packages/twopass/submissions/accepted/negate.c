#include <stdio.h>

int main(void) {
    char mode[16];
    long long value;
    if (scanf("%15s %lld", mode, &value) != 2) return 1;
    printf("%lld\n", -value);
    return 0;
}
