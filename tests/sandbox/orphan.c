#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>
/* orphan MARKER_PATH: a background child sleeps, then creates MARKER_PATH; the parent exits at once. */
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    pid_t p = fork();
    if (p == 0) { setsid(); usleep(700000); int fd = open(argv[1], O_CREAT | O_WRONLY, 0666); if (fd >= 0) write(fd, "x", 1); return 0; }
    printf("parent exits\n");
    return 0;
}
