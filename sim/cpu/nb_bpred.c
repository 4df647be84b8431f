/*
 * nb_bpred.c - branch prediction model.
 *
 * NetBurst: a 4K-entry BTB, static prediction on a BTB miss (backward
 * conditional branches taken, forward not taken), a 16-entry return stack
 * [HIN01, see nb_cpu.c; Intel IA-32 Optimization Reference Manual, "Branch
 * Prediction"].  Hinton et al. describe the dynamic predictor only as "more
 * advanced" than the P6 one; Intel never published its organisation.  nbsim
 * uses a documented stand-in, a global-history predictor:
 *  - conditional: the BTB (direct-mapped, indexed by a fold of the address,
 *    tagged) says whether the branch is known.  A BTB miss uses the static
 *    rule; an entry is allocated when the branch is taken (never-taken
 *    branches stay static: forward not taken).  A BTB hit predicts from a
 *    pattern history table (PHT) of 16K 2-bit saturating counters (initially
 *    2, weakly taken) indexed gshare-style by
 *        idx = fold(pc) XOR (ghr << (14 - 8))
 *    with ghr the outcomes of the last 8 retired conditional branches: the
 *    low 6 index bits come from the address only, so branches close together
 *    do not alias, and periodic patterns up to 8 conditional branches long
 *    are learnt exactly.  Every conditional branch trains its PHT counter
 *    and shifts its outcome into ghr, whatever the BTB said;
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
	for (unsigned i = 0; i < NB_PHT_SIZE; i++)
		b->pht[i] = 2;
}

static struct nb_btb_entry *slot(struct nb_bpred *b, uint64_t pc)
{
	return &b->btb[nb_bpred_fold(pc) & b->btb_mask];
}

unsigned nb_bpred_index(uint64_t pc, uint32_t ghr)
{
	return nb_bpred_pht_index(pc, ghr);
}

int nb_bpred_branch(struct nb_bpred *b, unsigned kind, uint64_t pc, uint64_t next,
		    int taken, uint64_t target)
{
	struct nb_btb_entry *e;
	int miss = 0;

	switch (kind) {
	case NB_BR_COND:
		return nb_bpred_cond(b, pc, taken, target);
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
