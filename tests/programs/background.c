/* Starts a child that tries to outlive the run: it detaches, renames itself and sleeps.
   The parent prints the correct answer and exits at once. */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>
int main(void) {
    pid_t p = fork();
    if (p == 0) {
        setsid();
        if (fork() == 0) {
            prctl(PR_SET_NAME, "judge-orphan");
            for (;;) sleep(1);
        }
        return 0;
    }
    printf("2 7 6\n9 5 1\n4 3 8\n");
    fflush(stdout);
    return 0;
}
