/*
 * nb_instr.c - instrumentation: turns each superblock's IR into IR that
 * counts what the enabled counters need (per-segment static counts, calls
 * of the helpers in nb_exec.c; the PMI checks are nb_instr_pmi.c's, the
 * FP-assist checks nb_instr_fpa.c's), and replaces VEX's CPUID helper.  See README.md "uop model" and "Speed".
 */
#include "nb_tool.h"
#include "nb_insn.h"
#include "nb_rawsh.h"

/* ---- CPUID ---- */

void nb_cpuid_helper(VexGuestAMD64State *st)
{
	uint32_t o[4];
	nb_cpuid(nb_cpu, clo_ht, nb_lp_of(VG_(get_running_tid)()), (uint32_t)st->guest_RAX, (uint32_t)st->guest_RCX, o);
	st->guest_RAX = o[0];
	st->guest_RBX = o[1];
	st->guest_RCX = o[2];
	st->guest_RDX = o[3];
}

/* ---- instrumentation ---- */


/* I64 temp = 1Uto64(guard) or 1Uto64(!guard) */
static IRExpr *guard64(IRSB *sb, IRExpr *guard, Bool invert)
{
	IRTemp g = newIRTemp(sb->tyenv, Ity_I1);
	IRTemp t = newIRTemp(sb->tyenv, Ity_I64);

	addStmtToIRSB(sb, IRStmt_WrTmp(g, invert ? IRExpr_Unop(Iop_Not1, guard) : guard));
	addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Unop(Iop_1Uto64, IRExpr_RdTmp(g))));
	return IRExpr_RdTmp(t);
}

/* the index of the load whose cache-model call follows (nb_tm_load_miss),
 * passed with its size (nb_ldix_take) */
static ULong cur_ldix;

static void emit_ldix(IRSB *sb, UInt ix)
{
	(void)sb;
	cur_ldix = (nb_need & NEED_TIME) ? (ix < NB_TM_MAXLD ? ix : NB_TM_MAXLD) : 0;
}


/* the superblock being instrumented is cold code (nb_need.c: the cold
 * phase, or a cold translation) */
static Bool cur_cold;

/* The start of a cold translation (nb_need.c): count the run; the
 * nb_tier_runs-th marks the superblock hot (its translation is discarded
 * at the next entry of the scheduler, nb_cold_check) */
static void emit_tier(IRSB *sb, struct nb_tier *d)
{
	IRExpr *n, *g;
	IRDirty *c;

	n = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&d->runs)));
	n = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, n, c64(1)));
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&d->runs), n));
	g = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, n, c64(nb_tier_runs)));
	c = unsafeIRDirty_0_N(1, "nb_tier_promote", VG_(fnptr_to_fnentry)(&nb_tier_promote),
			      mkIRExprVec_1(mkIRExpr_HWord((HWord)d)));
	c->guard = g;
	addStmtToIRSB(sb, IRStmt_Dirty(c));
}

/* Does the superblock access memory (a cold translation gains nothing
 * otherwise)? */
static Bool has_mem(IRSB *in)
{
	for (Int j = 0; j < in->stmts_used; j++) {
		IRStmt *st = in->stmts[j];
		if (st && (st->tag == Ist_Store ||
			   (st->tag == Ist_WrTmp && st->Ist.WrTmp.data->tag == Iex_Load)))
			return True;
	}
	return False;
}

/*
 * A call of the cache model for one access (addr: an atom).  The L1D hit
 * path is inline (nb_l1.h, nb_l1_fast): the slot the line's hint names
 * (a way of its set) is compared with the access's line and, on a hit,
 * given a new LRU stamp; the call is guarded, made only when the hinted way does not hold the
 * line or the access crosses a 64-byte line.  The call repeats the lookup
 * (a stale hint) or misses, with true LRU either way.  The DTLB is looked
 * up in the call only (README "TLBs").  This inline hit path is most of
 * the speed of the model: a dense loop nest hits the L1D in ways other
 * than the most recently used one on most loads.  In the cold phase
 * (nb_cold, nb_need.c) the call does the inline path's work itself.
 */
