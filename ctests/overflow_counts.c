/*
 * overflow_counts.c - hardware overflow through the public PAPI API on the
 * simulated NetBurst (run under nbsim; tests/api/t_overflow_counts.t).
 *
 * PAPI_overflow on PAPI_TOT_INS (and on PAPI_TOT_CYC beside it) with
 * threshold T around a loop of known length.  The component re-arms each
 * counter T events after its previous overflow (README "Overflow"), so:
 *  - overflows == floor(count / T) exactly, count being what PAPI_stop
 *    returns;
 *  - by the difference method over two loop lengths, the counts differ by
 *    iterations x 4 plus, per extra overflow, the handler's counted
 *    instructions H, a constant: 0 on the sim backend (the PMI's handler
 *    plays the kernel's service routine, at CPL 0), the signal handler's
 *    user-mode instructions up to its disable and after its enable on perf
 *    (the kernel's overflow signal runs PAPI's handler in user mode, where
 *    user-mode counting sees it);
 *  - each overflow's PC lies within one superblock of the loop (the skid):
 *    in the loop itself here, since the loop is one basic block.
 * The loop lengths are chosen near N1 and N2 (pick()) so that each run's
 * count ends between T/4 and 3T/4 past a multiple of T: then no overflow
 * falls in PAPI_stop's own instructions.  One that does takes another path
 * (counted on perf: deferred inside PAPI_stop's read, or dispatched after
 * that read, which gives floor(count / T) + 1 overflows, since PAPI_stop
 * reads before it stops), and the difference method would not divide;
 *  - the overflow vector names the right event; counts with and without
 *    overflow agree;
 *  - the component reports hardware interrupts (cmp_info.hardware_intr).
 */
#include <stdint.h>
#include <string.h>
#include "papi.h"
#include "nbtap.h"

#define T 10007
#define N1 100000L
#define N2 300000L
/* pick(): steps of T / 16 iterations (T / 4 instructions) */
#define PICK_STEP (T / 16)
#define PICK_TRIES 32

extern char ovc_loop_start[], ovc_loop_end[];

static void loop(long n)
{
	long a = 0, d = 0;

	__asm__ volatile("ovc_loop_start:\n\t"
			 "add $1, %0\n\t"
			 "xor %0, %1\n\t"
			 "sub $1, %2\n\t"
			 "jnz ovc_loop_start\n\t"
			 "ovc_loop_end:\n\t"
			 : "+r"(a), "+r"(d), "+r"(n) : : "cc");
}

static long novf[2], pc_out;
static long long vec_seen;

static void handler(int es, void *pc, long long vec, void *ctx)
{
	(void)es; (void)ctx;
	vec_seen |= vec;
	for (int i = 0; i < 2; i++)
		if (vec & (1LL << i))
			novf[i]++;
	if ((vec & 1) && ((char *)pc < ovc_loop_start || (char *)pc >= ovc_loop_end))
		pc_out++;
}

static void run(int es, long n, long long *v)
{
	int r;

	novf[0] = novf[1] = pc_out = 0;
	vec_seen = 0;
	if ((r = PAPI_start(es)) != PAPI_OK)
		tap_bail("PAPI_start: %s", PAPI_strerror(r));
	loop(n);
	if ((r = PAPI_stop(es, v)) != PAPI_OK)
		tap_bail("PAPI_stop: %s", PAPI_strerror(r));
}

/* The first loop length N + k PICK_STEP whose overflowing run ends with
 * each of the NEV overflowing counts between T/4 and 3T/4 past a multiple
 * of T (its results in V, its overflows in novf).  nbsim is deterministic:
 * the chosen run is the measured one. */
static long pick(int es, long n, int nev, long long *v)
{
	for (int k = 0; k < PICK_TRIES; k++) {
		long m = n + k * (long)PICK_STEP;
		int mid = 1;

		run(es, m, v);
		for (int i = 0; i < nev; i++)
			mid &= v[i] % T >= T / 4 && v[i] % T <= 3 * T / 4;
		if (mid)
			return m;
	}
	tap_bail("no loop length from %ld in %d steps of %d iterations ends mid-period", n,
		 PICK_TRIES, PICK_STEP);
	return 0;
}

