/*
 * ht2.c - two threads at once, for nb_record --ht=yes (tests/record/t_nb_record.t):
 * the main thread and one other meet at a barrier, then each runs its own
 * loop of packed-single adds (addps) concurrently, main 3 * N, the other N
 * (N = argv[1], default 1000); nothing else in the program runs addps.
 * Under nbsim --ht=yes they run on the two logical processors.
 *
 * ht2 N chase: instead, each chases its own ring of 64 KB, a line apart
 * (every load misses the 8 or 16 KB L1D), main 3 * N loads, the other N,
 * each from its own function's one load (chase_main, chase_other).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_barrier_t go;

static __attribute__((noinline)) void spin_main(long n)
{
	__asm__ volatile("1: addps %%xmm1, %%xmm2\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc", "xmm2");
}

static __attribute__((noinline)) void spin_other(long n)
{
	__asm__ volatile("1: addps %%xmm1, %%xmm3\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc", "xmm3");
}

#define RING (64 * 1024 / sizeof(void *))
#define LINE (64 / sizeof(void *))
static void *ring_main[RING], *ring_other[RING];
static int chase;

static void ring_init(void **r)
{
	for (size_t i = 0; i < RING; i += LINE)
		r[i] = &r[(i + LINE) % RING];
}

static __attribute__((noinline)) void *chase_main(void **p, long n)
{
	__asm__ volatile("1: mov (%0), %0\n\tdec %1\n\tjnz 1b" : "+r"(p), "+r"(n) : : "cc", "memory");
	return p;
}

static __attribute__((noinline)) void *chase_other(void **p, long n)
{
	__asm__ volatile("1: mov (%0), %0\n\tdec %1\n\tjnz 1b" : "+r"(p), "+r"(n) : : "cc", "memory");
	return p;
}

static void *other(void *arg)
{
	pthread_barrier_wait(&go);
	if (chase)
		chase_other(ring_other, (long)arg);
	else
		spin_other((long)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	pthread_t t;

	chase = argc > 2 && !strcmp(argv[2], "chase");
	ring_init(ring_main);
	ring_init(ring_other);

	pthread_barrier_init(&go, NULL, 2);
	if (pthread_create(&t, NULL, other, (void *)n))
		return 1;
	pthread_barrier_wait(&go);
	if (chase)
		chase_main(ring_main, 3 * n);
	else
		spin_main(3 * n);
	pthread_join(t, NULL);
	return 0;
}
