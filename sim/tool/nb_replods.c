/*
 * nb_replods.c - REP LODS runs as the CPU runs it.
 *
 * VEX (valgrind 3.19, Debian 12's) decodes F3 AC / F3 AD, and the F2
 * forms, which the CPU runs the same way (SDM vol. 2B, "REP/REPE/REPZ/
 * REPNE/REPNZ": LODS takes REP, the F2 prefix repeats it too), as a single
 * LODS: RCX is left as it was and one element is loaded (a rep lodsb of
 * 10 bytes ends with RCX 10 and RSI advanced by 1).  On the part, the
 * string is loaded RCX times, RCX counts down to 0 and RSI moves by RCX
 * elements; with RCX = 0 nothing is loaded.
 *
 * Before instrumentation the instruction gets the shape VEX gives the REP
 * forms it does run (REP STOS, REP MOVS): a test of RCX = 0 that exits to
 * the next instruction, RCX - 1, one LODS (VEX's own statements for it),
 * and the superblock ends with a jump back to the instruction.  So the
 * rest of nbsim sees it as it sees REP STOS: a visit per element and a
 * last one with RCX = 0 (nb_tm_rep_visit, the Pentium D's rep rules,
 * nb_instr.c's REP exits).  Only 64-bit addressing without a segment
 * override is repaired (a 0x67 or FS/GS prefix: left as VEX runs it).
 *
 * The instructions after it in the superblock are dropped (they are
 * translated again when the loop ends).  That is exact only if the
 * statements before them hold every register update: with VEX's looser
 * update policies (nb_need.c nb_px_policy: code in files while nothing
 * needs every update) an update that a later instruction overwrites is
 * removed from the superblock, and dropping that later instruction would
 * lose it.  So a superblock translated under such a policy is replaced by
 * a stub that makes the policy every-update for good (nb_need.c
 * nb_px_exact) and discards its own
 * translation (Ijk_InvalICache on the instruction's bytes): translated
 * again, the superblock is repaired as above.  A program with a REP LODS
 * then pays for the exact policy (about 1.25x on code that counts
 * nothing), the others do not.
 */
#include "nb_tool.h"

/* The element size of a REP LODS at pc (len bytes), or 0 */
static UInt rep_lods_size(const UChar *pc, UInt len)
{
	Bool rep = False, o16 = False, w = False;
	UInt i;

	for (i = 0; i < len; i++) {
		UChar b = pc[i];
		if (b == 0xf2 || b == 0xf3)
			rep = True;
		else if (b == 0x66)
			o16 = True;
		else if (b == 0x67 || b == 0x64 || b == 0x65 || b == 0xf0)
			return 0;       /* 32-bit addressing, FS/GS, LOCK: as VEX runs it */
		else if (b == 0x2e || b == 0x36 || b == 0x3e || b == 0x26)
			continue;       /* (no effect in 64-bit mode) */
		else
			break;
	}
	if (i < len && (pc[i] & 0xf0) == 0x40) {
		w = (pc[i] & 8) != 0;
		i++;
	}
	if (!rep || i + 1 != len)
		return 0;
	if (pc[i] == 0xac)
		return 1;
	if (pc[i] == 0xad)
		return w ? 8 : o16 ? 2 : 4;
	return 0;
}

/* Were this superblock's statements made with every register update
 * kept?  As valgrind decides it (m_translate.c needs_self_check): the
 * file-backed policy if every extent is in a file mapping, else the
 * default, which nbsim sets before the first translation (nb_main.c).
 * *files: every extent in a file mapping (the policy nb_px_policy sets) */
static Bool all_updates(const VexGuestExtents *vge, Bool *files)
{
	Bool f = True;

	for (UInt i = 0; f && i < vge->n_used; i++) {
		const NSegment *s = VG_(am_find_nsegment)((Addr)vge->base[i]);
		f = s && s->kind == SkFileC && s->start <= (Addr)vge->base[i] &&
			(vge->len[i] == 0 || (Addr)vge->base[i] + vge->len[i] <= s->end + 1);
	}
	*files = f;
	if (f && VG_(clo_px_file_backed) != VexRegUpd_INVALID)
		return VG_(clo_px_file_backed) == VexRegUpdAllregsAtEachInsn;
	return VG_(clo_vex_control).iropt_register_updates_default == VexRegUpdAllregsAtEachInsn;
}

