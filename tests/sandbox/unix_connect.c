/* unix_connect PATH: tries to reach a pathname Unix socket and send a message through it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s < 0) { printf("socket:%s\n", strerror(errno)); return 0; }
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    strncpy(a.sun_path, argv[1], sizeof a.sun_path - 1);
    if (connect(s, (struct sockaddr *)&a, sizeof a) < 0) { printf("connect:%s\n", strerror(errno)); return 0; }
    write(s, "escaped", 7);
    printf("connected\n");
    return 0;
}