static void emit_mem_call(IRSB *sb, IRExpr *addr, IRType ty, Bool store, Addr pc)
{
	ULong sz = (ULong)sizeofIRType(ty);
	ULong sza = store ? sz : sz | cur_ldix << NB_LDIX_SHIFT;   /* (the helper's) */
	/* a store after the inline hit path: its helper first tests for
	 * the L2 line of the last store (nb_st_same, nb_exec.c; the lean
	 * helpers always do) */
	Bool st_same = store && sz <= 64 && !(nb_need & (NEED_STB | NEED_TLB)) && !clo_cg_compat;
	IRDirty *d;

	if (cur_cold && nb_mem_lean() && (store || !(nb_need & NEED_PEBS))) {
		/* (cold code: the inline path's work in the call, nb_exec.c) */
		if (store)
			d = nb_l1d.ways == 8
				? unsafeIRDirty_0_N(2, "nb_store_cold8", VG_(fnptr_to_fnentry)(&nb_store_cold8),
						    mkIRExprVec_2(addr, c64(sz)))
				: unsafeIRDirty_0_N(2, "nb_store_cold4", VG_(fnptr_to_fnentry)(&nb_store_cold4),
						    mkIRExprVec_2(addr, c64(sz)));
		else
			d = nb_l1d.ways == 8
				? unsafeIRDirty_0_N(2, "nb_load_cold8", VG_(fnptr_to_fnentry)(&nb_load_cold8),
						    mkIRExprVec_2(addr, c64(sza)))
				: unsafeIRDirty_0_N(2, "nb_load_cold4", VG_(fnptr_to_fnentry)(&nb_load_cold4),
						    mkIRExprVec_2(addr, c64(sza)));
		addStmtToIRSB(sb, IRStmt_Dirty(d));
		return;
	}
	if (store && nb_mem_lean())
		d = nb_l1d.ways == 8
			? unsafeIRDirty_0_N(2, "nb_store_lean8", VG_(fnptr_to_fnentry)(&nb_store_lean8),
					    mkIRExprVec_2(addr, c64(sz)))
			: unsafeIRDirty_0_N(2, "nb_store_lean4", VG_(fnptr_to_fnentry)(&nb_store_lean4),
					    mkIRExprVec_2(addr, c64(sz)));
	else if (store && (nb_need & NEED_BUS))
		d = st_same
			? unsafeIRDirty_0_N(2, "nb_store_bus_st", VG_(fnptr_to_fnentry)(&nb_store_bus_st),
					    mkIRExprVec_2(addr, c64(sz)))
			: unsafeIRDirty_0_N(2, "nb_store_bus", VG_(fnptr_to_fnentry)(&nb_store_bus),
					    mkIRExprVec_2(addr, c64(sz)));
	else if (store)
		d = st_same
			? unsafeIRDirty_0_N(2, "nb_store_st", VG_(fnptr_to_fnentry)(&nb_store_st),
					    mkIRExprVec_2(addr, c64(sz)))
			: unsafeIRDirty_0_N(2, "nb_store", VG_(fnptr_to_fnentry)(&nb_store),
					    mkIRExprVec_2(addr, c64(sz)));
	else if (!(nb_need & NEED_PEBS) && nb_mem_lean())
		d = nb_l1d.ways == 8
			? unsafeIRDirty_0_N(2, "nb_load_lean8", VG_(fnptr_to_fnentry)(&nb_load_lean8),
					    mkIRExprVec_2(addr, c64(sza)))
			: unsafeIRDirty_0_N(2, "nb_load_lean4", VG_(fnptr_to_fnentry)(&nb_load_lean4),
					    mkIRExprVec_2(addr, c64(sza)));
	else if (!(nb_need & NEED_PEBS) && (nb_need & NEED_BUS))
		d = unsafeIRDirty_0_N(2, "nb_load_bus", VG_(fnptr_to_fnentry)(&nb_load_bus),
				      mkIRExprVec_2(addr, c64(sza)));
	else if (!(nb_need & NEED_PEBS))
		d = unsafeIRDirty_0_N(2, "nb_load", VG_(fnptr_to_fnentry)(&nb_load),
				      mkIRExprVec_2(addr, c64(sza)));
	else {
		if (nb_need & NEED_BUS)
			d = unsafeIRDirty_0_N(0, "nb_load_pebs_bus", VG_(fnptr_to_fnentry)(&nb_load_pebs_bus),
					      mkIRExprVec_4(addr, c64(sza), c64((ULong)pc), IRExpr_GSPTR()));
		else
			d = unsafeIRDirty_0_N(0, "nb_load_pebs", VG_(fnptr_to_fnentry)(&nb_load_pebs),
					      mkIRExprVec_4(addr, c64(sza), c64((ULong)pc), IRExpr_GSPTR()));
		/* reads the integer registers and the flags thunk (RAX at 16
		 * .. CC_NDEP, before DFLAG), writes the event-check counter */
		d->nFxState = 2;
		VG_(memset)(&d->fxState, 0, sizeof d->fxState);
		d->fxState[0].fx = Ifx_Read;
		d->fxState[0].offset = offsetof(VexGuestAMD64State, guest_RAX);
		d->fxState[0].size = offsetof(VexGuestAMD64State, guest_DFLAG) -
			offsetof(VexGuestAMD64State, guest_RAX);
		d->fxState[1].fx = Ifx_Write;
		d->fxState[1].offset = offsetof(VexGuestAMD64State, host_EvC_COUNTER);
		d->fxState[1].size = sizeof(UInt);
	}
	/* with the store buffer every access calls (nb_mem runs it) */
	if (sz <= 64 && !(nb_need & NEED_STB)) {
		IRExpr *hx, *off, *tag, *line, *clk, *hit, *call, *sa;
		/* the hint of the last byte's line: an access crossing into
		 * the next line then never hits (nb_l1_fast); its byte offset
		 * in hint[] is 2 x (last line & mask), one shift and a mask */
		hx = sz == 1 ? addr : tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, addr, c64(sz - 1)));
		hx = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, hx,
						    IRExpr_Const(IRConst_U8(NB_L1_LINE_SHIFT - 1))));
		hx = tmp(sb, Ity_I64, IRExpr_Binop(Iop_And64, hx,
						    c64(((1u << NB_L1_HINT_BITS) - 1) << 1)));
		/* the hinted slot's byte offset in tag[] and stamp[] (a
		 * slot of the line's set: nb_l1_slot), then its tag */
		off = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, hx, c64((ULong)(HWord)&nb_l1d.hint[0])));
		off = tmp(sb, Ity_I16, IRExpr_Load(Iend_LE, Ity_I16, off));
		off = tmp(sb, Ity_I64, IRExpr_Unop(Iop_16Uto64, off));
		tag = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
			  tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, off, c64((ULong)(HWord)&nb_l1d.tag[0])))));
		line = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, addr,
						      IRExpr_Const(IRConst_U8(NB_L1_LINE_SHIFT))));
		/* (the compare written twice, once for the stamp's address
		 * and once for the call's guard: the host then tests the
		 * flags, not a boolean in a register) */
		hit = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, tag, line));
		call = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpNE64, tag, line));
		if (nb_need & NEED_TLB) {
			/* exact DTLB: skip only when the page is the DTLB's MRU one */
			IRExpr *pg = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, addr,
								    IRExpr_Const(IRConst_U8(12))));
			IRExpr *v0 = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
						mkIRExpr_HWord((HWord)&nb_dtlb.mru)));
			pg = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, pg, c64(1)));
			hit = tmp(sb, Ity_I1, IRExpr_Binop(Iop_And1, hit,
				  tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, pg, v0))));
			call = tmp(sb, Ity_I1, IRExpr_Unop(Iop_Not1, hit));
		}
		/* the use: stamp[slot] = (clock += step) + offset on a hit,
		 * else the store goes to the sink and the helper does the
		 * access (nb_l1_fast) */
		clk = tmp(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&nb_l1d.clock)));
		clk = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, clk, c64(NB_L1_STAMP_STEP)));
		addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&nb_l1d.clock), clk));
		sa = tmp(sb, Ity_I64, IRExpr_ITE(hit, off,
			 c64((ULong)((HWord)&nb_l1d.sink - (HWord)&nb_l1d.stamp[0]))));
		sa = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, sa, c64((ULong)(HWord)&nb_l1d.stamp[0])));
		addStmtToIRSB(sb, IRStmt_Store(Iend_LE, sa,
			      tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, clk, off))));
		d->guard = call;
	}
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* A non-temporal store (NEED_WCB): nb_store_nt instead of the cache
 * model's store helper */
