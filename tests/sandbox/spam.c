#include <stdio.h>
int main(void) { for (;;) fputs("spam spam spam spam spam spam spam\n", stdout); }
