/*
 * nb_instr_pmi.c - the instrumentation's PMI checks (README "Overflow
 * interrupts (PMI)"): the budget's check at instruction boundaries and
 * the cut that leaves the superblock where a PMI was taken, and, with
 * --nbsim-pmi-thin, the thin translation's guard and the choice between
 * a thin translation and its checked copy (README "Speed"); the base
 * register those translations, and step mode's, reach the tool's
 * globals through (nb_ipmi_gaddr).
 */
#include "nb_tool.h"
#include "nb_insn.h"
#include "pub_tool_hashtable.h"

/* a thin translation (thin_guard); the sum of what its checks, left
 * out, would have subtracted (so far, while it is instrumented); the
 * budget after its guard, B1 (a temporary); its boundary checks'
 * compare constants, set once the whole sum is known (thin_patch) */
static Bool cur_thin, last_thin;
static ULong thin_bound;
static IRTemp thin_b1 = IRTemp_INVALID;
/*
 * The budget's address in a temporary of the thin translation, loaded
 * once by its guard from a word that holds it (VEX makes a constant
 * address a 10-byte movabs at every use: the guard's three and each
 * boundary check's; from a register the load is 3 bytes), and the clock's
 * position (nb_tm_p) and the raw counts the translation adds to
 * (emit_add_at, below) at a displacement from it: the tool's own data,
 * a few hundred kilobytes apart.
 */
static IRTemp thin_base = IRTemp_INVALID;
static Bool step_based;           /* step mode's translation (nb_ipmi_step_base) */
Long *nb_pmi_budget_at = &nb_pmi_budget;

static IRExpr *nb_ipmi_addr(IRSB *sb, const void *p)
{
	Long off = (Long)((Addr)p - (Addr)&nb_pmi_budget);

	tl_assert(off >= -0x40000000LL && off < 0x40000000LL);
	if (thin_base == IRTemp_INVALID)
		thin_base = newIRTemp(sb->tyenv, Ity_I64);
	return off ? tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(thin_base), c64((ULong)off)))
		: IRExpr_RdTmp(thin_base);
}

/* *c += e (e: an I64 atom), for every instrumentation file; in a thin
 * translation off the register that holds the budget's address (a
 * constant address is a 10-byte instruction at each use, here two) */
void emit_add_at(IRSB *sb, ULong *c, IRExpr *e)
{
	IRTemp t1 = newIRTemp(sb->tyenv, Ity_I64);
	IRTemp t2 = newIRTemp(sb->tyenv, Ity_I64);
	IRExpr *a = nb_ipmi_based() ? nb_ipmi_addr(sb, c) : mkIRExpr_HWord((HWord)c);

	addStmtToIRSB(sb, IRStmt_WrTmp(t1, IRExpr_Load(Iend_LE, Ity_I64, a)));
	addStmtToIRSB(sb, IRStmt_WrTmp(t2, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(t1), e)));
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, a, IRExpr_RdTmp(t2)));
}
#define THIN_MAXB 512
static struct { IRConst *c; ULong cum, slack; } thin_cmp[THIN_MAXB];
static UInt thin_ncmp;
ULong nb_pmi_thin_made, nb_pmi_near_made, nb_pmi_bchecks;

/*
 * The thin translations' tables (struct nb_bcheck, struct nb_sbguard),
 * which outlive their translations, by number: the call passes the
 * number, not the address.  VEX loads a constant of at most 0xFFFFF into
 * the argument register in one 5-byte instruction, and anything larger
 * (a heap address) in a 10-byte one into a scratch register and a move:
 * at every boundary of every thin run, called or not.  Past 2^20 tables
 * the numbers still work, in the longer form.  (The table itself is
 * nb_pmi.c's, whose helpers read it.)
 */
static ULong tabs_n, tabs_max;

ULong nb_ipmi_tab_add(const void *t)
{
	if (tabs_n == tabs_max) {
		tabs_max = tabs_max ? 2 * tabs_max : 4096;
		nb_ipmi_tabs = VG_(realloc)("nbsim.pmitabs", nb_ipmi_tabs,
					    (SizeT)tabs_max * sizeof *nb_ipmi_tabs);
	}
	nb_ipmi_tabs[tabs_n] = t;
	return tabs_n++;
}

/* D, a PMI check's call, writes the event-check counter
 * (host_EvC_COUNTER) only: it zeroes it to reach the scheduler */
