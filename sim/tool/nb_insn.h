/*
 * nb_insn.h - one guest instruction as the instrumentation sees it, and
 * the counts pending in a superblock segment.  Shared by the
 * instrumentation loop (nb_instr.c), the counting rules it applies at
 * translation (nb_instr_rules.c), the branch predictor's calls
 * (nb_instr_branch.c) and the PMI checks (nb_instr_pmi.c).
 */
#ifndef NB_INSN_H
#define NB_INSN_H

#include "nb_ir.h"

/* Pending unconditional counts of the current superblock segment. */
struct nb_pend {
	ULong uops;
	ULong raw[RAW_N];
	ULong bound;            /* most any counter can gain (BOUND_INSN) */
};

/*
 * BOUND_INSN: an upper bound of the increment of any one counter from one
 * instruction, for the PMI budget: every signal grows by at most its uops
 * or 1 (execution_event with four NBOGUSn bits: 4 x), cycles by
 * uops / width + 1, a misprediction penalty per branch (<= 32 cycles; its
 * wrong-path uops, <= 3 per penalty cycle, x 4 mask bits: 420), and the
 * memory stall of each memory uop (at most L2 + L3 + memory latency); a
 * per-cycle filter counts at most one per cycle.  The bound debited is
 * the armed counters' (nb_irule_bound, nb_pmi_bclass): this one when
 * they count anything else.
 */
#define BOUND_INSN(uops, br, mem) (4 * ((ULong)(uops) + 1) + ((br) ? 420 : 1) + \
				   (ULong)(mem) * nb_bound_mem)

struct nb_iins {
	Bool valid;
	Addr addr;
	UInt len;
	struct nb_insn dec;
	UInt uops;
	UInt loads, stores;     /* memory uops per execution (REP: per iteration) */
	Bool uops_deferred;     /* REP string: uops counted after the first exit */
	Bool rom;               /* uops from the MS ROM (NB_IC_ROM, dirty helper) */
	Int jnext_cc;           /* a jcc to the next instruction: its condition */
				/* code (0-15), else -1 (nb_ibr_jnext_cc)          */
	Bool br_done;           /* its branch call is emitted                   */
	struct nb_pd_adj pd;    /* Pentium D counting rules (cpu/nb_pdrules.h)  */
	UInt lat;               /* its uops' latencies and unit intervals, in   */
				/* cycles (nb_tmb_lat; 0 without the clock)     */
};

/* ---- nb_instr_branch.c: calls of the branch predictor ---- */

/* room for a branch helper's site (never freed), in one host cache line
 * if it fits in one */
void *nb_ibr_site(SizeT size);

/* the predictor's call for a branch of KIND at PC (TAKEN: an I64 atom,
 * TARGET: its target) */
void nb_ibr_call(IRSB *sb, unsigned kind, Addr pc, UInt len, IRExpr *taken, IRExpr *target);
/* a jcc to the next instruction: its condition code, else -1 */
Int nb_ibr_jnext_cc(const uint8_t *a, UInt len, const struct nb_insn *dec);
/* count a jcc to the next instruction (VEX removed its exit) from the flags */
void nb_ibr_jnext(IRSB *sb, struct nb_iins *k);
/* count a conditional branch whose exit VEX folded; control went to NEXT */
void nb_ibr_folded(IRSB *sb, struct nb_iins *k, ULong next);

/* ---- nb_instr_rules.c: counting rules applied at translation ---- */

unsigned nb_irule_mem_class(UInt loads, UInt stores);
unsigned nb_irule_ic(const struct nb_iins *k);
/* the uop model's count from the instruction's IR statements [from, to) */
UInt nb_irule_uops(IRSB *sb, Int from, Int to, const struct nb_insn *dec,
		   UInt *nloads, UInt *nstores, Bool *rom);
/* the Pentium D's counting rules, on the model that follows them */
void nb_irule_pd(struct nb_iins *k, const uint8_t *a, UInt len);
/* the measured uops of MMX/SSE forms on the model's core (Agner Fog's P4
 * or Prescott sheet) */
void nb_irule_measured(struct nb_iins *k, const uint8_t *a, UInt len);
/* what the instruction can add to an armed counter (the PMI budget) */
ULong nb_irule_bound(const struct nb_iins *k);
/* add the instruction's uops and memory uops to the pending counts */
void nb_irule_add_uops(struct nb_pend *p, const struct nb_iins *k);
/* add its retirement to the pending counts */
void nb_irule_retire(struct nb_pend *p, const struct nb_iins *k);
/* REP MOVS/STOS on the Pentium D model: the call that counts by blocks */
void nb_irule_pd_rep(IRSB *sb, const struct nb_iins *k);
Bool nb_irule_pd_rep_on(const struct nb_iins *k);
/* rep movs/stos with the timing model: which iterations are in the fast
 * strings' block mode (nb_cycles.c nb_tm_rep_visit) */
