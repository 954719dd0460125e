int main(void) { volatile int *p = (int *)0; *p = 1; return 0; }
