/*
 * barrier.c - the lockstep's cost on natural two-thread code (not a test;
 * docs/bench-log.md): two threads run ROUNDS rounds of an integer loop
 * (WORK iterations, the second thread a quarter more, so that one waits),
 * each round ended by a pthread_barrier_wait: no spinning, every meeting a
 * futex wait and wake.  Prints a sum to keep the work.
 *
 *   barrier [ROUNDS [WORK]]          (default 400 20000)
 *
 * Built by hand: cc -O2 -pthread -o barrier sim/bench/barrier.c; timed
 * as nbsim -- barrier against nbsim --nbsim-lockstep=no -- barrier.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_barrier_t bar;
static long rounds = 400, work = 20000;
static uint64_t out[2];

static void *run(void *arg)
{
	int t = (int)(intptr_t)arg;
	uint64_t x = 12345 + (uint64_t)t, s = 0;

	for (long r = 0; r < rounds; r++) {
		long n = work + (t ? work / 4 : 0);

		for (long i = 0; i < n; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			s += (x >> 33) & 0xff ? x >> 60 : 1;
		}
		pthread_barrier_wait(&bar);
	}
	out[t] = s;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;

	if (argc > 1)
		rounds = atol(argv[1]);
	if (argc > 2)
		work = atol(argv[2]);
	pthread_barrier_init(&bar, NULL, 2);
	if (pthread_create(&th, NULL, run, (void *)1))
		return 1;
	run((void *)0);
	pthread_join(th, NULL);
	printf("%llu\n", (unsigned long long)(out[0] + out[1]));
	return 0;
}
