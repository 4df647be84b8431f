/*
 * t_smt_lock.c - Hyper-Threading in simulated time (TAP; run by
 * t_smt_lock.sh under nbsim --model=northwood --ht=yes): two threads
 * released together by a pthread barrier, neither spinning, each
 * counting its own cycles and uops around the same kernel, as a user
 * program would.  Their figures must be a property of the program, not
 * of how valgrind and the host happen to schedule the two threads
 * (docs/threads.md, "Lockstep").
 *
 * Kernels (kernels.h): s_l1_miss, Sprunt's l1_miss (every load misses
 * the L1D and hits the L2), each thread on its own 64 KB-aligned buffer
 * (the same L1D alias classes: two instances of one program); c_fadd,
 * Sprunt's fp_add_latency (32 dependent x87 fadds).  Sprunt 2002 (seed
 * 000, "Benchmark results"): l1_miss 1.23 uops per cycle alone, 0.65
 * combined in two threads; fp_add_latency 0.21 alone, 0.41 combined.
 *
 * Checks, for each kernel and each start order (which thread reaches the
 * barrier first and waits in the kernel for the other):
 *  - the two threads' cycles within 10% of each other;
 *  - each thread's cycles within 10% of the other start order's;
 *  - l1_miss: the two together retire no more uops per cycle than one
 *    alone (the L1D and the load port are shared);
 *  - fp_add_latency: the two together nearly double one alone (at least
 *    1.8 times; the adder is pipelined, the chain's latency is not).
 * And the front-side bus, the package's: the two threads, released by
 * the barrier, each copy a buffer twice the L2 (rep movsb, 1 MB from
 * memory to memory: 3 bytes on the bus a byte copied, the source's read
 * and the destination's read for ownership and writeback); together they
 * move at most the bus's bytes per cycle (8 bytes x 800 MT/s at 2.8 GHz,
 * 2.286: sim/cpu/nb_bus.c; 2% over it allowed: HT's profile of the other
 * LP lags one segment, nb_smt.h, so the copies' start can overbook it,
 * and where they start moves with the program's layout: 2.260 to 2.312,
 * 1.1% over, over 60 sizes of the environment) and at least 90% of them
 * (one copy alone is bound by the bus, t_measured).
 * With a file argument, the figures are also written to it (first run)
 * or compared with those in it (second run, t_smt_lock.sh: the other
 * LD_BIND_NOW setting), each within 10%.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "guest.h"
#include "kernels.h"
#include "smt_count.h"


#define WARM 2000
#define DELAY 20000             /* the late thread's adds before the barrier */

struct kern {
	const char *name;
	guest_kern_fn fn;
	uint64_t n;             /* iterations measured */
};

static const struct kern kerns[2] = {
	{ "l1_miss", s_l1_miss, 20000 },
	{ "fp_add_latency", c_fadd, 4000 },
};

struct run {
	const struct kern *k;
	unsigned late;          /* the thread that reaches the barrier last */
	pthread_barrier_t bar;
	uint64_t cyc[2], uops[2];
	int ok[2];
};

static void measure(struct run *r, unsigned me)
{
	char *buf = fresh(8 * 8192 + 65536);
	char *p = (char *)(((uintptr_t)buf + 65535) & ~(uintptr_t)65535);

	r->k->fn(p, WARM);
	if (me == r->late)
		t_add(NULL, DELAY);
	pthread_barrier_wait(&r->bar);
	r->ok[me] = smt_count_start();
	r->k->fn(p, r->k->n);
	r->ok[me] &= smt_count_stop(&r->cyc[me], &r->uops[me]);
	free(buf);
}

static void *thread1(void *arg)
{
	measure(arg, 1);
	return NULL;
}

static int pair(struct run *r)
{
	pthread_t th;

	if (pthread_barrier_init(&r->bar, NULL, 2) || pthread_create(&th, NULL, thread1, r))
		return 0;
	measure(r, 0);
	pthread_join(th, NULL);
	pthread_barrier_destroy(&r->bar);
	return r->ok[0] && r->ok[1];
}

/* the copies from memory: each thread its own source and destination
 * of STREAM_B bytes, untouched (no line in a cache) */
#define STREAM_B (1u << 20)
#define FSB (8 * 800 / 2800.0)  /* bytes per cycle: 800 MT/s at 2.8 GHz */

struct stream {
	pthread_barrier_t bar;
	char *src[2], *dst[2];
	uint64_t cyc[2], uops[2];
	int ok[2];
};