static IRDirty *evc_writer(IRDirty *d)
{
	d->nFxState = 1;
	VG_(memset)(&d->fxState, 0, sizeof d->fxState);
	d->fxState[0].fx = Ifx_Write;
	d->fxState[0].offset = offsetof(VexGuestAMD64State, host_EvC_COUNTER);
	d->fxState[0].size = sizeof(UInt);
	return d;
}

/* A boundary before an instruction that leaves generated code (NB_PMI_FORCE)
 * takes a PMI in flight whatever the clock: while one is, a cycle
 * counter's budget may be up to NB_PMI_SKID_MAX (nb_pmi_skid_budget), so
 * such a boundary's compare allows for that much more (a check more,
 * outside a skid, within that of an overflow) */
static ULong skid_slack(void)
{
	return nb_pmi_bclass == NB_PMIB_CYC && !clo_ht ? NB_PMI_SKID_MAX : 0;
}

/* nb_pmi_budget -= bound; if (nb_pmi_budget <= 0) nb_pmi_check(guest
 * state, at, b): at = 0 after a segment, the PC of the next instruction
 * at an instruction boundary (| NB_PMI_FORCE: it leaves generated code),
 * | the end of the uops of b run so far on this path << NB_PMI_TO_SHIFT
 * (the check brings the clock up to there first); in a thin translation
 * (no NEED_PMI) only the bound's sum for its guard (thin_guard) */
void nb_ipmi_check(IRSB *sb, ULong bound, ULong at, struct nb_tm_block *tb, UInt to)
{
	IRExpr *b, *g;
	IRDirty *d;

	if (!(nb_need & NEED_PMI)) {
		thin_bound += bound;
		return;
	}
	b = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&nb_pmi_budget)));
	if (bound) {
		b = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Sub64, b, c64(bound)));
		addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&nb_pmi_budget), b));
	}
	g = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpLT64S, b,
		c64(1 + ((at & NB_PMI_FORCE) ? skid_slack() : 0))));
	if (to > NB_PMI_TO_MAX)
		to = NB_PMI_TO_MAX;
	d = unsafeIRDirty_0_N(3, "nb_pmi_check", VG_(fnptr_to_fnentry)(&nb_pmi_check),
			      mkIRExprVec_3(IRExpr_GSPTR(),
					    c64(at | (tb ? (ULong)to << NB_PMI_TO_SHIFT : 0)),
					    mkIRExpr_HWord((HWord)tb)));
	d->guard = g;
	addStmtToIRSB(sb, IRStmt_Dirty(evc_writer(d)));
}

/* D, a thin translation's check's call: it writes the event-check counter
 * and may write the cut's mark (NB_CUT_SLOT; Modify, so that the guard's
 * clearing store before a call that is not made stays) */
static IRDirty *cut_writer(IRDirty *d)
{
	evc_writer(d);
	if (!(nb_need & NEED_CUT))
		return d;       /* (no mark: no cut, cut_exit) */
	d->nFxState = 2;
	d->fxState[1].fx = Ifx_Modify;
	d->fxState[1].offset = (UShort)(sizeof(VexGuestAMD64State) + NB_CUT_SLOT);
	d->fxState[1].size = sizeof(ULong);
	return d;
}

/* the exit to pc where the check just before it took a PMI (its mark);
 * none while no PMI can stop the thread (NEED_CUT: nb_record's samples
 * alone, nb_need.c) */
static void cut_exit(IRSB *sb, Addr pc)
{
	IRExpr *m;

	if (!(nb_need & NEED_CUT))
		return;
	m = IRExpr_Get((Int)(sizeof(VexGuestAMD64State) + NB_CUT_SLOT), Ity_I64);
	addStmtToIRSB(sb, IRStmt_Exit(tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpNE64, tmp(sb, Ity_I64, m),
		c64(0))), Ijk_Boring, IRConst_U64((ULong)pc), sb->offsIP));
}

/*
 * The PMI check at the boundary before the instruction at pc (README
 * "Overflow interrupts (PMI)"): the check (bound: what the instructions
 * since the last check can add), then the cut: if the check took a PMI
 * here (nb_pmi_cut == pc), leave the superblock to pc, whose event check
 * returns to the scheduler, which delivers the signal with the guest
 * state at pc (every register is up to date at each instruction
 * boundary: --nbsim-exact-ir=yes; without it a PMI is taken at
 * superblock starts only).
 */
