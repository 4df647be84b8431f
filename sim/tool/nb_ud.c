/*
 * nb_ud.c - instructions the modelled CPU does not have raise #UD: the
 * guest gets SIGILL at the instruction, as on the hardware (nb_isa.h;
 * sim/README "Instructions the model lacks").  --nbsim-isa=host runs them
 * as the host does, with one warning per extension.
 *
 * Before instrumentation, a superblock that holds such an instruction is
 * cut just before it and ends with valgrind's "no decode" exit to its
 * address (the exit VEX makes for an instruction it cannot decode; the
 * scheduler delivers SIGILL there, si_addr and RIP the instruction's).
 * The instruction does not retire and nothing after it runs.  A cut
 * superblock first calls nb_ud_report, so the message is printed only
 * when the instruction is reached (a superblock may hold code past a side
 * exit that is always taken: a CPU dispatch that never chooses it).
 */
#include "nb_tool.h"
#include "cpu/nb_isa.h"

static struct nb_isa_caps caps;
static Bool caps_set;
static UInt warned;             /* extensions reported (bit per nb_isa_ext) */

static void set_caps(void)
{
	uint32_t o[4];

	nb_cpuid(nb_cpu, 0, 0, 1, 0, o);
	caps.sse3 = o[2] & 1u;
	caps.cx16 = o[2] >> 13 & 1u;
	nb_cpuid(nb_cpu, 0, 0, 0x80000001u, 0, o);
	caps.lahf64 = o[2] & 1u;
	caps_set = True;
}

static void report(Addr pc, enum nb_isa_ext e, Bool runs)
{
	if (warned & (1u << e))
		return;
	warned |= 1u << e;
	VG_(message)(Vg_UserMsg, "nbsim: the instruction at %#lx needs %s, which %s does not "
		     "have: %s\n", pc, nb_isa_name(e), nb_cpu->name,
		     runs ? "it runs as the host runs it (--nbsim-isa=host), a Pentium 4 "
			    "would raise #UD" :
			    "#UD, the program gets SIGILL as on the hardware (--nbsim-isa=host "
			    "runs it as the host does)");
}

static VG_REGPARM(2) void nb_ud_report(HWord pc, HWord e)
{
	report((Addr)pc, (enum nb_isa_ext)e, False);
}

IRSB *nb_ud_cut(IRSB *in)
{
	IRSB *out;
	Int i, cut = -1;
	Addr pc = 0;
	enum nb_isa_ext e = NB_ISA_OK;

	if (!caps_set)
		set_caps();
	for (i = 0; i < in->stmts_used; i++) {
		const IRStmt *st = in->stmts[i];
		UInt len;
		if (!st || st->tag != Ist_IMark)
			continue;
		len = st->Ist.IMark.len;
		pc = (Addr)(st->Ist.IMark.addr + st->Ist.IMark.delta);
		e = nb_isa_missing((const uint8_t *)pc, len > 15 ? 15 : len, &caps);
		if (e == NB_ISA_OK)
			continue;
		if (clo_isa_host) {
			/* (reported at translation: the warning is about the
			 * program, whether or not this path runs) */
			report(pc, e, True);
			continue;
		}
		cut = i;
		break;
	}
	if (cut < 0)
		return in;
	out = deepCopyIRSBExceptStmts(in);
	for (i = 0; i < cut; i++)
		addStmtToIRSB(out, in->stmts[i]);
	/* the shape VEX gives an instruction it cannot decode: an IMark of
	 * length 0 (nb_instrument: an instruction that does not retire, the
	 * one before it does) */
	addStmtToIRSB(out, IRStmt_IMark(in->stmts[cut]->Ist.IMark.addr, 0,
					in->stmts[cut]->Ist.IMark.delta));
	addStmtToIRSB(out, IRStmt_Dirty(unsafeIRDirty_0_N(2, "nb_ud_report",
		VG_(fnptr_to_fnentry)(&nb_ud_report),
		mkIRExprVec_2(mkIRExpr_HWord((HWord)pc), mkIRExpr_HWord((HWord)e)))));
	out->next = IRExpr_Const(IRConst_U64((ULong)pc));
	out->jumpkind = Ijk_NoDecode;
	return out;
}
