/*
 * nb_instr_tm.c - the instrumentation's calls of the clock (nb_cycles.c):
 * per superblock run, or per instruction in step mode, and the calls that
 * count a superblock's last branch and run the clock at once (nb_cond_tm,
 * nb_tm_site), which keep the sampled clock's cost entry at their site.
 * nb_instr.c decides where each goes.  docs/timing-model.md "Speed".
 */
#include "nb_tool.h"
#include "nb_insn.h"
#include "nb_ir.h"

/* Step mode: nb_step() after an instruction retires (guard: NULL or an
 * I1 atom, the exit taken). */
/* call d, made when guard (NULL: always); it writes nb_step_fast, which
 * the next guards read */
static void add_flag_call(IRSB *sb, IRDirty *d, IRExpr *guard)
{
	if (guard)
		d->guard = guard;
	d->mFx = Ifx_Modify;
	d->mAddr = mkIRExpr_HWord((HWord)&nb_step_fast);
	d->mSize = sizeof nb_step_fast;
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

void nb_itm_step(IRSB *sb, IRExpr *guard)
{
	if (nb_need & NEED_STEP)
		add_flag_call(sb, unsafeIRDirty_0_N(0, "nb_step", VG_(fnptr_to_fnentry)(&nb_step),
						    mkIRExprVec_0()), guard);
}

/*
 * Step mode's held runs without a call per instruction (nb_step.c
 * nb_step_end): after a superblock's first segment and step (which
 * decide and tell, nb_step_fast, whether the sampled clock holds the run
 * back), each later instruction's two calls are guarded by the flag
 * being clear (the uops counted so far, where nb_step would have read
 * them, are where nb_step_end reads them: nb_step.c; an instruction with
 * a Pentium D REP visit stores them first, nb_itm_mark); every
 * place the run may end (each exit, the end) calls nb_step_end when the
 * flag is set, which does at once what the skipped calls would have:
 * the clock's last segment (its uops reached, its loads' latencies kept
 * with the run) and the step's uops held.  Under the sampled clock
 * without a possible PMI (whose checks need each instruction's clock).
 */
Bool nb_itm_fast_ok(void)
{
	return (nb_need & NEED_STEP) && clo_clock == NB_CLOCK_SAMPLED && !(nb_need & NEED_PMI);
}

/* g (NULL: always) and the flag clear (set: the flag set) */
static IRExpr *flag_at(IRSB *sb, IRExpr *g, Bool set, UInt *flag)
{
	IRExpr *f = tmp(sb, Ity_I32, IRExpr_Load(Iend_LE, Ity_I32, nb_ipmi_gaddr(sb, flag)));
	IRExpr *c = tmp(sb, Ity_I1, IRExpr_Binop(set ? Iop_CmpNE32 : Iop_CmpEQ32, f,
						 IRExpr_Const(IRConst_U32(0))));
	if (!g)
		return c;
	/* (both as words: And1 is not for every back end) */
	return tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpNE32,
		tmp(sb, Ity_I32, IRExpr_Binop(Iop_And32, tmp(sb, Ity_I32, IRExpr_Unop(Iop_1Uto32, g)),
					      tmp(sb, Ity_I32, IRExpr_Unop(Iop_1Uto32, c)))),
		IRExpr_Const(IRConst_U32(0))));
}

static IRExpr *fast_flag(IRSB *sb, IRExpr *g, Bool set)
{
	return flag_at(sb, g, set, &nb_step_fast);
}

IRExpr *nb_itm_fast_guard(IRSB *sb, IRExpr *g)
{
	return fast_flag(sb, g, False);
}

/* nb_step_mark = the uops so far, before an instruction's Pentium D REP
 * visit adds to them (its non-retiring exits' nb_step_end reads it) */
void nb_itm_mark(IRSB *sb)
{
	IRExpr *u = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
						 mkIRExpr_HWord((HWord)&nb_raw[RAW_UOPS])));

	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&nb_step_mark), u));
}

/* The first instruction of a superblock whose later ones skip their
 * calls in a held run: its calls skipped too after a take (nb_step.c
 * tk_take: nb_step_tk set), guard: the flag clear */
IRExpr *nb_itm_tk_guard(IRSB *sb, IRExpr *g)
{
	return flag_at(sb, g, False, &nb_step_tk);
}

