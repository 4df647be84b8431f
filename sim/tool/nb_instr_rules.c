/*
 * nb_instr_rules.c - the counting rules applied to each instruction at
 * translation: the uop model (docs/counting-rules.md "uop model"), the
 * measured uops of MMX/SSE forms, the Pentium D's rules (including REP
 * MOVS/STOS counted by 64-byte blocks), and what an instruction adds to
 * the pending counts of its segment.
 */
#include "nb_insn.h"

/* MEM_* of an instruction with these memory uops */
unsigned nb_irule_mem_class(UInt loads, UInt stores)
{
	return (loads ? MEM_L : 0) | (stores ? MEM_S : 0);
}

/* The raw count instruction k retires into: its class, or RAW_IC(0, 0)
 * when nothing reads the classes (NEED_ICLASS, nb_need.c) */
unsigned nb_irule_ic(const struct nb_iins *k)
{
	if (!(nb_need & NEED_ICLASS))
		return RAW_IC(0, 0);
	return RAW_IC(nb_irule_mem_class(k->loads, k->stores), k->dec.fp);
}


/*
 * The most instruction k can add to an armed counter (nb_pmi_arm.c,
 * nb_pmi_bclass): instructions retired, one (two with the Pentium D's
 * second count, cpu/nb_pdrules.h); cycles, its uops' issue (one a cycle
 * at least) and its uops' latencies and unit intervals (the retirement
 * of an instruction waits at most for its own uops once those before it
 * retired), the string engine's
 * time for an iteration of rep movs/stos (at most 16 bytes, NB_BOUND_REP);
 * its loads' misses, a store's hold of the front end for the bus and a
 * branch's misprediction penalty are debited as they happen (nb_exec.c,
 * nb_cycles.c: nb_pmi_memdyn, nb_pmi_misp_debit), the penalty only where
 * the predictor missed (as a bound of every branch it was most of a
 * run's bound, and brought the checks due far sooner than the cycles
 * did); and a budget is set less the front end's lead over retirement
 * (nb_pmi_arm.c overhang: a restart the instructions before the check
 * caused delays those after it).  Strict: --nbsim-pmi-verify finds no
 * check short of the model clock.  Anything else, BOUND_INSN.
 */
#define NB_BOUND_REP 64

static ULong irule_bound(const struct nb_iins *k)
{
	Bool br = k->dec.br != NB_BR_NONE;

	switch (nb_pmi_bclass) {
	case NB_PMIB_INS:
		return 1 + (ULong)k->pd.extra_ins;
	case NB_PMIB_CYC:
		return (ULong)k->uops + 1 + k->pd.extra_ins + k->lat +
			(k->uops_deferred ? NB_BOUND_REP : 0);
	default:
		return BOUND_INSN(k->uops, br, k->loads + k->stores);
	}
}

/* (--nbsim-pmi-bound=double: a control, at translation only) */
ULong nb_irule_bound(const struct nb_iins *k)
{
	return irule_bound(k) << (clo_pmi_bound_double ? 1 : 0);
}

void nb_irule_add_uops(struct nb_pend *p, const struct nb_iins *k)
{
	p->bound += nb_irule_bound(k);
	if (k->pd.rep) {
		/* REP MOVS / STOS on the Pentium D model: the iteration's
		 * own uop here, its loads and stores (and their uops) by
		 * blocks in nb_pd_rep_visit */
		UInt c = k->uops - k->loads - 2 * k->stores;
		p->uops += c;
		if (k->rom)
			p->raw[RAW_ROM_UOPS] += c;
		return;
	}
	p->uops += k->uops;
	p->raw[RAW_LOADS] += k->loads;
	p->raw[RAW_STORES] += k->stores;
	if (k->rom)
		p->raw[RAW_ROM_UOPS] += k->uops;
}

