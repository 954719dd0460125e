#include <stdio.h>
#include <string.h>
#include <errno.h>
/* files OUTSIDE_PATH SECRET_PATH: write inside cwd, write outside, read a secret. */
int main(int argc, char **argv) {
    if (argc < 3) return 2;
    FILE *f = fopen("inside.txt", "w");
    printf("inside:%s\n", f && fputs("ok", f) >= 0 && fclose(f) == 0 ? "ok" : strerror(errno));
    f = fopen(argv[1], "w");
    printf("outside:%s\n", f ? "ok" : strerror(errno));
    f = fopen(argv[2], "r");
    char buf[64] = {0};
    if (f) { fgets(buf, sizeof buf, f); printf("secret:read:%s\n", buf); } else printf("secret:%s\n", strerror(errno));
    return 0;
}