int main(void)
{
	int es = PAPI_NULL, r, cid;
	long long a[2], b[2], plain[2];
	long o1, o2, n1, n2;
	long long h;
	const PAPI_component_info_t *ci;

	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %d", r);
	cid = PAPI_get_component_index("p4netburst");
	ci = cid >= 0 ? PAPI_get_component_info(cid) : NULL;
	if (!ci || ci->disabled)
		tap_bail("p4netburst is not enabled (run under nbsim)");
	tap_ok(ci->hardware_intr == 1, "p4netburst reports hardware overflow interrupts");

	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, "PAPI_TOT_INS") != PAPI_OK ||
	    PAPI_add_named_event(es, "PAPI_TOT_CYC") != PAPI_OK)
		tap_bail("event set PAPI_TOT_INS, PAPI_TOT_CYC");
	run(es, N1, plain);                                   /* no overflow */

	if ((r = PAPI_overflow(es, PAPI_TOT_INS, T, 0, handler)) != PAPI_OK)
		tap_bail("PAPI_overflow: %s", PAPI_strerror(r));
	run(es, N1, a);                                       /* warm-up */
	n1 = pick(es, N1, 1, a);
	o1 = novf[0];
	tap_is(o1, a[0] / T, "n=%ld: overflows = floor(PAPI_TOT_INS %lld / %d)", n1, a[0], T);
	tap_ok(pc_out == 0, "n=%ld: every overflow PC lies in the loop (skid within its "
	       "superblock; got %ld outside)", n1, pc_out);
	tap_ok(vec_seen == 1, "overflow vector: bit 0 (PAPI_TOT_INS) only (got %#llx)", vec_seen);
	n2 = pick(es, N2, 1, b);
	o2 = novf[0];
	tap_is(o2, b[0] / T, "n=%ld: overflows = floor(PAPI_TOT_INS %lld / %d)", n2, b[0], T);
	{
		long long extra = b[0] - a[0] - 4 * (n2 - n1);
		long d = o2 - o1;

		/* each overflow costs the same counted instructions (0 on
		 * sim: the handler is the ISR; on perf the user-mode signal
		 * handler's); before the deferred PMI (nb_comp_ovf.c), a PMI
		 * inside PAPI_read's bookkeeping made a run count one
		 * threshold more */
		h = d > 0 ? extra / d : -1;
		tap_ok(d > 0 && extra >= 0 && extra % d == 0 && pc_out == 0,
		       "difference method: %lld = 4 x %ld + %ld overflows x %lld (the handler's "
		       "counted instructions per overflow)", b[0] - a[0], n2 - n1, d, h);
	}
	/* without overflow the loop of n1 iterations counts 4 (n1 - N1) more */
	tap_is(a[0] - plain[0] - 4 * (n1 - N1), o1 * h,
	       "PAPI_TOT_INS with overflow %lld = without %lld + 4 x %ld + %ld overflows x %lld",
	       a[0], plain[0], n1 - N1, o1, h);

	/* a second overflowing event */
	if ((r = PAPI_overflow(es, PAPI_TOT_CYC, T, 0, handler)) != PAPI_OK)
		tap_bail("PAPI_overflow PAPI_TOT_CYC: %s", PAPI_strerror(r));
	(void)pick(es, N2, 2, b);
	tap_is(novf[0], b[0] / T, "two overflowing events: PAPI_TOT_INS overflows = floor(%lld / %d)", b[0], T);
	tap_is(novf[1], b[1] / T, "two overflowing events: PAPI_TOT_CYC overflows = floor(%lld / %d)", b[1], T);

	/* overflow off again: no handler calls */
	if (PAPI_overflow(es, PAPI_TOT_CYC, 0, 0, handler) != PAPI_OK ||
	    PAPI_overflow(es, PAPI_TOT_INS, 0, 0, handler) != PAPI_OK)
		tap_bail("PAPI_overflow off");
	run(es, N1, a);
	tap_ok(novf[0] == 0 && novf[1] == 0 && a[0] == plain[0],
	       "overflow off: no calls, PAPI_TOT_INS %lld as without overflow", a[0]);
	printf("1..%d\n", tap_n);
	return tap_exit();
}
