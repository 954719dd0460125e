#include <cstdio>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>
#include "plus.h"

// As NOI 2017 `avian`'s runner does: the contestant's function runs in a child process that
// writes its answer to a pipe (here from a thread of its own), and the grader waits for it.
int main() {
    long long a, b;
    if (std::scanf("%lld %lld", &a, &b) != 2) return 1;
    int fds[2];
    if (pipe(fds) != 0) return 1;
    pid_t pid = fork();
    if (pid < 0) {
        std::perror("fork");
        return 1;
    }
    if (pid == 0) {
        long long sum = 0;
        std::thread t([&] { sum = plus(a, b); });
        t.join();
        if (write(fds[1], &sum, sizeof sum) != sizeof sum) _exit(1);
        _exit(0);
    }
    close(fds[1]);
    long long sum;
    int status;
    if (read(fds[0], &sum, sizeof sum) != sizeof sum || waitpid(pid, &status, 0) != pid) {
        std::perror("the child");
        return 1;
    }
    std::printf("%lld\n", sum);
    return 0;
}
