#include <stdio.h>
#include <string.h>
int main(void) { char b[1024]; memset(b, 'e', sizeof b); for (int i = 0; i < 4096; i++) fwrite(b, 1, sizeof b, stderr); printf("done\n"); return 0; }
