/*
 * nb_idecode.c - opcode classification (see nb_idecode.h).
 * Opcode facts: Intel SDM Vol. 2, Appendix A (opcode map).
 */
#include "nb_idecode.h"

int nb_is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
	case 0x2e: case 0x3e: case 0x26: case 0x36: case 0x64: case 0x65:
		return 1;
	}
	return 0;
}

/*
 * Class of a two-byte (0F xx) SSE/SSE2/MMX computational opcode given the
 * last mandatory prefix (0, 0x66, 0xf3, 0xf2) [SDM Vol. 2 Appendix A,
 * opcode map tables A-3; instruction pages].  Moves, loads/stores,
 * shuffles-as-moves and conversions to/from general registers are
 * classified by the operand kind they compute on.
 */
static uint8_t sse_class(uint8_t op2, uint8_t pfx)
{
	uint8_t fp_ps = pfx == 0xf3 ? NB_FP_SSP : pfx == 0xf2 ? NB_FP_SDP :
		pfx == 0x66 ? NB_FP_PDP : NB_FP_PSP;
	uint8_t simd = pfx == 0x66 ? NB_FP_MMX128 : pfx ? NB_FP_NONE : NB_FP_MMX64;

	switch (op2) {
	case 0x51: case 0x52: case 0x53: case 0x58: case 0x59:  /* sqrt rsqrt rcp add mul */
	case 0x5c: case 0x5d: case 0x5e: case 0x5f:             /* sub min div max       */
	case 0xc2:                                              /* cmp                   */
	case 0x2a: case 0x2c: case 0x2d:                        /* cvt(t)si2s*, s*2si    */
		return fp_ps;
	case 0x5a:                                              /* cvtps2pd/pd2ps/ss2sd/sd2ss */
		return fp_ps;
	case 0x5b:                        /* cvtdq2ps (none), cvtps2dq (66), cvttps2dq (F3) */
		return pfx == 0x66 || pfx == 0xf3 || pfx == 0 ? NB_FP_PSP : NB_FP_NONE;
	case 0x54: case 0x55: case 0x56: case 0x57:             /* and andn or xor       */
	case 0x14: case 0x15: case 0xc6:                        /* unpck[lh], shuf       */
		return pfx == 0x66 ? NB_FP_PDP : pfx ? NB_FP_NONE : NB_FP_PSP;
	case 0x2e: case 0x2f:                                   /* ucomis, comis         */
		return pfx == 0x66 ? NB_FP_SDP : pfx ? NB_FP_NONE : NB_FP_SSP;
	}
	/* SIMD integer: 0F 60-6B (punpck, pack, pcmpgt), 6C/6D (66 only),
	 * 70-76 (pshuf*, shifts by imm, pcmpeq), C4/C5 (pinsrw, pextrw),
	 * D1-FE except D6 (movq), D7 (pmovmskb), E7 (movnt), F7 (maskmov) */
	if ((op2 >= 0x60 && op2 <= 0x6b) || (op2 >= 0x70 && op2 <= 0x76) ||
	    op2 == 0xc4 || op2 == 0xc5)
		return op2 == 0x70 && pfx && pfx != 0x66 ? NB_FP_MMX128 /* pshufhw/lw */ : simd;
	if (op2 == 0x6c || op2 == 0x6d)
		return pfx == 0x66 ? NB_FP_MMX128 : NB_FP_NONE;
	if (op2 >= 0xd1 && op2 <= 0xfe && op2 != 0xd6 && op2 != 0xd7 && op2 != 0xe7 &&
	    op2 != 0xf7 && op2 != 0xe6 && op2 != 0xf0)
		return simd;
	if (op2 == 0xe6)            /* cvttpd2dq (66), cvtpd2dq (F2), cvtdq2pd (F3) */
		return pfx ? NB_FP_PDP : NB_FP_NONE;
	return NB_FP_NONE;
}

