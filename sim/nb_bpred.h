/*
 * nb_bpred.h - branch prediction model (README, "Branch model").
 * Pure module (no libc, no valgrind).
 */
#ifndef NB_BPRED_H
#define NB_BPRED_H

#include <stdint.h>
#include "nb_decode.h"

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

/*
 * nb_bpred_branch for a conditional branch (kind NB_BR_COND), inline: the
 * most frequent branch, so nbsim's helper for it calls no other function.
 */
static inline int nb_bpred_cond(struct nb_bpred *b, uint64_t pc, int taken, uint64_t target)
{
	uint8_t *c = &b->pht[nb_bpred_pht_index(pc, b->ghr)];
	struct nb_btb_entry *e = &b->btb[nb_bpred_fold(pc) & b->btb_mask];
	int known = e->tag == pc + 1;
	/* a BTB miss: static prediction, backward taken */
	int pred = known ? *c >= 2 : target < pc;

	if (taken && *c < 3)
		(*c)++;
	else if (!taken && *c > 0)
		(*c)--;
	if (taken && !known) {
		e->tag = pc + 1;
		e->target = target;
	}
	b->ghr = (b->ghr << 1) | (taken ? 1u : 0u);
	return pred != taken;
}

#endif /* NB_BPRED_H */
