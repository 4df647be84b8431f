/*
 * thread_migrate.c - per-thread counts of a thread that moves between the
 * logical processors while it counts: nbsim --ht=yes
 * --nbsim-ht-place=migrate (sim/README.md "Hyper-Threading": a new thread
 * goes to the LP with fewer threads; when a thread exits and leaves its LP
 * two threads short, the other LP's highest ThreadId moves to it).
 *
 * Threads: main (LP0), A (LP1), B (LP0), C (LP1), D (LP0).  B, C and D
 * count PAPI_TOT_INS and taken branches in their own event sets.  D
 * measures the loop of nbdiff.h before, across and after its move: while
 * it waits in a pipe read, main makes A exit, LP1 is left with C alone
 * against LP0's main, B and D, and D moves to LP1.  Exact by the
 * difference method: each interval pair differs by 4 x (n2 - n1)
 * instructions and n2 - n1 branches; across the move each interval holds
 * one pipe round trip (write, blocking read), the second one the move.
 * D's registers were its home LP0's (counter 12 side, T0 bits): after the
 * move nbsim re-targets them to LP1 (T1 bits, the mirror counters, which
 * C's set also uses on LP1); without that D would count LP0's threads
 * and none of its own instructions.  B (LP0) and C (LP1) count exactly
 * all along.
 *
 *   thread_migrate          the counts above
 *   thread_migrate ovf      D counts PAPI_TOT_INS with PAPI_overflow at
 *                           threshold T instead, through its move: its
 *                           overflows = floor(count / T), every one
 *                           delivered to D's handler and event set (after
 *                           the move through OVF_PMI_T1, the re-targeted
 *                           OVF_PMI_T0), none lost or sent to another thread.
 */
#include <sched.h>
#include <unistd.h>
#include "nbthreads.h"

#define N1 2000
#define N2 6000

#define T 10007
#define NOVF 200000L

static int p_a[2], p_d2m[2], p_m2d[2];
static int ovf_mode;
static long long d_count;
static long d_ovf, d_wrong;

static volatile int d_done;
/* B and C each count one round before D measures (and at least one more
 * after it is done): their rounds span D's move whatever the host's
 * scheduling (C once did 1 round: D had finished before C's first) */
static volatile int bc_first;

static void wait_bc(void)
{
	while (bc_first < 2)
		sched_yield();
}

struct res {
	long long d[3][NBT_NEV];   /* D: before, across, after; B, C: last round */
	int rounds, bad_rounds;     /* B, C: rounds, inexact ones */
	unsigned lp0, lp1, home;   /* running LP at start / end, INFO logical_cpu */
	int err;
	char why[160];
};
static struct res rb, rc, rd_;

static void info(unsigned *run, unsigned *home)
{
	struct nbsim_info in;

	memset(&in, 0, sizeof in);
	(void)nbsim_info(&in);
	*run = in.running_lp;
	if (home)
		*home = in.logical_cpu;
}

static void roundtrip(void)
{
	char c = 'x';

	if (write(p_d2m[1], &c, 1) != 1 || read(p_m2d[0], &c, 1) != 1)
		abort();
}

/* One difference: loop(N1) [+ f()], loop(N2) [+ f()] between reads. */
static void diff(int es, void (*f)(void), long long *d, int *e)
{
	long long v0[NBT_NEV], v1[NBT_NEV], v2[NBT_NEV];

	nbt_read(es, v0, e);
	nbdiff_loop4(N1);
	if (f)
		f();
	nbt_read(es, v1, e);
	nbdiff_loop4(N2);
	if (f)
		f();
	nbt_read(es, v2, e);
	for (int k = 0; k < NBT_NEV; k++)
		d[k] = (v2[k] - v1[k]) - (v1[k] - v0[k]);
}

static void yield(void) { sched_yield(); }

static int exact(const long long *d)
{
	for (int k = 0; k < NBT_NEV; k++)
		if (d[k] != nbt_per_iter[k] * (N2 - N1))
			return 0;
	return 1;
}


/* D with overflow: a warm-up run (the process's first overflowing run
 * falls short of floor(count / T): ctests/thread_overflow.c), then the
 * measured one, moved in the middle. */