static void emit_nt_store(IRSB *sb, IRExpr *addr, IRType ty)
{
	addStmtToIRSB(sb, IRStmt_Dirty(unsafeIRDirty_0_N(2, "nb_store_nt",
		VG_(fnptr_to_fnentry)(&nb_store_nt),
		mkIRExprVec_2(addr, c64((ULong)sizeofIRType(ty))))));
}

/* An instruction that empties the WC buffers (NEED_WCB): if a buffer is
 * in use (an inline test), nb_wcb_fence */
static void emit_wcb_fence(IRSB *sb)
{
	IRExpr *used = tmp(sb, Ity_I32, IRExpr_Load(Iend_LE, Ity_I32,
						    mkIRExpr_HWord((HWord)&nb_wcbs.used)));
	IRDirty *d = unsafeIRDirty_0_N(0, "nb_wcb_fence", VG_(fnptr_to_fnentry)(&nb_wcb_fence),
				       mkIRExprVec_0());

	d->guard = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpNE32, used, IRExpr_Const(IRConst_U32(0))));
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* what gathering nb_raw[i] inline needs */
static UInt raw_need(unsigned i)
{
	return i >= RAW_IC0 ? NEED_INSTR : i == RAW_ROM_UOPS || i == RAW_MS_XFER ? NEED_ROM
		: NEED_MEM;
}

/*
 * The static counts of a superblock batched (README "Speed"): the counts
 * flush() makes, nb_raw[0 .. RAW_IC_END) and RAW_UOPS, and the exits'
 * retirements, are not added segment by segment.  Before the first exit
 * the superblock adds what a run to its end adds (T), and each exit,
 * when taken, adds what a run leaving there adds less T (F_j - T, often
 * 0: an exit at the last instruction retires it either way).  The counts
 * at every exit and at the end are the segment by segment ones, with a
 * third of the adds on short superblocks.  Not while a PMI is possible or
 * in step mode: their helpers read the counts inside the superblock.
 */
#define BATCH_N (RAW_IC_END + 1)        /* RAW_UOPS == RAW_IC_END */
struct batch {
	Bool on;
	Bool sh;                        /* the adds in the shadow state (nb_rawsh.c) */
	ULong cum[BATCH_N];             /* added by a run up to here     */
	Int nx, maxx;                   /* exits recorded                */
	struct bexit {
		Int pos;                /* the exit's statement in out   */
		IRExpr *guard;
		ULong f[BATCH_N];       /* added by a run leaving here   */
		/* a thin translation's check at a boundary (no exit):
		 * its call's table constant, the clock's block, its AT
		 * and the bounds before it */
		Bool bchk;
		IRExpr *slot;
		struct nb_tm_block *tb;
		ULong at, cum;
	} *x;
};

/* (the pending counts are RAW_LOADS, RAW_STORES and [RAW_ROM_UOPS,
 * RAW_IC_END): nb_irule_add_uops and retire set no other; flush_to runs at every
 * exit of every superblock, so it visits only these) */
static void flush_to(IRSB *sb, struct nb_pend *p, struct batch *bt)
{
	for (unsigned i = 0; i < RAW_IC_END; i = i == RAW_STORES ? RAW_ROM_UOPS : i + 1) {
		if (p->raw[i] && (nb_need & raw_need(i))) {
			if (bt && bt->on)
				bt->cum[i] += p->raw[i];
			else
				emit_add_at(sb, &nb_raw[i], c64(p->raw[i]));
		}
		p->raw[i] = 0;
	}
	if (p->uops && (nb_need & NEED_UOPS)) {
		if (bt && bt->on)
			bt->cum[RAW_UOPS] += p->uops;
		else
			emit_add_at(sb, &nb_raw[RAW_UOPS], c64(p->uops));
	}
	p->uops = 0;
}

static struct batch *cur_batch;         /* the superblock being instrumented's */

static void flush(IRSB *sb, struct nb_pend *p)
{
	flush_to(sb, p, cur_batch);
}

/* *c += e guarded by the exit's guard g: batched (the exit's f) or inline */
static void exit_add(IRSB *sb, struct batch *bt, ULong *c, IRExpr *g)
{
	if (bt->on)
		bt->x[bt->nx].f[c - nb_raw] += 1;
	else
		emit_add_at(sb, c, guard64(sb, g, False));
}


/* A thin translation's check at a boundary (nb_instr_pmi.c): its table,
 * the counts' differences between the boundary's and the total T, which
 * the superblock added before it; its address into the call's constant */
static void bcheck_table(const struct bexit *x, const ULong *tot)
{
	UInt n = 0;
	struct nb_bcheck *t;

	for (unsigned i = 0; i < BATCH_N; i++)
		n += x->f[i] != tot[i];
	t = VG_(malloc)("nbsim.bcheck", sizeof *t + n * sizeof t->e[0]);
	t->b = x->tb;
	t->at = x->at;
	t->cum = x->cum;
	t->rest = nb_ipmi_bound() - x->cum;
	t->n = 0;
	for (unsigned i = 0; i < BATCH_N; i++)
		if (x->f[i] != tot[i]) {
			t->e[t->n].i = i;
			t->e[t->n++].d = x->f[i] - tot[i];
		}
	x->slot->Iex.Const.con->Ico.U64 = nb_ipmi_tab_add(t);
}