static void stream_one(struct stream *r, unsigned me)
{
	char *s = r->src[me], *d = r->dst[me];
	uint64_t c = STREAM_B;

	pthread_barrier_wait(&r->bar);
	r->ok[me] = smt_count_start();
	__asm__ volatile("cld; rep movsb" : "+S"(s), "+D"(d), "+c"(c) : : "memory");
	r->ok[me] &= smt_count_stop(&r->cyc[me], &r->uops[me]);
}

static void *stream1(void *arg)
{
	stream_one(arg, 1);
	return NULL;
}

/* the two copies at once: the package's bytes on the bus per cycle over
 * the longer thread's cycles (0 on failure) */
static double stream_pair(uint64_t cyc[2])
{
	static struct stream r;
	pthread_t th;

	for (unsigned t = 0; t < 2; t++) {
		r.src[t] = aligned_alloc(4096, STREAM_B);
		r.dst[t] = aligned_alloc(4096, STREAM_B);
		if (!r.src[t] || !r.dst[t])
			return 0;
	}
	if (pthread_barrier_init(&r.bar, NULL, 2) || pthread_create(&th, NULL, stream1, &r))
		return 0;
	stream_one(&r, 0);
	pthread_join(th, NULL);
	pthread_barrier_destroy(&r.bar);
	cyc[0] = r.cyc[0];
	cyc[1] = r.cyc[1];
	if (!r.ok[0] || !r.ok[1] || !cyc[0] || !cyc[1])
		return 0;
	return 3.0 * 2 * STREAM_B / (double)(cyc[0] > cyc[1] ? cyc[0] : cyc[1]);
}

/* uops per cycle of one thread alone (no other thread alive) */
static double alone(const struct kern *k)
{
	char *buf = fresh(8 * 8192 + 65536);
	char *p = (char *)(((uintptr_t)buf + 65535) & ~(uintptr_t)65535);
	uint64_t c = 0, u = 0;

	k->fn(p, WARM);
	if (!smt_count_start())
		return 0;
	k->fn(p, k->n);
	if (!smt_count_stop(&c, &u))
		return 0;
	free(buf);
	return c ? (double)u / (double)c : 0;
}

/* the figures: per kernel, per start order (late thread 1, then 0), per
 * thread: cycles and uops; and each kernel alone */
struct figs {
	double alone[2];
	uint64_t cyc[2][2][2], uops[2][2][2];
};

static int within(double a, double b, double tol)
{
	double hi = a > b ? a : b, lo = a > b ? b : a;
	return hi > 0 && (hi - lo) <= tol * hi;
}

static double combined(const struct figs *f, unsigned k, unsigned o)
{
	return (double)f->uops[k][o][0] / (double)f->cyc[k][o][0] +
		(double)f->uops[k][o][1] / (double)f->cyc[k][o][1];
}

static void checks(const struct figs *f, const char *which)
{
	for (unsigned k = 0; k < 2; k++) {
		for (unsigned o = 0; o < 2; o++)
			tap_ok(within((double)f->cyc[k][o][0], (double)f->cyc[k][o][1], 0.10),
			       "%s%s, thread %u reaches the barrier last: cycles LP0 %llu, LP1 %llu "
			       "(within 10%%)", which, kerns[k].name, o ? 0u : 1u,
			       (unsigned long long)f->cyc[k][o][0], (unsigned long long)f->cyc[k][o][1]);
		tap_ok(within((double)f->cyc[k][0][0], (double)f->cyc[k][1][0], 0.10) &&
		       within((double)f->cyc[k][0][1], (double)f->cyc[k][1][1], 0.10),
		       "%s%s, the start order reversed: LP0 %llu / %llu, LP1 %llu / %llu cycles "
		       "(within 10%%)", which, kerns[k].name,
		       (unsigned long long)f->cyc[k][0][0], (unsigned long long)f->cyc[k][1][0],
		       (unsigned long long)f->cyc[k][0][1], (unsigned long long)f->cyc[k][1][1]);
	}
	tap_ok(combined(f, 0, 0) <= f->alone[0] && combined(f, 0, 1) <= f->alone[0],
	       "%sl1_miss, two threads: combined %.3f and %.3f uops/cycle (both orders), no more "
	       "than one alone %.3f (Sprunt: 0.65 against 1.23)", which, combined(f, 0, 0),
	       combined(f, 0, 1), f->alone[0]);
	tap_ok(combined(f, 1, 0) >= 1.8 * f->alone[1] && combined(f, 1, 1) >= 1.8 * f->alone[1],
	       "%sfp_add_latency, two threads: combined %.3f and %.3f uops/cycle (both orders), at "
	       "least 1.8 times one alone %.3f (Sprunt: 0.41 against 0.21)", which,
	       combined(f, 1, 0), combined(f, 1, 1), f->alone[1]);
}