void nb_ipmi_at(IRSB *sb, ULong bound, Addr pc, Bool first, Bool force,
			struct nb_tm_block *tb, UInt to)
{
	IRExpr *c, *g;

	if (!(nb_need & NEED_PMI)) {
		thin_bound += bound;
		return;
	}
	if (first && tb)        /* the clock has run none of this superblock */
		addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&nb_tm_p), c64(0)));
	if (!first && !clo_exact_ir) {
		nb_ipmi_check(sb, bound, 0, tb, to);
		return;
	}
	nb_ipmi_check(sb, bound, (ULong)pc | (force ? NB_PMI_FORCE : 0), tb, to);
	if (!(nb_need & NEED_CUT))
		return;         /* (nothing sets nb_pmi_cut: skid_take) */
	c = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&nb_pmi_cut)));
	g = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, c, c64((ULong)pc)));
	addStmtToIRSB(sb, IRStmt_Exit(g, Ijk_Boring, IRConst_U64((ULong)pc), sb->offsIP));
}

/*
 * While a PMI is possible (README "Overflow interrupts (PMI)"), checks at
 * every instruction boundary cost more than the events they count (the
 * counts added instruction by instruction, the clock in segments), yet
 * all but the few before an overflow find nothing.  So a superblock is
 * translated thin: its counts batched and its clock on whole runs, as
 * without PMIs, one guard at its start, and at each later boundary a
 * call guarded by a compare of temporaries.  The guard: if the budget is
 * at most the sum of what the checked code's checks subtract
 * (thin_bound), nb_pmi_sb makes the first boundary's check (and the cut,
 * if it took a PMI there).  Then B1, the budget (as nb_pmi_sb left it,
 * if called), is read and the budget less thin_bound stored (an upper bound of what any path
 * subtracts), and the clock's position in the superblock (nb_tm_p) set to
 * its start.  The checked code's check at a later boundary comes due
 * where the budget less the bounds before it is below 1: there, and only
 * there, nb_ipmi_bcheck makes it (nb_ipmi_bcheck_emit).  The guard goes
 * before the lockstep's guard and the trace cache's call.
 */
static void thin_guard(IRSB *sb, Addr a, Bool force, Int at)
{
	Int from = sb->stmts_used;
	IRExpr *b, *g;
	IRDirty *d;
	/* (outlives the translation, as the boundary checks' tables) */
	struct nb_sbguard *t = VG_(malloc)("nbsim.sbguard", sizeof *t);

	t->at = (ULong)a | (force ? NB_PMI_FORCE : 0);
	t->bound = thin_bound;
	/* (the cut's mark cleared: NB_CUT_SLOT) */
	if (nb_need & NEED_CUT)
		addStmtToIRSB(sb, IRStmt_Put((Int)(sizeof(VexGuestAMD64State) + NB_CUT_SLOT), c64(0)));
	(void)nb_ipmi_addr(sb, &nb_pmi_budget);
	addStmtToIRSB(sb, IRStmt_WrTmp(thin_base, IRExpr_Load(Iend_LE, Ity_I64,
		mkIRExpr_HWord((HWord)&nb_pmi_budget_at))));
	b = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, nb_ipmi_addr(sb, &nb_pmi_budget)));
	g = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpLE64S, b,
		c64(thin_bound + (force ? skid_slack() : 0))));
	d = unsafeIRDirty_0_N(1, "nb_pmi_sb", VG_(fnptr_to_fnentry)(&nb_pmi_sb),
			      mkIRExprVec_1(c64(nb_ipmi_tab_add(t))));
	d->guard = g;
	/* (it sets the budget: read again below) */
	d->mFx = Ifx_Modify;
	d->mAddr = nb_ipmi_addr(sb, &nb_pmi_budget);
	d->mSize = sizeof nb_pmi_budget;
	addStmtToIRSB(sb, IRStmt_Dirty(cut_writer(d)));
	/* the PMI taken here (nb_pmi_check's cut), as the checked code's
	 * first check */
	cut_exit(sb, a);
	/* B1: the budget nb_pmi_sb left, or B if it was not called (read
	 * again rather than chosen by the guard, which would then be kept in
	 * a register and tested twice: a few host instructions less a run) */
	if (thin_b1 == IRTemp_INVALID)
		thin_b1 = newIRTemp(sb->tyenv, Ity_I64);
	addStmtToIRSB(sb, IRStmt_WrTmp(thin_b1, IRExpr_Load(Iend_LE, Ity_I64,
		nb_ipmi_addr(sb, &nb_pmi_budget))));
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, nb_ipmi_addr(sb, &nb_pmi_budget),
		tmp(sb, Ity_I64, IRExpr_Binop(Iop_Sub64, IRExpr_RdTmp(thin_b1), c64(thin_bound)))));
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, nb_ipmi_addr(sb, &nb_tm_p), c64(0)));
	nb_ir_move_tail(sb, at, from);
}


