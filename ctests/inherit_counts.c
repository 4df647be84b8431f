/*
 * inherit_counts.c - PAPI_INHERIT through the public API (run under nbsim
 * with P4NETBURST_BACKEND=perf; tests/api/t_inherit_counts_perf.t): the perf
 * backend opens the set's events with attr.inherit, so a child process
 * forked while the set runs counts into it (PAPI's ctests/inherit, with
 * PAPI_TOT_INS and an exact check).  Difference method: the child loops N
 * iterations of 2 instructions; every other instruction counted is the
 * same for N1 and N2 (a warm-up run first binds fork, waitpid and _exit).
 * Backends without inheritance (sim, msr) refuse PAPI_INHERIT with
 * PAPI_ECMP (cmp_info.inherit 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "papi.h"
#include "nbtap.h"

#define N1 20000L
#define N2 50000L

static void __attribute__((noinline)) loop(long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

static long long run(int es, long n)
{
	long long v = -1;
	int st;
	pid_t p;

	if (PAPI_start(es) != PAPI_OK)
		tap_bail("PAPI_start");
	p = fork();
	if (p == 0) {
		loop(n);
		_exit(0);
	}
	waitpid(p, &st, 0);
	if (PAPI_stop(es, &v) != PAPI_OK)
		tap_bail("PAPI_stop");
	return v;
}

int main(void)
{
	int es = PAPI_NULL, r, cid;
	const PAPI_component_info_t *ci;
	PAPI_option_t opt;
	long long a, b;

	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %d", r);
	cid = PAPI_get_component_index("p4netburst");
	ci = cid >= 0 ? PAPI_get_component_info(cid) : NULL;
	if (!ci || ci->disabled)
		tap_bail("p4netburst is not enabled (run under nbsim)");
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, "PAPI_TOT_INS") != PAPI_OK)
		tap_bail("event set PAPI_TOT_INS");
	(void)run(es, N1);
	a = run(es, N1);
	b = run(es, N2);
	tap_is(b - a, 0, "without PAPI_INHERIT the child's loop is not counted (%lld, %lld)", a, b);
	memset(&opt, 0, sizeof(opt));
	opt.inherit.inherit = PAPI_INHERIT_ALL;
	opt.inherit.eventset = es;
	r = PAPI_set_opt(PAPI_INHERIT, &opt);
	if (!ci->inherit) {
		tap_is(r, PAPI_ECMP, "PAPI_INHERIT on a backend without inheritance: PAPI_ECMP");
		printf("1..%d\n", tap_n);
		return tap_exit();
	}
	tap_is(r, PAPI_OK, "PAPI_INHERIT on the perf backend (cmp_info.inherit 1)");
	(void)run(es, N1);
	a = run(es, N1);
	b = run(es, N2);
	tap_is(b - a, 2 * (N2 - N1), "PAPI_INHERIT: the child's %ld more instructions are counted "
	       "(%lld, %lld)", 2 * (N2 - N1), a, b);
	memset(&opt, 0, sizeof(opt));
	opt.inherit.eventset = es;
	tap_ok(PAPI_get_opt(PAPI_INHERIT, &opt) == PAPI_OK && opt.inherit.inherit == PAPI_INHERIT_ALL,
	       "PAPI_get_opt(PAPI_INHERIT) reads it back");
	printf("1..%d\n", tap_n);
	return tap_exit();
}
