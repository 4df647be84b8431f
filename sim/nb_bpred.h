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

struct nb_btb_entry {
	uint64_t tag;           /* branch address + 1 (0 = empty)              */
	uint64_t target;        /* last target (indirect branches)             */
	uint8_t ctr;            /* 2-bit saturating counter, >= 2 = taken      */
};

struct nb_bpred {
	unsigned btb_mask;
	unsigned rsb_n, rsb_top;
	struct nb_btb_entry btb[NB_BTB_MAX];
	uint64_t rsb[NB_RSB_MAX];
};

void nb_bpred_init(struct nb_bpred *b, unsigned btb_entries, unsigned rsb_entries);

/*
 * One retired branch.  kind: enum nb_br_kind; pc: its address; next: the
 * address of the next instruction (pc + length); taken: outcome
 * (conditional branches; 1 for the others); target: where control went.
 * Returns 1 if the model mispredicted it.
 */
int nb_bpred_branch(struct nb_bpred *b, unsigned kind, uint64_t pc, uint64_t next,
		    int taken, uint64_t target);

#endif /* NB_BPRED_H */
