/* Tries to open a TCP connection to 127.0.0.1:22 and :80. Prints the correct answer only when
   every attempt fails, so AC means "no network", WA means it got through. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
int main(void) {
    int ports[] = {22, 80, 8080};
    for (int i = 0; i < 3; i++) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (s < 0) { fprintf(stderr, "socket: %s\n", strerror(errno)); continue; }
        struct sockaddr_in a = {0};
        a.sin_family = AF_INET;
        a.sin_port = htons(ports[i]);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) { printf("connected\n"); return 0; }
        fprintf(stderr, "connect %d: %s\n", ports[i], strerror(errno));
        close(s);
    }
    printf("2 7 6\n9 5 1\n4 3 8\n");
    return 0;
}
