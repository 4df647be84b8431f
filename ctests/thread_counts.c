/*
 * thread_counts.c - per-thread counts through the public PAPI API, as the
 * kernel gives them: nbsim saves and restores each guest thread's PMU
 * context when valgrind switches threads (sim/README.md "Per-thread
 * counting"), so each thread's event set counts its own thread only.
 *
 *   thread_counts NTHREADS        pthreads (this file built plain)
 *   thread_counts_omp NTHREADS    an OpenMP team (built with -fopenmp)
 *
 * Exact by the difference method: thread i runs the loop of nbdiff.h
 * (4 instructions, 1 taken branch per iteration) n1(i) and n2(i) times
 * between PAPI_reads, with sched_yield inside the measured intervals so
 * that the other threads run there; its differences must equal those of
 * the same work measured by the main thread alone before any thread
 * starts, and 4 x (n2 - n1), 1 x (n2 - n1).  The threads start counting
 * at different times (thread i yields i times first) and stop at
 * different times (different work).  pthreads only: a thread that exits
 * while its event set runs, and a thread created after it (a reused
 * valgrind ThreadId) counting exactly; then the sum of the threads' counts
 * against what a counter counting by CPU (PAPI_GRN_SYS) saw of the same
 * work done by threads that do not count, less the main thread's own
 * instructions (its own per-thread counter): exact (see by_cpu).
 */
#include <sched.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "nbthreads.h"

#define MAXT 16
#define N1 2000
#define N2 6000

static int nthreads;

struct res {
	long long d[NBT_NEV];
	unsigned lp;
	int err;
	char why[200];
};
static struct res res[MAXT + 2], alone[MAXT + 2];

static long n1_of(int i) { return N1 + 100L * i; }
static long n2_of(int i) { return N2 + 300L * i; }

/* The measurement of thread i's work (yield: let the others run inside
 * the intervals): d = (count over n2) - (count over n1), last of 4
 * rounds (the first ones warm up). */
static int measure(int es, int i, long long *d, int yield)
{
	long long v0[NBT_NEV], v1[NBT_NEV], v2[NBT_NEV];
	int e = PAPI_OK;

	for (int k = 0; k < 4; k++) {
		nbt_read(es, v0, &e);
		nbdiff_loop4(n1_of(i));
		if (yield)
			sched_yield();
		nbt_read(es, v1, &e);
		nbdiff_loop4(n2_of(i));
		if (yield)
			sched_yield();
		nbt_read(es, v2, &e);
	}
	for (int k = 0; k < NBT_NEV; k++)
		d[k] = (v2[k] - v1[k]) - (v1[k] - v0[k]);
	return e;
}

