/*
 * t_exact.c - exact event counts under nbsim, by the difference method.
 *
 * A guest program (run it with: nbsim -- t_exact; t_exact.sh does).  It
 * programs the simulated PMU directly through nbsim_client.h, runs inline-asm
 * loops of known shape at two lengths N1, N2 (after a warm-up run, so that
 * both start from the same predictor state), and checks that the difference
 * of the counts equals (N2 - N1) x the per-iteration count of the models in
 * README.md:
 *
 *   basic loop     add, xor, sub (ALU: 1 uop each), mov load (1), mov store
 *                  (2: STA+STD), dec (1), jnz (1, taken, predicted)
 *                  = 7 instr, 8 uops, MMTP 1
 *   rep movsb x16  3 mov reg (1 each), rep movsb (1 instr, 16 x 4 uops:
 *                  load + store + count), dec, jnz = 6 instr, 69 uops, MMTP 1
 *   call/ret       call (3 uops: jump + store), ret (2: jump + load), dec,
 *                  jnz = 4 instr, 7 uops, MMTP 3 (the return stack predicts)
 *   alternating jz per 2 iterations: 9 instr, 9 uops, MMTP 3 (jnz x 2,
 *                  jz taken once), MMNP 1 (jz), mispredicted 0: the
 *                  global-history predictor has learnt the pattern
 *   T,T,N jb       per 3 iterations: 16 instr, 16 uops, MMTP 5, MMNP 1,
 *                  mispredicted 0
 *   random js      (not by difference) 50% +- 3% mispredicted
 *
 * and that cycles (global_power_events) grow as the timing model has them
 * (dependency chain or retirement, + mispredicts x penalty; README
 * "Timing model", t_timing for every class).  The last not-taken jnz and the measurement code are the same in
 * both runs and cancel out.
 */
#include <stdio.h>
#include <string.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "guest.h"

#define N1 1000
#define N2 3000

static uint64_t buf[4];
static char src[64], dst[64];

/* basic: 3 ALU, load, store, dec, jnz */
static __attribute__((noinline)) void k_basic(uint64_t n)
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

/* rep movsb of 16 bytes: one instruction, 16 x 4 uops */
static __attribute__((noinline)) void k_rep(uint64_t n)
{
	__asm__ volatile(
		"1:\n\t"
		"mov %[len], %%rcx\n\t"
		"mov %[s], %%rsi\n\t"
		"mov %[d], %%rdi\n\t"
		"rep movsb\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [n] "+r"(n)
		: [len] "r"((uint64_t)16), [s] "r"(src), [d] "r"(dst)
		: "rcx", "rsi", "rdi", "memory", "cc");
}

/* call/ret: the return stack predicts the ret */
__asm__(".text\n\t.type nb_leaf,@function\nnb_leaf:\n\tret\n\t.size nb_leaf,.-nb_leaf\n");
static __attribute__((noinline)) void k_call(uint64_t n)
{
	__asm__ volatile(
		"sub $128, %%rsp\n\t"          /* keep off the red zone */
		"1:\n\t"
		"call nb_leaf\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		"add $128, %%rsp\n\t"
		: [n] "+r"(n)
		:
		: "memory", "cc");
}

/* alternating forward jz: the global-history predictor learns it (no
 * misprediction once trained) */
static __attribute__((noinline)) void k_alt(uint64_t n)
{
	uint64_t a = 1, b = 2;
	__asm__ volatile(
		"1:\n\t"
		"testq $1, %[n]\n\t"
		"jz 2f\n\t"
		"add %[a], %[b]\n\t"
		"2:\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [a] "+r"(a), [b] "+r"(b), [n] "+r"(n)
		:
		: "cc");
}

/* T,T,N forward jb (3n iterations): learnt too */
static __attribute__((noinline)) void k_ttn(uint64_t n)
{
	uint64_t c = 0;
	n *= 3;
	__asm__ volatile(
		"1:\n\t"
		"inc %[c]\n\t"
		"cmp $3, %[c]\n\t"
		"jb 2f\n\t"
		"xor %k[c], %k[c]\n\t"
		"2:\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [c] "+r"(c), [n] "+r"(n)
		:
		: "cc");
}

