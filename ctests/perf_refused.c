/*
 * perf_refused.c - an event set the kernel's P4 perf driver cannot place
 * is a conflict: PAPI_start returns PAPI_ECNFLCT and says why, also
 * without PAPI_VERBOSE, as every other conflict of the component does;
 * and the set counts once the event is removed.
 *
 * The perf backend leaves the placement to the kernel (first fit on the
 * thread-0 half, no shared ESCR), which refuses at perf_event_open, so at
 * PAPI_start.  It returned PAPI_ESYS ("A System/C library call failed")
 * and printed the reason only under PAPI_VERBOSE: papi_command_line
 * PAPI_TOT_INS instr_retired:NBOGUSNTAG said "Error! PAPI_start" and
 * nothing else; the high-level API's PAPI_hl_region_begin returned -3.
 * Two instr_retired configurations need CRU_ESCR0 and CRU_ESCR1, and the
 * kernel takes only thread 0's, CRU_ESCR0.  On the sim and msr backends
 * (argv[1] "ok") the same set is placed and counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "papi.h"
#include "nbtap.h"
#include "nbdiff.h"
#include "nbcapture.h"

#define N 100000L
#define SECOND "p4netburst:::instr_retired:NBOGUSNTAG"

int main(int argc, char **argv)
{
	int refused = argc > 1 && !strcmp(argv[1], "refused");
	int es = PAPI_NULL, rc;
	long long v[2] = { 0, 0 };

	unsetenv("PAPI_VERBOSE");
	tap_plan(5);
	if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(rc));
	if ((rc = PAPI_create_eventset(&es)) != PAPI_OK ||
	    (rc = PAPI_add_named_event(es, "PAPI_TOT_INS")) != PAPI_OK ||
	    (rc = PAPI_add_named_event(es, SECOND)) != PAPI_OK)
		tap_bail("the event set: %s", PAPI_strerror(rc));
	rc = start_capturing(es);
	if (refused) {
		tap_is(rc, PAPI_ECNFLCT, "PAPI_start of PAPI_TOT_INS and %s: PAPI_ECNFLCT (got %s)",
		       SECOND, PAPI_strerror(rc));
		tap_ok(strstr(msgbuf, "first-fit") && strstr(msgbuf, "instr_retired"),
		       "the reason is printed without PAPI_VERBOSE, naming the event and the "
		       "kernel's first-fit placement");
		tap_diag("stderr: %s", msgbuf);
	} else {
		tap_is(rc, PAPI_OK, "PAPI_start of PAPI_TOT_INS and %s", SECOND);
		tap_ok(msgbuf[0] == '\0', "nothing printed");
		(void)PAPI_stop(es, v);
	}
	if ((rc = PAPI_remove_named_event(es, SECOND)) != PAPI_OK)
		tap_bail("PAPI_remove_named_event: %s", PAPI_strerror(rc));
	rc = PAPI_start(es);
	tap_is(rc, PAPI_OK, "PAPI_start of PAPI_TOT_INS alone");
	nbdiff_loop4(N);
	tap_is(PAPI_stop(es, v), PAPI_OK, "PAPI_stop");
	tap_ok(v[0] >= N * NBDIFF_LOOP4_INS && v[0] < N * NBDIFF_LOOP4_INS + 20000,
	       "PAPI_TOT_INS %lld: the loop's %ld x %d and PAPI's calls", v[0], N, NBDIFF_LOOP4_INS);
	PAPI_shutdown();
	return tap_exit();
}
