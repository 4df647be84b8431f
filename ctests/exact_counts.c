/*
 * exact_counts.c - exact counts by the difference method, through the public
 * PAPI API, on the simulated NetBurst.
 *
 * The same inline-asm loop runs at two lengths with the same event set; the
 * difference of the counts must equal (N2 - N1) x the per-iteration count,
 * exactly: everything outside the loop (PAPI's own code, loop entry and
 * exit, the final not-taken branch) is the same in both runs and cancels.
 *
 * Loop body, 4 instructions, all simple register ALU operations or a branch,
 * so 1 uop each in nbsim's uop model (sim/README.md), 1 branch, taken on
 * every iteration but the last:
 *     add $1,%rax ; xor %rax,%rdx ; sub $1,%rcx ; jnz 1b
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "papi.h"
#define NBDIFF_PREROLL 16     /* predictor state independent of the last n (nbdiff.h) */
#include "nbdiff.h"

#define INS_PER_ITER   4
#define UOPS_PER_ITER  4
#define N1 1000
#define N2 5000

static void loop(long n)
{
	long a = 0, d = 0;

	__asm__ volatile("1:\n\t"
			 "add $1, %0\n\t"
			 "xor %0, %1\n\t"
			 "sub $1, %2\n\t"
			 "jnz 1b\n\t"
			 : "+r"(a), "+r"(d), "+r"(n) : : "cc");
}

/* SLACK: the branch_retired masks split branches by their prediction,
 * and branches of PAPI's start/stop path (outside the loop) alias with
 * the loop's in the predictor: their prediction can differ between the
 * N1 and N2 runs (a layout accident: it comes and goes with the size of
 * the component's code: one branch, MMTP +1 and MMTM -1, until the perf
 * backend's per-set descriptors; two since, +2 and -2), moving them from
 * MMTP to MMTM or back.  The masks of one set then differ by at most 2
 * each, and their sum (SUM: the taken or the not-taken ones, which no
 * prediction moves between) is exact. */
struct ev {
	const char *name;
	long long per_iter;
	int slack;
};


static void check_set(const struct ev *evs, int n)
{
	long long a[NBDIFF_MAX], b[NBDIFF_MAX];
	const char *names[NBDIFF_MAX];

	for (int i = 0; i < n && i < NBDIFF_MAX; i++)
		names[i] = evs[i].name;
	long long sd = 0, sp = 0;
	int ns = 0;

	nbdiff_run("exact_counts", names, n, loop, N1, N2, a, b);
	for (int i = 0; i < n; i++) {
		char desc[160];

		snprintf(desc, sizeof desc, "%s: difference of %d and %d iterations is %lld x %d",
			 evs[i].name, N2, N1, evs[i].per_iter, N2 - N1);
		if (evs[i].slack) {
			nbdiff_is_slack(b[i] - a[i], N2 - N1, evs[i].per_iter, evs[i].slack, desc);
			sd += b[i] - a[i];
			sp += evs[i].per_iter;
			ns++;
		} else {
			tap_is(b[i] - a[i], (N2 - N1) * evs[i].per_iter, "%s", desc);
		}
		tap_diag("%s: %lld at N=%d, %lld at N=%d", evs[i].name, a[i], N1, b[i], N2);
	}
	if (ns)
		tap_is(sd, (N2 - N1) * sp, "the %d prediction masks together: difference %lld x %d", ns,
		       sp, N2 - N1);
}

int main(void)
{
	/* The branch_retired masks need distinct ESCR configurations and the
	 * event has two ESCRs (CRU_ESCR2/3), so they come in two sets. */
	static const struct ev set1[] = {
		{ "p4netburst:::instr_retired:NBOGUSNTAG", INS_PER_ITER, 0 },
		{ "p4netburst:::uops_retired:NBOGUS", UOPS_PER_ITER, 0 },
		{ "p4netburst:::branch_retired:MMTP", 1, 2 },
		{ "p4netburst:::branch_retired:MMTM", 0, 2 },
	};
	static const struct ev set2[] = {
		{ "p4netburst:::mispred_branch_retired:NBOGUS", 0, 0 },
		{ "p4netburst:::branch_retired:MMNP", 0, 2 },
		{ "p4netburst:::branch_retired:MMNM", 0, 2 },
		{ "PAPI_TOT_INS", INS_PER_ITER, 0 },
	};
	static const struct ev set3[] = {
		{ "PAPI_BR_INS", 1, 0 },
		{ "PAPI_BR_TKN", 1, 0 },
	};
	static const struct ev set4[] = {
		{ "PAPI_BR_NTK", 0, 0 },
		{ "PAPI_BR_MSP", 0, 0 },
	};
	int r;

	tap_plan(14);
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(r));
	check_set(set1, 4);
	check_set(set2, 4);
	check_set(set3, 2);
	check_set(set4, 2);
	PAPI_shutdown();
	return tap_exit();
}