/* ... and after its calls: the instruction passed */
void nb_itm_tk_clear(IRSB *sb)
{
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, nb_ipmi_gaddr(sb, &nb_step_tk),
				       IRExpr_Const(IRConst_U32(0))));
}

/* nb_step_end's call: uop to of b, the run leaving to valgrind (out), at
 * its first instruction (first: bit 33), the uops held from nb_step_mark
 * (mark: bit 34), made when guard (NULL: always) */
static void step_end_call(IRSB *sb, struct nb_tm_block *b, UInt to, Bool out, Bool first,
			  Bool mark, IRExpr *guard)
{
	IRDirty *d = unsafeIRDirty_0_N(2, "nb_step_end", VG_(fnptr_to_fnentry)(&nb_step_end),
				       mkIRExprVec_2(mkIRExpr_HWord((HWord)b),
						     c64((ULong)to | ((ULong)(out != 0) << 32) |
							 ((ULong)(first != 0) << 33) |
							 ((ULong)(mark != 0) << 34))));

	add_flag_call(sb, d, guard);     /* (it clears the flag) */
}

/* the run may end here (g: NULL or the exit taken), through uop to of b;
 * out: the run leaves to valgrind (a system call, a client request...),
 * which may read the clock: not taken there; mark: the uops held are
 * nb_step_mark's (nb_itm_mark) */
void nb_itm_step_end(IRSB *sb, struct nb_tm_block *b, UInt to, IRExpr *g, Bool out, Bool mark)
{
	if (b)
		step_end_call(sb, b, to, out, False, mark, fast_flag(sb, g, True));
}

/* The run may end here, at its first instruction (g: NULL or the exit
 * taken), through uop to of b: after a take its calls were skipped (the
 * flag set), the run opened and taken here; else they were made, and the
 * run is taken here as at a later instruction's end */
void nb_itm_step_end_first(IRSB *sb, struct nb_tm_block *b, UInt to, IRExpr *g, Bool out)
{
	if (b)
		step_end_call(sb, b, to, out, True, False, g);
}

/* The timing model runs uops [from, to) of the superblock's descriptor b
 * (guard: NULL or an I1 atom, the exit taken).  README "Timing model". */
