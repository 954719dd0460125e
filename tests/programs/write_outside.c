/* Tries to create files outside its working directory; prints the correct answer only if every
   attempt fails (AC = contained, WA = escaped). Writing inside the working directory and in /tmp
   must work: both are the run's private scratch space, which the test checks never reaches the
   host's /tmp. */
#include <stdio.h>
int main(void) {
    const char *outside[] = {"/root/judge-escape-marker", "/etc/judge-escape-marker",
                             "/dev/shm/judge-escape-marker", "/var/tmp/judge-escape-marker",
                             "/usr/judge-escape-marker", "/proc/judge-escape-marker"};
    for (int i = 0; i < 6; i++) {
        FILE *f = fopen(outside[i], "w");
        if (f) { fprintf(f, "escaped\n"); fclose(f); printf("escaped to %s\n", outside[i]); return 0; }
    }
    FILE *in = fopen("scratch.txt", "w");
    if (!in) { printf("cannot write my own working directory\n"); return 0; }
    fclose(in);
    FILE *tmp = fopen("/tmp/judge-escape-marker", "w");
    if (!tmp) { printf("cannot write my own /tmp\n"); return 0; }
    fclose(tmp);
    printf("2 7 6\n9 5 1\n4 3 8\n");
    return 0;
}