static void d_ovf_run(struct res *r)
{
	int e;

	if ((e = PAPI_create_eventset(&nbt_es)) != PAPI_OK ||
	    (e = PAPI_add_named_event(nbt_es, "PAPI_TOT_INS")) != PAPI_OK ||
	    (e = PAPI_overflow(nbt_es, PAPI_TOT_INS, T, 0, nbt_ovf_handler)) != PAPI_OK) {
		r->err = e;
		pthread_barrier_wait(&nbt_bar);
		return;
	}
	pthread_barrier_wait(&nbt_bar);
	wait_bc();
	for (int round = 0; round < 2 && !r->err; round++) {
		nbt_novf = nbt_wrong = 0;
		if ((e = PAPI_start(nbt_es)) != PAPI_OK) {
			r->err = e;
			break;
		}
		for (int k = 0; k < 10; k++) {
			nbdiff_loop4(NOVF / 20);
			sched_yield();
		}
		roundtrip();                   /* round 1: the move */
		for (int k = 0; k < 10; k++) {
			nbdiff_loop4(NOVF / 20);
			sched_yield();
		}
		if ((e = PAPI_stop(nbt_es, &d_count)) != PAPI_OK)
			r->err = e;
	}
	d_ovf = nbt_novf;
	d_wrong = nbt_wrong;
	info(&r->lp1, NULL);
	d_done = 1;
}

static void *d_main(void *arg)
{
	struct res *r = &rd_;
	long long v[NBT_NEV], warm[NBT_NEV];
	int es, e = PAPI_OK;

	(void)arg;
	info(&r->lp0, &r->home);
	if (ovf_mode) {
		d_ovf_run(r);
		return NULL;
	}
	if ((e = nbt_make_set(&es)) != PAPI_OK || (e = PAPI_start(es)) != PAPI_OK) {
		r->err = e;
		pthread_barrier_wait(&nbt_bar);
		return NULL;
	}
	pthread_barrier_wait(&nbt_bar);
	wait_bc();
	/* warm-up: the first calls of write and read bind them (ld.so's
	 * lazy binding: 771 more instructions in the first interval) */
	diff(es, roundtrip, warm, &e);
	diff(es, yield, r->d[0], &e);         /* on LP0 */
	diff(es, roundtrip, r->d[1], &e);     /* the second round trip: the move */
	diff(es, yield, r->d[2], &e);         /* on LP1 */
	info(&r->lp1, NULL);
	r->err = e;
	PAPI_stop(es, v);
	d_done = 1;
	return NULL;
}

/* B and C: rounds of differences (with yields, so that the others run
 * inside them) until D is done, one more after it. */
static void *counter_main(void *arg)
{
	struct res *r = arg;
	long long v[NBT_NEV], d[NBT_NEV];
	int es, e = PAPI_OK, last = 0;

	info(&r->lp0, &r->home);
	if ((e = nbt_make_set(&es)) != PAPI_OK || (e = PAPI_start(es)) != PAPI_OK) {
		r->err = e;
		__sync_fetch_and_add(&bc_first, 1);
		pthread_barrier_wait(&nbt_bar);
		return NULL;
	}
	pthread_barrier_wait(&nbt_bar);
	diff(es, yield, d, &e);               /* warm-up */
	while (!last) {
		last = d_done;
		diff(es, yield, d, &e);
		if (++r->rounds == 1)
			__sync_fetch_and_add(&bc_first, 1);
		if (!exact(d)) {
			r->bad_rounds++;
			memcpy(r->d[0], d, sizeof d);
		}
		if (r->rounds > 100000)
			break;
	}
	if (!r->bad_rounds)
		memcpy(r->d[0], d, sizeof d);
	info(&r->lp1, NULL);
	r->err = e;
	PAPI_stop(es, v);
	return NULL;
}

static void *a_main(void *arg)
{
	char c;

	(void)arg;
	if (read(p_a[0], &c, 1) != 1)
		abort();
	return NULL;
}

static void say(const char *who, struct res *r, int k, const char *what)
{
	tap_ok(!r->err && exact(r->d[k]), "%s: %s: %s %lld, branches %lld (want %lld, %lld)%s%s",
	       who, what, nbt_evs[0], r->d[k][0], r->d[k][1], 4LL * (N2 - N1), 1LL * (N2 - N1),
	       r->err ? ": " : "", r->err ? PAPI_strerror(r->err) : "");
}

