/*
 * overflow_soft.c - PAPI's software overflow (PAPI_overflow and PAPI_profil
 * without PAPI_OVERFLOW_FORCE_SW on a backend without a PMI: msr) reaches
 * the handler.
 *
 * PAPI emulates overflow with an interval timer when the component has no
 * hardware interrupt (cmp_info.hardware_intr 0); its signal comes to the
 * component's dispatch_timer, which hands it to PAPI's dispatcher.  That
 * function returned when the set's overflow.flags was 0, and plain
 * software overflow has flags 0 (only PAPI_OVERFLOW_FORCE_SW or
 * PAPI_OVERFLOW_HARDWARE set bits): on the msr backend every PAPI_overflow
 * returned PAPI_OK and never called its handler, and PAPI_profil filled no
 * bucket.  Checked, counting PAPI_TOT_INS over nbdiff_loop4(N), with the
 * timer at 0.5 ms: the loop's 60 M instructions take some 5 to 20 ms of
 * simulated CPU time (the timer ticks in simulated time under nbsim, as on
 * the part, where PAPI's default 10 ms could give no tick at all):
 *  1. PAPI_overflow at T: at least one overflow, at most floor(count / T)
 *     (at most one per tick, each past a deadline T after the last), each
 *     for this set with vector 1;
 *  2. PAPI_profil at T over the loop's code: as many samples in the
 *     buffer as the timer dispatched, at least one.
 */
#include "nbthreads.h"

#define T 1000003
#define N 15000000L             /* 60 M instructions */
#define NB 4096

static long novf, nwrong;
static int the_es = PAPI_NULL;

static void handler(int es, void *pc, long long vec, void *ctx)
{
	(void)pc;
	(void)ctx;
	novf++;
	if (es != the_es || vec != 1)
		nwrong++;
}

static unsigned short buf[NB];

int main(void)
{
	long long v[1];
	long samples = 0;
	int es = PAPI_NULL, e;

	tap_plan(5);
	nbt_papi_init();
	{
		PAPI_option_t o = { 0 };

		o.itimer.ns = 500000;
		if ((e = PAPI_set_opt(PAPI_DEF_ITIMER_NS, &o)) != PAPI_OK)
			tap_bail("PAPI_set_opt(PAPI_DEF_ITIMER_NS): %s", PAPI_strerror(e));
	}
	if ((e = PAPI_create_eventset(&es)) != PAPI_OK ||
	    (e = PAPI_add_named_event(es, "PAPI_TOT_INS")) != PAPI_OK)
		tap_bail("event set: %s", PAPI_strerror(e));
	the_es = es;

	/* 1. PAPI_overflow */
	e = PAPI_overflow(es, PAPI_TOT_INS, T, 0, handler);
	tap_is(e, PAPI_OK, "PAPI_overflow(PAPI_TOT_INS, %d, 0)", T);
	v[0] = 0;
	if ((e = PAPI_start(es)) == PAPI_OK) {
		nbdiff_loop4(N);
		e = PAPI_stop(es, v);
	}
	tap_ok(e == PAPI_OK && v[0] >= N * NBDIFF_LOOP4_INS && v[0] < N * NBDIFF_LOOP4_INS + 100000,
	       "... PAPI_TOT_INS %lld (the loop's %ld)", v[0], N * NBDIFF_LOOP4_INS);
	tap_ok(novf >= 1 && novf <= v[0] / T && nwrong == 0,
	       "... %ld overflows, 1 to floor(count / %d) = %lld, %ld for another set or vector",
	       novf, T, v[0] / T, nwrong);
	PAPI_overflow(es, PAPI_TOT_INS, 0, 0, handler);

	/* 2. PAPI_profil over nbdiff_loop4's code */
	novf = 0;
	e = PAPI_profil(buf, sizeof buf, (vptr_t)(uintptr_t)nbdiff_loop4, 65536, es, PAPI_TOT_INS, T,
			PAPI_PROFIL_POSIX);
	tap_is(e, PAPI_OK, "PAPI_profil(PAPI_TOT_INS, %d)", T);
	if (e == PAPI_OK && (e = PAPI_start(es)) == PAPI_OK) {
		nbdiff_loop4(N);
		e = PAPI_stop(es, v);
	}
	for (int i = 0; i < NB; i++)
		samples += buf[i];
	tap_ok(e == PAPI_OK && samples >= 1 && samples <= v[0] / T,
	       "... %ld samples in the buffer, 1 to floor(count / %d) = %lld", samples, T, v[0] / T);
	PAPI_profil(buf, sizeof buf, (vptr_t)(uintptr_t)nbdiff_loop4, 65536, es, PAPI_TOT_INS, 0,
		    PAPI_PROFIL_POSIX);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return tap_exit();
}