/*
 * REP MOVS and REP STOS on the model that follows the Pentium D's rules
 * (cpu/nb_pdrules.h nb_pd_rep): the part counts their load and store uops
 * per 64-byte block, not per iteration, so an execution's counts depend
 * on RCX at its start.  VEX runs each iteration as a visit of the
 * instruction (RCX = n, n - 1, ..., 1, and a last visit with RCX = 0
 * that leaves); a visit that is not the next of the execution under way
 * on this thread (same address, RCX one less) starts one, and adds its
 * loads, stores and their uops (uop model: L + 2 S) at once.  A signal
 * between two iterations resumes the execution (the next visit still
 * matches).
 */
static struct pd_rep_at { Addr pc; ULong next; } *pd_rep_at;    /* by ThreadId */

static void nb_pd_rep_visit(ULong pc, ULong kind, ULong rcx, ULong dflag)
{
	ThreadId tid = VG_(get_running_tid)();
	struct pd_rep_at *r;
	uint64_t l, st, u;

	if (!pd_rep_at)
		pd_rep_at = VG_(calloc)("nbsim.pdrep", VG_N_THREADS, sizeof *pd_rep_at);
	r = &pd_rep_at[tid < VG_N_THREADS ? tid : 0];
	if (r->pc == pc && r->next == rcx) {
		if (!rcx)
			r->pc = 0;      /* the last visit: the execution ends */
		else
			r->next = rcx - 1;
		return;
	}
	r->pc = rcx ? pc : 0;
	r->next = rcx - 1;
	nb_pd_rep((int)(kind >> 8), (unsigned)(kind & 0xff), rcx, (Long)dflag < 0, &l, &st);
	u = l + 2 * st;
	if (nb_need & NEED_MEM) {
		nb_raw[RAW_LOADS] += l;
		nb_raw[RAW_STORES] += st;
	}
	if (nb_need & NEED_UOPS)
		nb_raw[RAW_UOPS] += u;
	if (nb_need & NEED_ROM)
		nb_raw[RAW_ROM_UOPS] += u;
	/* what the next PMI check's bound must cover (BOUND_INSN) */
	if (nb_need & NEED_PMI)
		nb_pmi_budget -= (Long)(4 * (u + 1));
}

/* Does instruction k get a Pentium D REP visit (nb_irule_pd_rep)?  (a PMI
 * possible, a thin translation's too: the visit debits the budget with
 * the iteration's bound) */
Bool nb_irule_pd_rep_on(const struct nb_iins *k)
{
	return k->pd.rep && ((nb_need & (NEED_MEM | NEED_UOPS | NEED_ROM | NEED_PMI)) || nb_ipmi_thin());
}

