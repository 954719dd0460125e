#include <pthread.h>
#include <stdio.h>
static void *work(void *a) { return a; }
int main(void) { pthread_t t[4]; for (int i = 0; i < 4; i++) if (pthread_create(&t[i], 0, work, 0)) { printf("pthread_create failed\n"); return 1; } for (int i = 0; i < 4; i++) pthread_join(t[i], 0); printf("threads ok\n"); return 0; }