/*
 * The check of a thin translation at the boundary before the instruction
 * at PC (its bound already in thin_bound): made where the checked code's
 * would come due.  After the guard the budget in memory is B1 less the
 * whole sum of the bounds (thin_bound, S) and less what the cache model
 * debited since (its load misses, nb_pmi_memdyn); the checked code's
 * budget at this boundary is that plus the bounds after it (S - CUM): so
 * the check is due where the budget is at most CUM - S, a constant set
 * when S is known (thin_patch).  After a check, the budget stored is the
 * check's less the bounds after its boundary, so the same compare holds
 * for the next ones.  The call's table (struct nb_bcheck, its number,
 * nb_ipmi_tab_add, patched in *SLOT once the superblock's batched counts
 * are known) brings the counts to the boundary's for the check.  If the
 * check took a PMI here (its mark, NB_CUT_SLOT) the superblock leaves to
 * PC (the cut).
 */
IRExpr *nb_ipmi_bcheck_emit(IRSB *sb, Addr pc, Bool force)
{
	IRExpr *b, *e, *slot, *lim;
	IRDirty *d;

	tl_assert(thin_ncmp < THIN_MAXB);
	lim = c64(0);
	thin_cmp[thin_ncmp].c = lim->Iex.Const.con;
	thin_cmp[thin_ncmp].slack = force ? skid_slack() : 0;
	thin_cmp[thin_ncmp++].cum = thin_bound;
	b = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, nb_ipmi_addr(sb, &nb_pmi_budget)));
	e = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpLE64S, b, lim));
	slot = c64(0);
	d = unsafeIRDirty_0_N(1, "nb_ipmi_bcheck", VG_(fnptr_to_fnentry)(&nb_ipmi_bcheck),
			      mkIRExprVec_1(slot));
	d->guard = e;
	addStmtToIRSB(sb, IRStmt_Dirty(cut_writer(d)));
	cut_exit(sb, pc);
	return slot;
}

/* the boundary checks' compare constants: CUM - S (the whole sum) */
static void thin_patch(void)
{
	for (UInt j = 0; j < thin_ncmp; j++)
		thin_cmp[j].c->Ico.U64 = thin_cmp[j].cum - thin_bound + thin_cmp[j].slack;
}

/* the bounds so far (a boundary's check's, then the superblock's whole) */
ULong nb_ipmi_bound(void)
{
	return thin_bound;
}

/*
 * Called at a boundary of a thin translation where the checked code's
 * check would come due (the budget at most CUM - S, nb_ipmi_bcheck_emit):
 * the counts brought to the boundary's (the superblock added those of a
 * run to its end before: t's differences), the budget to the checked
 * code's there (plus the bounds after it, t->rest), the check as the
 * checked code makes it (with the clock run up to the boundary, in
 * segments from nb_tm_p), the counts put back.  If it took a PMI here,
 * it marks the cut (the counts left at the boundary's: the superblock
 * leaves).  The budget stored is the check's less the bounds after the
 * boundary.
 */
VG_REGPARM(1) void nb_ipmi_bcheck(ULong id)
{
	const struct nb_bcheck *t = nb_ipmi_tabs[id];
	ULong pc = t->at & ((1ULL << NB_PMI_TO_SHIFT) - 1);

	nb_pmi_bchecks++;
	for (UInt j = 0; j < t->n; j++)
		nb_raw[t->e[j].i] += t->e[j].d;
	nb_pmi_budget += (Long)t->rest;
	nb_pmi_check(NULL, t->at, t->b);
	if (nb_pmi_cut == pc) {
		nb_pmi_cut_mark();
		return;
	}
	for (UInt j = 0; j < t->n; j++)
		nb_raw[t->e[j].i] -= t->e[j].d;
	nb_pmi_budget -= (Long)t->rest;
}

