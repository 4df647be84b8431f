/*
 * nb_tmbuild.c - the timing model's dataflow analysis of a superblock,
 * at translation time (README.md "Timing model"): each guest instruction
 * becomes its uops (loads, the computational uop, store address and data,
 * fillers up to the instruction's uop count), each naming the guest
 * state slots (registers, flags thunk, x87 stack) and in-instruction
 * scratch slots it reads and writes, from the IR's Get/Put/GetI/PutI and
 * temporaries.  At run time one call of nb_tm_sb (nb_cycles.c) schedules
 * the uops of the path taken (nb_timing.c).
 */
#include "nb_tool.h"

/* a set of slots (a temporary's or an operand's dependencies) */
#define DS_MAX 8
struct dset {
	UChar n;
	UShort s[DS_MAX];
};

static void ds_add(struct dset *d, UInt slot)
{
	for (unsigned i = 0; i < d->n; i++)
		if (d->s[i] == slot)
			return;
	if (d->n < DS_MAX)
		d->s[d->n++] = (UShort)slot;
}

static void ds_union(struct dset *d, const struct dset *e)
{
	for (unsigned i = 0; i < e->n; i++)
		ds_add(d, e->s[i]);
}

/* the guest state bytes [off, off + size) */
static void ds_state(struct dset *d, Int off, Int size)
{
	if (off < 0 || size <= 0)
		return;
	for (Int o = off & ~7; o < off + size; o += 8)
		if ((UInt)o / 8 < NB_TM_NREG)
			ds_add(d, (UInt)o / 8);
}

/* the builder: one superblock at a time (translation is single-threaded) */
#define B_MAXU 4096
#define B_MAXS (B_MAXU * 8)
static struct nb_tm_uop b_u[B_MAXU];
static UShort b_s[B_MAXS];
static UInt b_nu, b_ns, b_nld, b_scr;
static struct dset *b_tdep;            /* per IR temporary */
static Int b_ntemps;
static UInt b_nscr;                    /* scratch slots handed out */

/*
 * Store-to-load forwarding inside a superblock: a load from the address
 * a store of the block wrote (the same IR value plus the same constant:
 * SSA temporaries make that the same address) gets the store's data, so
 * it waits for it.  An address is keyed by its base temporary and
 * displacement (b_abase/b_adisp per temporary: t = base + constant, else
 * t + 0; a constant address has base IRTemp_INVALID); each store leaves
 * the slot its data is forwarded from (a pseudo-uop of class NB_TM_FWD:
 * ready that class's latency after the data, nb_tmparams.c) in a small
 * table, the latest store to a key replacing the earlier.  Loads of
 * other addresses, which might alias, and stores of earlier blocks are
 * not followed (docs/timing-model.md, what is not modelled).
 */
#define B_NFWD 16
static IRTemp *b_abase;
static Long *b_adisp;

/*
 * Across superblock runs (a loop's read-modify-write of one location, a
 * spill and its reload in the next block) the load waits for the store
 * through a memory slot (nb_timing.h NB_TM_MST, NB_TM_MLD) keyed by the
 * base register, the displacement and a check byte, when the address is
 * a general register's value at the block's entry plus a constant and
 * the block writes that register nowhere (b_wrote): the register's
 * value is then the same at every access of the block, and the slot's
 * tag (the register's ready tick when the store ran) tells a later run
 * whether it was written since.  b_aget: the guest state slot a
 * temporary was read from (Get:I64 of a general register), else 0.
 */
static UShort *b_aget;
static UInt b_wrote;            /* bit k: guest state slot k written */

#define GPR_LO ((Int)offsetof(VexGuestAMD64State, guest_RAX))
#define GPR_HI ((Int)offsetof(VexGuestAMD64State, guest_R15) + 8)

/* mark the general registers among the guest state bytes [off, off + n) */
static void mark_wrote(Int off, Int n)
{
	for (Int o = off & ~7; o < off + n; o += 8)
		if (o >= GPR_LO && o < GPR_HI)
			b_wrote |= 1u << (o / 8);
}

/* the memory slot (m), its check byte (chk) and base register's slot (r)
 * of address key (base, disp), when it may forward across runs */
static Bool xkey(IRTemp base, Long disp, UInt *r, UInt *m, UInt *chk)
{
	UInt h;

	if (base == IRTemp_INVALID || base >= (IRTemp)b_ntemps || !b_aget[base] ||
	    (b_wrote >> b_aget[base] & 1))
		return False;
	*r = b_aget[base];
	h = (*r * 0x9E3779B1u) ^ ((UInt)disp * 0x85EBCA6Bu) ^ (UInt)((ULong)disp >> 32);
	h ^= h >> 15;
	*m = NB_TM_MEM + h % NB_TM_NMEM;
	*chk = (h >> 8) & 0xff;
	return True;
}
static struct { IRTemp base; Long disp; UInt slot, at; } b_fwd[B_NFWD];
static UInt b_nfwd;

static struct nb_tm_block *b_blk;
static Int b_cap;                      /* temporaries the arrays above hold */

