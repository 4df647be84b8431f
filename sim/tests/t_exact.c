/*
 * t_exact.c - exact event counts under nbsim, by the difference method.
 *
 * A guest program (run it with: nbsim -- t_exact; t_exact.sh does).  It
 * programs the simulated PMU directly through nbsim_client.h, runs an
 * inline-asm loop of known shape at two lengths, and checks that the
 * difference of the counts equals (N2 - N1) x the per-iteration count:
 *
 *   per iteration: add, xor, sub (register ALU)  3 instr  3 uops
 *                  mov (mem) -> reg (load)       1 instr  1 uop
 *                  mov reg -> (mem) (store)      1 instr  2 uops (STA+STD)
 *                  dec                           1 instr  1 uop
 *                  jnz (taken, predicted)        1 instr  1 uop
 *                  total                         7 instr  8 uops
 *   branch_retired: MMTP 1, MMNP 0, MMNM 0, MMTM 0; mispred 0.
 * (the last iteration's not-taken jnz and the measurement code are the
 * same in both runs and cancel out).
 */
#include <stdio.h>
#include <string.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "tap.h"

#define N1 1000
#define N2 3000

static uint64_t buf[4];

static __attribute__((noinline)) void kernel(uint64_t n)
{
	uint64_t a = 1, b = 2, c = 3, t;
	__asm__ volatile(
		"1:\n\t"
		"add %[a], %[b]\n\t"
		"xor %[b], %[c]\n\t"
		"sub %[c], %[a]\n\t"
		"mov (%[p]), %[t]\n\t"
		"mov %[t], 8(%[p])\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [a] "+r"(a), [b] "+r"(b), [c] "+r"(c), [t] "=&r"(t), [n] "+r"(n)
		: [p] "r"(buf)
		: "memory", "cc");
}

#define ESCR_MSR(name) (nb_escrs[NB_ESCR_##name].msr)

struct cfg {
	const char *what;
	unsigned escr;          /* NB_ESCR_* index */
	unsigned ev;            /* NB_EV_* */
	unsigned mask;          /* event-mask bits */
	unsigned ctr;           /* counter number */
	uint64_t escr_flags;    /* T0_USR etc. */
};

static uint64_t escr_value(const struct cfg *c)
{
	return ((uint64_t)nb_events[c->ev].event_select << NB_ESCR_EVSEL_SHIFT) |
	       ((uint64_t)c->mask << NB_ESCR_EMASK_SHIFT) | c->escr_flags;
}

static uint64_t cccr_value(const struct cfg *c)
{
	return NB_CCCR_ENABLE |
	       ((uint64_t)nb_escrs[c->escr].select << NB_CCCR_ESCRSEL_SHIFT) |
	       ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT);
}

static int wr(uint32_t msr, uint64_t v)
{
	if (nbsim_wrmsr(msr, v) != NBSIM_OK) {
		char why[200];
		nbsim_last_fault(why, sizeof why);
		tap_diag("unexpected #GP: %s", why);
		return 0;
	}
	return 1;
}

/* Program, run kernel(n), stop, read.  Returns 0 on a register fault. */
static int measure(const struct cfg *c, unsigned nc, uint64_t n, uint64_t *out)
{
	unsigned i;
	for (i = 0; i < nc; i++) {
		if (!wr(nb_escrs[c[i].escr].msr, escr_value(&c[i])) ||
		    !wr(nb_counters[c[i].ctr].msr, 0))
			return 0;
	}
	for (i = 0; i < nc; i++)
		if (!wr(nb_counters[c[i].ctr].cccr_msr, cccr_value(&c[i])))
			return 0;
	kernel(n);
	for (i = 0; i < nc; i++)
		if (!wr(nb_counters[c[i].ctr].cccr_msr, 0))
			return 0;
	for (i = 0; i < nc; i++)
		if (nbsim_rdmsr(nb_counters[c[i].ctr].msr, &out[i]) != NBSIM_OK)
			return 0;
	return 1;
}

#define T0U NB_ESCR_T0_USR

static const struct cfg pass1[] = {
	{ "instr_retired:NBOGUSNTAG", NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 1u << 0, 12, T0U },
	{ "uops_retired:NBOGUS", NB_ESCR_CRU_ESCR1, NB_EV_UOPS_RETIRED, 1u << 0, 14, T0U },
	{ "branch_retired:MMTP", NB_ESCR_CRU_ESCR2, NB_EV_BRANCH_RETIRED, 1u << 2, 13, T0U },
	{ "branch_retired:MMNP", NB_ESCR_CRU_ESCR3, NB_EV_BRANCH_RETIRED, 1u << 0, 15, T0U },
	{ "global_power_events:RUNNING", NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1u << 0, 0, T0U },
};
static const uint64_t per_iter1[] = { 7, 8, 1, 0 };   /* cycles: checked apart */