void nb_irule_pd_rep(IRSB *sb, const struct nb_iins *k)
{
	IRExpr *rcx, *df;
	IRDirty *d;

	if (!nb_irule_pd_rep_on(k))
		return;
	rcx = tmp(sb, Ity_I64, IRExpr_Get(offsetof(VexGuestAMD64State, guest_RCX), Ity_I64));
	df = tmp(sb, Ity_I64, IRExpr_Get(offsetof(VexGuestAMD64State, guest_DFLAG), Ity_I64));
	d = unsafeIRDirty_0_N(0, "nb_pd_rep_visit", VG_(fnptr_to_fnentry)(&nb_pd_rep_visit),
			      mkIRExprVec_4(c64((ULong)k->addr),
					    c64((ULong)k->pd.rep | (ULong)k->pd.rep_movs << 8), rcx, df));
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

void nb_irule_tm_rep(IRSB *sb, const struct nb_iins *k)
{
	IRExpr *rcx, *df;
	IRDirty *d;

	if (!(nb_need & NEED_TIME) || !(k->dec.cls & NB_IC_REP) ||
	    !nb_tmb_rep_kind((const UChar *)k->addr, k->len > 16 ? 16 : k->len, k->dec.len_prefix))
		return;
	rcx = tmp(sb, Ity_I64, IRExpr_Get(offsetof(VexGuestAMD64State, guest_RCX), Ity_I64));
	df = tmp(sb, Ity_I64, IRExpr_Get(offsetof(VexGuestAMD64State, guest_DFLAG), Ity_I64));
	d = unsafeIRDirty_0_N(0, "nb_tm_rep_visit", VG_(fnptr_to_fnentry)(&nb_tm_rep_visit),
			      mkIRExprVec_3(c64((ULong)k->addr), rcx, df));
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

void nb_irule_retire(struct nb_pend *p, const struct nb_iins *k)
{
	p->raw[nb_irule_ic(k)]++;
	p->raw[RAW_XINS] += k->pd.extra_ins;
	if (k->rom)
		p->raw[RAW_MS_XFER]++;
}

/* uop model (README "uop model"), from the instruction's IR stmts [from, to). */
UInt nb_irule_uops(IRSB *sb, Int from, Int to, const struct nb_insn *dec,
		      UInt *nloads, UInt *nstores, Bool *rom)
{
	UInt loads = 0, stores = 0, dirty = 0, c;

	for (Int j = from; j < to; j++) {
		IRStmt *st = sb->stmts[j];
		switch (st->tag) {
		case Ist_WrTmp:
			if (st->Ist.WrTmp.data->tag == Iex_Load)
				loads++;
			break;
		case Ist_LoadG:
			loads++;
			break;
		case Ist_Store: case Ist_StoreG:
			stores++;
			break;
		case Ist_CAS:
			loads++;
			stores++;
			break;
		case Ist_Dirty:
			dirty++;
			break;
		default:
			break;
		}
	}
	*nloads = loads;
	*nstores = stores;
	*rom = dirty || (dec->cls & NB_IC_ROM);
	if (dirty || (dec->cls & NB_IC_MCODE))
		return nb_cpu->ms_uops;
	c = (dec->cls & NB_IC_MOVE) ? 0 : 1;
	c += loads + 2 * stores;
	return c ? c : 1;
}

/*
 * The Pentium D's counting rules (cpu/nb_pdrules.h; docs/counting-rules.md
 * "Pentium D counting rules") on the model that follows them: the load and
 * store uops as measured replace the IR's, and the uops follow them by the
 * uop model's rule (C + L + 2 S; a microcoded instruction at least its
 * ms_uops).
 */
void nb_irule_pd(struct nb_iins *k, const uint8_t *a, UInt len)
{
	UInt c;

	k->pd.extra_ins = 0;
	k->pd.branch = 0;
	k->pd.rep = 0;
	if (!nb_pd_rules_apply(nb_cpu->model) || !nb_pd_rules(a, len, &k->pd))
		return;
	if (k->pd.loads == NB_PD_KEEP && k->pd.stores == NB_PD_KEEP)
		return;
	if (k->pd.loads != NB_PD_KEEP)
		k->loads = k->pd.loads;
	if (k->pd.stores != NB_PD_KEEP)
		k->stores = k->pd.stores;
	c = ((k->dec.cls & NB_IC_MOVE) ? 0 : 1) + k->loads + 2 * k->stores;
	if (!c)
		c = 1;
	if (k->rom && !(k->dec.cls & NB_IC_REP))
		k->uops = c > nb_cpu->ms_uops ? c : nb_cpu->ms_uops;
	else
		k->uops = c;
}

/*
 * The uops measured per MMX/SSE instruction form on the model's core,
 * Agner Fog's P4 or Prescott sheet (cpu/nb_uops.h; docs/counting-rules.md
 * "uop model"):
 * they replace the general rule's count (after the Pentium D rules,
 * which set the load and store uops the tagging counts).
 */
void nb_irule_measured(struct nb_iins *k, const uint8_t *a, UInt len)
{
	unsigned u;

	if (!(k->dec.cls & NB_IC_REP) &&
	    nb_uops_measured(nb_uops_sheet(nb_cpu->model), a, len, &u))
		k->uops = u;
}