/* a descriptor with the sampled clock's entries after it: NB_TMS_EXITS
 * per state of the package (--ht=yes: whole and shared, smp.coff) */
struct tmb_alloc {
	struct nb_tm_block b;
	struct nb_tm_cost cost[];
};

static ULong b_made;                   /* descriptors made (their keys) */

/* Start the analysis of superblock in; returns its descriptor, filled by
 * nb_tmb_end (the generated code holds its address).  The per-temporary
 * arrays are kept from one superblock to the next and the descriptor
 * takes two allocations: start-up code is translated about once per five
 * runs, and eight allocations per translation were a tenth of what the
 * clock's analysis cost there. */
struct nb_tm_block *nb_tmb_begin(IRSB *in)
{
	SizeT ncost = clo_clock == NB_CLOCK_SAMPLED ? NB_TMS_EXITS * (clo_ht ? 2 : 1) : 0;
	struct tmb_alloc *a = VG_(malloc)("nbsim.tmblk", sizeof *a + ncost * sizeof a->cost[0]);

	b_blk = &a->b;
	b_blk->n = 0;
	b_blk->cost = NULL;
	/* the replay's key (nb_tmmemo.c): the guest's run makes the same
	 * translations in the same order every time, whatever the host
	 * heap's addresses */
	b_blk->key = ++b_made;
	if (clo_clock == NB_CLOCK_SAMPLED) {        /* (nb_tmsample.c: nothing learned yet) */
		VG_(memset)(a->cost, 0, ncost * sizeof a->cost[0]);
		b_blk->cost = a->cost;
	}
	b_nu = b_ns = b_nld = b_scr = 0;
	b_ntemps = in->tyenv->types_used;
	if (b_ntemps > b_cap) {
		b_cap = b_ntemps + b_ntemps / 2;
		if (b_tdep) {
			VG_(free)(b_tdep);
			VG_(free)(b_abase);
			VG_(free)(b_adisp);
			VG_(free)(b_aget);
		}
		b_tdep = VG_(malloc)("nbsim.tmb", sizeof *b_tdep * (SizeT)b_cap);
		b_abase = VG_(malloc)("nbsim.tmab", sizeof *b_abase * (SizeT)b_cap);
		b_adisp = VG_(malloc)("nbsim.tmad", sizeof *b_adisp * (SizeT)b_cap);
		b_aget = VG_(malloc)("nbsim.tmag", sizeof *b_aget * (SizeT)b_cap);
	}
	if (b_ntemps)
		VG_(memset)(b_tdep, 0, sizeof *b_tdep * (SizeT)b_ntemps);
	for (Int i = 0; i < b_ntemps; i++) {
		b_abase[i] = (IRTemp)i;
		b_adisp[i] = 0;
	}
	b_nfwd = 0;
	if (b_ntemps)
		VG_(memset)(b_aget, 0, sizeof *b_aget * (SizeT)b_ntemps);
	b_wrote = 0;
	for (Int i = 0; i < in->stmts_used; i++) {
		const IRStmt *s = in->stmts[i];
		if (s->tag == Ist_Put)
			mark_wrote(s->Ist.Put.offset, sizeofIRType(typeOfIRExpr(in->tyenv, s->Ist.Put.data)));
		else if (s->tag == Ist_Dirty)
			for (Int k = 0; k < s->Ist.Dirty.details->nFxState; k++) {
				const IRDirty *dd = s->Ist.Dirty.details;
				if (dd->fxState[k].fx != Ifx_Read)
					mark_wrote(dd->fxState[k].offset, dd->fxState[k].size +
						   dd->fxState[k].nRepeats * dd->fxState[k].repeatLen);
			}
	}
	return b_blk;
}

/*
 * An element of a guest state array (the x87 stack FPREG[8], its tags):
 * an array of 8-byte elements has a slot per element, named by the bias
 * relative to the index expression (FTOP), so that st(i) and st(j) are
 * distinct registers; arrays of smaller elements (the x87 tag bytes,
 * VEX's emulation of the tag word, which the hardware renames with the
 * register) carry no dependency.  (A block that moves FTOP between two
 * accesses names the same register twice: accepted.)
 */
static void ds_array(struct dset *d, const IRRegArray *a, Int bias)
{
	Int n = a->nElems;

	if (sizeofIRType(a->elemTy) == 8 && n > 0)
		ds_state(d, a->base + 8 * (((bias % n) + n) % n), 8);
}

/* the next scratch slot: a producer's result inside the block */
static UInt next_scr(void)
{
	UInt s = NB_TM_SCR + b_scr;

	b_scr = (b_scr + 1) % NB_TM_NSCR;
	b_nscr++;
	return s;
}

