/*
 * ht2.c - two threads at once, for nb_record --ht=yes (tests/record/t_nb_record.t):
 * the main thread and one other meet at a barrier, then each runs its own
 * loop of packed-single adds (addps) concurrently, main 3 * N, the other N
 * (N = argv[1], default 1000); nothing else in the program runs addps.
 * Under nbsim --ht=yes they run on the two logical processors.
 */
#include <pthread.h>
#include <stdlib.h>

static pthread_barrier_t go;

static __attribute__((noinline)) void spin_main(long n)
{
	__asm__ volatile("1: addps %%xmm1, %%xmm2\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc", "xmm2");
}

static __attribute__((noinline)) void spin_other(long n)
{
	__asm__ volatile("1: addps %%xmm1, %%xmm3\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc", "xmm3");
}

static void *other(void *arg)
{
	pthread_barrier_wait(&go);
	spin_other((long)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	pthread_t t;

	pthread_barrier_init(&go, NULL, 2);
	if (pthread_create(&t, NULL, other, (void *)n))
		return 1;
	pthread_barrier_wait(&go);
	spin_main(3 * n);
	pthread_join(t, NULL);
	return 0;
}
