/*
 * t_step.c - step mode (per-cycle CCCR filters, README "Filtering") under
 * nbsim (TAP).  t_step.sh runs it with --nbsim-step-derive=lazy (the
 * default: raw counts folded only when a cycle needs it, nb_derive.c) and
 * =cycle (folded at every retirement cycle, as before the lazy folding),
 * and requires the same counts from both.
 *
 * One workload (LCG-driven branches, a third of them mispredicted; L1D
 * misses over a 256 KB array; stores; SSE2 multiply-adds; a rep movsb
 * every 64 iterations: MS ROM uops) under several counter sets, each a
 * mix of per-cycle filters and counters whose signals the wrong-path
 * model and the tagging derive (their shares carry fractions from one
 * derivation to the next: what the lazy folding must reproduce).  The
 * counts are printed as "count SET CTR VALUE" lines.
 *
 * Checks from first principles (uops_retired NBOGUS, at most 3 uops
 * retire per cycle [HIN01, README "Timing model"]; not with rep movsb,
 * whose iterations' uops nbsim retires in one cycle, so the set "uops"
 * runs the workload without it):
 *   - per cycle the output k in 0..3 satisfies k = [k>0] + [k>1] + [k>2],
 *     so the counts with Compare and Threshold 0, 1, 2 add up to the
 *     plain count (by the difference method: they are on two ESCRs);
 *   - cycles with no uop (Complement, Threshold 0) plus cycles with some
 *     (Threshold 0) are every cycle (Complement, Threshold 15), on one
 *     ESCR, so in one window; the same as global_power_events RUNNING;
 *   - a cascaded counter (14, alternate 12) counts the uops after the
 *     cycle in which counter 12 wraps: 0 to 2 fewer than counter 12 then
 *     holds (the rest of that cycle's at most 3 uops).
 */
#include <stdio.h>
#include <string.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "guest.h"

#define CMP  NB_CCCR_COMPARE
#define CMPL NB_CCCR_COMPLEMENT
#define EDGE NB_CCCR_EDGE
#define THR(n) ((uint64_t)(n) << NB_CCCR_THR_SHIFT)
#define NOEN (UINT64_C(1) << 63)       /* (table flag) leave Enable clear */

struct sc {                       /* one counter of a set */
	unsigned ctr, escr, ev;
	uint32_t mask;
	uint64_t cccr;                /* filter bits (+ NOEN)            */
	uint64_t preset;
};
struct set {
	const char *name;
	int rep;                      /* the workload's rep movsb         */
	uint64_t pebs, vert;          /* IA32_PEBS_ENABLE, MATRIX_VERT   */
	int tags;                     /* uop_type and scalar_dp_uop tags */
	struct sc c[8];
	unsigned n;
};

#define UOPS NB_EV_UOPS_RETIRED
#define RUN { 0, NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1, 0, 0 }
static const struct set sets[] = {
	{ "uops", 0, 0, 0, 0, {
		{ 14, NB_ESCR_CRU_ESCR1, UOPS, 1, 0, 0 },
		{ 12, NB_ESCR_CRU_ESCR0, UOPS, 1, CMP | THR(0), 0 },
		{ 13, NB_ESCR_CRU_ESCR0, UOPS, 1, CMP | THR(1), 0 },
		{ 16, NB_ESCR_CRU_ESCR0, UOPS, 1, CMP | THR(2), 0 },
		RUN }, 5 },
	{ "cycles", 0, 0, 0, 0, {
		{ 12, NB_ESCR_CRU_ESCR0, UOPS, 1, CMP | THR(0), 0 },
		{ 13, NB_ESCR_CRU_ESCR0, UOPS, 1, CMP | CMPL | THR(0), 0 },
		{ 16, NB_ESCR_CRU_ESCR0, UOPS, 1, CMP | CMPL | THR(15), 0 },
		{ 15, NB_ESCR_CRU_ESCR1, UOPS, 1, CMP | THR(0) | EDGE, 0 },
		RUN }, 5 },
	{ "wrongpath", 1, 0, 0, 1, {
		{ 12, NB_ESCR_CRU_ESCR0, UOPS, 1, CMP | THR(1) | EDGE, 0 },
		{ 14, NB_ESCR_CRU_ESCR1, UOPS, 2, 0, 0 },
		{ 13, NB_ESCR_CRU_ESCR2, NB_EV_FRONT_END_EVENT, 2, 0, 0 },
		{ 15, NB_ESCR_CRU_ESCR3, NB_EV_EXECUTION_EVENT, 0xff, 0, 0 },
		{ 4, NB_ESCR_MS_ESCR0, NB_EV_UOP_QUEUE_WRITES, 3, 0, 0 },
		{ 6, NB_ESCR_MS_ESCR1, NB_EV_UOP_QUEUE_WRITES, 4, 0, 0 },
		RUN }, 7 },
	{ "instr", 1, 0, 0, 1, {
		{ 14, NB_ESCR_CRU_ESCR1, UOPS, 1, CMP | CMPL | THR(0), 0 },
		{ 15, NB_ESCR_CRU_ESCR1, UOPS, 1, CMP | THR(2) | EDGE, 0 },
		{ 12, NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 0xc, 0, 0 },
		{ 16, NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 0xc, CMP | CMPL | THR(15), 0 },
		{ 13, NB_ESCR_CRU_ESCR2, NB_EV_BRANCH_RETIRED, 0xf, 0, 0 },
		{ 4, NB_ESCR_MS_ESCR0, NB_EV_TC_MS_XFER, 1, 0, 0 },
		RUN }, 7 },
	/* replay tagging and mispredicted-branch tagging (IA32_PEBS_ENABLE
	 * bits 0, 15, 16, 24; MATRIX_VERT loads and branches): folded at
	 * every cycle in both modes */
	{ "replay", 1, 0x01018001, 0x11, 1, {
		{ 12, NB_ESCR_CRU_ESCR0, UOPS, 1, CMP | CMPL | THR(0), 0 },
		{ 13, NB_ESCR_CRU_ESCR2, NB_EV_REPLAY_EVENT, 3, 0, 0 },
		{ 14, NB_ESCR_CRU_ESCR1, NB_EV_INSTR_RETIRED, 0xf, 0, 0 },
		RUN }, 4 },
	/* a filter on a derived signal (instructions): folded at every cycle */
	{ "instrfilter", 1, 0, 0, 1, {
		{ 12, NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 3, CMP | THR(1), 0 },
		{ 14, NB_ESCR_CRU_ESCR1, UOPS, 3, CMP | CMPL | THR(0), 0 },
		RUN }, 3 },
	{ "cascade", 1, 0, 0, 0, {
		{ 12, NB_ESCR_CRU_ESCR0, UOPS, 1, 0, (UINT64_C(1) << 40) - 200000 },
		{ 14, NB_ESCR_CRU_ESCR1, UOPS, 1, NB_CCCR_CASCADE | NOEN, 0 },
		RUN }, 3 },
};
#define NSETS (sizeof sets / sizeof sets[0])