static void dep_expr(const IRExpr *e, struct dset *d)
{
	if (!e)
		return;
	switch (e->tag) {
	case Iex_Get:
		ds_state(d, e->Iex.Get.offset, sizeofIRType(e->Iex.Get.ty));
		break;
	case Iex_GetI:
		ds_array(d, e->Iex.GetI.descr, e->Iex.GetI.bias);
		break;
	case Iex_RdTmp:
		if (e->Iex.RdTmp.tmp < (IRTemp)b_ntemps)
			ds_union(d, &b_tdep[e->Iex.RdTmp.tmp]);
		break;
	case Iex_Qop:
		dep_expr(e->Iex.Qop.details->arg1, d);
		dep_expr(e->Iex.Qop.details->arg2, d);
		dep_expr(e->Iex.Qop.details->arg3, d);
		dep_expr(e->Iex.Qop.details->arg4, d);
		break;
	case Iex_Triop:
		dep_expr(e->Iex.Triop.details->arg1, d);
		dep_expr(e->Iex.Triop.details->arg2, d);
		dep_expr(e->Iex.Triop.details->arg3, d);
		break;
	case Iex_Binop:
		dep_expr(e->Iex.Binop.arg1, d);
		dep_expr(e->Iex.Binop.arg2, d);
		break;
	case Iex_Unop:
		dep_expr(e->Iex.Unop.arg, d);
		break;
	case Iex_Load:
		dep_expr(e->Iex.Load.addr, d);
		break;
	case Iex_ITE:
		dep_expr(e->Iex.ITE.cond, d);
		dep_expr(e->Iex.ITE.iftrue, d);
		dep_expr(e->Iex.ITE.iffalse, d);
		break;
	case Iex_CCall:
		for (Int i = 0; e->Iex.CCall.args[i]; i++)
			dep_expr(e->Iex.CCall.args[i], d);
		break;
	default:
		break;
	}
}

static Bool ds_same(const struct dset *a, const struct dset *b)
{
	if (a->n != b->n)
		return False;
	for (unsigned i = 0; i < a->n; i++) {
		Bool f = False;
		for (unsigned j = 0; j < b->n; j++)
			f |= a->s[i] == b->s[j];
		if (!f)
			return False;
	}
	return True;
}

static void add_uop(UInt cls, const struct dset *src, const struct dset *dst, UInt ld)
{
	struct nb_tm_uop *u;

	if (b_nu >= B_MAXU || b_ns + 2 * DS_MAX + 64 > B_MAXS)
		return;                 /* (a huge block: the rest unscheduled) */
	u = &b_u[b_nu++];
	u->cls = (UChar)cls;
	u->ld = (UChar)ld;
	u->slot = b_ns;
	u->nsrc = src ? src->n : 0;
	u->ndst = dst ? dst->n : 0;
	for (unsigned i = 0; i < u->nsrc; i++)
		b_s[b_ns++] = src->s[i];
	for (unsigned i = 0; i < u->ndst; i++)
		b_s[b_ns++] = dst->s[i];
}

/* the key of address expression a (an atom of flat IR): False if none */
static Bool addr_key(const IRExpr *a, IRTemp *base, Long *disp)
{
	if (a->tag == Iex_RdTmp && a->Iex.RdTmp.tmp < (IRTemp)b_ntemps) {
		*base = b_abase[a->Iex.RdTmp.tmp];
		*disp = b_adisp[a->Iex.RdTmp.tmp];
		return True;
	}
	if (a->tag == Iex_Const && a->Iex.Const.con->tag == Ico_U64) {
		*base = IRTemp_INVALID;
		*disp = (Long)a->Iex.Const.con->Ico.U64;
		return True;
	}
	return False;
}

/* temporary t = data: base + constant when data is that (Add64, Sub64) */
static void addr_def(IRTemp t, const IRExpr *data)
{
	const IRExpr *x, *c;

	if (t >= (IRTemp)b_ntemps || data->tag != Iex_Binop ||
	    (data->Iex.Binop.op != Iop_Add64 && data->Iex.Binop.op != Iop_Sub64))
		return;
	x = data->Iex.Binop.arg1;
	c = data->Iex.Binop.arg2;
	if (x->tag != Iex_RdTmp || c->tag != Iex_Const || c->Iex.Const.con->tag != Ico_U64 ||
	    x->Iex.RdTmp.tmp >= (IRTemp)b_ntemps)
		return;
	b_abase[t] = b_abase[x->Iex.RdTmp.tmp];
	b_adisp[t] = b_adisp[x->Iex.RdTmp.tmp] + (data->Iex.Binop.op == Iop_Add64 ? 1 : -1) *
		(Long)c->Iex.Const.con->Ico.U64;
}

/* the forwarding slot of the latest store to the key, if its slot has
 * not been handed out again since (the scratch slots rotate) */
static Bool fwd_find(IRTemp base, Long disp, UInt *slot)
{
	for (UInt k = 0; k < B_NFWD && k < b_nfwd; k++) {
		UInt i = (b_nfwd - 1 - k) % B_NFWD;
		if (b_fwd[i].base == base && b_fwd[i].disp == disp) {
			if (b_nscr - b_fwd[i].at >= NB_TM_NSCR / 2)
				return False;
			*slot = b_fwd[i].slot;
			return True;
		}
	}
	return False;
}