static IRTemp tmp64(IRSB *sb, IRExpr *e)
{
	IRTemp t = newIRTemp(sb->tyenv, Ity_I64);

	addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
	return t;
}

IRSB *nb_rep_lods(IRSB *in, const VexGuestExtents *vge)
{
	IRSB *out;
	Int i, at = -1, end;
	Addr pc = 0;
	UInt len = 0;
	Bool files;

	for (i = 0; i < in->stmts_used; i++) {
		const IRStmt *st = in->stmts[i];
		if (!st || st->tag != Ist_IMark || st->Ist.IMark.len == 0)
			continue;
		pc = (Addr)(st->Ist.IMark.addr + st->Ist.IMark.delta);
		len = st->Ist.IMark.len;
		if (len <= 15 && rep_lods_size((const UChar *)pc, len)) {
			at = i;
			break;
		}
	}
	if (at < 0)
		return in;
	if (!all_updates(vge, &files)) {
		/* the stub: nothing of the superblock runs; its translation
		 * goes and the next one keeps every update (code outside
		 * files with --nbsim-exact-ir=no: VEX's default is fixed at
		 * the start, so it stays as VEX runs it) */
		if (!files)
			return in;
		out = deepCopyIRSBExceptStmts(in);
		for (i = 0; i < in->stmts_used && in->stmts[i]->tag != Ist_IMark; i++)
			addStmtToIRSB(out, in->stmts[i]);
		addStmtToIRSB(out, IRStmt_IMark(in->stmts[i]->Ist.IMark.addr, 0,
						in->stmts[i]->Ist.IMark.delta));
		addStmtToIRSB(out, IRStmt_Dirty(unsafeIRDirty_0_N(0, "nb_px_exact",
			VG_(fnptr_to_fnentry)(&nb_px_exact), mkIRExprVec_0())));
		addStmtToIRSB(out, IRStmt_Put(offsetof(VexGuestAMD64State, guest_CMSTART),
					      IRExpr_Const(IRConst_U64((ULong)pc))));
		addStmtToIRSB(out, IRStmt_Put(offsetof(VexGuestAMD64State, guest_CMLEN),
					      IRExpr_Const(IRConst_U64((ULong)len))));
		out->next = IRExpr_Const(IRConst_U64(in->stmts[i]->Ist.IMark.addr +
						     (ULong)in->stmts[i]->Ist.IMark.delta));
		out->jumpkind = Ijk_InvalICache;
		return out;
	}
	out = deepCopyIRSBExceptStmts(in);
	for (end = at + 1; end < in->stmts_used && in->stmts[end]->tag != Ist_IMark; end++)
		;
	for (i = 0; i <= at; i++)
		addStmtToIRSB(out, in->stmts[i]);
	{
		IRTemp rcx = tmp64(out, IRExpr_Get(offsetof(VexGuestAMD64State, guest_RCX), Ity_I64));
		IRTemp z = newIRTemp(out->tyenv, Ity_I1);

		addStmtToIRSB(out, IRStmt_WrTmp(z, IRExpr_Binop(Iop_CmpEQ64, IRExpr_RdTmp(rcx),
								 IRExpr_Const(IRConst_U64(0)))));
		addStmtToIRSB(out, IRStmt_Exit(IRExpr_RdTmp(z), Ijk_Boring,
					       IRConst_U64((ULong)pc + len), in->offsIP));
		addStmtToIRSB(out, IRStmt_Put(offsetof(VexGuestAMD64State, guest_RCX),
			IRExpr_RdTmp(tmp64(out, IRExpr_Binop(Iop_Sub64, IRExpr_RdTmp(rcx),
							     IRExpr_Const(IRConst_U64(1)))))));
	}
	for (i = at + 1; i < end; i++)
		addStmtToIRSB(out, in->stmts[i]);
	out->next = IRExpr_Const(IRConst_U64((ULong)pc));
	out->jumpkind = Ijk_Boring;
	return out;
}