static double dv[4096];
static unsigned char big[1 << 18];
static char src[256], dst[256];

static uint64_t work(unsigned n, int rep)
{
	uint64_t x = 12345, s = 0;
	double f = 0;

	for (unsigned i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned v = (unsigned)(x >> 40);
		if (v & 1)
			s += big[(i * 4160u) & (sizeof big - 1)];
		else
			big[(v * 64u) & (sizeof big - 1)] = (unsigned char)i;
		if ((v & 6) == 2)
			f += dv[v & 4095] * 1.5;
		if (rep && (i & 63) == 0) {
			char *d = dst, *q = src;
			unsigned long k = sizeof dst;
			__asm__ volatile("rep movsb" : "+D"(d), "+S"(q), "+c"(k) : : "memory");
		}
	}
	return s + (uint64_t)f + (unsigned char)dst[7];
}

static int program(const struct set *s)
{
	int ok = guest_wrmsr(NB_MSR_IA32_PEBS_ENABLE, s->pebs) &&
		guest_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, s->vert);
	if (s->tags) {
		/* uop_type TAGLOADS|TAGSTORES (front-end tagging);
		 * scalar_dp_uop ALL with TagValue 1 (execution tagging) */
		ok = ok && guest_wrmsr(nb_escrs[NB_ESCR_RAT_ESCR0].msr,
				       ((uint64_t)nb_events[NB_EV_UOP_TYPE].event_select << NB_ESCR_EVSEL_SHIFT) |
				       (UINT64_C(6) << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR);
		ok = ok && guest_wrmsr(nb_escrs[NB_ESCR_FIRM_ESCR0].msr,
				       ((uint64_t)nb_events[NB_EV_SCALAR_DP_UOP].event_select << NB_ESCR_EVSEL_SHIFT) |
				       (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + 15)) | NB_ESCR_TAG_ENABLE |
				       (UINT64_C(1) << NB_ESCR_TAG_SHIFT) | NB_ESCR_T0_USR);
	}
	/* counters and CCCRs first, then the ESCRs: the counters of one ESCR
	 * start in the same cycle (an ESCR without T0_USR counts nothing) */
	for (unsigned i = 0; i < s->n && ok; i++) {
		const struct sc *c = &s->c[i];
		uint64_t cccr = ((uint64_t)nb_escrs[c->escr].select << NB_CCCR_ESCRSEL_SHIFT) |
			((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT) | (c->cccr & ~NOEN);
		if (!(c->cccr & NOEN))
			cccr |= NB_CCCR_ENABLE;
		if (!(nb_escrs[c->escr].counters & (1u << c->ctr))) {
			tap_diag("set %s: %s does not feed counter %u", s->name,
				 nb_escrs[c->escr].name, c->ctr);
			return 0;
		}
		ok = guest_wrmsr(nb_counters[c->ctr].msr, c->preset) &&
			guest_wrmsr(nb_counters[c->ctr].cccr_msr, cccr);
	}
	for (unsigned i = 0; i < s->n && ok; i++) {
		const struct sc *c = &s->c[i];
		ok = guest_wrmsr(nb_escrs[c->escr].msr,
				 ((uint64_t)nb_events[c->ev].event_select << NB_ESCR_EVSEL_SHIFT) |
				 ((uint64_t)c->mask << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR);
	}
	return ok;
}

/* stop every counter of the set (the ESCRs first, in the reverse order of
 * program(): the first ESCR's window holds the others'), then read them */
static int stop_read(const struct set *s, uint64_t *v)
{
	int ok = 1;

	for (unsigned i = s->n; i-- > 0;)
		ok = ok && guest_wrmsr(nb_escrs[s->c[i].escr].msr, 0);
	for (unsigned i = 0; i < s->n; i++)
		ok = ok && guest_wrmsr(nb_counters[s->c[i].ctr].cccr_msr, 0);
	for (unsigned i = 0; i < s->n && ok; i++)
		ok = nbsim_rdmsr(nb_counters[s->c[i].ctr].msr, &v[i]) == NBSIM_OK;
	ok = ok && guest_wrmsr(NB_MSR_IA32_PEBS_ENABLE, 0) &&
		guest_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 0) &&
		guest_wrmsr(nb_escrs[NB_ESCR_RAT_ESCR0].msr, 0) &&
		guest_wrmsr(nb_escrs[NB_ESCR_FIRM_ESCR0].msr, 0);
	return ok;
}

