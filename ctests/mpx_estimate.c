/*
 * mpx_estimate.c - an event whose first multiplexing slice is short keeps
 * the cycles before it in PAPI's estimate.
 *
 * PAPI's software multiplexing counts each event in a set of its own
 * beside PAPI_TOT_CYC, one set per timer slice, and estimates the event as
 * its rate per cycle (measured on a slice of at least MPX_MINCYC, 25,000
 * cycles) times the cycles since its last slice.  A slice under
 * MPX_MINCYC measures no rate, but PAPI charged the cycles since the
 * event's last slice at the rate so far: for an event whose first slice
 * was short, rate 0, every cycle before it lost.  In a 26-event set
 * global_power_events:RUNNING read 5.7 M beside PAPI_TOT_CYC's 26.7 M.
 * Short slices are common under nbsim: the timer (ITIMER_PROF) ticks in
 * the host's CPU time, and the first run of PAPI's slice switch, or of
 * code nbsim instruments anew, takes several ticks of translation while
 * the guest runs a few hundred cycles.  Here the second slice is such a
 * one, and PAPI's fixed seed gives it to RUNNING (the first slice goes to
 * PAPI_TOT_INS, the last added).  patches/papi-7.0.0-mpx-short-slice.patch.
 *
 * Checked: RUNNING and PAPI_TOT_CYC estimate the same cycles, exactly
 * (RUNNING is PAPI_TOT_CYC's event: in its set the two read one counter,
 * so every measured rate is exactly 1 and the estimate is the multiplexed
 * cycle total, as for PAPI_TOT_CYC); and PAPI_TOT_CYC is within 1% of the
 * same loop counted without multiplexing: the multiplexed total leaves
 * out the cycles from each slice's stop to the next one's start and adds
 * PAPI_read's (0.14% to 0.18% more on the three backends).  The loop
 * runs in rounds, at least MIN_ROUNDS, until both events have an estimate
 * (a measured slice), so that a fast host, whose ticks come after fewer
 * guest cycles, is checked as a slow one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "papi.h"
#include "nbtap.h"
#include "nbmpx.h"
#include "nbdiff.h"

#define ROUND 5000000L          /* iterations per round: about 6.7 M cycles */
#define MIN_ROUNDS 4           /* about 27 M cycles at least */
#define MAX_ROUNDS 40

static const char *const evs[] = {
	"PAPI_TOT_CYC", "p4netburst:::global_power_events:RUNNING", "PAPI_TOT_INS",
};
#define NEV 3
#define CYC 0
#define RUNNING 1

int main(void)
{
	int es, plain = PAPI_NULL, rc, rounds = 0;
	long long v[NEV], cyc = 0;

	tap_plan(4);
	es = nb_mpx_eventset();
	for (int i = 0; i < NEV; i++)
		if ((rc = PAPI_add_named_event(es, evs[i])) != PAPI_OK)
			tap_bail("PAPI_add_named_event %s: %s", evs[i], PAPI_strerror(rc));
	if ((rc = PAPI_start(es)) != PAPI_OK)
		tap_bail("PAPI_start: %s", PAPI_strerror(rc));
	/* until both have had a measured slice (PAPI_read gives the
	 * estimates so far, which grow at measured slices only) */
	do {
		nbdiff_loop4(ROUND);
		rounds++;
		if ((rc = PAPI_read(es, v)) != PAPI_OK)
			tap_bail("PAPI_read: %s", PAPI_strerror(rc));
	} while ((rounds < MIN_ROUNDS || v[CYC] <= 0 || v[RUNNING] <= 0) && rounds < MAX_ROUNDS);
	tap_ok(v[CYC] > 0 && v[RUNNING] > 0, "both cycle events estimated after %d rounds of %ld "
	       "iterations (%d to %d)", rounds, ROUND, MIN_ROUNDS, MAX_ROUNDS);
	if ((rc = PAPI_stop(es, v)) != PAPI_OK)
		tap_bail("PAPI_stop: %s", PAPI_strerror(rc));
	tap_is(v[RUNNING], v[CYC], "global_power_events:RUNNING and PAPI_TOT_CYC (its event): "
	       "the same estimate");

	/* the same loop without multiplexing */
	if ((rc = PAPI_create_eventset(&plain)) != PAPI_OK ||
	    (rc = PAPI_add_named_event(plain, "PAPI_TOT_CYC")) != PAPI_OK ||
	    (rc = PAPI_start(plain)) != PAPI_OK)
		tap_bail("the plain set: %s", PAPI_strerror(rc));
	for (int r = 0; r < rounds; r++)
		nbdiff_loop4(ROUND);
	if ((rc = PAPI_stop(plain, &cyc)) != PAPI_OK)
		tap_bail("PAPI_stop of the plain set: %s", PAPI_strerror(rc));
	tap_ok(cyc > 0 && v[CYC] > cyc * 99 / 100 && v[CYC] < cyc * 101 / 100,
	       "multiplexed PAPI_TOT_CYC %lld within 1%% of %lld unmultiplexed", v[CYC], cyc);
	tap_ok(v[RUNNING] > cyc * 99 / 100 && v[RUNNING] < cyc * 101 / 100,
	       "multiplexed global_power_events:RUNNING %lld within 1%% of %lld", v[RUNNING], cyc);
	PAPI_shutdown();
	return tap_exit();
}
