/*
 * nb_ir.h - IR building blocks shared by the instrumentation
 * (nb_instr*.c).
 */
#ifndef NB_IR_H
#define NB_IR_H

#include "nb_tool.h"

static inline IRExpr *c64(ULong v)
{
	return IRExpr_Const(IRConst_U64(v));
}

/* a new temporary of type ty holding e; its read */
static inline IRExpr *tmp(IRSB *sb, IRType ty, IRExpr *e)
{
	IRTemp t = newIRTemp(sb->tyenv, ty);
	addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

/* Move the statements appended from index from on to index at. */
static inline void nb_ir_move_tail(IRSB *sb, Int at, Int from)
{
	Int n = sb->stmts_used - from;
	IRStmt **t;

	if (n <= 0 || at == from)
		return;
	t = VG_(malloc)("nbsim.batch", (SizeT)n * sizeof *t);
	VG_(memcpy)(t, sb->stmts + from, (SizeT)n * sizeof *t);
	VG_(memmove)(sb->stmts + at + n, sb->stmts + at, (SizeT)(from - at) * sizeof *t);
	VG_(memcpy)(sb->stmts + at, t, (SizeT)n * sizeof *t);
	VG_(free)(t);
}

/* FP assists (nb_instr_fpa.c, README "FP assists"): check the FP IR
 * operation e written to t of the instruction being instrumented (x87:
 * an x87 instruction), ORing what it finds into *acc; at the
 * instruction's end, add *acc to the assist counts and clear it */
void nb_ifpa_check(IRSB *sb, IRTemp t, const IRExpr *e, Bool x87, IRExpr **acc);
void nb_ifpa_flush(IRSB *sb, Bool x87, IRExpr **acc);

#endif /* NB_IR_H */
