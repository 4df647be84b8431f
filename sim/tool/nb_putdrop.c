/*
 * nb_putdrop.c - the guest-state writes a translation can do without,
 * removed after the instrumentation has seen them.
 *
 * While something is counted VEX keeps every register update at each
 * instruction (README "What VEX's optimiser must not remove"; NEED_EXACT,
 * nb_need.c nb_px_policy), so that the counts and the timing model see
 * every load and every register write.  Once the instrumentation has
 * seen the superblock, most of those writes only cost the generated
 * code a store per run: the guest RIP at every instruction, the flags'
 * thunk of an ALU instruction the next one overwrites.  This pass drops
 * a Put that a later Put overwrites whole with nothing in between that
 * may read the guest state: no Get of it, no exit, no helper call (a
 * helper may read any register through the thread's state), no access
 * of the guest's memory (a fault there is delivered with the registers
 * as they are, so at every guest access the state stays as exact as VEX
 * left it) nor a division (the host's #DE is the guest's SIGFPE,
 * delivered the same way).  nbsim's own loads and stores (its counters,
 * the inline L1D path's tables) read no guest state and cannot fault for
 * the guest: they are the statements not taken from the guest's
 * superblock (nb_putdrop_guest; the instrumentation copies the guest's
 * statements by pointer).  So the guest's state is the same as
 * before wherever anything can observe it; only its stores between two
 * such points go.  A Put of a loaded value (or of one computed from it)
 * stays, so VEX's dead-code pass does not remove the guest's load with
 * it (its fault, if any, is kept).
 *
 * Not while a PEBS record, step mode or a PMI's cut may read the state
 * inside a superblock, nor in a checked translation while a PMI is
 * possible (their helpers read the registers off the thread state:
 * nb_pmi.c): there the translation is left as it is.  A thin
 * translation's checks (nb_instr_pmi.c) with NEED_PMI alone, nb_record's
 * samples, are no flush: a sample there reads only the boundary's IP
 * from its table, and with callers (-g) the unwinder's IP, SP and frame
 * pointer from the thread state, which are then kept at every check
 * (pd_check).
 */
#include "nb_tool.h"
#include "nb_ir.h"
#include "nb_insn.h"
#include "nb_samples.h"

/* guest state bytes tracked; the rest (beyond the shadow area's first
 * words) is never dropped */
#define PD_BYTES 4096
#define PD_WORDS (PD_BYTES / 64)

ULong nb_putdrop_n;             /* Puts dropped (--nbsim-stats) */

/* the guest's superblock the translation was made from (after nb_ud_cut
 * and nb_rep_lods: the statements the instrumentation copied) */
static const IRSB *pd_guest;

void nb_putdrop_guest(const IRSB *in)
{
	pd_guest = in;
}

/* the guest's statements that access memory, by address: an open table */
struct pd_set {
	const IRStmt **k;
	UInt mask;
};

static UInt pd_hash(const IRStmt *st)
{
	return (UInt)(((HWord)st >> 4) * 0x9E3779B1u);
}

static Bool pd_has(const struct pd_set *h, const IRStmt *st)
{
	if (!h->k)
		return True;    /* no guest superblock known: every access the guest's */
	for (UInt i = pd_hash(st) & h->mask; h->k[i]; i = (i + 1) & h->mask)
		if (h->k[i] == st)
			return True;
	return False;
}

static void pd_add(struct pd_set *h, const IRStmt *st)
{
	UInt i = pd_hash(st) & h->mask;

	while (h->k[i] && h->k[i] != st)
		i = (i + 1) & h->mask;
	h->k[i] = st;
}

static Bool pd_memstmt(const IRStmt *st)
{
	switch (st->tag) {
	case Ist_WrTmp:
		return st->Ist.WrTmp.data->tag == Iex_Load;
	case Ist_Store:
	case Ist_StoreG:
	case Ist_LoadG:
	case Ist_CAS:
	case Ist_LLSC:
		return True;
	default:
		return False;
	}
}

struct pd {
	ULong over[PD_WORDS];   /* bytes a later Put writes before any read */
	UChar *ld;              /* tmps holding a value loaded from memory */
	Bool flush;             /* the statement may read all the state    */
};

static void pd_clear(struct pd *p, Int off, Int sz)
{
	for (Int b = off; b < off + sz && b < PD_BYTES; b++)
		if (b >= 0)
			p->over[b >> 6] &= ~(1ULL << (b & 63));
}

static Bool pd_covered(const struct pd *p, Int off, Int sz)
{
	if (off < 0 || off + sz > PD_BYTES)
		return False;
	for (Int b = off; b < off + sz; b++)
		if (!(p->over[b >> 6] & (1ULL << (b & 63))))
			return False;
	return True;
}

static void pd_set(struct pd *p, Int off, Int sz)
{
	for (Int b = off; b < off + sz && b < PD_BYTES; b++)
		if (b >= 0)
			p->over[b >> 6] |= 1ULL << (b & 63);
}

