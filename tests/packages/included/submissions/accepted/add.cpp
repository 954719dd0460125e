#include <cstdio>
#include "offset.h"

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    printf("%d\n", n + OFFSET);
}