static void fwd_add(IRTemp base, Long disp, UInt slot)
{
	UInt i = b_nfwd++ % B_NFWD;

	b_fwd[i].base = base;
	b_fwd[i].disp = disp;
	b_fwd[i].slot = slot;
	b_fwd[i].at = b_nscr;
}

/* does expression e read temporary t? */
static Bool reads_tmp(const IRExpr *e, IRTemp t)
{
	if (!e)
		return False;
	switch (e->tag) {
	case Iex_RdTmp:
		return e->Iex.RdTmp.tmp == t;
	case Iex_Qop:
		return reads_tmp(e->Iex.Qop.details->arg1, t) || reads_tmp(e->Iex.Qop.details->arg2, t) ||
			reads_tmp(e->Iex.Qop.details->arg3, t) || reads_tmp(e->Iex.Qop.details->arg4, t);
	case Iex_Triop:
		return reads_tmp(e->Iex.Triop.details->arg1, t) ||
			reads_tmp(e->Iex.Triop.details->arg2, t) || reads_tmp(e->Iex.Triop.details->arg3, t);
	case Iex_Binop:
		return reads_tmp(e->Iex.Binop.arg1, t) || reads_tmp(e->Iex.Binop.arg2, t);
	case Iex_Unop:
		return reads_tmp(e->Iex.Unop.arg, t);
	case Iex_Load:
		return reads_tmp(e->Iex.Load.addr, t);
	case Iex_ITE:
		return reads_tmp(e->Iex.ITE.cond, t) || reads_tmp(e->Iex.ITE.iftrue, t) ||
			reads_tmp(e->Iex.ITE.iffalse, t);
	case Iex_CCall:
		for (Int i = 0; e->Iex.CCall.args[i]; i++)
			if (reads_tmp(e->Iex.CCall.args[i], t))
				return True;
		return False;
	case Iex_GetI:
		return reads_tmp(e->Iex.GetI.ix, t);
	default:
		return False;
	}
}

/* Is temporary t an operand of another computation in stmts [from, to)? */
static Bool used_within(IRSB *in, Int from, Int to, IRTemp t)
{
	for (Int j = from; j < to; j++) {
		const IRStmt *s = in->stmts[j];
		if (s->tag == Ist_WrTmp && s->Ist.WrTmp.data->tag != Iex_RdTmp &&
		    reads_tmp(s->Ist.WrTmp.data, t))
			return True;
	}
	return False;
}

/* the puts of an instruction: slots written and their values' deps */
#define MAXPUT 24
struct put { struct dset dst, dep; };

#define MAXVAL 8

static Bool ds_meets(const struct dset *a, const struct dset *b)
{
	for (unsigned i = 0; i < a->n; i++)
		for (unsigned j = 0; j < b->n; j++)
			if (a->s[i] == b->s[j])
				return True;
	return False;
}

/*
 * The registers an instruction's uop writes whose inputs are not all the
 * uop's (same[i] false): ready their class's latency after their own
 * inputs (a pseudo-uop NB_TM_LAT each).  Puts with the same inputs share
 * one (its destinations together: the same value, computed once; the
 * flags thunk's constant fields, for one): joining put j to an earlier
 * put's pseudo-uop g moves its writes before those of the pseudo-uops
 * made between them, so only when none of those reads or writes a slot j
 * writes, and no input of j is a slot the instruction's puts write (the
 * snapshots replaced those).  Same cycles: every slot gets the value the
 * pseudo-uops one per put gave it.
 */
static void lat_puts(const struct put *puts, unsigned nput, const Bool *same, UInt xcls)
{
	struct dset dep[MAXPUT], dst[MAXPUT], all = { 0 };
	unsigned ng = 0;

	for (unsigned i = 0; i < nput; i++)
		ds_union(&all, &puts[i].dst);
	for (unsigned i = 0; i < nput; i++) {
		unsigned g;
		if (same[i])
			continue;
		for (g = 0; g < ng; g++) {
			Bool ok = ds_same(&dep[g], &puts[i].dep) && !ds_meets(&puts[i].dep, &all) &&
				dst[g].n + puts[i].dst.n <= DS_MAX;
			for (unsigned h = g + 1; ok && h < ng; h++)
				ok = !ds_meets(&dst[h], &puts[i].dst) && !ds_meets(&dep[h], &puts[i].dst);
			if (ok)
				break;
		}
		if (g < ng)
			ds_union(&dst[g], &puts[i].dst);
		else {
			dep[ng] = puts[i].dep;
			dst[ng++] = puts[i].dst;
		}
	}
	for (unsigned g = 0; g < ng; g++)
		add_uop(NB_TM_LAT, &dep[g], &dst[g], xcls);
}