static Bool pd_div(IROp op)
{
	return op >= Iop_DivU32 && op <= Iop_DivModU32to32;
}

/* the reads of e: Gets clear their bytes; GetI, loads, divisions and
 * calls (a clean helper reads only its arguments, but is cheap to keep)
 * make the statement a flush */
static void pd_expr(struct pd *p, const IRTypeEnv *env, const IRExpr *e)
{
	if (!e)
		return;
	switch (e->tag) {
	case Iex_Get:
		pd_clear(p, e->Iex.Get.offset, sizeofIRType(e->Iex.Get.ty));
		break;
	case Iex_GetI:
		p->flush = True;
		pd_expr(p, env, e->Iex.GetI.ix);
		break;
	case Iex_Load:
		/* (a flush if the guest's: the caller's test) */
		pd_expr(p, env, e->Iex.Load.addr);
		break;
	case Iex_Qop:
		pd_expr(p, env, e->Iex.Qop.details->arg1);
		pd_expr(p, env, e->Iex.Qop.details->arg2);
		pd_expr(p, env, e->Iex.Qop.details->arg3);
		pd_expr(p, env, e->Iex.Qop.details->arg4);
		break;
	case Iex_Triop:
		pd_expr(p, env, e->Iex.Triop.details->arg1);
		pd_expr(p, env, e->Iex.Triop.details->arg2);
		pd_expr(p, env, e->Iex.Triop.details->arg3);
		break;
	case Iex_Binop:
		if (pd_div(e->Iex.Binop.op))
			p->flush = True;
		pd_expr(p, env, e->Iex.Binop.arg1);
		pd_expr(p, env, e->Iex.Binop.arg2);
		break;
	case Iex_Unop:
		pd_expr(p, env, e->Iex.Unop.arg);
		break;
	case Iex_ITE:
		pd_expr(p, env, e->Iex.ITE.cond);
		pd_expr(p, env, e->Iex.ITE.iftrue);
		pd_expr(p, env, e->Iex.ITE.iffalse);
		break;
	case Iex_CCall:
		for (Int i = 0; e->Iex.CCall.args[i]; i++)
			pd_expr(p, env, e->Iex.CCall.args[i]);
		break;
	case Iex_RdTmp:
	case Iex_Const:
		break;
	default:
		p->flush = True;
		break;
	}
}

/* does e read a tmp holding a loaded value? */
static Bool pd_loaded(const struct pd *p, const IRExpr *e)
{
	if (!e)
		return False;
	switch (e->tag) {
	case Iex_RdTmp:
		return p->ld[e->Iex.RdTmp.tmp];
	case Iex_Load:
		return True;
	case Iex_Qop:
		return pd_loaded(p, e->Iex.Qop.details->arg1) || pd_loaded(p, e->Iex.Qop.details->arg2) ||
		       pd_loaded(p, e->Iex.Qop.details->arg3) || pd_loaded(p, e->Iex.Qop.details->arg4);
	case Iex_Triop:
		return pd_loaded(p, e->Iex.Triop.details->arg1) || pd_loaded(p, e->Iex.Triop.details->arg2) ||
		       pd_loaded(p, e->Iex.Triop.details->arg3);
	case Iex_Binop:
		return pd_loaded(p, e->Iex.Binop.arg1) || pd_loaded(p, e->Iex.Binop.arg2);
	case Iex_Unop:
		return pd_loaded(p, e->Iex.Unop.arg);
	case Iex_ITE:
		return pd_loaded(p, e->Iex.ITE.cond) || pd_loaded(p, e->Iex.ITE.iftrue) ||
		       pd_loaded(p, e->Iex.ITE.iffalse);
	case Iex_CCall:
		for (Int i = 0; e->Iex.CCall.args[i]; i++)
			if (pd_loaded(p, e->Iex.CCall.args[i]))
				return True;
		return False;
	default:
		return False;
	}
}

/* a thin translation's budget check (nb_instr_pmi.c): with NEED_PMI alone
 * (no cut exits, no PEBS) it reads no guest register but those the
 * samples' unwinder starts from (nb_samples.c stack: the IP, SP and frame
 * pointer), and only with callers asked for; its sample's IP is the
 * boundary's, from its table */
static Bool pd_check(const IRDirty *d)
{
	return d->cee && ((HWord)d->cee->addr == (HWord)VG_(fnptr_to_fnentry)(&nb_ipmi_bcheck) ||
			  (HWord)d->cee->addr == (HWord)VG_(fnptr_to_fnentry)(&nb_pmi_sb));
}