/* Thread i: its own event set, started after i yields. */
static void work(int i, int sync)
{
	struct res *r = &res[i];
	long long v[NBT_NEV];
	int es, e;

	r->lp = nbt_lp();
	if ((e = nbt_make_set(&es)) != PAPI_OK) {
		NBT_FAIL(r, "add", e);
		nbt_sync(sync);
		return;
	}
	nbt_sync(sync);
	for (int k = 0; k < i; k++)
		sched_yield();
	if ((e = PAPI_start(es)) != PAPI_OK)
		return NBT_FAIL(r, "PAPI_start", e);
	if ((e = measure(es, i, r->d, 1)) != PAPI_OK)
		return NBT_FAIL(r, "PAPI_read", e);
	if ((e = PAPI_stop(es, v)) != PAPI_OK)
		return NBT_FAIL(r, "PAPI_stop", e);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

#ifndef _OPENMP
static void *pt_worker(void *arg)
{
	work((int)(intptr_t)arg, 1);
	return NULL;
}

/* Exits while its event set counts. */
static void *quitter(void *arg)
{
	int es, e;

	(void)arg;
	if (nbt_make_set(&es) != PAPI_OK || (e = PAPI_start(es)) != PAPI_OK)
		return (void *)1;
	nbdiff_loop4(N2);
	sched_yield();
	nbdiff_loop4(N2);
	pthread_exit(NULL);
}

/* The sum against a counter counting by CPU: thread i counts its work
 * loop(n) in its own set (tot[r][i]) while the main thread's PAPI_GRN_SYS
 * set counts every thread on its logical processor. */
static unsigned tot_lp[MAXT];
/* thread i's loop length this round: a load in either round (a
 * `round ? n2 : n1` took one more instruction in one of them: 4 threads,
 * 4 instructions of residue) */
static long tot_n[MAXT];

static void *tot_worker(void *arg)
{
	int i = (int)(intptr_t)arg;

	tot_lp[i] = nbt_lp();
	nbdiff_loop4(tot_n[i]);
	return NULL;
}

/*
 * The main thread's own instructions, counted per thread beside its
 * by-CPU set: a second instr_retired counter programmed with nbsim's
 * client requests (no second PAPI set can run in one thread) on the CRU
 * ESCR and counter the by-CPU set does not use, with the by-CPU ESCR's
 * event and mask.  It is the main thread's context's (sim/README.md
 * "Per-thread counting"): it counts only while the main thread runs.
 */
static uint32_t own_ctr;

static void own_start(void)
{
	uint64_t cccr, ev = 0;
	uint32_t escr;
	int side = -1;

	/* the by-CPU set's counter: the one enabled (counters 12, 13, 16
	 * take CRU_ESCR0, 14, 15, 17 CRU_ESCR1 [SDM Table 18-63]); ours: the
	 * first counter of the other ESCR */
	for (unsigned c = 12; c < 18; c++)
		if (nbsim_rdmsr(0x360 + c, &cccr) == NBSIM_OK && (cccr & (1u << 12)))
			side = (c == 14 || c == 15 || c == 17);
	if (side < 0 || nbsim_rdmsr(side ? 0x3b9 : 0x3b8, &ev) != NBSIM_OK || !ev)
		tap_bail("by CPU: no enabled counter on CRU_ESCR0/1");
	escr = side ? 0x3b8 : 0x3b9;
	own_ctr = side ? 12 : 14;
	if (nbsim_wrmsr(0x360 + own_ctr, 0) != NBSIM_OK ||
	    nbsim_wrmsr(escr, ev) != NBSIM_OK ||
	    nbsim_wrmsr(0x300 + own_ctr, 0) != NBSIM_OK ||
	    /* Enable, ESCRSelect 4 (CRU_ESCR0/1), ActiveThread 3 (any) */
	    nbsim_wrmsr(0x360 + own_ctr, (1u << 12) | (4u << 13) | (3u << 16)) != NBSIM_OK)
		tap_bail("by CPU: programming the main thread's own counter failed");
}

static long long own_read(void)
{
	uint64_t v = 0;

	if (nbsim_rdpmc(own_ctr, &v) != NBSIM_OK)
		tap_bail("by CPU: RDPMC %u", own_ctr);
	return (long long)v;
}

static void own_stop(void)
{
	(void)nbsim_wrmsr(0x360 + own_ctr, 0);
	(void)nbsim_wrmsr(own_ctr == 14 ? 0x3b9 : 0x3b8, 0);   /* ours alone */
	(void)nbsim_wrmsr(0x300 + own_ctr, 0);
}

/* One round: the threads' work inside the main thread's by-CPU count;
 * *own: the main thread's own instructions meanwhile. */
static long long tot_run(int es, int r, long long *own)
{
	long long a, b, oa, ob;
	pthread_t t[MAXT];
	void *ret;

	for (int i = 0; i < nthreads; i++)
		tot_n[i] = r ? n2_of(i) : n1_of(i);
	oa = own_read();
	if (PAPI_read(es, &a) != PAPI_OK)
		tap_bail("PAPI_read (by CPU)");
	/* one after the other: the order in which the threads run, and so
	 * what pthread_create and pthread_join execute, is the same in both
	 * rounds (with the threads at once it is not: 1049 instructions
	 * apart in one run) */
	for (int i = 0; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, tot_worker, (void *)(intptr_t)i) ||
		    pthread_join(t[i], &ret) || ret)
			tap_bail("thread %d of the by-CPU round failed", i);
	if (PAPI_read(es, &b) != PAPI_OK)
		tap_bail("PAPI_read (by CPU)");
	ob = own_read();
	*own = ob - oa;
	return b - a;
}