/*
 * rep movs (A4, A5) and rep stos (AA, AB) move a block at a time with
 * the parts' fast strings: InstLatX64 measures 4.0-4.3 bytes a cycle
 * for REP STOS and 6.1-7.6 for REP MOVS of every element size in the L1D
 * (nb_tmparams.c str_tpb), where an iteration through the instruction's
 * uops took 1 to 1.3 cycles an element.  An iteration (a superblock run,
 * or one of iropt's unrolled copies) starts with a NB_TM_REPB, the string
 * engine's element (nb_timing.h), its load's miss included, which stands
 * for the iteration's uops when the execution is in block mode (decided
 * at run time: nb_cycles.c nb_tm_rep_visit).  Its kind (bit 4: movs) and
 * element size in bytes, or 0 for another instruction.
 */
UInt nb_tmb_rep_kind(const UChar *code, UInt len, UInt npfx)
{
	UInt op, rex, f3 = 0, o16 = 0;

	if (npfx >= len)
		return 0;
	op = code[npfx];
	if (op != 0xa4 && op != 0xa5 && op != 0xaa && op != 0xab)
		return 0;
	for (UInt i = 0; i < npfx; i++) {
		f3 |= code[i] == 0xf3;
		o16 |= code[i] == 0x66;
	}
	if (!f3)
		return 0;
	rex = (code[npfx - 1] & 0xf0) == 0x40 ? code[npfx - 1] : 0;
	return (op == 0xa4 || op == 0xa5 ? 0x10u : 0u) |
		(!(op & 1) ? 1u : rex & 8 ? 8u : o16 ? 2u : 4u);
}

/*
 * Add the uops of the instruction whose IR statements are in->stmts[from,
 * to) (after its IMark): code/len its bytes, dec its decoding, uops its
 * uop count (README "uop model").  Returns the number of uops of the
 * block so far (the end of this instruction's).
 */