/* nb_raw[i] += e (an I64 atom), or its word in the shadow state */
static void batch_add(IRSB *sb, const struct batch *bt, unsigned i, IRExpr *e)
{
	Int o = bt->sh ? nb_rawsh_offset(i) : -1;
	IRExpr *v;

	if (o < 0) {
		emit_add_at(sb, &nb_raw[i], e);
		return;
	}
	v = tmp(sb, Ity_I64, IRExpr_Get(o, Ity_I64));
	addStmtToIRSB(sb, IRStmt_Put(o, tmp(sb, Ity_I64, IRExpr_Binop(Iop_Add64, v, e))));
}

/* Place the batched adds: each exit's F_j - T before it, then T before
 * the first exit (or at the end).  From the last exit back, so that the
 * positions not yet used stay valid. */
static void batch_emit(IRSB *sb, struct batch *bt)
{
	const ULong *tot = bt->cum;
	Int first = sb->stmts_used, from;

	for (Int j = bt->nx - 1; j >= 0; j--) {
		struct bexit *x = &bt->x[j];
		from = sb->stmts_used;
		if (x->bchk)
			bcheck_table(x, tot);
		for (unsigned i = 0; i < BATCH_N && !x->bchk; i++) {
			ULong d = x->f[i] - tot[i];
			if (d)
				batch_add(sb, bt, i, tmp(sb, Ity_I64,
					IRExpr_ITE(x->guard, c64(d), c64(0))));
		}
		nb_ir_move_tail(sb, x->pos, from);
		first = x->pos;
	}
	from = sb->stmts_used;
	for (unsigned i = 0; i < BATCH_N; i++)
		if (tot[i])
			batch_add(sb, bt, i, c64(tot[i]));
	nb_ir_move_tail(sb, first, from);
}

/* A thin translation's check at the boundary before the instruction at
 * a (nb_instr_pmi.c), made where the checked code's would come due, with
 * the counts of the path so far (its table, from the batch) and the
 * clock's uops run up to there (to) */
static void emit_bcheck(IRSB *sb, struct nb_pend *p, struct batch *bt, struct nb_tm_block *tb,
			UInt to, Addr a, Bool force)
{
	struct bexit *x = &bt->x[bt->nx++];

	flush(sb, p);
	for (unsigned j = 0; j < BATCH_N; j++)
		x->f[j] = bt->cum[j];
	x->bchk = True;
	x->tb = tb;
	if (to > NB_PMI_TO_MAX)
		to = NB_PMI_TO_MAX;
	x->at = (ULong)a | (force ? NB_PMI_FORCE : 0) | (tb ? (ULong)to << NB_PMI_TO_SHIFT : 0);
	x->cum = nb_ipmi_bound();
	x->pos = sb->stmts_used;
	x->slot = nb_ipmi_bcheck_emit(sb, a, force);
}

/* Does a control transfer of this kind complete the instruction? */
static Bool jk_retires(IRJumpKind jk)
{
	switch (jk) {
	case Ijk_NoDecode: case Ijk_EmFail: case Ijk_MapFail:
	case Ijk_SigILL: case Ijk_SigTRAP: case Ijk_SigSEGV: case Ijk_SigBUS:
	case Ijk_SigFPE: case Ijk_SigFPE_IntDiv: case Ijk_SigFPE_IntOvf:
		return False;
	default:
		return True;
	}
}

static Bool is_cpuid_dirty(const IRDirty *d)
{
	return d->cee && d->cee->name &&
		VG_(strncmp)(d->cee->name, "amd64g_dirtyhelper_CPUID", 24) == 0;
}

static Bool is_rdtsc_dirty(const IRDirty *d)
{
	return d->cee && d->cee->name &&
		VG_(strcmp)(d->cee->name, "amd64g_dirtyhelper_RDTSC") == 0;
}

/* RDTSC reads the simulated time-stamp counter (the front-end's,
 * kernel/nb_simtime.c) with --nbsim-time=simulated; VEX's otherwise. */
static IRStmt *rdtsc_stmt(IRStmt *st)
{
	IRDirty *nd;

	if (clo_time_host)
		return st;
	nd = emptyIRDirty();
	*nd = *st->Ist.Dirty.details;
	nd->cee = mkIRCallee(0, "nb_rdtsc", VG_(fnptr_to_fnentry)(nb_front->rdtsc));
	nd->args = mkIRExprVec_0();
	return IRStmt_Dirty(nd);
}

/* The CPUID dirty call, calling our helper instead. */
static IRStmt *cpuid_stmt(IRStmt *st)
{
	IRDirty *nd = emptyIRDirty();
	*nd = *st->Ist.Dirty.details;
	nd->cee = mkIRCallee(0, "nb_cpuid_helper", VG_(fnptr_to_fnentry)(&nb_cpuid_helper));
	nd->args = mkIRExprVec_1(IRExpr_GSPTR());
	return IRStmt_Dirty(nd);
}

/*
 * A superblock that ends with a PAUSE (Ijk_Yield, back to valgrind's
 * scheduler) under the lockstep: at its end, after everything counted,
 * nb_ls_pause decides whether the thread runs on (nb_lockstep.c); it
 * leaves with Ijk_Yield as before when not, else jumps on, chained to the
 * next translation.  Not with PMIs (NEED_PMI, or a thin translation's
 * guard): a check at the last instruction counts on the superblock
 * leaving generated code there (NB_PMI_FORCE).  The call may move the
 * countdown of instructions in the shadow state (ic_arm).
 */
static void emit_pause(IRSB *out, const IRSB *in)
{
	IRTemp r;
	IRDirty *d;

	if (in->jumpkind != Ijk_Yield || in->next->tag != Iex_Const || !nb_ls_active() ||
	    !clo_lockstep_pause || (nb_need & NEED_PMI) || nb_ipmi_thin())
		return;
	r = newIRTemp(out->tyenv, Ity_I64);
	d = unsafeIRDirty_1_N(r, 0, "nb_ls_pause", VG_(fnptr_to_fnentry)(&nb_ls_pause),
			      mkIRExprVec_0());
	d->nFxState = 1;
	VG_(memset)(&d->fxState, 0, sizeof d->fxState);
	d->fxState[0].fx = Ifx_Modify;
	d->fxState[0].offset = (Int)sizeof(VexGuestAMD64State) + (Int)NB_LS_SLOT;
	d->fxState[0].size = sizeof(Long);
	addStmtToIRSB(out, IRStmt_Dirty(d));
	addStmtToIRSB(out, IRStmt_Exit(tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, IRExpr_RdTmp(r), c64(0))),
				       Ijk_Yield, in->next->Iex.Const.con, in->offsIP));
	out->jumpkind = Ijk_Boring;
}