/* 50/50 random forward js on the top bit of a fixed-seed 64-bit LCG */
static uint64_t lcg_x = 12345;
static __attribute__((noinline)) void k_rand(uint64_t n)
{
	uint64_t a = 1, b = 2;
	__asm__ volatile(
		"1:\n\t"
		"imul %[m], %[x]\n\t"
		"add %[i], %[x]\n\t"
		"test %[x], %[x]\n\t"
		"js 2f\n\t"
		"add %[a], %[b]\n\t"
		"2:\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [x] "+r"(lcg_x), [a] "+r"(a), [b] "+r"(b), [n] "+r"(n)
		: [m] "r"(UINT64_C(6364136223846793005)), [i] "r"(UINT64_C(1442695040888963407))
		: "cc");
}

/* memory: 2 loads, 1 store, 1 load+store (add to memory), dec, jnz */
static uint64_t mbuf[4];
static __attribute__((noinline)) void k_mem(uint64_t n)
{
	uint64_t t, u;
	__asm__ volatile(
		"1:\n\t"
		"mov (%[p]), %[t]\n\t"
		"mov 8(%[p]), %[u]\n\t"
		"mov %[t], 16(%[p])\n\t"
		"add %[u], 24(%[p])\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [t] "=&r"(t), [u] "=&r"(u), [n] "+r"(n)
		: [p] "r"(mbuf)
		: "memory", "cc");
}

/* FP/SIMD: per iteration 1 x87 (fadd), 2 scalar SP (addss), 3 scalar DP
 * (addsd), 4 packed SP (mulps), 5 packed DP (addpd), 6 64-bit SIMD integer
 * (paddd mm), 7 128-bit SIMD integer (paddd xmm); moves around the loop
 * (fld1, fstp, emms) are the same in both runs */
static __attribute__((noinline)) void k_fp(uint64_t n)
{
	__asm__ volatile(
		"fld1\n\t"
		"fld1\n\t"
		"1:\n\t"
		"fadd %%st(1), %%st\n\t"
		".rept 2\n\taddss %%xmm1, %%xmm0\n\t.endr\n\t"
		".rept 3\n\taddsd %%xmm1, %%xmm0\n\t.endr\n\t"
		".rept 4\n\tmulps %%xmm2, %%xmm2\n\t.endr\n\t"
		".rept 5\n\taddpd %%xmm1, %%xmm3\n\t.endr\n\t"
		".rept 6\n\tpaddd %%mm0, %%mm1\n\t.endr\n\t"
		".rept 7\n\tpaddd %%xmm3, %%xmm4\n\t.endr\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		"emms\n\t"
		"fstp %%st(0)\n\t"
		"fstp %%st(0)\n\t"
		: [n] "+r"(n)
		:
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "mm0", "mm1", "cc");
}

/* dead loads: 8 loads into one register per iteration (only the last
 * result is used), dec, jnz; each load is retired and counted (README
 * "What VEX's optimiser must not remove") */
static uint64_t dbuf[8];
static __attribute__((noinline)) void k_dead(uint64_t n)
{
	uint64_t t;
	__asm__ volatile(
		"1:\n\t"
		"mov (%[p]), %[t]\n\t"
		"mov 8(%[p]), %[t]\n\t"
		"mov 16(%[p]), %[t]\n\t"
		"mov 24(%[p]), %[t]\n\t"
		"mov 32(%[p]), %[t]\n\t"
		"mov 40(%[p]), %[t]\n\t"
		"mov 48(%[p]), %[t]\n\t"
		"mov 56(%[p]), %[t]\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [t] "=&r"(t), [n] "+r"(n)
		: [p] "r"(dbuf)
		: "memory", "cc");
	(void)t;
}

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

/* Program, run fn(n), stop, read.  Returns 0 on a register fault. */
static int measure(const struct cfg *c, unsigned nc, void (*fn)(uint64_t), uint64_t n,
		   uint64_t *out)
{
	unsigned i;
	for (i = 0; i < nc; i++) {
		if (!guest_wrmsr(nb_escrs[c[i].escr].msr, escr_value(&c[i])) ||
		    !guest_wrmsr(nb_counters[c[i].ctr].msr, 0))
			return 0;
	}
	for (i = 0; i < nc; i++)
		if (!guest_wrmsr(nb_counters[c[i].ctr].cccr_msr, cccr_value(&c[i])))
			return 0;
	fn(n);
	for (i = 0; i < nc; i++)
		if (!guest_wrmsr(nb_counters[c[i].ctr].cccr_msr, 0))
			return 0;
	for (i = 0; i < nc; i++)
		if (nbsim_rdmsr(nb_counters[c[i].ctr].msr, &out[i]) != NBSIM_OK)
			return 0;
	return 1;
}