UInt nb_tmb_insn(IRSB *in, Int from, Int to, const UChar *code, UInt len,
		 const struct nb_insn *dec, UInt uops)
{
	struct put puts[MAXPUT];
	struct dset exec_src = { 0 }, comp_src = { 0 }, d, e, x;
	struct { struct dset a, v; IRTemp kb; Long kd; Bool key, x; UInt xr, xm, xc; } st[8];
	unsigned nput = 0, nst = 0, made = 0, naddr = 0, nsnap = 0;
	UShort snap[16][2];             /* register, its snapshot slot   */
	IRTemp addrs[16];               /* temporaries used as addresses */
	UInt lcls = dec->fp != NB_FP_NONE ? NB_TM_FLOAD : NB_TM_LOAD;
	UInt xcls = nb_tm_classify(code, len > 16 ? 16 : len, dec->len_prefix, dec->fp);
	/* (pause, a nop to the uop model, has a uop that waits: below) */
	Bool move = (dec->cls & NB_IC_MOVE) != 0 && xcls != NB_TM_LFENCE;
	/* bt* r, r: VEX goes through memory below the stack pointer, which
	 * the part does not: no forwarding */
	Bool fwd = xcls != NB_TM_BTR;
	UInt kind = (dec->cls & NB_IC_REP) ? nb_tmb_rep_kind(code, len > 16 ? 16 : len,
							    dec->len_prefix) : 0;

	UInt rb = b_nu;

	if (kind)
		add_uop(NB_TM_REPB, NULL, NULL,
			(kind & 0x10) && b_nld < NB_TM_MAXLD ? b_nld + 1 : 0);

	for (Int j = from; j < to; j++) {
		const IRStmt *s = in->stmts[j];
		IRTemp t = IRTemp_INVALID;
		const IRExpr *addr = NULL;
		Bool counted = False;   /* a load with an index (instrumented) */

		switch (s->tag) {
		case Ist_WrTmp:
			if (s->Ist.WrTmp.data->tag == Iex_Load) {
				t = s->Ist.WrTmp.tmp;
				addr = s->Ist.WrTmp.data->Iex.Load.addr;
				counted = True;
				break;
			}
			if (s->Ist.WrTmp.tmp < (IRTemp)b_ntemps) {
				const IRExpr *g = s->Ist.WrTmp.data;
				addr_def(s->Ist.WrTmp.tmp, g);
				if (g->tag == Iex_Get && g->Iex.Get.ty == Ity_I64 &&
				    g->Iex.Get.offset >= GPR_LO && g->Iex.Get.offset < GPR_HI &&
				    !(g->Iex.Get.offset & 7))
					b_aget[s->Ist.WrTmp.tmp] = (UShort)(g->Iex.Get.offset / 8);
				d.n = 0;
				dep_expr(s->Ist.WrTmp.data, &d);
				b_tdep[s->Ist.WrTmp.tmp] = d;
				/* what it computes is the instruction's work (VEX
				 * may have dropped the Put it feeds): the
				 * computational uop reads its inputs */
				ds_union(&comp_src, &d);
			}
			continue;
		case Ist_LoadG:
			t = s->Ist.LoadG.details->dst;
			addr = s->Ist.LoadG.details->addr;
			break;
		case Ist_CAS:
			t = s->Ist.CAS.details->oldLo;
			addr = s->Ist.CAS.details->addr;
			counted = True;
			if (nst < 8) {
				st[nst].a.n = st[nst].v.n = 0;
				st[nst].key = st[nst].x = False;
				dep_expr(addr, &st[nst].a);
				dep_expr(s->Ist.CAS.details->dataLo, &st[nst].v);
				nst++;
			}
			break;
		case Ist_Put:
			if (s->Ist.Put.offset == offsetof(VexGuestAMD64State, guest_RIP))
				continue;
			if (nput < MAXPUT) {
				Int sz = sizeofIRType(typeOfIRExpr(in->tyenv, s->Ist.Put.data));
				Int off = s->Ist.Put.offset;
				puts[nput].dst.n = puts[nput].dep.n = 0;
				ds_state(&puts[nput].dst, off, sz);
				dep_expr(s->Ist.Put.data, &puts[nput].dep);
				/* a byte or word write to a general register merges
				 * into it, so it depends on the register's old value:
				 * InstLatX64 measures a chain of SETC r8, which reads
				 * only the flags, at 1.0 cycle (Northwood) and 1.3
				 * (Prescott) per link (nb_tmparams.c [F29], [F43] row
				 * 200), not at the throughput */
				if (sz < 4 && off >= (Int)offsetof(VexGuestAMD64State, guest_RAX) &&
				    off < (Int)offsetof(VexGuestAMD64State, guest_R15) + 8)
					ds_state(&puts[nput].dep, off, sz);
				nput++;
			}
			continue;
		case Ist_PutI:
			if (nput < MAXPUT) {
				puts[nput].dst.n = puts[nput].dep.n = 0;
				ds_array(&puts[nput].dst, s->Ist.PutI.details->descr,
					 s->Ist.PutI.details->bias);
				dep_expr(s->Ist.PutI.details->data, &puts[nput].dep);
				nput++;
			}
			continue;
		case Ist_Store:
		case Ist_StoreG:
			if (nst < 8) {
				st[nst].a.n = st[nst].v.n = 0;
				const IRExpr *sa = s->tag == Ist_Store ? s->Ist.Store.addr
					: s->Ist.StoreG.details->addr;
				st[nst].key = fwd && s->tag == Ist_Store &&
					addr_key(sa, &st[nst].kb, &st[nst].kd);
				st[nst].x = st[nst].key && xkey(st[nst].kb, st[nst].kd, &st[nst].xr,
								 &st[nst].xm, &st[nst].xc);
				if (sa->tag == Iex_RdTmp && naddr < 16)
					addrs[naddr++] = sa->Iex.RdTmp.tmp;
				if (s->tag == Ist_Store) {
					dep_expr(s->Ist.Store.addr, &st[nst].a);
					dep_expr(s->Ist.Store.data, &st[nst].v);
				} else {
					dep_expr(s->Ist.StoreG.details->addr, &st[nst].a);
					dep_expr(s->Ist.StoreG.details->data, &st[nst].v);
				}
				nst++;
			}
			continue;
		case Ist_Exit:
			dep_expr(s->Ist.Exit.guard, &exec_src);
			continue;
		default:
			continue;
		}
		/* a load uop: its address's deps -> a scratch slot; from
		 * an address a store of the block wrote, also the store's
		 * forwarded data (b_fwd) */
		d.n = 0;
		dep_expr(addr, &d);
		{
			IRTemp kb;
			Long kd;
			UInt fs;
			UInt xr, xm, xc;
			if (fwd && s->tag != Ist_CAS && addr_key(addr, &kb, &kd)) {
				if (fwd_find(kb, kd, &fs))
					ds_add(&d, fs);
				else if (xkey(kb, kd, &xr, &xm, &xc)) {
					/* a store of an earlier run */
					struct dset a = { 0 }, f = { 0 };
					ds_add(&a, xr);
					ds_add(&a, xm);
					fs = next_scr();
					ds_add(&f, fs);
					add_uop(NB_TM_MLD, &a, &f, xc);
					ds_add(&d, fs);
				}
			}
		}
		if (addr->tag == Iex_RdTmp && naddr < 16)
			addrs[naddr++] = addr->Iex.RdTmp.tmp;
		e.n = 0;
		ds_add(&e, next_scr());
		add_uop(lcls, &d, &e, counted && b_nld < NB_TM_MAXLD ? b_nld + 1 : 0);
		if (counted)
			b_nld++;
		made++;
		if (t != IRTemp_INVALID && t < (IRTemp)b_ntemps)
			b_tdep[t] = e;
	}
	/* the computational uop: reads what the results depend on, writes
	 * every register the instruction puts and the scratch slot x */
	x.n = 0;
	if (!move) {
		ds_add(&x, next_scr());
		ds_union(&exec_src, &comp_src);
		for (unsigned i = 0; i < nput; i++)
			ds_union(&exec_src, &puts[i].dep);
		for (unsigned i = 0; i < nst; i++)
			ds_union(&exec_src, &st[i].v);
		/* the uop (unit, retirement) waits for all its inputs; each
		 * register it writes is ready its latency after that
		 * register's own inputs (the pseudo-uops NB_TM_LAT): a
		 * pointer update of rep movs does not wait for the data */
		/* (speed: a register or value whose inputs are all the
		 * uop's is the uop's own destination; a LAT for the others)
		 * Order: the values' LATs (they write scratch slots only),
		 * snapshots of registers the instruction writes, the uop,
		 * the registers' LATs (reading snapshots). */
		Bool same[MAXPUT];
		struct dset xd = x;
		struct { struct dset dep, at; } val[MAXVAL];
		unsigned nval = 0, m;
		for (unsigned i = 0; i < nput; i++) {
			same[i] = ds_same(&puts[i].dep, &exec_src);
			if (same[i])
				ds_union(&xd, &puts[i].dst);
		}
		/* the values this instruction computes, when a later
		 * instruction reads them (VEX forwards a register's value
		 * from its Put to the next Get): ready when this
		 * instruction computes them (addresses stay with the
		 * address generation) */
		for (Int j = from; j < to; j++) {
			const IRStmt *s = in->stmts[j];
			const IRExpr *v;
			IRTemp t;
			Bool is_addr = False;
			if (s->tag != Ist_WrTmp)
				continue;
			t = s->Ist.WrTmp.tmp;
			v = s->Ist.WrTmp.data;
			if (v->tag == Iex_Load || v->tag == Iex_Get || v->tag == Iex_GetI ||
			    v->tag == Iex_RdTmp || v->tag == Iex_Const || t >= (IRTemp)b_ntemps)
				continue;
			for (unsigned a = 0; a < naddr; a++)
				is_addr |= addrs[a] == t;
			/* (an intermediate, e.g. the rounding mode an FP
			 * operation reads, keeps its inputs' deps) */
			if (is_addr || used_within(in, j + 1, to, t))
				continue;
			if (ds_same(&b_tdep[t], &exec_src)) {
				b_tdep[t] = x;
				continue;
			}
			/* (a value with the same inputs as one made here
			 * already is ready when that one is: its slot) */
			for (m = 0; m < nval; m++)
				if (ds_same(&b_tdep[t], &val[m].dep))
					break;
			if (m < nval) {
				b_tdep[t] = val[m].at;
				continue;
			}
			d = b_tdep[t];
			e.n = 0;
			ds_add(&e, next_scr());
			add_uop(NB_TM_LAT, &d, &e, xcls);
			if (nval < MAXVAL) {
				val[nval].dep = d;
				val[nval++].at = e;
			}
			b_tdep[t] = e;
		}
		d.n = 0;
		for (unsigned i = 0; i < nput; i++)
			ds_union(&d, &puts[i].dst);
		for (unsigned i = 0; i < nput; i++)
			for (unsigned k = 0; !same[i] && k < puts[i].dep.n; k++) {
				UInt r = puts[i].dep.s[k], sn = 0;
				Bool w = False;
				for (unsigned m = 0; m < d.n; m++)
					w |= d.s[m] == r;
				if (!w)
					continue;
				for (unsigned m = 0; m < nsnap; m++)
					if (snap[m][0] == r)
						sn = snap[m][1];
				if (!sn && nsnap < 16) {
					struct dset a = { 0 }, b = { 0 };
					sn = next_scr();
					ds_add(&a, r);
					ds_add(&b, sn);
					add_uop(NB_TM_COPY, &a, &b, 0);
					snap[nsnap][0] = (UShort)r;
					snap[nsnap++][1] = (UShort)sn;
				}
				if (sn)
					puts[i].dep.s[k] = (UShort)sn;
			}
		if (xcls == NB_TM_LFENCE || xcls == NB_TM_SFENCE || xcls == NB_TM_MFENCE ||
		    xcls == NB_TM_LOCK || xcls == NB_TM_RDTSC) {
			/* in program order with the other fences and locked
			 * operations (nb_timing.h NB_TM_ORD); rdtsc too: two
			 * reads measure its throughput apart (nb_tmparams.c) */
			if (exec_src.n == DS_MAX)
				exec_src.n--;
			ds_add(&exec_src, NB_TM_ORD);
			if (xd.n == DS_MAX)
				xd.n--;
			ds_add(&xd, NB_TM_ORD);
		}
		add_uop(xcls, &exec_src, &xd, 0);
		made++;
		lat_puts(puts, nput, same, xcls);
	} else if (made == 0 && nst == 0) {
		/* a register move: one uop */
		d.n = 0;
		for (unsigned i = 0; i < nput; i++)
			ds_union(&d, &puts[i].dst);
		for (unsigned i = 0; i < nput; i++)
			ds_union(&exec_src, &puts[i].dep);
		add_uop(xcls == NB_TM_XFER ? NB_TM_XFER : dec->fp != NB_FP_NONE ? NB_TM_FPOTHER
			: NB_TM_ALU, &exec_src, &d, 0);
		made++;
		/* a later instruction that reads a value this move computed
		 * (a widening, movd's zero extension) through the temporary
		 * VEX forwards from the Put reads the move's result, as the
		 * computational uop's values above (a register read as is
		 * may be another instruction's read too: kept) */
		for (Int j = from; j < to; j++) {
			const IRStmt *s = in->stmts[j];
			const IRExprTag g = s->tag == Ist_WrTmp ? s->Ist.WrTmp.data->tag : Iex_Load;
			IRTemp t;
			if (g == Iex_Load || g == Iex_Get || g == Iex_GetI || g == Iex_RdTmp ||
			    g == Iex_Const)
				continue;
			t = s->Ist.WrTmp.tmp;
			if (t < (IRTemp)b_ntemps && d.n && ds_same(&b_tdep[t], &exec_src))
				b_tdep[t] = d;
		}
	} else {
		/* moves with memory: the registers are renamed to their
		 * values (a loaded value: ready when the load is) */
		for (unsigned i = 0; i < nput; i++)
			add_uop(NB_TM_COPY, &puts[i].dep, &puts[i].dst, 0);
	}
	for (unsigned i = 0; i < nst; i++) {
		add_uop(NB_TM_STA, &st[i].a, NULL, 0);
		add_uop(NB_TM_STD, move ? &st[i].v : &x, NULL, 0);
		made += 2;
		if (st[i].key) {        /* the data a later load of the address gets */
			struct dset f = { 0 };
			UInt fs = next_scr();
			ds_add(&f, fs);
			add_uop(NB_TM_LAT, move ? &st[i].v : &x, &f, NB_TM_FWD);
			fwd_add(st[i].kb, st[i].kd, fs);
			if (st[i].x) {  /* and a load of a later run */
				struct dset a = { 0 }, m = { 0 };
				ds_add(&a, fs);
				ds_add(&a, st[i].xr);
				ds_add(&m, st[i].xm);
				add_uop(NB_TM_MST, &a, &m, st[i].xc);
			}
		}
	}
	/* the rest of the instruction's uops (microcode): no dependencies */
	for (; made < uops; made++)
		add_uop(NB_TM_ALU, NULL, NULL, 0);
	/* the string engine's element: its kind, and the uops it stands for
	 * in block mode (the iteration's, after it) */
	if (kind && rb < b_nu && b_u[rb].cls == NB_TM_REPB)
		b_u[rb].slot = kind | (b_nu - rb - 1) << 8;
	return b_nu;
}

