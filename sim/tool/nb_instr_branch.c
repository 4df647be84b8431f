/*
 * nb_instr_branch.c - the branch predictor's calls in generated code, and
 * the branches VEX's IR no longer shows: a jcc to the next instruction
 * (both outcomes continue at the same address) and a conditional branch
 * whose guard iropt knew.  The hardware retires both as branches.
 */
#include "nb_insn.h"

/*
 * The branch helpers' sites (struct nb_cond_site, struct nb_cond_tm):
 * made at translation, read at every run of their branch, never freed (a few bytes each, as the trace-cache
 * descriptors).  Carved from chunks, each aligned to its size rounded up
 * to a power of two, at most a host cache line, so that a site lies in
 * one line (from VG_(malloc), 16-byte aligned, with the arena's header
 * between blocks, a site could straddle two lines, each one more miss
 * when the guest's data has pushed the tool's out of the host's caches),
 * and the sites of code translated together are neighbours.
 */
#define SITE_CHUNK 65536u
#define SITE_LINE  64u

void *nb_ibr_site(SizeT size)
{
	static UChar *next, *end;
	SizeT al = 16;
	UChar *p;

	while (al < size && al < SITE_LINE)
		al *= 2;
	size = (size + al - 1) & ~(al - 1);
	p = (UChar *)(((Addr)next + al - 1) & ~(Addr)(al - 1));
	if (!next || p + size > end) {
		next = VG_(malloc)("nbsim.sites", SITE_CHUNK + SITE_LINE);
		end = next + SITE_CHUNK + SITE_LINE;
		p = (UChar *)(((Addr)next + SITE_LINE - 1) & ~(Addr)(SITE_LINE - 1));
	}
	next = p + size;
	return p;
}

void nb_ibr_call(IRSB *sb, unsigned kind, Addr pc, UInt len,
			     IRExpr *taken, IRExpr *target)
{
	ULong packed = ((ULong)pc & 0xffffffffffffULL) | ((ULong)(len & 0xff) << 48)
		| ((ULong)kind << 56);
	IRDirty *d;

	if (!(nb_need & NEED_BR))
		return;
	if (kind == NB_BR_JMP) {
		/* direct jmp: always predicted, taken (nb_bpred.c): no call */
		emit_add_at(sb, &nb_raw[RAW_BR0 + 2], c64(1));
		return;
	}
	if (kind == NB_BR_COND && target->tag == Iex_Const) {
		struct nb_cond_site *site = nb_ibr_site(sizeof *site);
		nb_cond_site_init(&nb_bp, site, (uint64_t)pc, target->Iex.Const.con->Ico.U64);
		d = unsafeIRDirty_0_N(2, "nb_cond", VG_(fnptr_to_fnentry)(&nb_cond),
				      mkIRExprVec_2(mkIRExpr_HWord((HWord)site), taken));
	} else
		d = unsafeIRDirty_0_N(3, "nb_branch", VG_(fnptr_to_fnentry)(&nb_branch),
				      mkIRExprVec_3(c64(packed), taken, target));
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}


/* VEX's flag evaluation (priv/guest_amd64_helpers.c, in libvex): condition
 * COND (AMD64Condcode = the x86 cc nibble) from the lazy flags thunk. */
extern ULong amd64g_calculate_condition(ULong cond, ULong cc_op, ULong cc_dep1,
					ULong cc_dep2, ULong cc_ndep);

/*
 * A jcc whose target is the next instruction (rel8 or rel32 displacement
 * 0): both outcomes continue at the same address, so VEX folds the exit
 * (or drops it when it can evaluate the flags) and the IR guard no longer
 * tells whether the branch was taken.  The hardware still retires a taken
 * or not-taken branch by the condition [SDM Vol. 2 Jcc].  Returns the
 * condition code (70+cc, 0F 80+cc), or -1.
 */
#define JNEXT_JRCXZ 16
#define JNEXT_JECXZ 17

static Bool has_67(const uint8_t *a, UInt n)
{
	for (UInt i = 0; i < n; i++)
		if (a[i] == 0x67)
			return True;
	return False;
}

