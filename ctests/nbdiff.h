/*
 * nbdiff.h - the difference method through the public PAPI API, shared by
 * the exact-count tests: run a loop of known shape at two lengths in one
 * event set; the difference of the counts is what the extra iterations
 * did (README "Tests", DESIGN.md).
 */
#ifndef NBDIFF_H
#define NBDIFF_H

#include <stdio.h>
#include "papi.h"
#include "nbtap.h"

#define NBDIFF_MAX 8

/* A loop of known shape: per iteration 4 instructions (add, xor, sub, jnz),
 * 4 uops, 1 taken conditional branch (the last one falls through). */
#define NBDIFF_LOOP4_INS 4
static __attribute__((noinline, unused)) void nbdiff_loop4(long n)
{
	long a = 0, d = 0;

	__asm__ volatile("1:\n\t"
			 "add $1, %0\n\t"
			 "xor %0, %1\n\t"
			 "sub $1, %2\n\t"
			 "jnz 1b\n\t"
			 : "+r"(a), "+r"(d), "+r"(n) : : "cc");
}

/* Run fn(n) inside PAPI_start/PAPI_stop; the counts into v.  With
 * NBDIFF_PREROLL defined before this header, first, not counted,
 * fn(NBDIFF_PREROLL): what PAPI_stop did after the previous run depends
 * on the counts it read (so on that run's n), and can leave branch
 * predictor and trace cache entries of fn's code in another state when
 * their indices alias with PAPI's code (a layout accident: exact_classes'
 * ijmp, icall and rom checks failed by one misprediction or 13 trace
 * cache builds after an unrelated change of the component's size); fn
 * retrains them, so both measured runs start alike.  (Not for loops
 * whose stores or cycles carry over into the measured run.) */
static inline void nbdiff_measure(int es, void (*fn)(long), long n, long long *v)
{
	int r;

#ifdef NBDIFF_PREROLL
	fn(NBDIFF_PREROLL);
#endif
	if ((r = PAPI_start(es)) != PAPI_OK)
		tap_bail("PAPI_start: %s", PAPI_strerror(r));
	fn(n);
	if ((r = PAPI_stop(es, v)) != PAPI_OK)
		tap_bail("PAPI_stop: %s", PAPI_strerror(r));
}

/* An event set of the n named events into *es: PAPI_OK or the first
 * error (for threads, which report rather than bail out). */
static inline int nbdiff_make_set(int *es, const char *const *names, int n)
{
	int e;

	*es = PAPI_NULL;
	if ((e = PAPI_create_eventset(es)) != PAPI_OK)
		return e;
	for (int k = 0; k < n; k++)
		if ((e = PAPI_add_named_event(*es, names[k])) != PAPI_OK)
			return e;
	return PAPI_OK;
}

/*
 * An event set of the n named events (WHAT prefixes the bail-out message);
 * three warm-up rounds of fn(n1), fn(n2) (caches, lazy binding, and the
 * branch predictor, whose global history must reach the same state before
 * both measured runs); then the counts at n1 and n2 into a and b.  The
 * event set is destroyed.
 */
static inline void nbdiff_run(const char *what, const char *const *names, int n,
			      void (*fn)(long), long n1, long n2, long long *a, long long *b)
{
	long long w[NBDIFF_MAX];
	int es = PAPI_NULL, r;

	if (n > NBDIFF_MAX)
		tap_bail("%s: %d events, at most %d", what, n, NBDIFF_MAX);
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK)
		tap_bail("PAPI_create_eventset: %s", PAPI_strerror(r));
	for (int i = 0; i < n; i++)
		if ((r = PAPI_add_named_event(es, names[i])) != PAPI_OK)
			tap_bail("%s: PAPI_add_named_event(%s): %s", what, names[i], PAPI_strerror(r));
	for (int k = 0; k < 3; k++) {
		nbdiff_measure(es, fn, n1, w);
		nbdiff_measure(es, fn, n2, w);
	}
	nbdiff_measure(es, fn, n1, a);
	nbdiff_measure(es, fn, n2, b);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/*
 * The difference D of two runs against ITERS x PER, allowing the two runs'
 * measurement overhead (PAPI_start/PAPI_stop around the kernel) to differ
 * by at most SLACK.  Used only for events that depend on the modelled
 * machine's state at the run's edges, never for architectural counts:
 * the branch predictor (a branch of PAPI's code can alias the kernel's in
 * the BTB/PHT, depending on code layout: one misprediction, and its
 * wrong-path uops) and the timing model (unit reservations, the uop window
 * and outstanding misses at PAPI_stop differ after N1 and N2 iterations).
 * SLACK < ITERS / 2, so the per-iteration count is still checked exactly:
 * ITERS x (PER +- 1) is out of reach.  The residual is printed.
 */
static inline void nbdiff_is_slack(long long d, long long iters, long long per, long long slack,
				   const char *desc)
{
	long long r = d - iters * per;

	if (2 * slack >= iters)
		tap_bail("%s: slack %lld would hide a per-iteration error over %lld iterations",
			 desc, slack, iters);
	tap_ok(r >= -slack && r <= slack, "%s (overhead allowance %lld)", desc, slack);
	tap_diag("%s: got %lld = %lld x %lld %+lld", desc, d, iters, per, r);
}

/* One event of a checked set: its count per iteration of the kernel and
 * its overhead allowance (nbdiff_is_slack; 0: exact). */
struct nbdiff_ev {
	const char *name;
	long long per_iter;
	long long slack;
};

/* How many of ev[0..max) are given (up to the first without a name). */
static inline int nbdiff_nevents(const struct nbdiff_ev *ev, int max)
{
	int n = 0;

	while (n < max && ev[n].name)
		n++;
	return n;
}

/* The events of ev[0..max) in one set around fn (nbdiff_run, n1 and n2
 * iterations): one check each, that the difference is per_iter x
 * (n2 - n1), exactly or within its slack; the counts as a diagnostic. */
static inline void nbdiff_check_set(const char *what, const struct nbdiff_ev *ev, int max,
				    void (*fn)(long), long n1, long n2)
{
	long long a[NBDIFF_MAX], b[NBDIFF_MAX];
	const char *names[NBDIFF_MAX];
	int n = nbdiff_nevents(ev, max);

	if (n > NBDIFF_MAX)
		tap_bail("%s: %d events, at most %d", what, n, NBDIFF_MAX);
	for (int i = 0; i < n; i++)
		names[i] = ev[i].name;
	nbdiff_run(what, names, n, fn, n1, n2, a, b);
	for (int i = 0; i < n; i++) {
		char desc[300];

		snprintf(desc, sizeof desc, "%s: %s: difference of %ld and %ld iterations is %lld x %ld",
			 what, ev[i].name, n2, n1, ev[i].per_iter, n2 - n1);
		if (ev[i].slack)
			nbdiff_is_slack(b[i] - a[i], n2 - n1, ev[i].per_iter, ev[i].slack, desc);
		else
			tap_is(b[i] - a[i], (n2 - n1) * ev[i].per_iter, "%s", desc);
		tap_diag("%s: %lld at N=%ld, %lld at N=%ld", ev[i].name, a[i], n1, b[i], n2);
	}
}

#endif
