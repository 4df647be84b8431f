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

#endif /* NB_BPRED_H */
