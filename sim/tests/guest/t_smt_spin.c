/*
 * t_smt_spin.c - a thread that spins on a flag without PAUSE beside one
 * that works (tests/sim/t_sim_spin.t).  Two threads released by a
 * barrier: the main thread runs a bounded loop (ITER iterations, a
 * dependent addsd chain, no memory access); the other loops reading a
 * volatile flag until the main thread sets it (mode 1), or runs the
 * same bounded loop (mode 0).  Prints the main thread's cycles and
 * instructions of its loop (counted by nb_stat --per-thread around the
 * whole thread; the loop is nearly all of it).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#define ITER 600000L

static pthread_barrier_t b;
static volatile double sink;
static volatile int stop;
static int mode;

static void *work(void *a)
{
	double s = 0;

	(void)a;
	pthread_barrier_wait(&b);
	if (mode)
		for (long i = 0; !stop; i++)
			s += (double)(i & 1023) * 0.5;
	else
		for (long i = 0; i < ITER; i++)
			s += (double)(i & 1023) * 0.5;
	sink = s;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	double s = 0;

	mode = argc > 1 ? atoi(argv[1]) : 0;
	pthread_barrier_init(&b, NULL, 2);
	if (mode >= 0 && pthread_create(&t, NULL, work, NULL))
		return 2;
	if (mode >= 0)
		pthread_barrier_wait(&b);
	for (long i = 0; i < ITER; i++)
		s += (double)(i & 511) * 0.25;
	sink = s;
	stop = 1;
	if (mode >= 0)
		pthread_join(t, NULL);
	return 0;
}
