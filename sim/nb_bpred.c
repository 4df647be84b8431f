/*
 * nb_bpred.c - branch prediction model.
 *
 * NetBurst: a 4K-entry BTB, static prediction on a BTB miss (backward
 * conditional branches taken, forward not taken), a 16-entry return stack
 * [HIN01, see nb_cpu.c; Intel IA-32 Optimization Reference Manual, "Branch
 * Prediction"].  Intel never published the dynamic predictor; nbsim uses a
 * documented stand-in:
 *  - conditional: direct-mapped BTB indexed by address, tagged, with a 2-bit
 *    saturating counter per entry; miss -> static prediction; an entry is
 *    allocated (counter weakly taken, 2) when a branch is taken;
 *  - direct jmp/call: always predicted (the target is in the instruction);
 *  - call pushes its return address on the return stack (circular,
 *    overwriting the oldest); ret predicts the popped address;
 *  - indirect jmp/call: BTB last target; miss or different target =
 *    mispredict, then the entry is updated.
 */
#include "nb_bpred.h"

void nb_bpred_init(struct nb_bpred *b, unsigned btb_entries, unsigned rsb_entries)
{
	unsigned char *z = (unsigned char *)b;
	for (unsigned long i = 0; i < sizeof *b; i++)
		z[i] = 0;
	if (btb_entries == 0 || btb_entries > NB_BTB_MAX || (btb_entries & (btb_entries - 1)))
		btb_entries = NB_BTB_MAX;
	if (rsb_entries == 0 || rsb_entries > NB_RSB_MAX)
		rsb_entries = NB_RSB_MAX;
	b->btb_mask = btb_entries - 1;
	b->rsb_n = rsb_entries;
}

static struct nb_btb_entry *slot(struct nb_bpred *b, uint64_t pc)
{
	/* fold the address bits so that nearby branches spread */
	uint64_t h = pc ^ (pc >> 12) ^ (pc >> 24);
	return &b->btb[h & b->btb_mask];
}

int nb_bpred_branch(struct nb_bpred *b, unsigned kind, uint64_t pc, uint64_t next,
		    int taken, uint64_t target)
{
	struct nb_btb_entry *e;
	int hit, pred, miss = 0;

	switch (kind) {
	case NB_BR_COND:
		e = slot(b, pc);
		hit = e->tag == pc + 1;
		if (hit)
			pred = e->ctr >= 2;
		else
			pred = target < pc;    /* static: backward taken (target is
						* the taken target for COND) */
		miss = pred != taken;
		if (hit) {
			if (taken && e->ctr < 3)
				e->ctr++;
			else if (!taken && e->ctr > 0)
				e->ctr--;
		} else if (taken) {
			e->tag = pc + 1;
			e->ctr = 2;
			e->target = target;
		}
		return miss;
	case NB_BR_JMP:
		return 0;
	case NB_BR_CALL:
	case NB_BR_ICALL:
		b->rsb_top = (b->rsb_top + 1) % b->rsb_n;
		b->rsb[b->rsb_top] = next;
		if (kind == NB_BR_CALL)
			return 0;
		/* fall through: indirect target prediction */
		/* FALLTHROUGH */
	case NB_BR_IJMP:
		e = slot(b, pc);
		miss = !(e->tag == pc + 1 && e->target == target);
		e->tag = pc + 1;
		e->target = target;
		return miss;
	case NB_BR_RET:
		miss = b->rsb[b->rsb_top] != target;
		b->rsb_top = (b->rsb_top + b->rsb_n - 1) % b->rsb_n;
		return miss;
	}
	return 0;
}
