/* view: reports what of the host the program can see, one `name:result` line each. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void can_open(const char *name, const char *path) {
    FILE *f = fopen(path, "r");
    printf("%s:%s\n", name, f ? "visible" : strerror(errno));
    if (f) fclose(f);
}
int main(void) {
    can_open("cgroups", "/sys/fs/cgroup/memory/memory.limit_in_bytes");
    can_open("cgroup2", "/sys/fs/cgroup/cgroup.procs");
    can_open("passwd", "/etc/passwd");
    can_open("hostname", "/etc/hostname");
    can_open("run", "/run");
    can_open("home", "/root");
    /* Processes visible in /proc: only the run's own. */
    int procs = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) if (e->d_name[0] >= '0' && e->d_name[0] <= '9') procs++;
    printf("procs:%d\n", procs);
    /* Mount points: nothing of the host's tree. */
    FILE *m = fopen("/proc/self/mountinfo", "r");
    char line[1024];
    int host = 0;
    while (m && fgets(line, sizeof line, m)) if (strstr(line, "cgroup") || strstr(line, " /root")) host++;
    printf("host-mounts:%d\n", host);
    /* Runtimes still work: the loader cache and /dev/null are there. */
    can_open("ld.so.cache", "/etc/ld.so.cache");
    FILE *n = fopen("/dev/null", "w");
    printf("devnull:%s\n", n && fputs("x", n) >= 0 ? "ok" : strerror(errno));
    printf("tmp:%s\n", access("/tmp", W_OK) == 0 ? "writable" : strerror(errno));
    return 0;
}