/* Where control goes when the exit at stmts[i] is not taken: the next
 * IMark (a loop unrolled by iropt), else the superblock's constant next. */
static ULong continuation(IRSB *in, Int i, ULong fallback)
{
	for (Int j = i + 1; j < in->stmts_used; j++)
		if (in->stmts[j]->tag == Ist_IMark)
			return in->stmts[j]->Ist.IMark.addr + (ULong)in->stmts[j]->Ist.IMark.delta;
	if (in->next->tag == Iex_Const)
		return in->next->Iex.Const.con->Ico.U64;
	return fallback;
}

/* The exits of sb that jump without redirection call nb_ls_noredir_mark
 * when taken (nb_lockstep.c: the translation they jump to runs at once,
 * never held); sb itself if none. */
static IRSB *mark_noredir(IRSB *sb)
{
	IRSB *o;
	Bool any = sb->jumpkind == Ijk_NoRedir;

	for (Int j = 0; j < sb->stmts_used && !any; j++)
		any = sb->stmts[j]->tag == Ist_Exit && sb->stmts[j]->Ist.Exit.jk == Ijk_NoRedir;
	if (!nb_ls_on || !any)
		return sb;
	o = deepCopyIRSBExceptStmts(sb);
	for (Int j = 0; j < sb->stmts_used; j++) {
		IRStmt *st = sb->stmts[j];
		if (st->tag == Ist_Exit && st->Ist.Exit.jk == Ijk_NoRedir) {
			IRDirty *d = unsafeIRDirty_0_N(0, "nb_ls_noredir_mark",
				VG_(fnptr_to_fnentry)(&nb_ls_noredir_mark), mkIRExprVec_0());
			d->guard = deepCopyIRExpr(st->Ist.Exit.guard);
			addStmtToIRSB(o, IRStmt_Dirty(d));
		}
		addStmtToIRSB(o, st);
	}
	if (sb->jumpkind == Ijk_NoRedir)
		addStmtToIRSB(o, IRStmt_Dirty(unsafeIRDirty_0_N(0, "nb_ls_noredir_mark",
			VG_(fnptr_to_fnentry)(&nb_ls_noredir_mark), mkIRExprVec_0())));
	return o;
}

static IRSB *instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
			const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
			IRType gWordTy, IRType hWordTy);

IRSB *nb_instrument(VgCallbackClosure *closure, IRSB *in,
			   const VexGuestLayout *layout, const VexGuestExtents *vge,
			   const VexArchInfo *archinfo_host, IRType gWordTy, IRType hWordTy)
{
	IRSB *sb = mark_noredir(instrument(closure, in, layout, vge, archinfo_host, gWordTy, hWordTy));

	nb_putdrop(sb);   /* (nb_putdrop.c: after everything has seen the IR) */
	return sb;
}

