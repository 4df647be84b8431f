/*
 * t_bpred.c - native unit test of the branch model (nb_bpred.c) on
 * synthetic branch streams (TAP).  A loop is modelled as its body's
 * conditional branch(es) plus a backward loop branch, as a compiler lays
 * it out.
 */
#include <stdio.h>
#include <stdlib.h>
#include "cpu/nb_bpred.h"
#include "tap.h"

static struct nb_bpred bp;

#define BODY  0x401000u          /* forward branch in the loop body    */
#define BODY2 0x401010u
#define LOOP  0x401020u          /* backward loop branch               */

static int cond(uint64_t pc, int taken, uint64_t tgt)
{
	return nb_bpred_branch(&bp, NB_BR_COND, pc, pc + 2, taken, tgt);
}

/* n iterations of a loop whose body branch follows pattern pat[i % len];
 * returns the body branch's mispredictions in the last `tail` iterations
 * and adds the loop branch's to *loopmiss. */
static unsigned run_pattern(const int *pat, unsigned len, unsigned n, unsigned tail,
			    unsigned *loopmiss)
{
	unsigned m = 0;
	for (unsigned i = 0; i < n; i++) {
		int x = cond(BODY, pat[i % len], BODY + 0x10);
		int y = cond(LOOP, 1, BODY - 4);
		if (i >= n - tail) {
			m += (unsigned)x;
			*loopmiss += (unsigned)y;
		}
	}
	return m;
}

