/*
 * nb_lsguard.c - the lockstep's guard in a translation (nb_lockstep.c
 * decides who runs; this leaves a superblock whose thread has reached its
 * limit): which superblocks carry it, and its IR.
 */
#include "nb_tool.h"
#include "nb_ir.h"

/*
 * The lockstep's guard at a superblock's start (nb_lockstep.c): when the
 * running LP's raw clock (under HT its timing model's retirement cycle
 * plus the sampled clock's streak not yet in it, nb_lockstep.c raw(),
 * while the clock runs, else the instructions run) has reached nb_ls_lim, the
 * superblock leaves to its own start before anything of it is counted,
 * back to valgrind's scheduler (a plain guarded exit, no call), which
 * runs the thread-start hook again; that ends the time slice there
 * (nb_lockstep.c leave_now) and valgrind hands its lock to another
 * thread, or lets the thread run on (a turn's crossing, a quantum's end
 * with no other thread).
 *
 * The exit's kind: Ijk_EmWarn, an emulation warning, which valgrind's
 * scheduler reports (only under --show-emwarns=yes, from the guest's
 * EMNOTE, "none" when no instruction left a note) and then goes on in
 * the same time slice.  Ijk_Yield, the spin-wait hint's, cuts the slice
 * to 300 superblocks (scheduler.c), so a thread that runs on ended its
 * slice soon after, with valgrind's per-slice system calls: at each
 * turn's crossing, sort -n under the four presets took 1.111 of the CPU
 * time without the lockstep, 1.060 with EmWarn.  Under --show-emwarns=yes
 * the guard keeps Ijk_Yield (no warnings of nbsim's making).
 * Without the clock the thread's instructions left count down in a word
 * of its shadow guest state (NB_LS_SLOT), the superblock's at its start.
 */
/*
 * Does a superblock starting at A need the guard?  Only where a run of it
 * can be followed by a superblock starting at or below A: a side exit or
 * final jump to such a constant, or to a target not known (ret, indirect
 * jumps and calls).  Every endless path of runs then passes a guarded
 * superblock, since a cycle of superblock starts cannot rise at every
 * step, and the runs between two guards are a chain of rising starts,
 * a few within one function.  So a thread stops at the first guarded
 * superblock at or past its limit, a few runs later than at the first
 * superblock, always the same one.
 */
static Bool ls_guarded(const IRSB *in, Addr a)
{
	if (in->next->tag != Iex_Const || in->next->Iex.Const.con->Ico.U64 <= (ULong)a)
		return True;
	for (Int j = 0; j < in->stmts_used; j++) {
		const IRStmt *st = in->stmts[j];
		if (st && st->tag == Ist_Exit && st->Ist.Exit.dst->Ico.U64 <= (ULong)a)
			return True;
	}
	return False;
}

extern Bool VG_(clo_show_emwarns);       /* valgrind's core, m_options.c */

static IRJumpKind guard_jk(void)
{
	return VG_(clo_show_emwarns) ? Ijk_Yield : Ijk_EmWarn;
}

void nb_ls_guard_emit(IRSB *sb, IRSB *in)
{
	Addr a = 0;
	ULong n = 0;
	IRExpr *now, *lim, *g, *left;
	Int slot = (Int)sizeof(VexGuestAMD64State) + (Int)NB_LS_SLOT;   /* shadow 1 */

	if (!nb_ls_on)
		return;
	for (Int j = 0; j < in->stmts_used; j++)
		if (in->stmts[j] && in->stmts[j]->tag == Ist_IMark) {
			if (!n)
				a = (Addr)(in->stmts[j]->Ist.IMark.addr + in->stmts[j]->Ist.IMark.delta);
			n++;
		}
	if (!n)
		return;
	if (!ls_guarded(in, a)) {
		nb_ls_unguarded_sbs++;
		if (!(clo_ht && (nb_need & NEED_TIME)))
			addStmtToIRSB(sb, IRStmt_Put(slot, tmp(sb, Ity_I64, IRExpr_Binop(Iop_Sub64,
				tmp(sb, Ity_I64, IRExpr_Get(slot, Ity_I64)), c64(n)))));
		return;
	}
	nb_ls_guarded_sbs++;
	if (clo_ht && (nb_need & NEED_TIME)) {
		/* ret + (smp.acc >> 8) >= the limit, as smp.acc >= ls_acc
		 * (nb_timing.h nb_tm_ls_set: ret moves only in the clock's
		 * helpers, which set ls_acc again): two loads off nb_tmp and
		 * a compare, where the sum took four loads, a shift and an
		 * add in every superblock run (sort: 7% of its CPU time).
		 * nb_tmp itself from the thread's shadow state (NB_LS_TMP_SLOT,
		 * nb_lockstep.c nb_ls_tmp_set), off the guest state pointer:
		 * its fixed address took a 10-byte move of the address more
		 * per run */
		IRExpr *t = tmp(sb, Ity_I64, IRExpr_Get((Int)sizeof(VexGuestAMD64State) + (Int)NB_LS_TMP_SLOT,
							Ity_I64));
		now = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, tmp(sb, Ity_I64,
			IRExpr_Binop(Iop_Add64, t, c64(offsetof(struct nb_tm, smp.acc))))));
		lim = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, tmp(sb, Ity_I64,
			IRExpr_Binop(Iop_Add64, t, c64(offsetof(struct nb_tm, ls_acc))))));
		g = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpLE64U, lim, now));
		addStmtToIRSB(sb, IRStmt_Exit(g, guard_jk(), IRConst_U64((ULong)a), in->offsIP));
		return;
	}
	/* the instructions left to the thread, in its shadow guest state: one
	 * word read and written per superblock, addressed off the guest state
	 * pointer and compared with 0 (a global count and limit cost twice as
	 * much) */
	left = tmp(sb, Ity_I64, IRExpr_Get(slot, Ity_I64));
	g = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpLE64S, left, c64(0)));
	addStmtToIRSB(sb, IRStmt_Exit(g, guard_jk(), IRConst_U64((ULong)a), in->offsIP));
	addStmtToIRSB(sb, IRStmt_Put(slot, tmp(sb, Ity_I64, IRExpr_Binop(Iop_Sub64, left, c64(n)))));
}
