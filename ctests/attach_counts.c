/*
 * attach_counts.c - PAPI_attach to a forked child through the public API
 * (run under nbsim; tests/api/t_attach_counts_perf.t with
 * P4NETBURST_BACKEND=perf, t_attach_counts.t on sim): the perf backend
 * opens the set's events on the child's pid, the child's nbsim counts
 * them (sim/kernel/nb_kern_attach.c) and PAPI_stop reads the child's
 * count.  The child waits on a pipe, loops N iterations of 2 instructions
 * and exits; the parent attaches while the child is blocked (its
 * /proc/PID/stat state S), starts, lets it go and waits.  Difference
 * method: every other instruction counted (the read's return, the exit)
 * is the same for N1 and N2.  Backends that cannot attach (sim, msr:
 * cmp_info.attach 0) refuse PAPI_attach with PAPI_ECMP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "papi.h"
#include "nbtap.h"

#define N1 20000L
#define N2 50000L

static void __attribute__((noinline)) loop(long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

/* the state letter of process PID (proc(5): the field after "(comm)") */
static char state_of(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* PAPI_TOT_INS of a child looping N times, attached from here */
static long long child_run(int cid, long n)
{
	int es = PAPI_NULL, p[2], st, r;
	long long v = -1;
	pid_t pid;
	char c = 0;
	struct timespec ms = { 0, 1000000 };

	if (pipe(p))
		tap_bail("pipe");
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(2);
		loop(n);
		_exit(0);
	}
	close(p[0]);
	/* attached once it is blocked on the pipe: the count starts at the
	 * read's return, the same point for every child */
	for (int i = 0; i < 60000 && state_of(pid) != 'S'; i++)
		nanosleep(&ms, NULL);
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_assign_eventset_component(es, cid) != PAPI_OK)
		tap_bail("event set");
	if ((r = PAPI_attach(es, (unsigned long)pid)) != PAPI_OK)
		tap_bail("PAPI_attach: %d", r);
	if (PAPI_add_named_event(es, "PAPI_TOT_INS") != PAPI_OK)
		tap_bail("PAPI_add_named_event PAPI_TOT_INS");
	if ((r = PAPI_start(es)) != PAPI_OK)
		tap_bail("PAPI_start: %d", r);
	if (write(p[1], &c, 1) != 1)
		tap_bail("write");
	close(p[1]);
	waitpid(pid, &st, 0);
	if (PAPI_stop(es, &v) != PAPI_OK)
		tap_bail("PAPI_stop");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return v;
}

int main(void)
{
	int es = PAPI_NULL, r, cid;
	const PAPI_component_info_t *ci;
	long long a, b;

	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %d", r);
	cid = PAPI_get_component_index("p4netburst");
	ci = cid >= 0 ? PAPI_get_component_info(cid) : NULL;
	if (!ci || ci->disabled)
		tap_bail("p4netburst is not enabled (run under nbsim)");
	if (!ci->attach) {
		if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_assign_eventset_component(es, cid) != PAPI_OK)
			tap_bail("event set");
		r = PAPI_attach(es, (unsigned long)getppid());
		tap_is(r, PAPI_ECMP, "PAPI_attach on a backend that cannot attach: PAPI_ECMP");
		printf("1..%d\n", tap_n);
		return tap_exit();
	}
	(void)child_run(cid, N1);            /* warm-up: PAPI's first calls */
	a = child_run(cid, N1);
	b = child_run(cid, N2);
	tap_ok(a >= 2 * N1, "PAPI_attach to a forked child: its loop counted (%lld >= %ld)", a, 2 * N1);
	tap_is(b - a, 2 * (N2 - N1), "exact: the child's %ld more instructions (%lld, %lld)",
	       2 * (N2 - N1), a, b);
	printf("1..%d\n", tap_n);
	return tap_exit();
}
