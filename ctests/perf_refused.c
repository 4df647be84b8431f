/*
 * perf_refused.c - an event set the kernel's P4 perf driver cannot place
 * is a conflict: PAPI_add_event returns PAPI_ECNFLCT and says why, also
 * without PAPI_VERBOSE, as every other conflict of the component does;
 * the set keeps the events it had, and counts them.
 *
 * The perf backend leaves the placement to the kernel (first fit on the
 * thread-0 half, no shared ESCR), which refuses at perf_event_open.  The
 * component opened the events at PAPI_start only, and refused there: first
 * with PAPI_ESYS and the reason under PAPI_VERBOSE only (papi_command_line
 * PAPI_TOT_INS instr_retired:NBOGUSNTAG said "Error! PAPI_start" and
 * nothing else), then with PAPI_ECNFLCT.  But PAPI learns at
 * PAPI_add_event what can be counted together: its software multiplexing
 * adds each event beside PAPI_TOT_CYC and asserts that the pair starts
 * (papi_multiplex_cost aborted, tests/suites/t_mpx_cost_perf.t).  The component
 * now asks the kernel when the set changes, as PAPI's perf_event
 * component does.  Two instr_retired configurations need CRU_ESCR0 and
 * CRU_ESCR1, and the kernel takes only thread 0's, CRU_ESCR0.  On the sim
 * and msr backends (argv[1] "ok") the same set is placed and counted.
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
	    (rc = PAPI_add_named_event(es, "PAPI_TOT_INS")) != PAPI_OK)
		tap_bail("the event set: %s", PAPI_strerror(rc));
	rc = add_capturing(es, SECOND);
	if (refused) {
		tap_is(rc, PAPI_ECNFLCT, "PAPI_add_named_event %s beside PAPI_TOT_INS: PAPI_ECNFLCT "
		       "(got %s)", SECOND, PAPI_strerror(rc));
		tap_ok(strstr(msgbuf, "first-fit") && strstr(msgbuf, "instr_retired"),
		       "the reason is printed without PAPI_VERBOSE, naming the event and the "
		       "kernel's first-fit placement");
		tap_diag("stderr: %s", msgbuf);
	} else {
		char added[sizeof(msgbuf)];

		tap_is(rc, PAPI_OK, "PAPI_add_named_event %s beside PAPI_TOT_INS", SECOND);
		memcpy(added, msgbuf, sizeof(added));
		rc = start_capturing(es);
		tap_ok(rc == PAPI_OK && added[0] == '\0' && msgbuf[0] == '\0',
		       "PAPI_start of both: %s, nothing printed", PAPI_strerror(rc));
		(void)PAPI_stop(es, v);
		if ((rc = PAPI_remove_named_event(es, SECOND)) != PAPI_OK)
			tap_bail("PAPI_remove_named_event: %s", PAPI_strerror(rc));
	}
	rc = PAPI_start(es);
	tap_is(rc, PAPI_OK, "PAPI_start of PAPI_TOT_INS alone");
	nbdiff_loop4(N);
	tap_is(PAPI_stop(es, v), PAPI_OK, "PAPI_stop");
	tap_ok(v[0] >= N * NBDIFF_LOOP4_INS && v[0] < N * NBDIFF_LOOP4_INS + 20000,
	       "PAPI_TOT_INS %lld: the loop's %ld x %d and PAPI's calls", v[0], N, NBDIFF_LOOP4_INS);
	PAPI_shutdown();
	return tap_exit();
}