static int load(const char *path, struct figs *f)
{
	FILE *fp = fopen(path, "r");
	int n = 0;

	if (!fp)
		return 0;
	n += fscanf(fp, "%lf %lf", &f->alone[0], &f->alone[1]);
	for (unsigned k = 0; k < 2; k++)
		for (unsigned o = 0; o < 2; o++)
			for (unsigned t = 0; t < 2; t++)
				n += fscanf(fp, "%llu %llu", (unsigned long long *)&f->cyc[k][o][t],
					    (unsigned long long *)&f->uops[k][o][t]);
	fclose(fp);
	return n == 18;
}

static void save(const char *path, const struct figs *f)
{
	FILE *fp = fopen(path, "w");

	if (!fp)
		return;
	fprintf(fp, "%.6f %.6f\n", f->alone[0], f->alone[1]);
	for (unsigned k = 0; k < 2; k++)
		for (unsigned o = 0; o < 2; o++)
			for (unsigned t = 0; t < 2; t++)
				fprintf(fp, "%llu %llu\n", (unsigned long long)f->cyc[k][o][t],
					(unsigned long long)f->uops[k][o][t]);
	fclose(fp);
}

int main(int argc, char **argv)
{
	static struct run r;
	struct figs f, g;
	int have = 0, good = 1;

	if (!nbsim_present()) {
		printf("1..0 # SKIP needs nbsim\n");
		return 0;
	}
	if (argc > 1)
		have = load(argv[1], &g);
	tap_plan(have ? 21 : 11);
	memset(&f, 0, sizeof f);
	for (unsigned k = 0; k < 2; k++)
		f.alone[k] = alone(&kerns[k]);
	for (unsigned k = 0; k < 2; k++)
		for (unsigned o = 0; o < 2; o++) {
			memset(&r, 0, sizeof r);
			r.k = &kerns[k];
			r.late = o ? 0 : 1;
			good &= pair(&r);
			for (unsigned t = 0; t < 2; t++) {
				f.cyc[k][o][t] = r.cyc[t];
				f.uops[k][o][t] = r.uops[t];
			}
		}
	tap_ok(good, "the counters programmed and read in every run");
	checks(&f, "");
	{
		uint64_t c[2] = { 0, 0 };
		double bus = stream_pair(c);
		tap_ok(bus > 0 && bus <= FSB * 1.02, "two threads each copy 1 MB from memory at once: "
		       "%.3f bytes a cycle on the bus together (cycles %llu, %llu), at or under the "
		       "bus's %.3f (2%%)", bus, (unsigned long long)c[0], (unsigned long long)c[1], FSB);
		tap_ok(bus >= FSB * 0.9, "two threads copying at once: %.3f bytes a cycle on the bus, "
		       "at least 90%% of the bus's %.3f", bus, FSB);
	}
	if (have) {
		const char *env = getenv("LD_BIND_NOW");
		char which[64];
		snprintf(which, sizeof which, "LD_BIND_NOW %s: ", env && *env ? "unset" : "set");
		checks(&g, which);
		for (unsigned k = 0; k < 2; k++) {
			int same = 1;
			for (unsigned o = 0; o < 2; o++)
				for (unsigned t = 0; t < 2; t++)
					same &= within((double)f.cyc[k][o][t], (double)g.cyc[k][o][t], 0.10);
			tap_ok(same, "%s: each thread's cycles with LD_BIND_NOW set within 10%% of unset "
			       "(%llu %llu %llu %llu / %llu %llu %llu %llu)", kerns[k].name,
			       (unsigned long long)f.cyc[k][0][0], (unsigned long long)f.cyc[k][0][1],
			       (unsigned long long)f.cyc[k][1][0], (unsigned long long)f.cyc[k][1][1],
			       (unsigned long long)g.cyc[k][0][0], (unsigned long long)g.cyc[k][0][1],
			       (unsigned long long)g.cyc[k][1][0], (unsigned long long)g.cyc[k][1][1]);
		}
	} else if (argc > 1)
		save(argv[1], &f);
	return tap_done();
}