#define T0U NB_ESCR_T0_USR

/* Two passes cover the events (CRU_ESCR0/1 and CRU_ESCR2/3 hold one
 * event configuration each). */
#define NEV 8
static const struct cfg passA[] = {
	{ "instr_retired:NBOGUSNTAG", NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 1u << 0, 12, T0U },
	{ "uops_retired:NBOGUS", NB_ESCR_CRU_ESCR1, NB_EV_UOPS_RETIRED, 1u << 0, 14, T0U },
	{ "branch_retired:MMTP", NB_ESCR_CRU_ESCR2, NB_EV_BRANCH_RETIRED, 1u << 2, 13, T0U },
	{ "branch_retired:MMNP", NB_ESCR_CRU_ESCR3, NB_EV_BRANCH_RETIRED, 1u << 0, 15, T0U },
	{ "global_power_events:RUNNING", NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1u << 0, 0, T0U },
};
static const struct cfg passB[] = {
	{ "mispred_branch_retired:NBOGUS", NB_ESCR_CRU_ESCR0, NB_EV_MISPRED_BRANCH_RETIRED, 1u << 0, 12, T0U },
	{ "branch_retired:MMNM", NB_ESCR_CRU_ESCR2, NB_EV_BRANCH_RETIRED, 1u << 1, 16, T0U },
	{ "branch_retired:MMTM", NB_ESCR_CRU_ESCR3, NB_EV_BRANCH_RETIRED, 1u << 3, 17, T0U },
};
/* result order: instr uops MMTP MMNP cycles | mispred MMNM MMTM */
enum { R_INSTR, R_UOPS, R_MMTP, R_MMNP, R_CYC, R_MISP, R_MMNM, R_MMTM };

struct kernel {
	const char *name;
	void (*fn)(uint64_t);
	unsigned per;           /* expectations are per this many iterations */
	uint64_t want[NEV];     /* R_CYC unused */
	uint64_t cyc3;          /* 3 x cycles per `per` iterations (timing model) */
};

static const struct kernel kernels[] = {
	/* cycles (README "Timing model", Prescott): the add -> xor -> sub
	 * chain, 3 x 1 cycle (ALU latency [ORM-C]); the others retirement-
	 * bound, uops / 3 (rep movsb: 73 scheduled uops, the REP
	 * instruction's first-iteration uops once more) */
	{ "basic loop", k_basic, 1, { 7, 8, 1, 0, 0, 0, 0, 0 }, 9 },
	{ "rep movsb x16", k_rep, 1, { 6, 3 + 16 * 4 + 2, 1, 0, 0, 0, 0, 0 }, 73 },
	{ "call/ret", k_call, 1, { 4, 3 + 2 + 2, 3, 0, 0, 0, 0, 0 }, 7 },
	{ "alternating jz", k_alt, 2, { 9, 9, 3, 1, 0, 0, 0, 0 }, 9 },
	{ "T,T,N jb", k_ttn, 1, { 16, 16, 5, 1, 0, 0, 0, 0 }, 16 },
};

static const char *rname(unsigned r)
{
	return r < 5 ? passA[r].what : passB[r - 5].what;
}

/* warm-up, N1, N2; d[r] = count(N2) - count(N1); a[] = counts at N1 */
static int run(const struct kernel *k, uint64_t *d, uint64_t *a)
{
	uint64_t w[NEV], x[NEV], y[NEV];
	/* Warm-up: the measurement code's own branches run once per
	 * measurement and their 2-bit counters need a few visits (under each
	 * global history) to settle; three warm-up runs make the N1 and N2
	 * runs start from the same predictor state. */
	for (unsigned i = 0; i < 3; i++)
		if (!measure(passA, 5, k->fn, N1, w))
			return 0;
	if (!measure(passA, 5, k->fn, N1, x) || !measure(passA, 5, k->fn, N2, y))
		return 0;
	for (unsigned i = 0; i < 3; i++)
		if (!measure(passB, 3, k->fn, N1, w + 5))
			return 0;
	if (!measure(passB, 3, k->fn, N1, x + 5) || !measure(passB, 3, k->fn, N2, y + 5))
		return 0;
	for (unsigned r = 0; r < NEV; r++) {
		d[r] = y[r] - x[r];
		a[r] = x[r];
	}
	return 1;
}

