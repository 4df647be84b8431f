/* threads: thread i (0: main) runs ITER*(i+1) packed-single adds (addps),
 * which nothing else in the process executes (libc's SIMD is integer), so
 * each thread's packed_SP_uop count is exactly ITER*(i+1) and the total
 * ITER*(1+2+3).  Usage: threads ITER */
#include <pthread.h>
#include <stdlib.h>

#define T 3

static void spin(long n)
{
	__asm__ volatile("1: addps %%xmm1, %%xmm2\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc", "xmm2");
}

static void *body(void *arg)
{
	spin((long)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	long iter = argc > 1 ? atol(argv[1]) : 1000;
	pthread_t t[T];

	for (long i = 1; i < T; i++) {
		if (pthread_create(&t[i], NULL, body, (void *)(iter * (i + 1))))
			return 1;
		pthread_join(t[i], NULL);      /* one at a time: rows in creation order */
	}
	spin(iter);
	return 0;
}
