/*
 * nb_instr_fpa.c - the instrumentation's FP-assist checks (NEED_FPA:
 * SSE_input_assist, x87_assist): inline denormal tests of SSE operands
 * and x87 memory operands, a clean helper for x87 results.  Called by
 * nb_instr.c per IR statement and at each instruction's end.
 */
#include "nb_insn.h"

/* ---- FP assists (README "FP assists") ---- */

/*
 * While SSE_input_assist or x87_assist is enabled (NEED_FPA), the FP IR
 * operations of each instruction are checked: SSE instructions inline
 * (a denormal lane of a source operand: nb_fpa_denormal's formula), x87
 * instructions for denormal single/double memory operands (inline, PREA)
 * and for results leaving the double (single: fst m32) range (a clean
 * helper, nb_fpa_x87_out: POAU, POAO).  One assist per instruction and
 * kind, however many operations or lanes qualify: the results are ORed
 * into an I64 per instruction (fpa_acc) and added when it ends.
 */
enum fpa_lanes { FL_F64, FL_F32, FL_V64x1, FL_V64x2, FL_V32x1, FL_V32x4 };

static ULong nb_fpa_x87_out_h(ULong op, ULong a, ULong b, ULong r)
{
	return nb_fpa_x87_out((unsigned)op, a, b, r);
}

/* I64 0/1: the I64 atom x (a value of format f) is denormal */
static IRExpr *fpa_den(IRSB *sb, IRExpr *x, const struct nb_fpa_fmt *f)
{
	IRExpr *a = tmp(sb, Ity_I64, IRExpr_Binop(Iop_And64, x, c64(f->abs)));
	a = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Sub64, a, c64(1)));
	a = tmp(sb, Ity_I1, IRExpr_Binop(Iop_CmpLT64U, a, c64(f->mant)));
	return tmp(sb, Ity_I64, IRExpr_Unop(Iop_1Uto64, a));
}

static IRExpr *fpa_or(IRSB *sb, IRExpr *acc, IRExpr *v)
{
	return acc ? tmp(sb, Ity_I64, IRExpr_Binop(Iop_Or64, acc, v)) : v;
}

/* I64 bits of an F64 / F32 atom */
static IRExpr *bits64(IRSB *sb, IRExpr *e)
{
	return tmp(sb, Ity_I64, IRExpr_Unop(Iop_ReinterpF64asI64, e));
}
static IRExpr *bits32(IRSB *sb, IRExpr *e)
{
	IRExpr *t = tmp(sb, Ity_I32, IRExpr_Unop(Iop_ReinterpF32asI32, e));
	return tmp(sb, Ity_I64, IRExpr_Unop(Iop_32Uto64, t));
}

/* I64 0/1: a lane of the atom e (lanes l) is denormal */
static IRExpr *fpa_lanes_den(IRSB *sb, IRExpr *e, enum fpa_lanes l)
{
	IRExpr *h[2], *r = NULL;
	unsigned nh;

	switch (l) {
	case FL_F64:
		return fpa_den(sb, bits64(sb, e), &nb_fpa_f64);
	case FL_F32:
		return fpa_den(sb, bits32(sb, e), &nb_fpa_f32);
	default:
		break;
	}
	nh = l == FL_V64x2 || l == FL_V32x4 ? 2 : 1;
	h[0] = tmp(sb, Ity_I64, IRExpr_Unop(Iop_V128to64, e));
	if (nh == 2)
		h[1] = tmp(sb, Ity_I64, IRExpr_Unop(Iop_V128HIto64, e));
	for (unsigned i = 0; i < nh; i++) {
		if (l == FL_V64x1 || l == FL_V64x2) {
			r = fpa_or(sb, r, fpa_den(sb, h[i], &nb_fpa_f64));
			continue;
		}
		r = fpa_or(sb, r, fpa_den(sb, tmp(sb, Ity_I64, IRExpr_Binop(Iop_And64, h[i],
						 c64(0xffffffffULL))), &nb_fpa_f32));
		if (l == FL_V32x4)
			r = fpa_or(sb, r, fpa_den(sb, tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, h[i],
							 IRExpr_Const(IRConst_U8(32)))), &nb_fpa_f32));
	}
	return r;
}