/*
 * x87 escape D8-DF: computational (x87_FP_uop) unless a load, store or
 * control instruction [SDM Vol. 2 Appendix A.5, x87 opcode maps]:
 * memory forms: D9 /0 fld, /2 fst, /3 fstp, /4 fldenv, /5 fldcw, /6 fnstenv,
 * /7 fnstcw; DB /0 fild, /1 fisttp, /2 fist, /3 fistp, /5 fld m80, /7 fstp
 * m80; DD /0 fld, /1 fisttp, /2 fst, /3 fstp, /4 frstor, /6 fnsave,
 * /7 fnstsw; DF /0 fild, /1-/3 fist(t)p, /4 fbld, /5 fild m64, /6 fbstp,
 * /7 fistp m64.  Register forms: D9 C0-C7 fld st(i), C8-CF fxch, D0 fnop;
 * DD D0-DF fst/fstp st(i), C0-C7 ffree; DF E0 fnstsw ax; DB E2/E3 fnclex,
 * fninit; DA/DB C0-DF fcmov.  Other D8-DF forms compute.
 */
static uint8_t x87_class(uint8_t op, uint8_t modrm)
{
	uint8_t reg = (modrm >> 3) & 7;

	if ((modrm >> 6) != 3) {
		switch (op) {
		case 0xd9: case 0xdb: case 0xdd: case 0xdf:
			return NB_FP_NONE;
		}
		return NB_FP_X87;
	}
	switch (op) {
	case 0xd9:
		return (modrm < 0xd1) ? NB_FP_NONE : NB_FP_X87;
	case 0xdd:
		return (modrm >= 0xd0 && modrm <= 0xdf) || modrm < 0xc8 ? NB_FP_NONE : NB_FP_X87;
	case 0xdf:
		return modrm == 0xe0 ? NB_FP_NONE : NB_FP_X87;
	case 0xdb:
		return modrm == 0xe2 || modrm == 0xe3 || reg < 4 ? NB_FP_NONE : NB_FP_X87;
	case 0xda:
		return reg < 4 ? NB_FP_NONE : NB_FP_X87;
	}
	return NB_FP_X87;
}

/*
 * x87 data movement (x87_SIMD_moves_uop) [same opcode maps]: memory forms
 * D9 /0 /2 /3 (fld, fst, fstp m32), DB /0-/3 (fild, fisttp, fist, fistp
 * m32), /5 /7 (fld, fstp m80), DD /0-/3 (fld, fisttp, fst, fstp m64), DF
 * /0-/7 (fild, fist(t)p m16, fbld, fild m64, fbstp, fistp m64); register
 * forms D9 C0-CF (fld st(i), fxch), DD D0-DF (fst/fstp st(i)), DA/DB C0-DF
 * (fcmov).  Constants (fld1, fldz ...) and control (fldcw, fnstsw ...) are
 * not moves.
 */
static int x87_move(uint8_t op, uint8_t modrm)
{
	uint8_t reg = (modrm >> 3) & 7;

	if ((modrm >> 6) != 3) {
		switch (op) {
		case 0xd9: return reg == 0 || reg == 2 || reg == 3;
		case 0xdb: return reg <= 3 || reg == 5 || reg == 7;
		case 0xdd: return reg <= 3;
		case 0xdf: return 1;
		}
		return 0;
	}
	switch (op) {
	case 0xd9: return modrm <= 0xcf;
	case 0xdd: return modrm >= 0xd0 && modrm <= 0xdf;
	case 0xda: case 0xdb: return modrm <= 0xdf;
	}
	return 0;
}

/* MMX/SSE/SSE2/SSE3 data movement in the 0F map (x87_SIMD_moves_uop):
 * movups/ss/sd/upd (10, 11), movlps/lpd/hlps/ddup/sldup (12, 13),
 * movhps/hpd/lhps/shdup (16, 17), movaps/apd (28, 29), movntps/pd (2B),
 * movd/movq (6E, 7E, D6), movq/movdqa/movdqu (6F, 7F), movntq/ntdq (E7),
 * lddqu (F0), maskmovq/maskmovdqu (F7) [SDM Vol. 2 Appendix A, table A-3]. */
