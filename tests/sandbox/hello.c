#include <stdio.h>
int main(void) { char buf[256]; if (fgets(buf, sizeof buf, stdin)) printf("read:%s", buf); printf("hello\n"); return 0; }