void nb_putdrop(IRSB *sb)
{
	struct pd p;
	struct pd_set g = { 0 };
	Int ntmp = sb->tyenv->types_used;

	const IRSB *in = pd_guest;

	pd_guest = NULL;
	if (!(nb_need & NEED_EXACT) || (nb_need & (NEED_STEP | NEED_PEBS | NEED_CUT)) ||
	    ((nb_need & NEED_PMI) && !nb_ipmi_was_thin()))
		return;
	VG_(memset)(&p, 0, sizeof p);
	if (in) {
		UInt n = 16;
		while (n < 2 * (UInt)in->stmts_used)
			n *= 2;
		g.k = VG_(calloc)("nbsim.putdrop", n, sizeof *g.k);
		g.mask = n - 1;
		for (Int i = 0; i < in->stmts_used; i++)
			if (in->stmts[i] && pd_memstmt(in->stmts[i]))
				pd_add(&g, in->stmts[i]);
	}
	p.ld = VG_(calloc)("nbsim.putdrop", (SizeT)(ntmp ? ntmp : 1), 1);
	/* the tmps that hold a loaded value (a load's, a LoadG's, a CAS's,
	 * an LL's, a helper's result: whatever a dropped Put could leave
	 * dead along with a guest access) */
	for (Int i = 0; i < sb->stmts_used; i++) {
		const IRStmt *st = sb->stmts[i];
		switch (st->tag) {
		case Ist_WrTmp:
			if (pd_loaded(&p, st->Ist.WrTmp.data))
				p.ld[st->Ist.WrTmp.tmp] = 1;
			break;
		case Ist_LoadG:
			p.ld[st->Ist.LoadG.details->dst] = 1;
			break;
		case Ist_CAS:
			if (st->Ist.CAS.details->oldHi != IRTemp_INVALID)
				p.ld[st->Ist.CAS.details->oldHi] = 1;
			p.ld[st->Ist.CAS.details->oldLo] = 1;
			break;
		case Ist_LLSC:
			p.ld[st->Ist.LLSC.result] = 1;
			break;
		case Ist_Dirty:
			if (st->Ist.Dirty.details->tmp != IRTemp_INVALID)
				p.ld[st->Ist.Dirty.details->tmp] = 1;
			break;
		default:
			break;
		}
	}
	/* backwards: at the end the whole state is exact (nothing over) */
	pd_expr(&p, sb->tyenv, sb->next);
	for (Int i = sb->stmts_used - 1; i >= 0; i--) {
		IRStmt *st = sb->stmts[i];
		p.flush = False;
		switch (st->tag) {
		case Ist_NoOp:
		case Ist_IMark:
			continue;
		case Ist_Put: {
			Int off = st->Ist.Put.offset;
			Int sz = sizeofIRType(typeOfIRExpr(sb->tyenv, st->Ist.Put.data));
			if (pd_covered(&p, off, sz) && !pd_loaded(&p, st->Ist.Put.data)) {
				sb->stmts[i] = IRStmt_NoOp();
				nb_putdrop_n++;
				continue;
			}
			pd_set(&p, off, sz);
			pd_expr(&p, sb->tyenv, st->Ist.Put.data);
			break;
		}
		case Ist_PutI:
			pd_expr(&p, sb->tyenv, st->Ist.PutI.details->ix);
			pd_expr(&p, sb->tyenv, st->Ist.PutI.details->data);
			break;
		case Ist_WrTmp:
			pd_expr(&p, sb->tyenv, st->Ist.WrTmp.data);
			if (st->Ist.WrTmp.data->tag == Iex_Load && pd_has(&g, st))
				p.flush = True;
			break;
		case Ist_Store:
			pd_expr(&p, sb->tyenv, st->Ist.Store.addr);
			pd_expr(&p, sb->tyenv, st->Ist.Store.data);
			if (pd_has(&g, st))
				p.flush = True;
			break;
		case Ist_Dirty:
			if (pd_check(st->Ist.Dirty.details)) {
				/* (a thin translation's check: the callers' unwinder's
				 * registers, or nothing) */
				if (clo_sample_stack) {
					pd_clear(&p, offsetof(VexGuestAMD64State, guest_RIP), 8);
					pd_clear(&p, offsetof(VexGuestAMD64State, guest_RSP), 8);
					pd_clear(&p, offsetof(VexGuestAMD64State, guest_RBP), 8);
				}
				pd_expr(&p, sb->tyenv, st->Ist.Dirty.details->guard);
				for (Int a = 0; st->Ist.Dirty.details->args[a]; a++)
					pd_expr(&p, sb->tyenv, st->Ist.Dirty.details->args[a]);
				break;
			}
			p.flush = True;
			break;
		case Ist_AbiHint:
			pd_expr(&p, sb->tyenv, st->Ist.AbiHint.base);
			pd_expr(&p, sb->tyenv, st->Ist.AbiHint.nia);
			break;
		default:
			/* the guest's guarded loads and stores, CAS, LL/SC,
			 * barriers, helper calls, exits */
			p.flush = True;
			break;
		}
		if (p.flush)
			VG_(memset)(p.over, 0, sizeof p.over);
	}
	VG_(free)(p.ld);
	if (g.k)
		VG_(free)(g.k);
}
