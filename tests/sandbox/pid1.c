/* Prints what a run can read of pid 1 of its pid namespace, each file as `name: bytes` on a
 * line of its own (NULs shown as spaces; `-` when it cannot be read). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    const char *files[] = {"/proc/1/cmdline", "/proc/1/environ", "/proc/1/comm",
                           "/proc/1/task/1/cmdline", "/proc/1/task/1/environ",
                           "/proc/1/task/1/comm"};
    static char buf[1 << 16];
    for (unsigned i = 0; i < sizeof files / sizeof *files; i++) {
        int fd = open(files[i], O_RDONLY);
        printf("%s: ", files[i]);
        if (fd < 0) {
            printf("-\n");
            continue;
        }
        ssize_t n, total = 0;
        while ((n = read(fd, buf + total, sizeof buf - 1 - total)) > 0) total += n;
        close(fd);
        for (ssize_t j = 0; j < total; j++) putchar(buf[j] ? buf[j] : ' ');
        putchar('\n');
    }
    return 0;
}