/*
 * The source operands of an SSE operation that can take a denormal input
 * assist, i.e. signal the denormal-operand exception (#D): add, sub, mul,
 * div, sqrt, min, max, compares (CMPxx, COMIS, UCOMIS), CVTSD2SS,
 * CVTSS2SD, CVTPD2PS, CVTPS2PD [SDM Vol. 2, "SIMD Floating-Point
 * Exceptions" of each instruction; Vol. 1 11.5.2.1], as VEX 3.19 writes
 * them (libvex_ir.h: the F0x2/F0x4 forms use the low lane only; the
 * packed add/sub/mul/div and sqrt take a rounding mode first).  Conversions
 * to integers, RCP/RSQRT and logic ops raise no #D.  Returns the number of
 * operands (args[], lanes[]).
 */
static unsigned sse_operands(const IRExpr *e, IRExpr *args[2], enum fpa_lanes lanes[2])
{
	IROp op;
	unsigned n = 0, a0 = 0;
	enum fpa_lanes l;

	switch (e->tag) {
	case Iex_Unop:
		op = e->Iex.Unop.op;
		switch (op) {
		case Iop_Sqrt64F0x2: l = FL_V64x1; break;
		case Iop_Sqrt32F0x4: l = FL_V32x1; break;
		case Iop_F32toF64:   l = FL_F32; break;
		default: return 0;
		}
		args[0] = e->Iex.Unop.arg;
		lanes[0] = l;
		return 1;
	case Iex_Binop:
		op = e->Iex.Binop.op;
		switch (op) {
		case Iop_Add64F0x2: case Iop_Sub64F0x2: case Iop_Mul64F0x2: case Iop_Div64F0x2:
		case Iop_Max64F0x2: case Iop_Min64F0x2: case Iop_CmpEQ64F0x2: case Iop_CmpLT64F0x2:
		case Iop_CmpLE64F0x2: case Iop_CmpUN64F0x2:
			l = FL_V64x1; n = 2; break;
		case Iop_Add32F0x4: case Iop_Sub32F0x4: case Iop_Mul32F0x4: case Iop_Div32F0x4:
		case Iop_Max32F0x4: case Iop_Min32F0x4: case Iop_CmpEQ32F0x4: case Iop_CmpLT32F0x4:
		case Iop_CmpLE32F0x4: case Iop_CmpUN32F0x4:
			l = FL_V32x1; n = 2; break;
		case Iop_Max64Fx2: case Iop_Min64Fx2: case Iop_CmpEQ64Fx2: case Iop_CmpLT64Fx2:
		case Iop_CmpLE64Fx2: case Iop_CmpUN64Fx2:
			l = FL_V64x2; n = 2; break;
		case Iop_Max32Fx4: case Iop_Min32Fx4: case Iop_CmpEQ32Fx4: case Iop_CmpLT32Fx4:
		case Iop_CmpLE32Fx4: case Iop_CmpUN32Fx4:
			l = FL_V32x4; n = 2; break;
		case Iop_Sqrt64Fx2: l = FL_V64x2; n = 1; a0 = 1; break;
		case Iop_Sqrt32Fx4: l = FL_V32x4; n = 1; a0 = 1; break;
		case Iop_F64toF32:  l = FL_F64; n = 1; a0 = 1; break;
		case Iop_CmpF64:    l = FL_F64; n = 2; break;
		default: return 0;
		}
		for (unsigned i = 0; i < n; i++) {
			args[i] = a0 + i ? e->Iex.Binop.arg2 : e->Iex.Binop.arg1;
			lanes[i] = l;
		}
		return n;
	case Iex_Triop:
		op = e->Iex.Triop.details->op;
		switch (op) {
		case Iop_Add64Fx2: case Iop_Sub64Fx2: case Iop_Mul64Fx2: case Iop_Div64Fx2:
			l = FL_V64x2; break;
		case Iop_Add32Fx4: case Iop_Sub32Fx4: case Iop_Mul32Fx4: case Iop_Div32Fx4:
			l = FL_V32x4; break;
		case Iop_AddF64: case Iop_SubF64: case Iop_MulF64: case Iop_DivF64:
			l = FL_F64; break;
		default: return 0;
		}
		args[0] = e->Iex.Triop.details->arg2;
		args[1] = e->Iex.Triop.details->arg3;
		lanes[0] = lanes[1] = l;
		return 2;
	default:
		return 0;
	}
}

