/*
 * t_smt_sampled.c - a workload for the sampled clock under Hyper-Threading
 * (t_smt_sampled.sh, nbsim --ht=yes): two threads, the main thread on LP0
 * and one on LP1, released together by a barrier (no spinning), each runs
 * REGIONS regions of t_sampled.c's mixed kernel (LCG-driven branches, a
 * chase through 256 KB: L1D misses, L2 hits; a pass over 4 MB with a
 * stride of 4 KB: memory misses; an x87 add chain) on data of its own,
 * counting its own cycles and uops_retired NBOGUS (per-thread counters
 * on its LP's half of the PMU, smt_count.h), and prints them:
 *   lp L cycles C uops U
 * Both threads run for most of the interval, so the package is shared
 * for most of it.  Not TAP.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include "guest.h"
#include "randcycle.h"
#include "smt_count.h"

#define RING    (256u * 1024u / 64u)    /* 256 KB of 64-byte nodes */
#define BIG     (4u << 20)              /* 4 MB                    */
#define REGIONS 16
#define ITERS   40000

/* each thread's data, static: the same addresses whatever the tool's
 * options (t_sampled.c) */
struct lpdata {
	void *ring[RING * 8];
	unsigned char big[BIG];
	uint32_t perm[RING];
	uint64_t x;
	double f;
	uint64_t cyc, uops, sum;
	int ok, cpu;
};

static struct lpdata lpd[2];
static pthread_barrier_t start;

static uint64_t region(struct lpdata *d, void **q, unsigned r)
{
	uint64_t sum = 0;
	void *p = *q;

	for (unsigned it = 0; it < ITERS; it++) {
		d->x = d->x * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned v = (unsigned)(d->x >> 40);
		switch (v & 3) {
		case 0: sum += v; break;
		case 1: sum ^= v << 3; break;
		case 2: p = *(void **)p; break;
		default: d->f += 1.5; break;
		}
		if ((it & 15) == 0)
			sum += d->big[((size_t)(it / 16) * 4096 + r * 64) % BIG];
	}
	*q = p;
	return sum;
}

static void run(unsigned me)
{
	struct lpdata *d = &lpd[me];
	void **q = &d->ring[0];

	pthread_barrier_wait(&start);
	d->cpu = sched_getcpu();
	if (!smt_count_start())
		return;
	for (unsigned r = 0; r < REGIONS; r++)
		d->sum += region(d, (void **)&q, r);
	d->ok = smt_count_stop(&d->cyc, &d->uops);
}

static void *lp1_main(void *arg)
{
	(void)arg;
	run(1);
	return NULL;
}

int main(void)
{
	pthread_t th;

	if (!nbsim_present())
		return 2;
	for (unsigned l = 0; l < 2; l++) {
		struct lpdata *d = &lpd[l];

		memset(d->big, 1, BIG);
		nb_random_order(d->perm, RING, 42 + l);
		for (unsigned i = 0; i < RING; i++)
			d->ring[d->perm[i] * 8] = &d->ring[d->perm[(i + 1) % RING] * 8];
		d->x = 42 + l;
		d->f = 1.0;
	}
	if (pthread_barrier_init(&start, NULL, 2) || pthread_create(&th, NULL, lp1_main, NULL))
		return 3;
	run(0);
	pthread_join(th, NULL);
	for (unsigned l = 0; l < 2; l++) {
		if (!lpd[l].ok)
			return 4;
		printf("lp %d cycles %llu uops %llu\n", lpd[l].cpu, (unsigned long long)lpd[l].cyc,
		       (unsigned long long)lpd[l].uops);
	}
	printf("checksum %llu %llu %g %g\n", (unsigned long long)lpd[0].sum,
	       (unsigned long long)lpd[1].sum, lpd[0].f, lpd[1].f);
	return 0;
}