int main(int argc, char **argv)
{
	pthread_t ta, tb, tc, td;
	struct nbsim_info in;
	char c;

	ovf_mode = argc > 1 && !strcmp(argv[1], "ovf");
	tap_plan(ovf_mode ? 7 : 9);
	if (!nbsim_present())
		tap_bail("needs nbsim");
	memset(&in, 0, sizeof in);
	/* (under --nbsim-ht-place=fixed it runs as a control: D stays on
	 * LP0, and the first check fails) */
	if (nbsim_info(&in) != NBSIM_OK || !in.ht)
		tap_bail("needs nbsim --ht=yes --nbsim-ht-place=migrate");
	nbt_papi_init();
	if (pipe(p_a) || pipe(p_d2m) || pipe(p_m2d))
		tap_bail("pipe");
	pthread_barrier_init(&nbt_bar, NULL, 4);
	/* created in this order: A on LP1, B on LP0, C on LP1, D on LP0 */
	if (pthread_create(&ta, NULL, a_main, NULL) ||
	    pthread_create(&tb, NULL, counter_main, &rb) ||
	    pthread_create(&tc, NULL, counter_main, &rc) ||
	    pthread_create(&td, NULL, d_main, NULL))
		tap_bail("pthread_create");
	pthread_barrier_wait(&nbt_bar);
	/* D's first round trips (three; with overflow one): nothing happens */
	for (int k = 0; k < (ovf_mode ? 1 : 3); k++)
		if (read(p_d2m[0], &c, 1) != 1 || write(p_m2d[1], &c, 1) != 1)
			tap_bail("pipe I/O");
	/* the second: A exits (LP1: C alone; LP0: main, B, D): D moves */
	if (read(p_d2m[0], &c, 1) != 1 || write(p_a[1], &c, 1) != 1 ||
	    pthread_join(ta, NULL) || write(p_m2d[1], &c, 1) != 1)
		tap_bail("pipe I/O, join");
	pthread_join(td, NULL);
	pthread_join(tb, NULL);
	pthread_join(tc, NULL);

	tap_ok(rd_.lp0 == 0 && rd_.lp1 == 1 && rd_.home == 0,
	       "D ran on LP0, then on LP1 (INFO running_lp %u -> %u); it programs LP0's "
	       "registers (INFO logical_cpu %u)", rd_.lp0, rd_.lp1, rd_.home);
	/* (after D's exit one of them may move when the other exits: which
	 * exits first is the host's scheduling) */
	tap_ok(rb.lp0 == 0 && rc.lp0 == 1 && rb.home == 0 && rc.home == 1,
	       "B started on LP0 (%u), C on LP1 (%u)", rb.lp0, rc.lp0);
	if (ovf_mode) {
		tap_ok(!rd_.err && d_wrong == 0 && d_ovf == d_count / T && d_ovf >= 15,
		       "D with overflow through its move: %ld overflows, all to its own handler and "
		       "event set (%ld elsewhere), = floor(count %lld / %d) = %lld%s%s", d_ovf, d_wrong,
		       d_count, T, d_count / T, rd_.err ? ": " : "", rd_.err ? PAPI_strerror(rd_.err) : "");
	} else {
		say("D", &rd_, 0, "before its move, on LP0");
		say("D", &rd_, 1, "across its move (a pipe round trip in each interval)");
		say("D", &rd_, 2, "after its move, on LP1 beside C");
	}
	say("B", &rb, 0, rb.bad_rounds ? "an inexact round" : "every round on LP0");
	say("C", &rc, 0, rc.bad_rounds ? "an inexact round" : "every round on LP1");
	tap_ok(rb.rounds >= 2 && rc.rounds >= 2, "B and C counted through D's move (%d, %d rounds)",
	       rb.rounds, rc.rounds);
	tap_ok(!rb.bad_rounds && !rc.bad_rounds, "no inexact round (B %d of %d, C %d of %d)",
	       rb.bad_rounds, rb.rounds, rc.bad_rounds, rc.rounds);
	return tap_exit();
}