static IRSB *instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
			const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
			IRType gWordTy, IRType hWordTy)
{
	IRSB *out;
	struct nb_pend p = { 0 };
	struct nb_iins k = { 0 };
	struct nb_tc_desc *tcd = 0;
	Bool exit_seen = False;
	ULong bound;
	Int i;
	IRExpr *fpa_acc = NULL;         /* FP assists of instruction k */
	Bool fpa_x87 = False;           /* k is an x87 instruction     */
	struct nb_tm_block *tmb = NULL; /* the timing model's uops     */
	Bool tm_done = False;           /* the clock's call made (nb_itm_cond) */
	Bool step_fast = False;         /* held runs skip the calls (nb_itm_fast_guard) */
	Bool pd_mark = False;           /* the instruction's uops mark stored (nb_itm_mark) */
	IRExpr *fg, *xg;                /* ... their guards */
	Bool fx = False;                /* the run's first instruction ends it here */
	UInt tm_from = 0, tm_end = 0;   /* uops run on the path so far; */
					/* the end of k's               */
	UInt ldn = 0;                   /* loads so far (their indexes) */
	Int last_im = -1;               /* the last IMark's statement    */
	Bool force_jk;                  /* the superblock leaves to valgrind */
	struct batch bt = { 0 };        /* the static counts batched      */
	struct nb_tier *tier = NULL;    /* a cold translation's count     */
	const struct nb_tm_block *tier_old = NULL; /* the last translation's uops */
	Addr sb_addr = 0;               /* the first instruction's address */
	Int first_im = -1, thin_at;     /* the first IMark; the thin guard's place */

	(void)layout; (void)archinfo_host;
	if (gWordTy != Ity_I64 || hWordTy != Ity_I64)
		VG_(tool_panic)("nbsim: amd64 guests only");

	nb_ipmi_note(closure);
	in = nb_rep_lods(nb_ud_cut(in), vge);  /* (#UD: nb_ud.c; nb_replods.c) */
	nb_putdrop_guest(in);
	out = deepCopyIRSBExceptStmts(in);
	if (nb_need == 0) {
		/* nothing to count: only the CPUID hook (and the lockstep) */
		nb_ls_guard_emit(out, in);
		for (i = 0; i < in->stmts_used; i++) {
			IRStmt *st = in->stmts[i];
			if (st && st->tag == Ist_Dirty && is_cpuid_dirty(st->Ist.Dirty.details))
				st = cpuid_stmt(st);
			else if (st && st->tag == Ist_Dirty && is_rdtsc_dirty(st->Ist.Dirty.details))
				st = rdtsc_stmt(st);
			addStmtToIRSB(out, st);
		}
		emit_pause(out, in);
		return out;
	}
	/* the last instruction; it leaves generated code (a client request,
	 * a system call...): a PMI in flight is taken before it */
	for (i = 0; i < in->stmts_used; i++)
		if (in->stmts[i] && in->stmts[i]->tag == Ist_IMark) {
			last_im = i;
			if (first_im < 0)
				first_im = i;
		}
	force_jk = in->jumpkind != Ijk_Boring && in->jumpkind != Ijk_Call && in->jumpkind != Ijk_Ret;
	/* the thin translation or its checked copy (nb_instr_pmi.c) */
	nb_ipmi_begin(closure, in, first_im);
	nb_ipmi_step_base(out);
	bt.on = !(nb_need & (NEED_STEP | NEED_PMI));
	bt.sh = bt.on && !nb_ipmi_thin();
	if (bt.on) {
		for (i = 0; i < in->stmts_used; i++)
			bt.maxx += in->stmts[i] && (in->stmts[i]->tag == Ist_Exit ||
						    (nb_ipmi_thin() && in->stmts[i]->tag == Ist_IMark));
		bt.x = VG_(malloc)("nbsim.batch", (SizeT)(bt.maxx ? bt.maxx : 1) * sizeof *bt.x);
	}
	cur_batch = &bt;
	for (i = 0; i < in->stmts_used && in->stmts[i]->tag != Ist_IMark; i++)
		addStmtToIRSB(out, in->stmts[i]);
	cur_cold = nb_cold;
	if (i < in->stmts_used) {
		sb_addr = (Addr)(in->stmts[i]->Ist.IMark.addr + in->stmts[i]->Ist.IMark.delta);
		if (nb_tier_cold(sb_addr, &tier_old) && !nb_cold && !nb_ipmi_thin() && has_mem(in)) {
			cur_cold = True;
			tier = nb_tier_new(sb_addr);
			emit_tier(out, tier);
		}
	}
	thin_at = out->stmts_used;
	nb_ls_guard_emit(out, in);
	if (nb_need & NEED_TIME)
		tmb = nb_tmb_begin(in);
	if (nb_need & NEED_TC) {
		/* one call per superblock execution, at its start; the lines
		 * are filled in below, before the code ever runs.  Descriptors
		 * of discarded translations are not freed (a few bytes each). */
		Int nim = 0;
		for (Int j = i; j < in->stmts_used; j++)
			nim += in->stmts[j]->tag == Ist_IMark;
		tcd = VG_(malloc)("nbsim.tc", sizeof *tcd + (SizeT)(nim ? nim : 1) * sizeof tcd->line[0]);
		tcd->nlines = 0;
		addStmtToIRSB(out, IRStmt_Dirty(unsafeIRDirty_0_N(1, "nb_tc_sb",
			VG_(fnptr_to_fnentry)(&nb_tc_sb), mkIRExprVec_1(mkIRExpr_HWord((HWord)tcd)))));
	}

	for (; i < in->stmts_used; i++) {
		IRStmt *st = in->stmts[i];
		if (!st || st->tag == Ist_NoOp)
			continue;
		switch (st->tag) {
		case Ist_IMark: {
			Int j;
			Addr a = (Addr)(st->Ist.IMark.addr + st->Ist.IMark.delta);
			UInt len = st->Ist.IMark.len;
			nb_ifpa_flush(out, fpa_x87, &fpa_acc);
			nb_ibr_jnext(out, &k);
			nb_ibr_folded(out, &k, (ULong)a);
			if (k.valid) {
				/* Control reached the next IMark.  If it is k
				 * again (a REP iteration in a loop unrolled by
				 * iropt), k did not retire; otherwise it did. */
				if (k.uops_deferred && !exit_seen)
					nb_irule_add_uops(&p, &k);
				if (a != k.addr || k.dec.br != NB_BR_NONE) {
					nb_irule_retire(&p, &k);
					if (k.dec.br != NB_BR_NONE && k.dec.br != NB_BR_COND)
						/* only with guest chasing:
						 * target = here */
						nb_ibr_call(out, k.dec.br, k.addr, k.len,
								 c64(1), c64(a));
					/* step mode: the counts and the clock per
					 * instruction; while a PMI is possible the
					 * counts (for the check at every boundary,
					 * which runs the clock when it is called) */
					if (nb_need & (NEED_STEP | NEED_PMI))
						flush(out, &p);
					if (nb_need & NEED_STEP) {
						/* (after the run's first segment and
						 * step, held runs skip the calls) */
						IRExpr *sg = NULL;
						Bool first = !step_fast && tmb && !tm_from && tm_end &&
							nb_itm_fast_ok();
						if (step_fast)
							sg = nb_itm_fast_guard(out, NULL);
						else if (first)
							/* (after a take, none either:
							 * nb_step.c tk_take) */
							sg = nb_itm_tk_guard(out, NULL);
						nb_itm_tm_step(out, tmb, tm_from, tm_end, sg);
						tm_from = tm_end;
						if (first) {
							nb_itm_tk_clear(out);
							step_fast = True;
						}
					}
				}
			}
			/* an instruction boundary (not a REP string's next
			 * iteration): where a PMI can be taken */
			if (!k.valid || a != k.addr || k.dec.br != NB_BR_NONE) {
				nb_ipmi_at(out, p.bound, a, !k.valid, i == last_im && force_jk,
					    tmb, k.valid ? tm_end : 0);
				p.bound = 0;
				if (k.valid && nb_ipmi_thin())
					emit_bcheck(out, &p, &bt, tmb, tm_end, a,
						    i == last_im && force_jk);
			}
			k.valid = True;
			k.addr = a;
			k.len = len;
			nb_decode((const uint8_t *)a, len > 16 ? 16 : len, &k.dec);
			k.jnext_cc = nb_ibr_jnext_cc((const uint8_t *)a, len > 16 ? 16 : len, &k.dec);
			k.br_done = False;
			fpa_x87 = (nb_need & NEED_FPA) &&
				nb_fpa_is_x87((const uint8_t *)a, len > 16 ? 16 : len, k.dec.len_prefix);
			for (j = i + 1; j < in->stmts_used && in->stmts[j]->tag != Ist_IMark; j++)
				;
			k.uops = nb_irule_uops(in, i + 1, j, &k.dec, &k.loads, &k.stores, &k.rom);
			nb_irule_pd(&k, (const uint8_t *)a, len > 16 ? 16 : len);
			nb_irule_measured(&k, (const uint8_t *)a, len > 16 ? 16 : len);
			k.lat = 0;
			if (tmb) {
				UInt tm_start = tm_end;
				tm_end = nb_tmb_insn(in, i + 1, j, (const UChar *)a, len, &k.dec,
						     k.uops);
				if ((nb_need & NEED_PMI) || nb_ipmi_thin())
					k.lat = nb_tmb_lat(tm_start, tm_end);
			}
			k.uops_deferred = (k.dec.cls & NB_IC_REP) != 0;
			if (tcd)
				/* REP strings run from the microcode ROM: one
				 * transfer per iteration (one superblock run) */
				nb_tc_add(tcd, a, k.uops, k.uops_deferred);
			if (!k.uops_deferred)
				nb_irule_add_uops(&p, &k);
			exit_seen = False;
			addStmtToIRSB(out, st);
			/* (the uops a held run's non-retiring exit here holds:
			 * before the visit adds the iteration's, nb_step.c) */
			pd_mark = step_fast && nb_irule_pd_rep_on(&k);
			if (pd_mark)
				nb_itm_mark(out);
			nb_irule_pd_rep(out, &k);
			nb_irule_tm_rep(out, &k);
			if ((nb_need & NEED_WCB) && (k.dec.cls & NB_IC_WCFLUSH))
				emit_wcb_fence(out);
			break;
		}
		case Ist_WrTmp:
			/* the model's call after the guest's load, not before:
			 * the host then overlaps the load's cache miss with the
			 * model's work (pointer chasing: each load's address is
			 * the previous load's value) */
			addStmtToIRSB(out, st);
			if ((nb_need & NEED_FPA) && k.valid)
				nb_ifpa_check(out, st->Ist.WrTmp.tmp, st->Ist.WrTmp.data, fpa_x87, &fpa_acc);
			/* (with the WC model on, a non-temporal store's IR
			 * load, VEX's emulation of maskmov*'s byte mask,
			 * reads no cache) */
			if ((nb_need & NEED_CACHE) && st->Ist.WrTmp.data->tag == Iex_Load &&
			    !((nb_need & NEED_WCB) && (k.dec.cls & NB_IC_NT))) {
				emit_ldix(out, ldn);
				emit_mem_call(out, st->Ist.WrTmp.data->Iex.Load.addr,
					      st->Ist.WrTmp.data->Iex.Load.ty, False, k.addr);
			}
			if (st->Ist.WrTmp.data->tag == Iex_Load)
				ldn++;
			break;
		case Ist_Store:
			if ((nb_need & NEED_WCB) && (k.dec.cls & NB_IC_NT))
				emit_nt_store(out, st->Ist.Store.addr,
					      typeOfIRExpr(in->tyenv, st->Ist.Store.data));
			else if (nb_need & NEED_CACHE)
				emit_mem_call(out, st->Ist.Store.addr,
					      typeOfIRExpr(in->tyenv, st->Ist.Store.data), True, k.addr);
			addStmtToIRSB(out, st);
			break;
		case Ist_CAS:
			if (nb_need & NEED_CACHE) {
				IRCAS *cas = st->Ist.CAS.details;
				IRType ty = typeOfIRExpr(in->tyenv, cas->dataLo);
				emit_ldix(out, ldn);
				emit_mem_call(out, cas->addr, ty, False, k.addr);
				emit_mem_call(out, cas->addr, ty, True, k.addr);
			}
			ldn++;
			addStmtToIRSB(out, st);
			break;
		case Ist_Dirty:
			if (is_cpuid_dirty(st->Ist.Dirty.details))
				st = cpuid_stmt(st);
			else if (is_rdtsc_dirty(st->Ist.Dirty.details))
				st = rdtsc_stmt(st);
			addStmtToIRSB(out, st);
			break;
		case Ist_Exit: {
			IRExpr *g = st->Ist.Exit.guard;
			Bool mid_done = False;  /* the exit's clock in nb_itm_cond_mid */
			ULong dst = st->Ist.Exit.dst->tag == Ico_U64 ? st->Ist.Exit.dst->Ico.U64 : 0;
			Addr next = k.addr + k.len;
			/* A REP string's first exit is its RCX = 0 test (no
			 * iteration when taken), unless iropt knew RCX and
			 * removed it: then the first is REPE/REPNE's exit
			 * back to the instruction, after the iteration ran
			 * (repe cmpsb lost one iteration's loads) */
			if (k.valid && k.uops_deferred && !exit_seen && dst == (ULong)k.addr) {
				nb_irule_add_uops(&p, &k);
				exit_seen = True;
			}
			nb_ifpa_flush(out, fpa_x87, &fpa_acc);
			flush(out, &p);
			bound = p.bound + (k.valid ? nb_irule_bound(&k) : 0);
			p.bound = 0;
			if (k.valid && k.jnext_cc >= 0 && !k.br_done) {
				/* jcc to the next instruction: by its flags */
				nb_ibr_jnext(out, &k);
			} else if (k.valid && k.dec.br == NB_BR_COND && !k.br_done) {
				k.br_done = True;
				/* VEX may invert the condition: the exit then goes
				 * to the fall-through and the taken target is the
				 * superblock's next. */
				Bool inv = dst == next;
				ULong tgt = dst;
				if (inv)
					tgt = continuation(in, i, next);
				if (nb_itm_cond_ok(in, i, last_im, tmb, tm_from, tm_end)) {
					nb_itm_cond(out, k.addr, tgt, guard64(out, g, inv), tmb,
						     tm_end);
					tm_done = True;
				} else if (k.valid && nb_itm_cond_mid_ok(tmb, tm_from, tm_end) &&
					   g->tag == Iex_RdTmp) {
					nb_itm_cond_mid(out, k.addr, tgt, guard64(out, g, inv), g,
							tmb, tm_end);
					mid_done = True;
				} else
					nb_ibr_call(out, NB_BR_COND, k.addr, k.len,
							 guard64(out, g, inv), c64(tgt));
			}
			/* (a retiring exit inside the run's first instruction:
			 * its calls skipped after a take too, the run ending
			 * here, nb_itm_step_end_first) */
			fx = !step_fast && k.valid && tmb && !tm_from && tm_end && nb_itm_fast_ok() &&
				jk_retires(st->Ist.Exit.jk) && (dst != k.addr || k.dec.br != NB_BR_NONE);
			xg = step_fast && k.valid ? nb_itm_fast_guard(out, g) :
				fx ? nb_itm_tk_guard(out, g) : g;
			if (k.valid && !tm_done && !mid_done)
				nb_itm_tm(out, tmb, tm_from, tm_end, xg);
			/* An exit back to the instruction itself (REP
			 * iteration, failed CAS retry) is no retirement,
			 * unless the instruction is a branch (jmp $, loop $). */
			if (bt.on) {
				struct bexit *x = &bt.x[bt.nx];
				for (unsigned j = 0; j < BATCH_N; j++)
					x->f[j] = bt.cum[j];
				x->guard = g;
				x->bchk = False;
			}
			if (k.valid && jk_retires(st->Ist.Exit.jk) &&
			    (dst != k.addr || k.dec.br != NB_BR_NONE)) {
				if (nb_need & NEED_INSTR) {
					exit_add(out, &bt, &nb_raw[nb_irule_ic(&k)], g);
					if (k.pd.extra_ins)
						exit_add(out, &bt, &nb_raw[RAW_XINS], g);
				}
				nb_itm_step(out, xg);
			}
			if (k.valid && k.rom && (nb_need & NEED_ROM) && jk_retires(st->Ist.Exit.jk) &&
			    (dst != k.addr || k.dec.br != NB_BR_NONE))
				exit_add(out, &bt, &nb_raw[RAW_MS_XFER], g);
			nb_ipmi_check(out, bound, 0, tmb, k.valid ? tm_end : 0);
			if (step_fast && k.valid)
				nb_itm_step_end(out, tmb, tm_end, g,
						st->Ist.Exit.jk != Ijk_Boring,
						pd_mark && !(jk_retires(st->Ist.Exit.jk) &&
							     (dst != k.addr || k.dec.br != NB_BR_NONE)));
			else if (fx)
				nb_itm_step_end_first(out, tmb, tm_end, g,
						      st->Ist.Exit.jk != Ijk_Boring);
			if (bt.on)
				bt.x[bt.nx++].pos = out->stmts_used;
			addStmtToIRSB(out, st);
			if (k.valid && k.uops_deferred && !exit_seen)
				nb_irule_add_uops(&p, &k);
			exit_seen = True;
			break;
		}
		default:
			addStmtToIRSB(out, st);
			break;
		}
	}

	nb_ifpa_flush(out, fpa_x87, &fpa_acc);
	nb_ibr_jnext(out, &k);
	if (k.valid && in->next->tag == Iex_Const && jk_retires(in->jumpkind))
		nb_ibr_folded(out, &k, in->next->Iex.Const.con->Ico.U64);
	if (k.valid) {
		Bool self = in->next->tag == Iex_Const &&
			in->next->Iex.Const.con->Ico.U64 == (ULong)k.addr &&
			k.dec.br == NB_BR_NONE;
		if (k.uops_deferred && !exit_seen)
			nb_irule_add_uops(&p, &k);
		fx = False;
		if (jk_retires(in->jumpkind) && !self) {
			nb_irule_retire(&p, &k);
			if (k.pd.branch && (nb_need & NEED_BR))
				/* syscall: a taken, predicted branch (MMTP) */
				emit_add_at(out, &nb_raw[RAW_BR0 + 2], c64(1));
			if (k.dec.br != NB_BR_NONE && k.dec.br != NB_BR_COND && !tm_done &&
			    nb_itm_branch_ok(&k, tmb, tm_from, tm_end)) {
				flush(out, &p);
				nb_itm_branch(out, &k, in->next, tmb, tm_from, tm_end);
				tm_done = True;
			} else if (k.dec.br != NB_BR_NONE && k.dec.br != NB_BR_COND)
				nb_ibr_call(out, k.dec.br, k.addr, k.len, c64(1), in->next);
			flush(out, &p);
			/* (the run's first instruction: as at an exit) */
			fx = !step_fast && tmb && !tm_from && tm_end && nb_itm_fast_ok();
			fg = step_fast ? nb_itm_fast_guard(out, NULL) :
				fx ? nb_itm_tk_guard(out, NULL) : NULL;
			if (!tm_done)
				nb_itm_tm(out, tmb, tm_from, tm_end, fg);
			nb_itm_step(out, fg);
			pd_mark = False;        /* (it retired) */
		} else if (!tm_done)
			nb_itm_tm(out, tmb, tm_from, tm_end,
				  step_fast ? nb_itm_fast_guard(out, NULL) : NULL);
		if (step_fast)
			nb_itm_step_end(out, tmb, tm_end, NULL, force_jk, pd_mark);
		else if (fx)
			nb_itm_step_end_first(out, tmb, tm_end, NULL, force_jk);
	}
	if (tmb) {
		nb_tmb_end();
		nb_tmb_adopt(tmb, tier_old);
		if (tier)
			tier->tmb = tmb;
		if (sb_addr)
			nb_tier_made(sb_addr, tmb);
	}
	flush(out, &p);
	nb_ipmi_check(out, p.bound + 1, 0, tmb, tm_end);
	if (bt.on) {
		batch_emit(out, &bt);
		VG_(free)(bt.x);
	}
	emit_pause(out, in);
	nb_ipmi_end(out, sb_addr, first_im == last_im && force_jk, thin_at);
	cur_batch = NULL;
	return out;
}