#define N1 20000
#define N2 60000

static __attribute__((noinline)) int run(void)
{
	uint64_t v[NSETS][2][8], d[NSETS][8], sum = 0;

	tap_plan(NSETS + 5);
	for (unsigned i = 0; i < 4096; i++)
		dv[i] = i * 0.25;
	for (unsigned k = 0; k < NSETS; k++) {
		const struct set *s = &sets[k];
		int ok = 1;
		for (unsigned r = 0; r < 2; r++) {
			ok = program(s) && ok;
			sum += work(r ? N2 : N1, s->rep);
			ok = stop_read(s, v[k][r]) && ok;
		}
		tap_ok(ok, "set %s: programmed and read", s->name);
		for (unsigned i = 0; i < s->n; i++) {
			d[k][i] = v[k][1][i] - v[k][0][i];
			printf("count %s %u %llu %llu\n", s->name, s->c[i].ctr,
			       (unsigned long long)v[k][0][i], (unsigned long long)v[k][1][i]);
		}
	}
	/* set "uops": counter 14 (plain) on CRU_ESCR1, whose window holds
	 * CRU_ESCR0's (more than 0, 1, 2 uops): by the difference N2 - N1
	 * the setup cancels (the uops of the code between the two ESCRs'
	 * writes are the same in both runs) */
	TAP_EQ(d[0][1] + d[0][2] + d[0][3], d[0][0],
	       "uops: cycles with more than 0, 1, 2 uops add up to the uops (none retires more than 3)");
	tap_ok(d[0][0] > 500000 && d[0][2] > 0 && d[0][3] > 0,
	       "uops: the counts are non-trivial (%llu uops, %llu cycles with more than 2)",
	       (unsigned long long)d[0][0], (unsigned long long)d[0][3]);
	/* set "cycles": one ESCR, one window */
	TAP_EQ(v[1][1][0] + v[1][1][1], v[1][1][2], "cycles: cycles with and without uops are the cycles");
	tap_ok(v[1][1][1] > 0 && v[1][1][3] > 0 && v[1][1][3] <= v[1][1][0],
	       "cycles: stall cycles (%llu) and rising edges of retirement (%llu, at most the cycles with uops)",
	       (unsigned long long)v[1][1][1], (unsigned long long)v[1][1][3]);
	/* set "cascade": counter 12 (wrapped; its ESCR's window holds 14's),
	 * counter 14: by the difference, 14 counts 12's uops from the cycle
	 * after 12 wraps, i.e. 0 to 2 fewer in each run (the rest of that
	 * cycle's at most 3 uops) */
	{
		int64_t e = (int64_t)d[NSETS - 1][0] - (int64_t)d[NSETS - 1][1];
		tap_ok(e >= -2 && e <= 2 && d[NSETS - 1][1] > 100000,
		       "cascade: counter 14 counts from the cycle after counter 12 wraps (%llu, %llu)",
		       (unsigned long long)d[NSETS - 1][0], (unsigned long long)d[NSETS - 1][1]);
	}
	printf("# checksum %llu\n", (unsigned long long)sum);
	return 0;
}

int main(void)
{
	/* the stack at the same address modulo 1 MB whatever the
	 * environment's size (valgrind's own variables, the tool's path):
	 * the caches see the same conflicts, so the counts are the same in
	 * any build tree */
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	volatile char *pad = __builtin_alloca(((sp - 0x40000) & 0xfffff) + 16);

	pad[0] = 0;
	if (!nbsim_present()) {
		printf("1..0 # SKIP not running under nbsim\n");
		return 0;
	}
	return run();
}
