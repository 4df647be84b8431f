/*
 * t_pause.c - two threads that meet at a barrier of their own, spinning
 * on a flag with PAUSE as a spin-wait should (tests/sim/t_sim_pause.t).
 * Their rounds of work are of unequal length, so under --ht=yes one
 * thread spins at the barrier while the other works, through many of the
 * lockstep's turns: the PAUSEs that nbsim's lockstep decides in place
 * (nb_lockstep.c nb_ls_pause) instead of through valgrind's scheduler.
 *
 *   t_pause [ROUNDS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static volatile int arrived, sense;
static double buf[2][N];
static double sums[2];
static int rounds = 40;

/* a sense-reversing barrier of two, spinning with PAUSE */
static void meet(int *mine)
{
	*mine = !*mine;
	if (__atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL) == 2) {
		arrived = 0;
		__atomic_store_n(&sense, *mine, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&sense, __ATOMIC_ACQUIRE) != *mine)
		__builtin_ia32_pause();
}

static void *run(void *arg)
{
	int me = (int)(long)arg, mine = 0;
	double s = 0;

	for (int r = 0; r < rounds; r++) {
		/* thread 1 works 3 passes a round, thread 0 one: 0 spins */
		for (int p = 0; p < 1 + 2 * me; p++)
			for (int i = 0; i < N; i++)
				s += buf[me][i] = buf[me][i] * 0.5 + (double)(i ^ r);
		meet(&mine);
	}
	sums[me] = s;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	rounds = argc > 1 ? atoi(argv[1]) : rounds;
	/* thread 1 the new one, thread 0 this one */
	if (pthread_create(&t, NULL, run, (void *)1L) != 0)
		return 1;
	run(NULL);
	pthread_join(t, NULL);
	printf("%.6g\n", sums[0] + sums[1]);
	return 0;
}