static int simd_move(uint8_t op2)
{
	switch (op2) {
	case 0x10: case 0x11: case 0x12: case 0x13: case 0x16: case 0x17:
	case 0x28: case 0x29: case 0x2b: case 0x6e: case 0x6f: case 0x7e:
	case 0x7f: case 0xd6: case 0xe7: case 0xf0: case 0xf7:
		return 1;
	}
	return 0;
}

/*
 * Write-combining classes of a 0F xx instruction (NB_IC_NT, NB_IC_WCFLUSH)
 * given its last mandatory prefix and its ModRM byte (have_modrm: present)
 * [SDM Vol. 2 Appendix A table A-3 and the instruction pages]:
 * non-temporal stores 0F 2B (none, 66), C3 (none), E7 (none, 66) with a
 * memory operand, F7 (none, 66: the register form, storing at [rdi]);
 * the F2/F3 forms of 0F 2B are AMD's SSE4a movntsd/movntss, not
 * NetBurst's.  0F AE F0-FF (mfence, sfence) and 0F A2 (cpuid) flush.
 */
static uint8_t wc_class(uint8_t op2, uint8_t pfx, uint8_t modrm, int have_modrm)
{
	int mem = have_modrm && (modrm >> 6) != 3;

	switch (op2) {
	case 0x2b: case 0xe7:
		return mem && (pfx == 0 || pfx == 0x66) ? NB_IC_NT : 0;
	case 0xc3:
		return mem && pfx == 0 ? NB_IC_NT : 0;
	case 0xf7:
		return have_modrm && !mem && (pfx == 0 || pfx == 0x66) ? NB_IC_NT : 0;
	case 0xae:
		return have_modrm && modrm >= 0xf0 ? NB_IC_WCFLUSH : 0;
	case 0xa2:
		return NB_IC_WCFLUSH;
	}
	return 0;
}