void nb_irule_tm_rep(IRSB *sb, const struct nb_iins *k);

/* ---- nb_instr_pmi.c: the PMI checks and thin translations ---- */

/* note a translation of a redirected address (every translation) */
void nb_ipmi_note(const VgCallbackClosure *c);
/* choose, for the superblock IN (its first IMark at FIRST_IM), a thin
 * translation or the checked code; a thin one is instrumented with
 * NEED_PMI off until nb_ipmi_end */
void nb_ipmi_begin(const VgCallbackClosure *c, const IRSB *in, Int first_im);
Bool nb_ipmi_thin(void);
Bool nb_ipmi_was_thin(void);
void nb_ipmi_step_base(IRSB *sb);
Bool nb_ipmi_based(void);
IRExpr *nb_ipmi_gaddr(IRSB *sb, const void *p);
/* *c += e (e: an I64 atom): in a thin translation addressed off the
 * register its guard loads, else at the constant address */
void emit_add_at(IRSB *sb, ULong *c, IRExpr *e);
/* a thin translation's check at a boundary (nb_ipmi_bcheck_emit, at the
 * boundary before the instruction at PC; its table's number,
 * nb_ipmi_tab_add, goes in the constant it returns): the clock's block B, AT as nb_pmi_check's, the
 * bounds before it (CUM) and after it (REST), the counts' differences
 * from the batched total (nb_raw[i] += d) */
struct nb_bcheck {
	const struct nb_tm_block *b;
	ULong at, cum, rest;
	UInt n;
	struct { UInt i; ULong d; } e[];
};
IRExpr *nb_ipmi_bcheck_emit(IRSB *sb, Addr pc, Bool force);
ULong nb_ipmi_bound(void);
VG_REGPARM(1) void nb_ipmi_bcheck(ULong id);
/* the budget's check (BOUND: what the instructions since the last check
 * can add; AT: 0, or the next instruction's PC | NB_PMI_FORCE; TB, TO:
 * the clock's uops run so far) */
void nb_ipmi_check(IRSB *sb, ULong bound, ULong at, struct nb_tm_block *tb, UInt to);
/* the check at the boundary before the instruction at PC, and its cut */
void nb_ipmi_at(IRSB *sb, ULong bound, Addr pc, Bool first, Bool force,
		struct nb_tm_block *tb, UInt to);
/* at the superblock's end: a thin translation's guard, placed at AT (A:
 * its first instruction; FORCE: it leaves generated code) */
void nb_ipmi_end(IRSB *sb, Addr a, Bool force, Int at);

/* nb_instr_tm.c: the clock's calls (guard: NULL or an I1 atom, the exit
 * taken).  Step mode's nb_step after an instruction; the clock over uops
 * [from, to) of b; may the superblock's last conditional branch at stmts
 * index `at`, or its last call, return or indirect jump k, count its
 * branch in the clock's call (nb_cond_tm, nb_tm_site), and those calls */
void nb_itm_step(IRSB *sb, IRExpr *guard);
/* step mode's held runs without per-instruction calls (nb_instr_tm.c) */
Bool nb_itm_fast_ok(void);
IRExpr *nb_itm_fast_guard(IRSB *sb, IRExpr *g);
void nb_itm_mark(IRSB *sb);
void nb_itm_step_end(IRSB *sb, struct nb_tm_block *b, UInt to, IRExpr *g, Bool out, Bool mark);
IRExpr *nb_itm_tk_guard(IRSB *sb, IRExpr *g);
void nb_itm_step_end_first(IRSB *sb, struct nb_tm_block *b, UInt to, IRExpr *g, Bool out);
void nb_itm_tk_clear(IRSB *sb);
void nb_itm_tm(IRSB *sb, struct nb_tm_block *b, UInt from, UInt to, IRExpr *guard);
void nb_itm_tm_step(IRSB *sb, struct nb_tm_block *b, UInt from, UInt to, IRExpr *guard);
Bool nb_itm_cond_ok(IRSB *in, Int at, Int last_im, const struct nb_tm_block *b, UInt from,
		    UInt to);
Bool nb_itm_branch_ok(const struct nb_iins *k, const struct nb_tm_block *b, UInt from, UInt to);
void nb_itm_branch(IRSB *sb, const struct nb_iins *k, IRExpr *target,
		   struct nb_tm_block *b, UInt from, UInt to);
void nb_itm_cond(IRSB *sb, Addr pc, ULong target, IRExpr *taken, struct nb_tm_block *b,
		 UInt to);
/* ... a conditional exit before the superblock's end: nb_cond_tm when
 * the exit is taken, else nb_cond */
Bool nb_itm_cond_mid_ok(const struct nb_tm_block *b, UInt from, UInt to);
void nb_itm_cond_mid(IRSB *sb, Addr pc, ULong target, IRExpr *taken, IRExpr *exit,
		     struct nb_tm_block *b, UInt to);

#endif /* NB_INSN_H */