static void by_cpu(void)
{
	PAPI_option_t opt;
	struct nbsim_info info;
	int es = PAPI_NULL, e, cidx = PAPI_get_component_index("p4netburst");
	long long ta, tb, oa, ob, sum = 0, want = 0, v;

	memset(&info, 0, sizeof info);
	(void)nbsim_info(&info);
	if (info.ht) {
		/* the by-CPU set and each LP's sets: three CRU ESCRs for
		 * instr_retired, the part has two (CRU_ESCR0/1) */
		printf("ok %d # SKIP under --ht=yes: the by-CPU set and both logical processors' "
		       "sets would need three CRU ESCRs for instr_retired (there are two)\n", ++tap_n);
		return;
	}
	memset(&opt, 0, sizeof opt);
	if ((e = PAPI_create_eventset(&es)) != PAPI_OK ||
	    (e = PAPI_assign_eventset_component(es, cidx)) != PAPI_OK)
		tap_bail("by CPU: %s", PAPI_strerror(e));
	opt.granularity.eventset = es;
	opt.granularity.granularity = PAPI_GRN_SYS;
	if ((e = PAPI_set_opt(PAPI_GRANUL, &opt)) != PAPI_OK)
		tap_bail("PAPI_set_opt(PAPI_GRANUL, PAPI_GRN_SYS): %s", PAPI_strerror(e));
	if ((e = PAPI_add_named_event(es, "PAPI_TOT_INS")) != PAPI_OK ||
	    (e = PAPI_start(es)) != PAPI_OK)
		tap_bail("by CPU: %s", PAPI_strerror(e));
	own_start();
	(void)tot_run(es, 0, &oa);        /* warm-up: thread stacks, lazy binding */
	ta = tot_run(es, 0, &oa);
	tb = tot_run(es, 1, &ob);
	own_stop();
	PAPI_stop(es, &v);
	/* the threads on the main thread's LP (all of them without HT) */
	for (int i = 0; i < nthreads; i++)
		if (tot_lp[i] == info.logical_cpu) {
			sum += res[i].d[0];
			want += 4 * (n2_of(i) - n1_of(i));
		}
	/* The by-CPU count of a round is the main thread's instructions
	 * plus the threads' (their start, work and exit).  Which thread
	 * valgrind runs after a clone, a futex wake or an exit is the host
	 * scheduler's choice, so the main thread's pthread_create and
	 * pthread_join take other paths in the two rounds (4 to 100
	 * instructions apart in our runs: pthread_join waits in a futex
	 * loop or finds the thread gone).  That residue is exactly the
	 * difference of the main thread's own counts, which its own
	 * per-thread counter measures: the rest, the threads' part, must
	 * equal the sum of their own counts of the same work exactly. */
	tap_ok(sum == want && (tb - ta) - (ob - oa) == sum,
	       "by CPU (PAPI_GRN_SYS) on LP%u: %lld more instructions in the second round = the "
	       "threads' own counts %lld (= %lld) + the main thread's own path difference %lld "
	       "(counted by its own per-thread counter %u), exactly", info.logical_cpu, tb - ta,
	       sum, want, ob - oa, own_ctr);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}
#endif

static void check(const char *what, int i)
{
	struct res *r = &res[i];

	if (r->err) {
		tap_ok(0, "%s thread %d: %s", what, i, r->why);
		return;
	}
	for (int k = 0; k < NBT_NEV; k++)
		tap_ok(r->d[k] == alone[i].d[k] && r->d[k] == nbt_per_iter[k] * (n2_of(i) - n1_of(i)),
		       "%s thread %d (LP%u): %s %lld = alone %lld = %lld x %ld", what, i, r->lp,
		       nbt_evs[k], r->d[k], alone[i].d[k], nbt_per_iter[k], n2_of(i) - n1_of(i));
}

int main(int argc, char **argv)
{
	int e, es;
#ifdef _OPENMP
	const char *what = "OpenMP";
	const int extra = 0;
#else
	const char *what = "pthreads";
	const int extra = NBT_NEV + 1;
	pthread_t t[MAXT];
#endif

	nthreads = nbt_nthreads(argc, argv, MAXT);
	tap_plan(nthreads * NBT_NEV + extra);
	if (!nbsim_present())
		tap_bail("needs nbsim");
	nbt_papi_init();

	/* each thread's work, measured by the main thread alone */
	if ((e = nbt_make_set(&es)) != PAPI_OK || (e = PAPI_start(es)) != PAPI_OK)
		tap_bail("main alone: %s", PAPI_strerror(e));
	for (int i = 0; i < nthreads + 1; i++)
		if ((e = measure(es, i, alone[i].d, 1)) != PAPI_OK)
			tap_bail("main alone: %s", PAPI_strerror(e));
	{
		long long v[NBT_NEV];
		PAPI_stop(es, v);
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}

#ifdef _OPENMP
	pthread_barrier_init(&nbt_bar, NULL, (unsigned)nthreads);
#pragma omp parallel num_threads(nthreads)
	work(omp_get_thread_num(), 1);
	if (omp_get_max_threads() < 1)
		tap_bail("OpenMP");
#else
	/* the threads count at once; the quitter exits counting among them */
	pthread_barrier_init(&nbt_bar, NULL, (unsigned)nthreads);
	{
		pthread_t q;
		if (pthread_create(&q, NULL, quitter, NULL))
			tap_bail("pthread_create");
		for (int i = 1; i < nthreads; i++)
			if (pthread_create(&t[i], NULL, pt_worker, (void *)(intptr_t)i))
				tap_bail("pthread_create");
		work(0, 1);
		pthread_join(q, NULL);
		for (int i = 1; i < nthreads; i++)
			pthread_join(t[i], NULL);
	}
#endif
	for (int i = 0; i < nthreads; i++)
		check(what, i);
#ifndef _OPENMP
	/* after the quitter: a new thread (valgrind reuses ThreadIds) gets
	 * a fresh context */
	{
		pthread_t late;
		pthread_barrier_destroy(&nbt_bar);
		pthread_barrier_init(&nbt_bar, NULL, 1);
		if (pthread_create(&late, NULL, pt_worker, (void *)(intptr_t)nthreads))
			tap_bail("pthread_create");
		pthread_join(late, NULL);
		check("created after a thread exited counting:", nthreads);
	}
	by_cpu();
#endif
	return tap_exit();
}
