/* A 512 MiB initialised static array (BAPCtools' test-memstatic.cc): the binary holds it, so
   it is over 512 MiB. Under the 1 GiB compile file-size limit it compiles; it touches one
   page and prints a wrong answer. */
#include <stdio.h>
char a[512 << 20] = {1};
int main(void) {
    a[10] = -1;
    printf("%d\n", a[0] + a[10]);
    return 0;
}