void nb_decode(const uint8_t *c, unsigned len, struct nb_insn *o)
{
	unsigned i = 0;
	int rep = 0, lock = 0;
	uint8_t op, reg, pfx = 0;

	o->br = NB_BR_NONE;
	o->cls = 0;
	o->fp = NB_FP_NONE;
	while (i < len && nb_is_legacy_prefix(c[i])) {
		if (c[i] == 0xf2 || c[i] == 0xf3)
			rep = 1;
		if (c[i] == 0xf0)
			lock = 1;
		if (c[i] == 0xf2 || c[i] == 0xf3 || c[i] == 0x66)
			pfx = c[i];
		i++;
	}
	if (i < len && (c[i] & 0xf0) == 0x40)   /* REX */
		i++;
	o->len_prefix = (uint8_t)i;
	if (lock)
		o->cls |= NB_IC_WCFLUSH;
	if (i >= len)
		return;
	op = c[i];
	reg = (i + 1 < len) ? (uint8_t)((c[i + 1] >> 3) & 7) : 0;

	if (op == 0x0f) {
		uint8_t op2;
		if (i + 1 >= len)
			return;
		op2 = c[i + 1];
		if (op2 >= 0x80 && op2 <= 0x8f) {
			o->br = NB_BR_COND;
			return;
		}
		o->fp = simd_move(op2) ? NB_FP_MOVE : sse_class(op2, pfx);
		o->cls |= wc_class(op2, pfx, i + 2 < len ? c[i + 2] : 0, i + 2 < len);
		switch (op2) {
		case 0xb6: case 0xb7: case 0xbe: case 0xbf:  /* movzx/movsx */
		case 0x10: case 0x11: case 0x12: case 0x13:  /* movups/ss/sd, movlps */
		case 0x16: case 0x17: case 0x28: case 0x29:  /* movhps, movaps/apd */
		case 0x2b: case 0xe7: case 0xc3:             /* movnt*             */
		case 0x6e: case 0x7e: case 0x6f: case 0x7f:  /* movd/q, movdq[au]  */
		case 0xd6: case 0x18: case 0x0d: case 0x1f:  /* movq, prefetch, nop */
		case 0xf0:                                   /* lddqu               */
			o->cls |= NB_IC_MOVE;
			break;
		case 0xa2: case 0x31: case 0x05: case 0x34:  /* cpuid rdtsc syscall sysenter */
			o->cls |= NB_IC_MCODE | NB_IC_ROM;
			break;
		case 0xa3: case 0xab: case 0xb3: case 0xbb:  /* bt* m,r: bit string */
			if (i + 2 < len && (c[i + 2] >> 6) != 3)
				o->cls |= NB_IC_MCODE | NB_IC_ROM;
			break;
		}
		return;
	}
	if (op >= 0x70 && op <= 0x7f) {
		o->br = NB_BR_COND;
		return;
	}
	if (op >= 0xd8 && op <= 0xdf) {
		if (i + 1 < len)
			o->fp = x87_move(op, c[i + 1]) ? NB_FP_MOVE : x87_class(op, c[i + 1]);
		return;
	}
	switch (op) {
	case 0xe0: case 0xe1: case 0xe2: case 0xe3:          /* loop*, jrcxz */
		o->br = NB_BR_COND;
		return;
	case 0xe9: case 0xeb:
		o->br = NB_BR_JMP;
		return;
	case 0xe8:
		o->br = NB_BR_CALL;
		return;
	case 0xc2: case 0xc3:
		o->br = NB_BR_RET;
		return;
	case 0xff:
		if (reg == 2)
			o->br = NB_BR_ICALL;
		else if (reg == 4)
			o->br = NB_BR_IJMP;
		else if (reg == 6)
			o->cls |= NB_IC_MOVE;                /* push r/m */
		return;
	case 0x6c: case 0x6d: case 0x6e: case 0x6f:          /* ins/outs */
	case 0xa4: case 0xa5: case 0xa6: case 0xa7:          /* movs/cmps */
	case 0xaa: case 0xab: case 0xac: case 0xad:          /* stos/lods */
	case 0xae: case 0xaf:                                /* scas */
		if (rep)
			o->cls |= NB_IC_REP | NB_IC_ROM;
		return;
	case 0x88: case 0x89: case 0x8a: case 0x8b:          /* mov */
	case 0x8c: case 0x8e: case 0xa0: case 0xa1: case 0xa2: case 0xa3:
	case 0xc6: case 0xc7: case 0x63:                     /* mov imm, movsxd */
	case 0x8f: case 0x68: case 0x6a: case 0x90:          /* pop r/m, push imm, nop */
		o->cls |= NB_IC_MOVE;
		return;
	case 0xf6: case 0xf7:                                /* div, idiv */
		if (reg == 6 || reg == 7)
			o->cls |= NB_IC_MCODE | NB_IC_ROM;
		return;
	case 0xcc: case 0xcd: case 0xce: case 0xc8:          /* int3, int, into, enter */
		o->cls |= NB_IC_MCODE | NB_IC_ROM;
		return;
	case 0x86: case 0x87:                                /* xchg: with memory, locked */
		if (i + 1 < len && (c[i + 1] >> 6) != 3)
			o->cls |= NB_IC_WCFLUSH;
		return;
	case 0xcf:                                           /* iret: serializing */
		o->cls |= NB_IC_WCFLUSH;
		return;
	}
	if (op >= 0x50 && op <= 0x5f)                        /* push/pop r */
		o->cls |= NB_IC_MOVE;
	else if (op >= 0xb0 && op <= 0xbf)                   /* mov r, imm */
		o->cls |= NB_IC_MOVE;
}