Int nb_ibr_jnext_cc(const uint8_t *a, UInt len, const struct nb_insn *dec)
{
	const uint8_t *o = a + dec->len_prefix;
	UInt rest = len - dec->len_prefix;

	if (dec->br != NB_BR_COND || dec->len_prefix >= len)
		return -1;
	if (rest == 2 && o[0] >= 0x70 && o[0] <= 0x7f && o[1] == 0)
		return o[0] & 0xf;
	if (rest == 6 && o[0] == 0x0f && o[1] >= 0x80 && o[1] <= 0x8f &&
	    !o[2] && !o[3] && !o[4] && !o[5])
		return o[1] & 0xf;
	/* jrcxz (E3 00; jecxz with 67): taken if RCX (ECX) is 0, which
	 * the instruction does not change */
	if (rest == 2 && o[0] == 0xe3 && o[1] == 0)
		return has_67(a, dec->len_prefix) ? JNEXT_JECXZ : JNEXT_JRCXZ;
	return -1;
}

/* The branch's outcome from the guest's flags at this point of the IR
 * (every register update is kept: nb_post_clo_init). */
static IRExpr *jcc_taken(IRSB *sb, Int cc)
{
	static const Int off[4] = {
		offsetof(VexGuestAMD64State, guest_CC_OP), offsetof(VexGuestAMD64State, guest_CC_DEP1),
		offsetof(VexGuestAMD64State, guest_CC_DEP2), offsetof(VexGuestAMD64State, guest_CC_NDEP),
	};
	IRExpr *g[4];
	if (cc == JNEXT_JRCXZ || cc == JNEXT_JECXZ) {
		/* flat IR: each operation into its own temporary */
		IRExpr *r = tmp(sb, Ity_I64, IRExpr_Get(offsetof(VexGuestAMD64State, guest_RCX),
							 Ity_I64));
		if (cc == JNEXT_JECXZ)
			r = tmp(sb, Ity_I64, IRExpr_Binop(Iop_And64, r, c64(0xffffffffULL)));
		return tmp(sb, Ity_I64, IRExpr_Unop(Iop_1Uto64,
			tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, r, c64(0)))));
	}
	for (Int i = 0; i < 4; i++) {       /* flat IR: the call's arguments are atoms */
		IRTemp x = newIRTemp(sb->tyenv, Ity_I64);
		addStmtToIRSB(sb, IRStmt_WrTmp(x, IRExpr_Get(off[i], Ity_I64)));
		g[i] = IRExpr_RdTmp(x);
	}
	IRTemp t = newIRTemp(sb->tyenv, Ity_I64);
	IRExpr **args = mkIRExprVec_5(c64((ULong)cc), g[0], g[1], g[2], g[3]);
	IRExpr *call = mkIRExprCCall(Ity_I64, 0, "amd64g_calculate_condition",
				     &amd64g_calculate_condition, args);

	addStmtToIRSB(sb, IRStmt_WrTmp(t, call));
	return IRExpr_RdTmp(t);
}

/* A jcc to the next instruction whose exit VEX removed: count it from the
 * flags before control moves on. */
void nb_ibr_jnext(IRSB *sb, struct nb_iins *k)
{
	if (!k->valid || k->jnext_cc < 0 || k->br_done)
		return;
	nb_ibr_call(sb, NB_BR_COND, k->addr, k->len, jcc_taken(sb, k->jnext_cc),
			 c64((ULong)(k->addr + k->len)));
	k->br_done = True;
}

/* The taken target of a conditional branch (jcc rel8/rel32, loop*,
 * jrcxz rel8) from its bytes. */
static ULong cond_target(const struct nb_iins *k)
{
	const uint8_t *o = (const uint8_t *)k->addr + k->dec.len_prefix;
	ULong next = (ULong)(k->addr + k->len);

	if (o[0] == 0x0f)
		return next + (ULong)(Long)(Int)((UInt)o[2] | (UInt)o[3] << 8 |
						 (UInt)o[4] << 16 | (UInt)o[5] << 24);
	return next + (ULong)(Long)(Char)o[1];
}

/*
 * A conditional branch whose exit VEX removed because iropt knew its
 * guard (loop after `mov $10, %rcx`: always taken, the exit became the
 * superblock's next or was chased; loopnz after `xor %rax, %rax`: never
 * taken, the exit dropped).  The hardware retires it as any branch [SDM
 * Vol. 2 LOOP/LOOPcc, Jcc]; Weaver's BRANCHES segment counts all 77 on a
 * Pentium D.  Control went on to NEXT: taken unless NEXT is the
 * fall-through.
 */
void nb_ibr_folded(IRSB *sb, struct nb_iins *k, ULong next)
{
	if (!k->valid || k->dec.br != NB_BR_COND || k->br_done || k->jnext_cc >= 0)
		return;
	nb_ibr_call(sb, NB_BR_COND, k->addr, k->len,
			 c64(next != (ULong)(k->addr + k->len)), c64(cond_target(k)));
	k->br_done = True;
}