void nb_itm_tm(IRSB *sb, struct nb_tm_block *b, UInt from, UInt to, IRExpr *guard)
{
	IRDirty *d;

	if (!b || from >= to)
		return;
	if (nb_need & NEED_PMI)
		/* the PMI check runs the clock too: from where it got to */
		d = unsafeIRDirty_0_N(2, "nb_tm_rest", VG_(fnptr_to_fnentry)(&nb_tm_rest),
				      mkIRExprVec_2(mkIRExpr_HWord((HWord)b), c64(to)));
	else if (!from && !(nb_need & NEED_STEP)) {
		/* (the run from the start: the sampled clock's entry kept at
		 * the site; in step mode the run comes instruction by
		 * instruction, nb_tm_sb's segments; in a thin translation a
		 * check inside may have run the clock part of the way) */
		struct nb_tm_site *s = nb_ibr_site(sizeof *s);
		s->b = b;
		s->br = 0;
		nb_tms_site_init(&s->site, to);
		d = nb_ipmi_thin()
			? unsafeIRDirty_0_N(2, "nb_tm_site_thin", VG_(fnptr_to_fnentry)(&nb_tm_site_thin),
					    mkIRExprVec_2(mkIRExpr_HWord((HWord)s), c64(0)))
			: unsafeIRDirty_0_N(2, "nb_tm_site", VG_(fnptr_to_fnentry)(&nb_tm_site),
					    mkIRExprVec_2(mkIRExpr_HWord((HWord)s), c64(0)));
	} else if (nb_ipmi_thin())
		d = unsafeIRDirty_0_N(2, "nb_tm_thin", VG_(fnptr_to_fnentry)(&nb_tm_thin),
				      mkIRExprVec_2(mkIRExpr_HWord((HWord)b),
						    c64(((ULong)to << 32) | from)));
	else
		d = unsafeIRDirty_0_N(2, "nb_tm_sb", VG_(fnptr_to_fnentry)(&nb_tm_sb),
				      mkIRExprVec_2(mkIRExpr_HWord((HWord)b),
						    c64(((ULong)to << 32) | from)));
	if (guard)
		d->guard = guard;
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* Step mode, an instruction retired: nb_itm_tm then nb_itm_step, in one
 * call (nb_tm_step) where the first is nb_tm_sb: in a held run the
 * guard's test and branch, not the call, are what every instruction
 * pays, and an instruction's two made one */
void nb_itm_tm_step(IRSB *sb, struct nb_tm_block *b, UInt from, UInt to, IRExpr *guard)
{
	IRDirty *d;

	if (!b || from >= to || !(nb_need & NEED_STEP) || (nb_need & NEED_PMI) || nb_ipmi_thin()) {
		nb_itm_tm(sb, b, from, to, guard);
		nb_itm_step(sb, guard);
		return;
	}
	d = unsafeIRDirty_0_N(2, "nb_tm_step", VG_(fnptr_to_fnentry)(&nb_tm_step),
			      mkIRExprVec_2(mkIRExpr_HWord((HWord)b), c64(((ULong)to << 32) | from)));
	add_flag_call(sb, d, guard);
}

/*
 * A conditional branch ending the superblock (its exit after the last
 * IMark, no exit after it): both ways then run the clock over the same
 * uops [from, to), so one call (nb_cond_tm) counts the branch and runs
 * the clock, before the exit, instead of nb_cond, then nb_tm_sb on each
 * way.  Not while a PMI is possible or in step mode (their own calls per
 * instruction, nb_tm_rest; without them the run is the superblock's
 * from its start, from 0), nor without the branch model.
 */
Bool nb_itm_cond_ok(IRSB *in, Int at, Int last_im, const struct nb_tm_block *b, UInt from,
		       UInt to)
{
	if (!b || from || !to || at < last_im || !(nb_need & NEED_BR) ||
	    (nb_need & (NEED_STEP | NEED_PMI)))
		return False;
	for (Int j = at + 1; j < in->stmts_used; j++)
		if (in->stmts[j] && in->stmts[j]->tag == Ist_Exit)
			return False;
	return True;
}

/* The superblock's last instruction k, a call, a return or an indirect
 * jump (not a direct jmp: it makes no call, nb_ibr_call): its branch call
 * and the clock's for uops [from, to) as one (nb_tm_site for a run from
 * the start, else nb_branch_tm), when each would be a plain call (not in
 * step mode nor while a PMI is possible: their calls per instruction,
 * nb_tm_rest); in a thin translation, whose checks inside may have run
 * the clock part of the way, the _thin variants */
Bool nb_itm_branch_ok(const struct nb_iins *k, const struct nb_tm_block *b, UInt from, UInt to)
{
	return b && from < to && k->dec.br != NB_BR_JMP && (nb_need & NEED_BR) &&
		!(nb_need & (NEED_STEP | NEED_PMI));
}

void nb_itm_branch(IRSB *sb, const struct nb_iins *k, IRExpr *target,
			   struct nb_tm_block *b, UInt from, UInt to)
{
	ULong packed = ((ULong)k->addr & 0xffffffffffffULL) | ((ULong)(k->len & 0xff) << 48) |
		((ULong)k->dec.br << 56);
	struct nb_tm_site *s;

	if (from) {
		addStmtToIRSB(sb, IRStmt_Dirty(nb_ipmi_thin()
			? unsafeIRDirty_0_N(0, "nb_branch_tm_thin", VG_(fnptr_to_fnentry)(&nb_branch_tm_thin),
					    mkIRExprVec_4(c64(packed), target, mkIRExpr_HWord((HWord)b),
							  c64(((ULong)to << 32) | from)))
			: unsafeIRDirty_0_N(0, "nb_branch_tm", VG_(fnptr_to_fnentry)(&nb_branch_tm),
					    mkIRExprVec_4(c64(packed), target, mkIRExpr_HWord((HWord)b),
							  c64(((ULong)to << 32) | from)))));
		return;
	}
	/* (the run from the start: the sampled clock's entry kept at the site) */
	s = nb_ibr_site(sizeof *s);
	s->b = b;
	s->br = packed;
	nb_tms_site_init(&s->site, to);
	addStmtToIRSB(sb, IRStmt_Dirty(nb_ipmi_thin()
		? unsafeIRDirty_0_N(2, "nb_tm_site_thin", VG_(fnptr_to_fnentry)(&nb_tm_site_thin),
				    mkIRExprVec_2(mkIRExpr_HWord((HWord)s), target))
		: unsafeIRDirty_0_N(2, "nb_tm_site", VG_(fnptr_to_fnentry)(&nb_tm_site),
				    mkIRExprVec_2(mkIRExpr_HWord((HWord)s), target))));
}

/* (the common case reads all of it: one host line, nb_ibr_site) */
_Static_assert(sizeof(struct nb_cond_tm) <= 64, "struct nb_cond_tm in one cache line");

void nb_itm_cond(IRSB *sb, Addr pc, ULong target, IRExpr *taken, struct nb_tm_block *b,
			 UInt to)
{
	struct nb_cond_tm *s = nb_ibr_site(sizeof *s);
	IRDirty *d;

	nb_cond_site_init(&nb_bp, &s->br, (uint64_t)pc, target);
	s->b = b;
	nb_tms_site_init(&s->site, to);
	d = nb_ipmi_thin()
		? unsafeIRDirty_0_N(2, "nb_cond_tm_thin", VG_(fnptr_to_fnentry)(&nb_cond_tm_thin),
				    mkIRExprVec_2(mkIRExpr_HWord((HWord)s), taken))
		: unsafeIRDirty_0_N(2, "nb_cond_tm", VG_(fnptr_to_fnentry)(&nb_cond_tm),
				    mkIRExprVec_2(mkIRExpr_HWord((HWord)s), taken));
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/*
 * A conditional branch whose exit is not the superblock's last (VEX's
 * unrolled self-loops: sort's numcompare digit loops, a quarter of
 * valgrind's profile of it): the run ends at the exit when it is taken, so there one
 * nb_cond_tm (the branch and the clock over [0, to)) instead of nb_cond
 * and then nb_tm_site; on the way on, nb_cond alone.  The two calls'
 * guards are the exit's and its negation: one of them is made, in the
 * order the two calls were (the branch counted before the clock reads
 * the mispredictions), so the counts and cycles are the same.  When
 * nb_tm_site would be the exit's clock call (nb_itm_tm): not while a
 * PMI is possible or in step mode, the run from the start; in a thin
 * translation, whose checks inside may have run the clock part of the
 * way, nb_cond_tm_thin (nb_cond, then nb_tm_site_thin's work).
 */
Bool nb_itm_cond_mid_ok(const struct nb_tm_block *b, UInt from, UInt to)
{
	return b && !from && to && (nb_need & NEED_BR) && !(nb_need & (NEED_STEP | NEED_PMI));
}

void nb_itm_cond_mid(IRSB *sb, Addr pc, ULong target, IRExpr *taken, IRExpr *exit,
		     struct nb_tm_block *b, UInt to)
{
	struct nb_cond_tm *s = nb_ibr_site(sizeof *s);
	struct nb_cond_site *c = nb_ibr_site(sizeof *c);
	IRTemp on = newIRTemp(sb->tyenv, Ity_I1);
	IRDirty *d;

	nb_cond_site_init(&nb_bp, &s->br, (uint64_t)pc, target);
	s->b = b;
	nb_tms_site_init(&s->site, to);
	d = nb_ipmi_thin()
		? unsafeIRDirty_0_N(2, "nb_cond_tm_thin", VG_(fnptr_to_fnentry)(&nb_cond_tm_thin),
				    mkIRExprVec_2(mkIRExpr_HWord((HWord)s), taken))
		: unsafeIRDirty_0_N(2, "nb_cond_tm", VG_(fnptr_to_fnentry)(&nb_cond_tm),
				    mkIRExprVec_2(mkIRExpr_HWord((HWord)s), taken));
	d->guard = exit;
	addStmtToIRSB(sb, IRStmt_Dirty(d));
	nb_cond_site_init(&nb_bp, c, (uint64_t)pc, target);
	addStmtToIRSB(sb, IRStmt_WrTmp(on, IRExpr_Unop(Iop_Not1, exit)));
	d = unsafeIRDirty_0_N(2, "nb_cond", VG_(fnptr_to_fnentry)(&nb_cond),
			      mkIRExprVec_2(mkIRExpr_HWord((HWord)c), taken));
	d->guard = IRExpr_RdTmp(on);
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}