static const struct cfg pass2[] = {
	{ "mispred_branch_retired:NBOGUS", NB_ESCR_CRU_ESCR0, NB_EV_MISPRED_BRANCH_RETIRED, 1u << 0, 12, T0U },
	{ "branch_retired:MMNM", NB_ESCR_CRU_ESCR2, NB_EV_BRANCH_RETIRED, 1u << 1, 16, T0U },
	{ "branch_retired:MMTM", NB_ESCR_CRU_ESCR3, NB_EV_BRANCH_RETIRED, 1u << 3, 17, T0U },
};

int main(void)
{
	uint64_t a[8], b[8], w[8];
	unsigned i;

	tap_plan(19);
	if (!tap_ok(nbsim_present(), "running under nbsim")) {
		tap_diag("run this program with: nbsim -- t_exact");
		return 1;
	}

	/* Pass 1: warm up, then N1 and N2. */
	tap_ok(measure(pass1, 5, N1, w) && measure(pass1, 5, N1, a) && measure(pass1, 5, N2, b),
	       "pass 1 programmed without #GP");
	for (i = 0; i < 4; i++) {
		TAP_EQ(b[i] - a[i], (uint64_t)(N2 - N1) * per_iter1[i],
		       "%s: difference = %u x %llu", pass1[i].what, N2 - N1,
		       (unsigned long long)per_iter1[i]);
		tap_diag("  %s: N1=%llu N2=%llu", pass1[i].what,
			 (unsigned long long)a[i], (unsigned long long)b[i]);
	}
	tap_ok(b[4] > a[4] && a[4] > 0, "global_power_events:RUNNING grows with the loop (%llu -> %llu)",
	       (unsigned long long)a[4], (unsigned long long)b[4]);
	/* timing model: at least uops / retire width (3) cycles */
	tap_ok(b[4] - a[4] >= (b[1] - a[1]) / 3,
	       "cycles difference %llu >= uops difference / 3 (%llu)",
	       (unsigned long long)(b[4] - a[4]), (unsigned long long)((b[1] - a[1]) / 3));
	tap_ok(w[0] == a[0] && w[1] == a[1], "deterministic: same counts for the same run (%llu, %llu)",
	       (unsigned long long)w[0], (unsigned long long)a[0]);

	/* Pass 2: the mispredict side. */
	{
		const struct cfg *p2 = pass2;
		tap_ok(measure(p2, 3, N1, w) && measure(p2, 3, N1, a) && measure(p2, 3, N2, b),
		       "pass 2 programmed without #GP");
		for (i = 0; i < 3; i++) {
			TAP_EQ(b[i] - a[i], 0, "%s: difference = 0", p2[i].what);
			tap_diag("  %s: N1=%llu N2=%llu", p2[i].what,
				 (unsigned long long)a[i], (unsigned long long)b[i]);
		}
	}
	{
		struct cfg all = { "branch_retired:MMNP|MMNM|MMTP|MMTM", NB_ESCR_CRU_ESCR2,
				   NB_EV_BRANCH_RETIRED, 0xf, 12, T0U };
		tap_ok(measure(&all, 1, N1, a) && measure(&all, 1, N2, b), "pass 3 programmed");
		TAP_EQ(b[0] - a[0], N2 - N1, "%s: masks add up: difference = %u", all.what, N2 - N1);
	}

	/* OS-only qualification: the kernel is not simulated. */
	{
		struct cfg os = { "instr_retired T0_OS only", NB_ESCR_CRU_ESCR0,
				  NB_EV_INSTR_RETIRED, 1, 12, NB_ESCR_T0_OS };
		tap_ok(measure(&os, 1, N2, a), "T0_OS-only programmed");
		TAP_EQ(a[0], 0, "T0_OS only: user-mode guest code counts nothing");
	}

	/* RDPMC: full and fast read of a running counter. */
	{
		uint64_t full = 0, fast = 0, msr = 0;
		wr(nb_counters[12].msr, UINT64_C(0xfffffffff0));
		nbsim_rdpmc(12, &full);
		nbsim_rdpmc(12 | 0x80000000u, &fast);
		nbsim_rdmsr(nb_counters[12].msr, &msr);
		tap_ok(full == UINT64_C(0xfffffffff0) && fast == 0xfffffff0u && msr == full,
		       "RDPMC full %#llx, fast %#llx, RDMSR %#llx",
		       (unsigned long long)full, (unsigned long long)fast, (unsigned long long)msr);
	}

	/* #GP path through the client request, with a reason. */
	{
		char why[200];
		int r = nbsim_wrmsr(nb_escrs[NB_ESCR_CRU_ESCR0].msr, UINT64_C(1) << 31);
		nbsim_last_fault(why, sizeof why);
		tap_ok(r == NBSIM_GP && strstr(why, "CRU_ESCR0") && strstr(why, "0x80000000"),
		       "reserved ESCR bit: #GP, reason \"%s\"", why);
	}
	return tap_done();
}