/* x87 operation of an IR expression (nb_fpa_op), or NB_FPA_NOPS */
static unsigned x87_op(const IRExpr *e)
{
	if (e->tag == Iex_Triop)
		switch (e->Iex.Triop.details->op) {
		case Iop_AddF64: return NB_FPA_ADD;
		case Iop_SubF64: return NB_FPA_SUB;
		case Iop_MulF64: return NB_FPA_MUL;
		case Iop_DivF64: return NB_FPA_DIV;
		default: break;
		}
	if (e->tag == Iex_Binop && e->Iex.Binop.op == Iop_F64toF32)
		return NB_FPA_CVT;
	return NB_FPA_NOPS;
}

/*
 * After the guest statement t = e of the current instruction (x87 or
 * not): the checks of e, ORed into *acc (SSE: 0/1; x87: NB_FPA_* bits).
 */
void nb_ifpa_check(IRSB *sb, IRTemp t, const IRExpr *e, Bool x87, IRExpr **acc)
{
	IRExpr *args[2];
	enum fpa_lanes lanes[2];
	unsigned n, op;

	if (!x87) {
		n = sse_operands(e, args, lanes);
		for (unsigned i = 0; i < n; i++)
			*acc = fpa_or(sb, *acc, fpa_lanes_den(sb, args[i], lanes[i]));
		return;
	}
	/* PREA: a denormal single/double memory operand [SDM Vol. 1 8.5.2:
	 * #D on loading a denormal]; the x87 registers (80-bit, 15-bit
	 * exponent) hold no denormal nbsim can see (README "FP assists") */
	if (e->tag == Iex_Load && (e->Iex.Load.ty == Ity_F64 || e->Iex.Load.ty == Ity_F32)) {
		IRExpr *d = e->Iex.Load.ty == Ity_F64
			? fpa_den(sb, bits64(sb, IRExpr_RdTmp(t)), &nb_fpa_f64)
			: fpa_den(sb, bits32(sb, IRExpr_RdTmp(t)), &nb_fpa_f32);
		d = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shl64, d, IRExpr_Const(IRConst_U8(4))));
		*acc = fpa_or(sb, *acc, d);
		return;
	}
	op = x87_op(e);
	if (op != NB_FPA_NOPS) {
		IRExpr *a, *b, *r, *m;
		if (op == NB_FPA_CVT) {
			a = bits64(sb, e->Iex.Binop.arg2);
			b = c64(0);
			r = bits32(sb, IRExpr_RdTmp(t));
		} else {
			a = bits64(sb, e->Iex.Triop.details->arg2);
			b = bits64(sb, e->Iex.Triop.details->arg3);
			r = bits64(sb, IRExpr_RdTmp(t));
		}
		m = tmp(sb, Ity_I64, mkIRExprCCall(Ity_I64, 0, "nb_fpa_x87_out_h",
			VG_(fnptr_to_fnentry)(&nb_fpa_x87_out_h), mkIRExprVec_4(c64(op), a, b, r)));
		*acc = fpa_or(sb, *acc, m);
	}
}

/* The instruction ends: count its assists. */
void nb_ifpa_flush(IRSB *sb, Bool x87, IRExpr **acc)
{
	if (!*acc)
		return;
	if (!x87)
		emit_add_at(sb, &nb_raw[RAW_SSE_ASSIST], *acc);
	else
		for (unsigned b = 2; b < 5; b++) {
			IRExpr *v = tmp(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, *acc,
								   IRExpr_Const(IRConst_U8((UChar)b))));
			emit_add_at(sb, &nb_raw[RAW_X87_ASSIST + b],
				    tmp(sb, Ity_I64, IRExpr_Binop(Iop_And64, v, c64(1))));
		}
	*acc = NULL;
}

