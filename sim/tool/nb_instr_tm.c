/*
 * nb_instr_tm.c - the instrumentation's calls of the clock (nb_cycles.c):
 * per superblock run, or per instruction in step mode, and the calls that
 * count a superblock's last branch and run the clock at once (nb_cond_tm,
 * nb_tm_site), which keep the sampled clock's cost entry at their site.
 * nb_instr.c decides where each goes.  docs/timing-model.md "Speed".
 */
#include "nb_tool.h"
#include "nb_insn.h"

/* Step mode: nb_step() after an instruction retires (guard: NULL or an
 * I1 atom, the exit taken). */
void nb_itm_step(IRSB *sb, IRExpr *guard)
{
	IRDirty *d;

	if (!(nb_need & NEED_STEP))
		return;
	d = unsafeIRDirty_0_N(0, "nb_step", VG_(fnptr_to_fnentry)(&nb_step), mkIRExprVec_0());
	if (guard)
		d->guard = guard;
	addStmtToIRSB(sb, IRStmt_Dirty(d));
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
