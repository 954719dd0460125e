/* diskfill PATH MIB: writes MIB mebibytes to PATH, reports how far it got. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    if (argc < 3) return 2;
    FILE *f = fopen(argv[1], "w");
    if (!f) { printf("open:%s\n", strerror(errno)); return 1; }
    static char buf[1 << 20];
    memset(buf, 'x', sizeof buf);
    long n = atol(argv[2]), i;
    for (i = 0; i < n; i++) {
        if (fwrite(buf, 1, sizeof buf, f) != sizeof buf || fflush(f) != 0) {
            printf("wrote:%ld:%s\n", i, strerror(errno));
            return 1;
        }
    }
    fclose(f);
    printf("wrote:%ld\n", i);
    return 0;
}