/* The uops [from, to) of the block being built: their latencies and
 * their units' intervals, in cycles (rounded up), for the PMI budget's
 * bound (nb_irule_bound); a LAT uop its class's latency, the others
 * (renaming, forwarding slots, the string engine: NB_BOUND_REP) none */
UInt nb_tmb_lat(UInt from, UInt to)
{
	const struct nb_tm_params *p = nb_tm_params_for(nb_cpu->model);
	UInt t = 0;

	for (UInt i = from; i < to && i < b_nu; i++) {
		UInt c = b_u[i].cls == NB_TM_LAT ? b_u[i].ld : b_u[i].cls;
		if (c < NB_TM_NCLS)
			t += (UInt)p->row[c].lat + p->row[c].intv + 1;
	}
	return (t + 1) / 2;
}

/* The block's uops into its descriptor, which outlives the translation
 * (not freed, as the trace-cache descriptors). */
void nb_tmb_end(void)
{
	struct nb_tm_block *b = b_blk;

	/* the uops, then real[], then the slots (by alignment) in one block */
	SizeT su = sizeof *b->u * b_nu, sr = sizeof *b->real * ((SizeT)b_nu + 1);
	UChar *m = VG_(malloc)("nbsim.tmu", su + sr + sizeof *b->slots * (SizeT)b_ns);

	b->n = b_nu;
	b->nslots = b_ns;
	b->u = (struct nb_tm_uop *)m;
	b->real = (uint32_t *)(m + su);
	b->slots = (uint16_t *)(m + su + sr);
	VG_(memcpy)(b->u, b_u, su);
	VG_(memcpy)(b->slots, b_s, sizeof *b->slots * b_ns);
	b->real[0] = 0;
	for (UInt i = 0; i < b_nu; i++)
		b->real[i + 1] = b->real[i] + (b_u[i].cls != NB_TM_COPY && b_u[i].cls != NB_TM_LAT &&
					       b_u[i].cls != NB_TM_MST && b_u[i].cls != NB_TM_MLD &&
					       b_u[i].cls != NB_TM_REPB);
}

/* A superblock translated again (its hot translation, nb_need.c's tiers):
 * the block just built takes over what the sampled clock learned on the
 * previous one, when the two have the same uops and slots, so that the
 * clock's cycles do not depend on the translation */
void nb_tmb_adopt(struct nb_tm_block *b, const struct nb_tm_block *old)
{
	if (!b || !old || !b->cost || !old->cost || old->n != b->n || old->nslots != b->nslots ||
	    VG_(memcmp)(old->u, b->u, sizeof *b->u * b->n) ||
	    VG_(memcmp)(old->slots, b->slots, sizeof *b->slots * b->nslots))
		return;
	b->cost = old->cost;    /* (its own entries, part of its allocation, unused) */
}
