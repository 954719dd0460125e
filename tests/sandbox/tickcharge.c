/* Runs briefly across every scheduler tick and sleeps in between, so the kernel's tick-sampled
 * CPU time (what RLIMIT_CPU counts) runs several times ahead of the CPU time it really uses
 * (what judge measures), as stolen time on a busy virtual machine does. It never stops on its
 * own: a run of it ends by a limit. The tick length is the resolution of the coarse clock. */
#include <time.h>

static long now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

int main(void) {
    struct timespec res;
    long tick = 4000000;
    if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 && res.tv_sec == 0 && res.tv_nsec >= 100000)
        tick = res.tv_nsec;
    long before = tick / 20, after = tick / 20;
    for (;;) {
        long next = (now() / tick + 1) * tick;
        struct timespec wake = {(next - before) / 1000000000L, (next - before) % 1000000000L};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, 0);
        while (now() < next + after) {
        }
    }
}