int main(void)
{
	uint64_t d[NEV], a[NEV], a2[NEV], d2[NEV];
	struct nbsim_info inf;
	unsigned penalty;
	int r;

	if (!tap_ok(nbsim_present(), "running under nbsim")) {
		tap_diag("run this program with: nbsim -- t_exact");
		return 1;
	}
	/* translated before any counter is enabled: with nothing counted,
	 * code is translated with VEX's own register-update policy, which
	 * drops seven of k_dead's loads; counting must translate it again */
	k_dead(N1);
	memset(&inf, 0, sizeof inf);
	r = nbsim_info(&inf);
	tap_ok(r == NBSIM_OK && inf.family == 15, "INFO: family %u model %u (%s)",
	       inf.family, inf.model, inf.model_name);
	/* misprediction penalty of the timing model (README "Timing model") */
	penalty = (inf.model == 3 || inf.model == 6) ? 31 : 20;

	for (unsigned k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
		const struct kernel *K = &kernels[k];
		uint64_t span = (N2 - N1) / K->per;
		if (!tap_ok(run(K, d, a), "%s: PMU programmed without #GP", K->name)) {
			for (unsigned r = 0; r < 8; r++)
				tap_ok(0, "%s: skipped after #GP", K->name);
			continue;
		}
		for (unsigned r = 0; r < NEV; r++) {
			if (r == R_CYC)
				continue;
			TAP_EQ(d[r], span * K->want[r], "%s: %s: N2-N1 difference = %llu x %llu",
			       K->name, rname(r), (unsigned long long)span,
			       (unsigned long long)K->want[r]);
		}
		tap_diag("  %s at N1=%d: instr %llu uops %llu MMTP %llu MMNP %llu cycles %llu "
			 "mispred %llu MMNM %llu MMTM %llu", K->name, N1,
			 (unsigned long long)a[0], (unsigned long long)a[1], (unsigned long long)a[2],
			 (unsigned long long)a[3], (unsigned long long)a[4], (unsigned long long)a[5],
			 (unsigned long long)a[6], (unsigned long long)a[7]);
		{
			/* cycles: the timing model's figure, + mispredicts x
			 * penalty (none once trained), each run rounded */
			int64_t model = (int64_t)(span * K->cyc3 / 3 + d[R_MISP] * penalty);
			int64_t diff = (int64_t)d[R_CYC] - model;
			tap_ok(d[R_CYC] > 0 && diff >= -1 && diff <= 1,
			       "%s: global_power_events %llu = %llu x %llu/3 + %u x mispredicts (%lld)",
			       K->name, (unsigned long long)d[R_CYC], (unsigned long long)span,
			       (unsigned long long)K->cyc3, penalty, (long long)model);
		}
	}

	/* determinism: the same measurement twice gives the same counts */
	/* (cycles are floor(total uops / 3) + ...: a difference may move by 1
	 * with the phase of the total uop count) */
	r = run(&kernels[4], d2, a2);
	for (unsigned i = 0; i < NEV; i++)
		if (i == R_CYC ? (d[i] > d2[i] + 1 || d2[i] > d[i] + 1 ||
				  a[i] > a2[i] + 1 || a2[i] > a[i] + 1)
			       : (a[i] != a2[i] || d[i] != d2[i]))
			r = 0;
	if (!tap_ok(r, "deterministic: repeating the last kernel gives identical counts "
		    "(cycles +- 1)"))
		for (unsigned r = 0; r < NEV; r++)
			tap_diag("  %s: N1 %llu / %llu, N2-N1 %llu / %llu", rname(r),
				 (unsigned long long)a[r], (unsigned long long)a2[r],
				 (unsigned long long)d[r], (unsigned long long)d2[r]);

	/* Front-end tagging: uop_type (RAT_ESCR0, no CCCR) tags load and/or
	 * store uops; front_end_event NBOGUS counts the tagged uops retired,
	 * instr_retired NBOGUSTAG the instructions with a tagged uop. */
	{
		static const struct cfg fe[3] = {
			{ "front_end_event:NBOGUS", NB_ESCR_CRU_ESCR2, NB_EV_FRONT_END_EVENT, 1, 13, T0U },
			{ "instr_retired:NBOGUSTAG", NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 2, 12, T0U },
			{ "instr_retired:NBOGUSNTAG", NB_ESCR_CRU_ESCR1, NB_EV_INSTR_RETIRED, 1, 14, T0U },
		};
		static const struct { const char *name; void (*fn)(uint64_t); unsigned tags;
				      uint64_t usr; uint64_t fe, itag, intag; } tk[] = {
			/* k_mem per iteration: loads 3 (2 mov + add), stores 2
			 * (mov + add); 6 instructions: 2 load-only, 1 store-only,
			 * 1 load+store */
			{ "mem TAGLOADS", k_mem, 1, T0U, 3, 3, 3 },
			{ "mem TAGSTORES", k_mem, 2, T0U, 2, 2, 4 },
			{ "mem TAGLOADS|TAGSTORES", k_mem, 3, T0U, 5, 4, 2 },
			{ "mem TAGLOADS, uop_type ESCR T0_OS only", k_mem, 1, NB_ESCR_T0_OS, 0, 0, 6 },
			/* basic loop: 1 load, 1 store in 7 instructions */
			{ "basic TAGLOADS|TAGSTORES", k_basic, 3, T0U, 2, 2, 5 },
			/* call/ret: call stores, ret loads (4 instructions) */
			{ "call/ret TAGLOADS", k_call, 1, T0U, 1, 1, 3 },
			{ "call/ret TAGSTORES", k_call, 2, T0U, 1, 1, 3 },
			/* rep movsb x16: 16 loads and stores in 1 instruction */
			{ "rep movsb TAGLOADS|TAGSTORES", k_rep, 3, T0U, 32, 1, 5 },
			/* dead loads, first run with no counter enabled
			 * (above): 8 loads in 10 instructions */
			{ "dead loads TAGLOADS", k_dead, 1, T0U, 8, 8, 2 },
		};
		for (unsigned t = 0; t < sizeof tk / sizeof tk[0]; t++) {
			uint64_t rat = ((uint64_t)nb_events[NB_EV_UOP_TYPE].event_select
					<< NB_ESCR_EVSEL_SHIFT) |
				((uint64_t)tk[t].tags << (NB_ESCR_EMASK_SHIFT + 1)) | tk[t].usr;
			uint64_t x[3], y[3];
			int ok = guest_wrmsr(nb_escrs[NB_ESCR_RAT_ESCR0].msr, rat);
			for (unsigned i = 0; i < 3 && ok; i++)
				ok = measure(fe, 3, tk[t].fn, N1, x);
			ok = ok && measure(fe, 3, tk[t].fn, N1, x) && measure(fe, 3, tk[t].fn, N2, y);
			ok = ok && guest_wrmsr(nb_escrs[NB_ESCR_RAT_ESCR0].msr, 0);
			TAP_EQ(ok ? y[0] - x[0] : ~0ULL, (N2 - N1) * tk[t].fe,
			       "%s: front_end_event:NBOGUS N2-N1 = %d x %llu", tk[t].name,
			       N2 - N1, (unsigned long long)tk[t].fe);
			TAP_EQ(ok ? y[1] - x[1] : ~0ULL, (N2 - N1) * tk[t].itag,
			       "%s: instr_retired:NBOGUSTAG N2-N1 = %d x %llu", tk[t].name,
			       N2 - N1, (unsigned long long)tk[t].itag);
			TAP_EQ(ok ? y[2] - x[2] : ~0ULL, (N2 - N1) * tk[t].intag,
			       "%s: instr_retired:NBOGUSNTAG N2-N1 = %d x %llu", tk[t].name,
			       N2 - N1, (unsigned long long)tk[t].intag);
		}
	}

	/* Execution tagging: an upstream FP/SIMD event on FIRM_ESCR0/1 with
	 * TagEnable and TagValue tags its uops; execution_event NBOGUSn counts
	 * the retired uops whose tag has bit n. */
	{
		static const struct { const char *name; unsigned ev; unsigned per; } cl[] = {
			{ "x87_FP_uop", NB_EV_X87_FP_UOP, 1 },
			{ "scalar_SP_uop", NB_EV_SCALAR_SP_UOP, 2 },
			{ "scalar_DP_uop", NB_EV_SCALAR_DP_UOP, 3 },
			{ "packed_SP_uop", NB_EV_PACKED_SP_UOP, 4 },
			{ "packed_DP_uop", NB_EV_PACKED_DP_UOP, 5 },
			{ "64bit_MMX_uop", NB_EV_64BIT_MMX_UOP, 6 },
			{ "128bit_MMX_uop", NB_EV_128BIT_MMX_UOP, 7 },
		};
		for (unsigned c = 0; c < sizeof cl / sizeof cl[0]; c++) {
			unsigned bit = c % 4;
			struct cfg xc[2] = {
				{ "execution_event:NBOGUSn", NB_ESCR_CRU_ESCR2, NB_EV_EXECUTION_EVENT,
				  1u << bit, 13, T0U },
				{ "instr_retired:NBOGUSTAG", NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED,
				  2, 12, T0U } };
			uint64_t up = ((uint64_t)nb_events[cl[c].ev].event_select << NB_ESCR_EVSEL_SHIFT) |
				(UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + 15)) | NB_ESCR_TAG_ENABLE |
				((uint64_t)(1u << bit) << NB_ESCR_TAG_SHIFT) | T0U;
			uint64_t x[2], y[2];
			int ok = guest_wrmsr(nb_escrs[NB_ESCR_FIRM_ESCR0 + (c & 1)].msr, up);
			for (unsigned i = 0; i < 3 && ok; i++)
				ok = measure(xc, 2, k_fp, N1, x);
			ok = ok && measure(xc, 2, k_fp, N1, x) && measure(xc, 2, k_fp, N2, y);
			ok = ok && guest_wrmsr(nb_escrs[NB_ESCR_FIRM_ESCR0 + (c & 1)].msr, 0);
			TAP_EQ(ok ? y[0] - x[0] : ~0ULL, (uint64_t)(N2 - N1) * cl[c].per,
			       "%s tagged (TagValue bit %u, FIRM_ESCR%u): execution_event:NBOGUS%u "
			       "N2-N1 = %d x %u", cl[c].name, bit, c & 1, bit, N2 - N1, cl[c].per);
			TAP_EQ(ok ? y[1] - x[1] : ~0ULL, (uint64_t)(N2 - N1) * cl[c].per,
			       "%s tagged: instr_retired:NBOGUSTAG N2-N1 = %d x %u", cl[c].name,
			       N2 - N1, cl[c].per);
		}
		/* two upstream ESCRs, independent tag bits */
		{
			struct cfg xc[3] = {
				{ "execution_event:NBOGUS0|NBOGUS2", NB_ESCR_CRU_ESCR2,
				  NB_EV_EXECUTION_EVENT, 0x5, 13, T0U },
				{ "execution_event:NBOGUS1|NBOGUS3", NB_ESCR_CRU_ESCR3,
				  NB_EV_EXECUTION_EVENT, 0xa, 15, T0U },
				{ "instr_retired:NBOGUSTAG", NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED,
				  2, 12, T0U } };
			uint64_t tag = NB_ESCR_TAG_ENABLE | (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + 15)) | T0U;
			uint64_t x[3], y[3];
			int ok = guest_wrmsr(nb_escrs[NB_ESCR_FIRM_ESCR0].msr, tag |
				    ((uint64_t)nb_events[NB_EV_SCALAR_SP_UOP].event_select << NB_ESCR_EVSEL_SHIFT) |
				    (UINT64_C(1) << NB_ESCR_TAG_SHIFT)) &&
				guest_wrmsr(nb_escrs[NB_ESCR_FIRM_ESCR1].msr, tag |
				   ((uint64_t)nb_events[NB_EV_PACKED_DP_UOP].event_select << NB_ESCR_EVSEL_SHIFT) |
				   (UINT64_C(4) << NB_ESCR_TAG_SHIFT));
			for (unsigned i = 0; i < 3 && ok; i++)
				ok = measure(xc, 3, k_fp, N1, x);
			ok = ok && measure(xc, 3, k_fp, N1, x) && measure(xc, 3, k_fp, N2, y);
			ok = ok && guest_wrmsr(nb_escrs[NB_ESCR_FIRM_ESCR0].msr, 0) &&
				guest_wrmsr(nb_escrs[NB_ESCR_FIRM_ESCR1].msr, 0);
			TAP_EQ(ok ? y[0] - x[0] : ~0ULL, (uint64_t)(N2 - N1) * (2 + 5),
			       "scalar_SP (tag 1) + packed_DP (tag 4): execution_event:NBOGUS0|NBOGUS2 "
			       "N2-N1 = %d x 7", N2 - N1);
			TAP_EQ(ok ? y[1] - x[1] : ~0ULL, 0,
			       "... execution_event:NBOGUS1|NBOGUS3 counts nothing");
			TAP_EQ(ok ? y[2] - x[2] : ~0ULL, (uint64_t)(N2 - N1) * (2 + 5),
			       "... instr_retired:NBOGUSTAG N2-N1 = %d x 7", N2 - N1);
		}
		/* without TagEnable nothing is tagged */
		{
			struct cfg xc[1] = { { "execution_event:NBOGUS0", NB_ESCR_CRU_ESCR2,
					       NB_EV_EXECUTION_EVENT, 1, 13, T0U } };
			uint64_t x[1], y[1];
			int ok = guest_wrmsr(nb_escrs[NB_ESCR_FIRM_ESCR0].msr,
				    ((uint64_t)nb_events[NB_EV_SCALAR_DP_UOP].event_select << NB_ESCR_EVSEL_SHIFT) |
				    (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + 15)) |
				    (UINT64_C(1) << NB_ESCR_TAG_SHIFT) | T0U);
			ok = ok && measure(xc, 1, k_fp, N1, x) && measure(xc, 1, k_fp, N2, y) &&
				guest_wrmsr(nb_escrs[NB_ESCR_FIRM_ESCR0].msr, 0);
			TAP_EQ(ok ? y[0] - x[0] : ~0ULL, 0,
			       "TagValue without TagEnable: execution_event counts nothing");
		}
	}

	/* a 50/50 random branch mispredicts 50% +- 3% */
	{
		struct cfg c[2] = {
			{ "mispred_branch_retired:NBOGUS", NB_ESCR_CRU_ESCR0,
			  NB_EV_MISPRED_BRANCH_RETIRED, 1, 12, T0U },
			{ "branch_retired:MMTP|MMTM", NB_ESCR_CRU_ESCR2,
			  NB_EV_BRANCH_RETIRED, 0xc, 13, T0U } };
		uint64_t n = 100000, m[2] = { 0, 0 };
		int ok = measure(c, 2, k_rand, n, m);
		/* taken: every jnz but the last + the taken js */
		double taken = (double)(m[1] - (n - 1)) / (double)n;
		tap_ok(ok && taken > 0.48 && taken < 0.52,
		       "LCG branch taken %.2f%% of %llu", 100 * taken, (unsigned long long)n);
		tap_ok(ok && m[0] * 100 >= 47 * n && m[0] * 100 <= 53 * n,
		       "random branch: %llu mispredictions in %llu iterations = %.2f%% (50 +- 3)",
		       (unsigned long long)m[0], (unsigned long long)n, 100.0 * (double)m[0] / (double)n);
	}

	/* OS-only qualification: the kernel is not simulated. */
	{
		struct cfg os = { "instr_retired T0_OS only", NB_ESCR_CRU_ESCR0,
				  NB_EV_INSTR_RETIRED, 1, 12, NB_ESCR_T0_OS };
		tap_ok(measure(&os, 1, k_basic, N2, a), "T0_OS-only programmed");
		TAP_EQ(a[0], 0, "T0_OS only: user-mode guest code counts nothing");
	}
	/* branch_retired with all four masks: the masks add up */
	{
		struct cfg all = { "branch_retired:all", NB_ESCR_CRU_ESCR2,
				   NB_EV_BRANCH_RETIRED, 0xf, 12, T0U };
		tap_ok(measure(&all, 1, k_alt, N1, a) && measure(&all, 1, k_alt, N2, a2) &&
		       a2[0] - a[0] == 2 * (uint64_t)(N2 - N1),
		       "branch_retired MMNP|MMNM|MMTP|MMTM on alternating jz: 2 per iteration (%llu)",
		       (unsigned long long)(a2[0] - a[0]));
	}

	/* RDPMC: full and fast read. */
	{
		uint64_t full = 0, fast = 0, msr = 0;
		guest_wrmsr(nb_counters[12].msr, UINT64_C(0xfffffffff0));
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
	return tap_done_plan();
}
