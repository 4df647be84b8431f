/*
 * t_determ.c - the workload of t_determ.sh: counted whole by nb_stat,
 * its counts must not depend on the host (its load, its scheduling).
 *
 *   t_determ 1    one thread: a branchy integer loop over a table, calls
 *                 into libc (qsort, malloc, memcpy), a few system calls
 *   t_determ 2    the same work split between two threads that meet at
 *                 a barrier, take turns on a mutex, signal each other
 *                 through a condition variable, yield, and are joined
 *
 * No clock is read and nothing depends on which thread gets somewhere
 * first, so on hardware without noise every count would be the same in
 * every run; under nbsim they must be (docs/threads.md "Lockstep").
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 10000

static pthread_barrier_t bar;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int turn;                /* whose turn on the condition variable */
static uint64_t shared;

static int cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t work(unsigned seed, unsigned n)
{
	uint32_t *t = malloc(n * sizeof *t), *u = malloc(n * sizeof *u);
	uint64_t x = seed * 2654435761u + 1, s = 0;

	if (!t || !u)
		abort();
	for (unsigned i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		t[i] = (uint32_t)x;
		s += (x & 1) ? t[i / 2] : t[i] >> 3;
	}
	memcpy(u, t, n * sizeof *t);
	qsort(u, n, sizeof *u, cmp);
	for (unsigned i = 0; i < n; i += 97)
		s += u[i];
	free(t);
	free(u);
	return s;
}

static void *second(void *arg)
{
	uint64_t s;

	(void)arg;
	pthread_barrier_wait(&bar);
	s = work(2, N / 2);
	for (int r = 0; r < 20; r++) {
		pthread_mutex_lock(&mu);
		while (turn != 1)
			pthread_cond_wait(&cv, &mu);
		shared += s + (uint64_t)r;
		turn = 0;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&mu);
		sched_yield();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 1;
	pthread_t th;
	uint64_t s;

	if (getpid() <= 0)
		return 1;
	if (threads < 2) {
		s = work(1, N / 2) + work(2, N / 2);
		printf("%llu\n", (unsigned long long)s);
		return 0;
	}
	if (pthread_barrier_init(&bar, NULL, 2) || pthread_create(&th, NULL, second, NULL))
		return 1;
	pthread_barrier_wait(&bar);
	s = work(1, N / 2);
	for (int r = 0; r < 20; r++) {
		pthread_mutex_lock(&mu);
		while (turn != 0)
			pthread_cond_wait(&cv, &mu);
		shared += s;
		turn = 1;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&mu);
	}
	pthread_mutex_lock(&mu);
	while (turn != 0)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	pthread_join(th, NULL);
	printf("%llu\n", (unsigned long long)shared);
	return 0;
}
