/* Tries to read the harness's files and test answers; AC only if none can be opened. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    const char *env = getenv("JUDGE_SECRET_PATH");
    const char *paths[] = {"/work/main/Cargo.toml", "/root/.bashrc", "/etc/shadow",
                           env ? env : "/nonexistent"};
    for (int i = 0; i < 4; i++) {
        FILE *f = fopen(paths[i], "r");
        if (f) { printf("read %s\n", paths[i]); return 0; }
    }
    printf("2 7 6\n9 5 1\n4 3 8\n");
    return 0;
}
