#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
/* sibling MARKER_PATH: starts a sibling with clone(CLONE_PARENT) (its parent is the program's
   parent, not the program), which sleeps and then creates MARKER_PATH; the program exits. */
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    long p = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
    if (p < 0) { printf("clone failed: %s\n", strerror(errno)); return 0; }
    if (p == 0) { usleep(700000); int fd = open(argv[1], O_CREAT | O_WRONLY, 0666); if (fd >= 0) write(fd, "x", 1); return 0; }
    printf("sibling started\n");
    return 0;
}
