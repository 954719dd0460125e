/* Prints what a run can read of pid 1 of its pid namespace, each file as `name: bytes` on a
 * line of its own (NULs shown as spaces; `-` when it cannot be read), then each of its links
 * (executable, working folder, root, open files) as `name: target`, or `name: -` when it
 * cannot be followed or listed. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    const char *files[] = {"/proc/1/cmdline", "/proc/1/environ", "/proc/1/comm",
                           "/proc/1/task/1/cmdline", "/proc/1/task/1/environ",
                           "/proc/1/task/1/comm", "/proc/1/mountinfo"};
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
    const char *links[] = {"/proc/1/exe", "/proc/1/cwd", "/proc/1/root", "/proc/1/fd/0"};
    for (unsigned i = 0; i < sizeof links / sizeof *links; i++) {
        ssize_t n = readlink(links[i], buf, sizeof buf - 1);
        buf[n < 0 ? 0 : n] = 0;
        printf("%s: %s\n", links[i], n < 0 ? "-" : buf);
    }
    const char *dirs[] = {"/proc/1/root/", "/proc/1/cwd/", "/proc/1/fd/"};
    for (unsigned i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        DIR *d = opendir(dirs[i]);
        printf("%s:", dirs[i]);
        if (!d) {
            printf(" -\n");
            continue;
        }
        struct dirent *e;
        while ((e = readdir(d))) printf(" %s", e->d_name);
        putchar('\n');
        closedir(d);
    }
    return 0;
}