int main(void)
{
	static const int alt[] = { 1, 0 }, ttn[] = { 1, 1, 0 },
		p5[] = { 1, 0, 0, 1, 1 }, p8[] = { 1, 1, 1, 0, 1, 0, 0, 0 };
	static const struct { const char *name; const int *p; unsigned len; } pats[] = {
		{ "T,N alternating", alt, 2 }, { "T,T,N", ttn, 3 },
		{ "T,N,N,T,T", p5, 5 }, { "TTTNTNNN (period 8; the history holds its last 4)", p8, 8 },
	};
	unsigned lm;

	/* static prediction on a BTB miss */
	nb_bpred_init(&bp, 4096, 16);
	tap_ok(cond(0x500000, 0, 0x500100) == 0, "BTB miss, forward, not taken: predicted");
	tap_ok(cond(0x500200, 1, 0x500100) == 0, "BTB miss, backward, taken: predicted");
	tap_ok(cond(0x500300, 1, 0x500400) == 1, "BTB miss, forward, taken: mispredicted");
	tap_ok(cond(0x500300, 1, 0x500400) == 0, "then in the BTB (weakly taken): predicted");
	tap_ok(cond(0x500600, 0, 0x500500) == 1, "BTB miss, backward, not taken: mispredicted");
	tap_ok(cond(0x500600, 0, 0x500500) == 1,
	       "never taken: not allocated in the BTB, static again: mispredicted");

	/* periodic patterns converge to zero mispredictions */
	for (unsigned k = 0; k < sizeof pats / sizeof pats[0]; k++) {
		unsigned m;
		nb_bpred_init(&bp, 4096, 16);
		lm = 0;
		m = run_pattern(pats[k].p, pats[k].len, 10000, 5000, &lm);
		tap_ok(m == 0 && lm == 0, "%s: converged, %u + %u mispredictions in the last 5000 "
		       "iterations", pats[k].name, m, lm);
	}
	/* and converge quickly */
	nb_bpred_init(&bp, 4096, 16);
	lm = 0;
	{
		unsigned m = run_pattern(alt, 2, 100, 100, &lm);
		tap_ok(m + lm <= 16, "T,N alternating: %u mispredictions in the first 100 iterations "
		       "(warm-up <= 16)", m + lm);
	}

	/* a 50/50 random branch (fixed-seed LCG, top bit) mispredicts 50% +- 3% */
	{
		uint64_t x = 12345;
		unsigned n = 200000, m = 0, l = 0, t = 0;
		nb_bpred_init(&bp, 4096, 16);
		for (unsigned i = 0; i < n; i++) {
			int r;
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			r = (int)(x >> 63);
			t += (unsigned)r;
			m += (unsigned)cond(BODY, r, BODY + 0x10);
			l += (unsigned)cond(LOOP, 1, BODY - 4);
		}
		tap_ok(t > n / 2 - n / 50 && t < n / 2 + n / 50, "LCG: %u of %u taken", t, n);
		tap_ok(m * 100 >= 47 * n && m * 100 <= 53 * n,
		       "random branch: %u / %u mispredicted = %.2f%% (50 +- 3)", m, n, 100.0 * m / n);
		tap_ok(l <= 100, "loop branch next to it: %u mispredictions", l);
	}
	/* two random branches and a correlated one: the correlated one is learnt */
	{
		uint64_t x = 99;
		unsigned n = 100000, m = 0;
		nb_bpred_init(&bp, 4096, 16);
		for (unsigned i = 0; i < n; i++) {
			int r;
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			r = (int)(x >> 63);
			cond(BODY, r, BODY + 0x10);
			m += (unsigned)(i >= n / 2 && cond(BODY2, r, BODY2 + 0x10));
			if (i < n / 2)
				cond(BODY2, r, BODY2 + 0x10);
			cond(LOOP, 1, BODY - 4);
		}
		tap_ok(m < n / 200, "branch correlated with the previous one: %u mispredictions "
		       "in %u", m, n / 2);
	}

	/* return stack: 16 deep, overflow loses the oldest */
	{
		unsigned miss = 0;
		nb_bpred_init(&bp, 4096, 16);
		for (unsigned d = 0; d < 16; d++)
			nb_bpred_branch(&bp, NB_BR_CALL, 0x1000 + 16 * d, 0x1005 + 16 * d, 1, 0x9000);
		for (unsigned d = 16; d-- > 0;)
			miss += (unsigned)nb_bpred_branch(&bp, NB_BR_RET, 0x9000, 0x9001, 1,
							  0x1005 + 16 * d);
		tap_ok(miss == 0, "16 nested calls: every ret predicted (%u mispredicted)", miss);
		miss = 0;
		for (unsigned d = 0; d < 18; d++)
			nb_bpred_branch(&bp, NB_BR_CALL, 0x1000 + 16 * d, 0x1005 + 16 * d, 1, 0x9000);
		for (unsigned d = 18; d-- > 0;)
			miss += (unsigned)nb_bpred_branch(&bp, NB_BR_RET, 0x9000, 0x9001, 1,
							  0x1005 + 16 * d);
		tap_ok(miss == 2, "18 nested calls: the 2 outermost rets mispredicted (%u)", miss);
	}
	/* indirect: last target */
	{
		nb_bpred_init(&bp, 4096, 16);
		tap_ok(nb_bpred_branch(&bp, NB_BR_IJMP, 0x2000, 0x2002, 1, 0x3000) == 1 &&
		       nb_bpred_branch(&bp, NB_BR_IJMP, 0x2000, 0x2002, 1, 0x3000) == 0 &&
		       nb_bpred_branch(&bp, NB_BR_IJMP, 0x2000, 0x2002, 1, 0x3100) == 1,
		       "indirect jmp: first miss, same target hit, new target miss");
	}
	/* a site computed once (nbsim's per-branch descriptor) indexes the
	 * PHT and the BTB as nb_bpred_pht_index and the fold of pc do (the
	 * counter at its slot, nb_bpred_pht_slot) */
	{
		static struct nb_bpred bp;
		uint64_t x = 5;
		unsigned same = 1, i;

		nb_bpred_init(&bp, 4096, 16);
		for (i = 0; i < 100000 && same; i++) {
			struct nb_cond_site st;
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			uint64_t pc = x >> 17, tgt = pc + (x & 0xfff) - 0x800;
			uint32_t ghr = (uint32_t)(x >> 3), h = ghr & ((1u << NB_GHR_BITS) - 1);
			nb_cond_site_init(&bp, &st, pc, tgt);
			same = (st.pht ^ h) == nb_bpred_pht_slot(nb_bpred_pht_index(pc, ghr)) &&
				st.btb == (nb_bpred_fold(pc) & bp.btb_mask) && st.tag == pc + 1 &&
				st.backward == (tgt < pc);
		}
		tap_ok(same, "branch site: PHT index, BTB entry, tag and static prediction as from "
		       "pc and target (%u random branches)", i);
	}
	/* the slots are a permutation of the table (each counter once) */
	{
		static unsigned char seen[NB_PHT_SIZE];
		unsigned dup = 0;

		for (unsigned i = 0; i < NB_PHT_SIZE; i++) {
			unsigned p = nb_bpred_pht_slot(i);
			dup += p >= NB_PHT_SIZE || seen[p];
			if (p < NB_PHT_SIZE)
				seen[p] = 1;
		}
		tap_ok(dup == 0, "PHT slots: a permutation of the %u counters (%u clashes)",
		       NB_PHT_SIZE, dup);
	}
	return tap_done_plan();
}
