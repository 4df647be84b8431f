/*
 * tmwalk - the timing model's schedule alone, natively (not a test): the
 * host nanoseconds per uop entry (real uops and the renaming pseudo-uops
 * NB_TM_COPY / NB_TM_LAT) of nb_tm_walk and of the replay of recorded
 * schedules (nb_tm_memo_walk), on three block shapes: the per-entry cost
 * that `bench branchy` pays 245 M times in 4 M iterations, measured in a
 * second instead of through valgrind (sim/README "Timing model", Speed).
 *
 *   branchy  8 entries: 4 real uops (ALU, one load), 3 LAT, 1 COPY, random
 *            sources among 16 registers, a misprediction every 8 runs (a
 *            superblock of bench branchy, as nb_tmbuild.c makes them);
 *   chain    16 ALU uops, each reading the last one's result;
 *   loads    12 independent loads and 4 ALU uops adding them up.
 *
 *   tmwalk [RUNS]     (default 4000000 runs of each block)
 *
 * Prints per shape: ns per entry with the walk, with the replay, and the
 * clock's cycles (equal: the replay is exact), CPU time (CLOCK_PROCESS_
 * CPUTIME_ID), best of 3.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "timing/nb_tmmemo.h"

#define MAXU 32

struct shape {
	const char *name;
	struct nb_tm_uop u[MAXU];
	uint16_t s[MAXU * 8];
	uint32_t real[MAXU + 1];
	struct nb_tm_block b;
	unsigned misp_every;
};

static uint64_t rng = 88172645463325252ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void add(struct shape *h, unsigned cls, unsigned ld, unsigned ns, const uint16_t *src,
		unsigned nd, const uint16_t *dst)
{
	struct nb_tm_uop *u = &h->u[h->b.n++];

	u->cls = (uint8_t)cls;
	u->ld = (uint8_t)ld;
	u->nsrc = (uint8_t)ns;
	u->ndst = (uint8_t)nd;
	u->slot = h->b.nslots;
	for (unsigned i = 0; i < ns; i++)
		h->s[h->b.nslots++] = src[i];
	for (unsigned i = 0; i < nd; i++)
		h->s[h->b.nslots++] = dst[i];
}

static void finish(struct shape *h)
{
	h->b.u = h->u;
	h->b.slots = h->s;
	h->b.real = h->real;
	h->real[0] = 0;
	for (unsigned i = 0; i < h->b.n; i++)
		h->real[i + 1] = h->real[i] + (h->u[i].cls != NB_TM_COPY && h->u[i].cls != NB_TM_LAT);
}

static void make_shapes(struct shape *h)
{
	uint16_t a[2], d[2];

	h[0].name = "branchy";
	h[0].misp_every = 8;
	for (unsigned i = 0; i < 8; i++) {
		unsigned cls = i == 7 ? NB_TM_COPY : i % 2 ? NB_TM_LAT : i == 2 ? NB_TM_LOAD : NB_TM_ALU;
		a[0] = (uint16_t)rnd(16);
		a[1] = (uint16_t)rnd(16);
		d[0] = (uint16_t)rnd(16);
		d[1] = (uint16_t)(NB_TM_SCR + rnd(64));
		add(&h[0], cls, cls == NB_TM_LAT ? NB_TM_ALU : cls == NB_TM_LOAD ? 1 : 0, 2, a, 2, d);
	}
	h[1].name = "chain";
	for (unsigned i = 0; i < 16; i++) {
		a[0] = 1;
		d[0] = 1;
		add(&h[1], NB_TM_ALU, 0, 1, a, 1, d);
	}
	h[2].name = "loads";
	for (unsigned i = 0; i < 12; i++) {
		a[0] = 2;
		d[0] = (uint16_t)(NB_TM_SCR + i);
		add(&h[2], NB_TM_LOAD, i + 1, 1, a, 1, d);
	}
	for (unsigned i = 0; i < 4; i++) {
		a[0] = (uint16_t)(NB_TM_SCR + 3 * i);
		a[1] = 3;
		d[0] = 3;
		add(&h[2], NB_TM_ALU, 0, 2, a, 1, d);
	}
	for (unsigned i = 0; i < 3; i++)
		finish(&h[i]);
}

static struct nb_tm clk;

/* ns per entry of `runs` runs of h (memo: the replay); the cycles */
static double run(const struct shape *h, unsigned long runs, int memo, uint64_t *cycles)
{
	struct timespec a, b;

	nb_tm_memo_flush();
	nb_tm_init(&clk, nb_tm_params_for(3), 31);
	clk.memo.on = (unsigned)memo;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	for (unsigned long i = 0; i < runs; i++) {
		if (memo)
			nb_tm_memo_walk(&clk, &h->b, 0, h->b.n);
		else
			nb_tm_walk(&clk, &h->b, 0, h->b.n);
		nb_tm_misp(&clk, h->misp_every ? i / h->misp_every : 0, 0);
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	*cycles = nb_tm_serialize(&clk);
	if (getenv("TMWALK_STATS") && memo)
		fprintf(stderr, "%s: runs %llu replayed %llu fast-forwarded %llu\n", h->name, (unsigned long long)clk.memo.runs, (unsigned long long)clk.memo.hits, (unsigned long long)clk.memo.ffs);
	return ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) /
		((double)runs * h->b.n);
}

int main(int argc, char **argv)
{
	static struct shape h[3];
	unsigned long runs = argc > 1 ? strtoul(argv[1], NULL, 10) : 4000000;

	if (!runs) {
		fprintf(stderr, "usage: tmwalk [RUNS > 0]\n");
		return 2;
	}
	make_shapes(h);
	printf("timing model schedule, natively, Prescott, %lu runs per shape, best of 3 (ns per uop entry)\n",
	       runs);
	printf("%-8s %7s %8s %8s %14s\n", "shape", "entries", "walk", "replay", "cycles");
	for (unsigned i = 0; i < 3; i++) {
		double w = 1e30, m = 1e30;
		uint64_t cw = 0, cm = 0;
		for (unsigned r = 0; r < 3; r++) {
			double x = run(&h[i], runs, 0, &cw), y = run(&h[i], runs, 1, &cm);
			w = x < w ? x : w;
			m = y < m ? y : m;
		}
		printf("%-8s %7u %8.2f %8.2f %14llu%s\n", h[i].name, h[i].b.n, w, m,
		       (unsigned long long)cw, cw == cm ? "" : " (replay's cycles differ!)");
		if (cw != cm)
			return 1;
	}
	return 0;
}