/*
 * Addresses valgrind redirects (a replacement or a wrapper runs instead of
 * the code there), from their translations (closure->nraddr, the address
 * run, against readdr, the code's).  A translation of such an address
 * with no redirection is a wrapper's call of the original
 * (CALL_FN_*'s no-redirect jump): valgrind asserts that such a
 * translation makes no Ijk_NoRedir exit of its own, so it is made checked,
 * never thin.
 */
struct redir_node {                     /* (a VgHashNode) */
	struct redir_node *next;
	UWord key;
};
static VgHashTable *redirected;

static void note_redir(const VgCallbackClosure *c)
{
	struct redir_node *n;

	if (c->nraddr == c->readdr)
		return;
	if (!redirected)
		redirected = VG_(HT_construct)("nbsim.redir");
	if (VG_(HT_lookup)(redirected, (UWord)c->nraddr))
		return;
	n = VG_(malloc)("nbsim.redir", sizeof *n);
	n->key = (UWord)c->nraddr;
	VG_(HT_add_node)(redirected, n);
}

static Bool thin_ok(const VgCallbackClosure *c, const IRSB *in)
{
	/* (a superblock that jumps without redirection, a wrapper's call,
	 * stays checked as it always was) */
	if (in->jumpkind == Ijk_NoRedir)
		return False;
	for (Int j = 0; j < in->stmts_used; j++)
		if (in->stmts[j] && in->stmts[j]->tag == Ist_Exit &&
		    in->stmts[j]->Ist.Exit.jk == Ijk_NoRedir)
			return False;
	return c->nraddr != c->readdr || !redirected ||
		!VG_(HT_lookup)(redirected, (UWord)c->nraddr);
}

static UInt need_saved;                 /* a thin translation's nb_need, NEED_PMI off */

void nb_ipmi_note(const VgCallbackClosure *c)
{
	note_redir(c);
}

void nb_ipmi_begin(const VgCallbackClosure *c, const IRSB *in, Int first_im)
{
	cur_thin = last_thin = False;
	thin_bound = 0;
	thin_b1 = IRTemp_INVALID;
	thin_base = IRTemp_INVALID;
	step_based = False;
	thin_ncmp = 0;
	need_saved = nb_need;
	if (!(nb_need & NEED_PMI) || (nb_need & NEED_STEP) || !clo_pmi_thin || first_im < 0)
		return;
	if (thin_ok(c, in)) {
		cur_thin = last_thin = True;
		nb_pmi_thin_made++;
		nb_need &= ~NEED_PMI;
	} else {
		nb_pmi_near_made++;
	}
}

Bool nb_ipmi_thin(void)
{
	return cur_thin;
}

/* was the translation just made thin? (nb_putdrop.c, after nb_ipmi_end) */
Bool nb_ipmi_was_thin(void)
{
	return last_thin;
}

/*
 * Step mode's translations off the same register: every instruction of
 * a step-mode superblock adds its uops to nb_raw and tests nb_step_fast
 * (nb_instr_tm.c), each a 10-byte movabsq of the address at every use;
 * the address loaded once at the superblock's start (as a thin
 * translation's guard does) makes them displacements off a temporary.
 */

void nb_ipmi_step_base(IRSB *sb)
{
	step_based = (nb_need & NEED_STEP) && !cur_thin;
	if (!step_based)
		return;
	(void)nb_ipmi_addr(sb, &nb_pmi_budget);
	addStmtToIRSB(sb, IRStmt_WrTmp(thin_base, IRExpr_Load(Iend_LE, Ity_I64,
		mkIRExpr_HWord((HWord)&nb_pmi_budget_at))));
}

/* Are the tool's globals reached off the temporary (nb_ipmi_gaddr)? */
Bool nb_ipmi_based(void)
{
	return cur_thin || step_based;
}

IRExpr *nb_ipmi_gaddr(IRSB *sb, const void *p)
{
	return nb_ipmi_based() ? nb_ipmi_addr(sb, p) : mkIRExpr_HWord((HWord)p);
}

void nb_ipmi_end(IRSB *sb, Addr a, Bool force, Int at)
{
	if (cur_thin) {
		thin_patch();
		thin_guard(sb, a, force, at);
		nb_need = need_saved;
		cur_thin = False;
	}
}
