/*
 * nb_bpred.h - branch prediction model (README, "Branch model").
 * Pure module (no libc, no valgrind).
 */
#ifndef NB_BPRED_H
#define NB_BPRED_H

#include <stdint.h>
#include "nb_idecode.h"

#define NB_BTB_MAX 4096
#define NB_RSB_MAX 16

/* Global-history predictor (gshare variant, README "Branch model"). */
#define NB_PHT_BITS 14                       /* 16K 2-bit counters          */
#define NB_PHT_SIZE (1u << NB_PHT_BITS)
#define NB_GHR_BITS 8                        /* outcomes of the last 8 conditional branches */

struct nb_btb_entry {
	uint64_t tag;           /* branch address + 1 (0 = empty)              */
	uint64_t target;        /* last target (indirect branches)             */
};

struct nb_bpred {
	unsigned btb_mask;
	unsigned rsb_n, rsb_top;
	uint32_t ghr;           /* global history, newest outcome in bit 0      */
	struct nb_btb_entry btb[NB_BTB_MAX];
	uint64_t rsb[NB_RSB_MAX];
	uint8_t pht[NB_PHT_SIZE]; /* 2-bit saturating counters, >= 2 = taken   */
};

void nb_bpred_init(struct nb_bpred *b, unsigned btb_entries, unsigned rsb_entries);

/*
 * One retired branch.  kind: enum nb_br_kind; pc: its address; next: the
 * address of the next instruction (pc + length); taken: outcome
 * (conditional branches; 1 for the others); target: where control went
 * (for a conditional branch: its taken target, whatever the outcome).
 * Returns 1 if the model mispredicted it.
 */
int nb_bpred_branch(struct nb_bpred *b, unsigned kind, uint64_t pc, uint64_t next,
		    int taken, uint64_t target);

/* PHT index of a conditional branch at pc under history ghr (for tests). */
unsigned nb_bpred_index(uint64_t pc, uint32_t ghr);

/* fold the address bits so that nearby branches spread (BTB, PHT index) */
static inline uint64_t nb_bpred_fold(uint64_t pc)
{
	return pc ^ (pc >> 12) ^ (pc >> 24);
}

static inline unsigned nb_bpred_pht_index(uint64_t pc, uint32_t ghr)
{
	uint32_t h = ghr & ((1u << NB_GHR_BITS) - 1);
	return (unsigned)((nb_bpred_fold(pc) ^ ((uint64_t)h << (NB_PHT_BITS - NB_GHR_BITS)))
			  & (NB_PHT_SIZE - 1));
}

/* Where the counter of PHT index i lies in pht[]: the index's history
 * bits (its top NB_GHR_BITS) lowest, so that one branch's counters under
 * its 256 histories share 256 bytes, 4 host cache lines, instead of lying
 * one to each 64-byte line of the table (nbsim reads one per conditional
 * branch, and the guest's own data evicts the table between uses).  A
 * bijection: the same counters are shared by the same branches. */
static inline unsigned nb_bpred_pht_slot(unsigned i)
{
	const unsigned lo = NB_PHT_BITS - NB_GHR_BITS;

	return ((i & ((1u << lo) - 1)) << NB_GHR_BITS) | (i >> lo);
}

/*
 * A conditional branch's site: what the prediction of a branch at pc with
 * taken target `target` needs of them, computed once (nbsim: when the
 * branch's code is translated, so that its helper gets one pointer).
 */
struct nb_cond_site {
	uint64_t tag;           /* pc + 1, its BTB tag                         */
	uint64_t target;
	uint32_t pht : 31,      /* its counter's slot under history 0: under
				 * history h, pht ^ h (nb_bpred_pht_slot)    */
		 backward : 1;  /* static prediction (BTB miss): target < pc
				 * (a bit of pht's word: 24 bytes, so that
				 * the tool's nb_cond_tm keeps its clock's
				 * costs in the same host line) */
	uint32_t btb;           /* its BTB entry                               */
};

static inline void nb_cond_site_init(const struct nb_bpred *b, struct nb_cond_site *s,
				     uint64_t pc, uint64_t target)
{
	s->tag = pc + 1;
	s->target = target;
	s->pht = nb_bpred_pht_slot((unsigned)(nb_bpred_fold(pc) & (NB_PHT_SIZE - 1)));
	s->btb = (uint32_t)(nb_bpred_fold(pc) & b->btb_mask);
	s->backward = target < pc ? 1u : 0u;
}

/* One retired conditional branch at site s; returns 1 if mispredicted
 * (the counter of nb_bpred_pht_index's index, at its slot: the history
 * bits lie inside the index mask) */
static inline int nb_bpred_cond_at(struct nb_bpred *b, const struct nb_cond_site *s, int taken)
{
	/* the counter's next value, by outcome and value: without a branch
	 * on the outcome, which the host cannot predict where the guest's
	 * branches are random (nbsim runs this once per conditional branch) */
	static const uint8_t next[2][4] = { { 0, 0, 1, 2 }, { 1, 2, 3, 3 } };
	uint32_t h = b->ghr & ((1u << NB_GHR_BITS) - 1);
	uint8_t *c = &b->pht[s->pht ^ h];
	struct nb_btb_entry *e = &b->btb[s->btb];
	int known = e->tag == s->tag;
	/* a BTB miss: static prediction, backward taken */
	int pred = known ? *c >= 2 : (int)s->backward;

	taken = taken != 0;
	*c = next[taken][*c & 3];
	if (!known && taken) {
		e->tag = s->tag;
		e->target = s->target;
	}
	b->ghr = (b->ghr << 1) | (uint32_t)taken;
	return pred != taken;
}

/* nb_bpred_branch for a conditional branch (kind NB_BR_COND) */
static inline int nb_bpred_cond(struct nb_bpred *b, uint64_t pc, int taken, uint64_t target)
{
	struct nb_cond_site s;

	nb_cond_site_init(b, &s, pc, target);
	return nb_bpred_cond_at(b, &s, taken);
}

#endif /* NB_BPRED_H */
