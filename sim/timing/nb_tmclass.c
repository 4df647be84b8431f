/*
 * nb_tmclass.c - the class (nb_timing.h enum nb_tm_cls) of an
 * instruction's computational uop, from its opcode bytes: which row of
 * the model's table (nb_tmparams.c) times it.  The sources named here
 * ([F29], [F43], [F43X64], [SDM]) are nb_tmparams.c's.
 */
#include "nb_timing.h"
#include "cpu/nb_idecode.h"

static unsigned modrm_reg(const uint8_t *code, unsigned len, unsigned i)
{
	return i < len ? (code[i] >> 3) & 7u : 8u;
}

/* a prefix byte among the instruction's prefixes code[0..npfx) (REX is
 * never 0x66 or 0xf0) */
static int has_prefix(const uint8_t *code, unsigned npfx, uint8_t b)
{
	for (unsigned i = 0; i < npfx; i++)
		if (code[i] == b)
			return 1;
	return 0;
}

/* MMX/SSE2 integer operations (0F map, NB_FP_MMX64/128) [SDM Vol. 2
 * Appendix A, table A-3]: multiplies pmullw D5, pmulhuw E4, pmulhw E5,
 * pmuludq F4, pmaddwd F5; pshufd 66 0F 70; pslldq/psrldq 66 0F 73 /7, /3;
 * psadbw F6.  On XMM registers (NB_FP_MMX128) the ALU and multiply
 * classes are their 128-bit forms (throughput 2, [F29 1013, 1062]). */
static unsigned simd_class(const uint8_t *code, unsigned len, unsigned i, unsigned npfx,
			   unsigned fp)
{
	unsigned op2 = i + 1 < len ? code[i + 1] : 0, reg, x = fp == NB_FP_MMX128;

	switch (op2) {
	case 0xd5: case 0xe4: case 0xe5: case 0xf4: case 0xf5:
		return x ? NB_TM_SIMULX : NB_TM_SIMUL;
	case 0xf6:      /* psadbw: mm's throughput 1, xmm's 2 [F29 763, 1140] */
		return x ? NB_TM_SHUF : NB_TM_PSADMM;
	case 0x70:
		return has_prefix(code, npfx, 0x66) ? NB_TM_SHUF : NB_TM_SIMD;
	case 0x73:
		reg = modrm_reg(code, len, i + 2);
		if (has_prefix(code, npfx, 0x66) && (reg == 3 || reg == 7))
			return NB_TM_SHUF;
		break;
	default:
		break;
	}
	return x ? NB_TM_SIMDX : NB_TM_SIMD;
}

/* LEA (8D) by its address [SDM Vol. 2, 2.1.5 tables 2-2, 2-3; 2.2.1 REX.X]:
 * base + index + displacement, a scaled index with or without a
 * displacement; base + index, base + displacement, RIP + displacement
 * stay one ALU step.  m: the ModRM byte's index in code. */
static unsigned lea_class(const uint8_t *code, unsigned len, unsigned m, unsigned npfx)
{
	unsigned mod, rm, sib, base, index, disp, rex;

	if (m >= len)
		return NB_TM_ALU;
	mod = code[m] >> 6;
	rm = code[m] & 7;
	if (mod == 3 || rm != 4 || m + 1 >= len)
		return NB_TM_ALU;       /* no SIB: one register at most */
	rex = npfx && (code[npfx - 1] & 0xf0) == 0x40 ? code[npfx - 1] : 0;
	sib = code[m + 1];
	base = sib & 7;
	index = (sib >> 3) & 7;
	disp = mod != 0 || base == 5;
	if (index == 4 && !(rex & 2))
		return NB_TM_ALU;       /* no index */
	if (sib >> 6)
		return disp ? NB_TM_LEASCD : NB_TM_LEASC;
	return disp && !(mod == 0 && base == 5) ? NB_TM_LEA3 : NB_TM_ALU;
}

unsigned nb_tm_classify(const uint8_t *code, unsigned len, unsigned npfx, unsigned fp)
{
	unsigned i = npfx, op, op2, reg;

	if (i >= len)
		return NB_TM_ALU;
	op = code[i];
	/* locked read-modify-writes: the lock prefix, xchg with memory
	 * (locked without it [SDM Vol. 2 XCHG]) */
	if (has_prefix(code, npfx, 0xf0) ||
	    ((op == 0x86 || op == 0x87) && i + 1 < len && (code[i + 1] >> 6) != 3))
		return NB_TM_LOCK;
	/* pause (F3 90) back to back measures lfence's throughput, 36 /
	 * 40 / 54.25 cycles [F13, F29, F43 row 15 "PAUSE"; lfence: 36, 40,
	 * 52]: it waits as lfence does */
	if (op == 0x90 && has_prefix(code, npfx, 0xf3))
		return NB_TM_LFENCE;
	/* movd/movq between the general and MMX/XMM registers: 0F 6E, 0F
	 * 7E (none or 66; F3 0F 7E is movq xmm, xmm), register forms */
	if (op == 0x0f && i + 2 < len && (code[i + 1] == 0x6e || code[i + 1] == 0x7e) &&
	    !has_prefix(code, npfx, 0xf3) && (code[i + 2] >> 6) == 3)
		return NB_TM_XFER;
	switch (fp) {
	case NB_FP_X87:
		reg = modrm_reg(code, len, i + 1);
		if (op == 0xd9 && i + 1 < len && code[i + 1] == 0xfa)
			return NB_TM_FDIV;              /* fsqrt */
		if (op != 0xd8 && op != 0xda && op != 0xdc && op != 0xde)
			return NB_TM_FPOTHER;
		if (reg == 1)
			return NB_TM_FMUL;
		if (reg == 6 || reg == 7)
			return NB_TM_FDIV;
		return reg < 8 ? NB_TM_FADD : NB_TM_FPOTHER;
	case NB_FP_SSP: case NB_FP_SDP: case NB_FP_PSP: case NB_FP_PDP:
		if (op != 0x0f || i + 1 >= len)
			return NB_TM_FPOTHER;
		switch (code[i + 1]) {
		case 0x58: case 0x5c: case 0x5d: case 0x5f: case 0xc2: case 0x2e: case 0x2f:
			return NB_TM_SADD;
		case 0x59:
			return NB_TM_SMUL;
		case 0x5e: case 0x51:
			return NB_TM_SDIV;
		default:
			return NB_TM_FPOTHER;
		}
	case NB_FP_MMX64: case NB_FP_MMX128:
		return simd_class(code, len, i, npfx, fp);
	case NB_FP_NONE:
		break;
	default:
		return NB_TM_FPOTHER;
	}
	/* [SDM Vol. 2 Appendix A, table A-2]: adc 10-15 and 80/81/83 /2,
	 * sbb 18-1D and /3; xchg 86/87 (register form here), 91-97 */
	if (op <= 0x1d && (op & 7) <= 5 && (op >> 3 == 2 || op >> 3 == 3))
		return NB_TM_ADC;
	if (op >= 0x91 && op <= 0x97)
		return NB_TM_XCHG;
	/* movs A4/A5, stos AA/AB, lods AC/AD, scas AE/AF without a rep
	 * prefix (F2, F3): [F29, F43 515-539] (cmps A6/A7: VEX runs only
	 * its rep forms; the rep forms: the loop, unchanged) */
	if (((op >= 0xa4 && op <= 0xa5) || (op >= 0xaa && op <= 0xaf)) &&
	    !has_prefix(code, npfx, 0xf3) && !has_prefix(code, npfx, 0xf2))
		return NB_TM_STR;
	/* the rep forms of lods AC/AD, scas AE/AF and cmps A6/A7 (no fast
	 * strings): one element per iteration of the microcode loop, the
	 * iterations chained through rsi/rdi/rcx [F29, F43 509-543]; rep
	 * movs and stos: the loop's uops, unchanged */
	if (op >= 0xac && op <= 0xaf)
		return NB_TM_REPSCAN;
	if (op == 0xa6 || op == 0xa7)
		return NB_TM_REPCMPS;
	switch (op) {
	case 0x80: case 0x81: case 0x83:
		reg = modrm_reg(code, len, i + 1);
		return reg == 2 || reg == 3 ? NB_TM_ADC : NB_TM_ALU;
	case 0x86: case 0x87:
		return NB_TM_XCHG;
	case 0xc0: case 0xc1: case 0xd0: case 0xd1: case 0xd2: case 0xd3:
		/* with REX.W (the last prefix byte 48-4F), all but shl/sal
		 * (/4, /6) are Prescott's slow 64-bit forms [F43X64]; the
		 * others by cl (D2, D3) their own class [F29, F43 227-287] */
		reg = modrm_reg(code, len, i + 1);
		/* rcl /2, rcr /3: by 1 (D0, D1) or by imm8 and cl (microcode)
		 * [F29, F43 289-311; F43X64 292-312 r64] */
		if (reg == 2 || reg == 3) {
			if (op == 0xd0 || op == 0xd1)
				return NB_TM_RC1;
			/* rcl r64 by imm8/cl: its own [F43X64 296, 300] */
			if (reg == 2 && (op & 1) && npfx && (code[npfx - 1] & 0xf8) == 0x48)
				return NB_TM_RCL64N;
			return NB_TM_RCN;
		}
		if (npfx && (code[npfx - 1] & 0xf8) == 0x48 && (op & 1) && reg != 4 && reg != 6)
			return NB_TM_SHIFT64;
		return op == 0xd2 || op == 0xd3 ? NB_TM_SHIFTCL : NB_TM_SHIFT;
	case 0x8d:
		return lea_class(code, len, i + 1, npfx);
	case 0x69: case 0x6b:
		return NB_TM_IMUL;
	case 0xf6: case 0xf7:
		reg = modrm_reg(code, len, i + 1);
		if (reg == 4 || reg == 5)
			return NB_TM_MUL;
		if (reg < 6 || reg > 7)
			return NB_TM_ALU;
		/* div /6, idiv /7 by operand size [F29, F43 352-457]: r64
		 * (REX.W) each its own, idiv r8 (F6) and r16 (66) theirs */
		if (op == 0xf7 && npfx && (code[npfx - 1] & 0xf8) == 0x48)
			return reg == 7 ? NB_TM_IDIV64 : NB_TM_DIV64;
		if (reg == 7 && (op == 0xf6 || has_prefix(code, npfx, 0x66)))
			return NB_TM_IDIVS;
		return NB_TM_IDIV;
	case 0x0f:
		op2 = i + 1 < len ? code[i + 1] : 0;
		if (op2 == 0xaf)
			return NB_TM_IMUL;
		/* shld A4 (imm8)/A5 (cl), shrd AC/AD [F29, F43 254-263];
		 * with REX.W their r64 forms [F43X64 255-264] */
		if (op2 == 0xa4 || op2 == 0xa5 || op2 == 0xac || op2 == 0xad) {
			if (npfx && (code[npfx - 1] & 0xf8) == 0x48)
				return op2 & 1 ? NB_TM_SHXD64CL : NB_TM_SHXD64;
			/* r16 (66): slower than r32 [F29, F43 253-262] */
			if (has_prefix(code, npfx, 0x66))
				return op2 & 1 ? NB_TM_SHXD16CL : NB_TM_SHXD16;
			return NB_TM_SHXD;
		}
		/* bt A3, bts AB, btr B3, btc BB r, r; BA /4-7 r, imm8 [F29,
		 * F43 176-199] (the memory forms, a bit string: unchanged) */
		if ((op2 == 0xa3 || op2 == 0xab || op2 == 0xb3 || op2 == 0xbb) &&
		    i + 2 < len && (code[i + 2] >> 6) == 3)
			return NB_TM_BTR;
		if (op2 == 0xba && i + 2 < len && (code[i + 2] >> 6) == 3 &&
		    modrm_reg(code, len, i + 2) >= 4)
			return NB_TM_BTI;
		/* bswap 0F C8-CF (r64: as Prescott's 64-bit shifts, 8
		 * measured [F43X64 320]) */
		if (op2 >= 0xc8 && op2 <= 0xcf)
			return npfx && (code[npfx - 1] & 0xf8) == 0x48 ? NB_TM_SHIFT64 : NB_TM_BSWAP;
		if (op2 >= 0x40 && op2 <= 0x4f)
			return NB_TM_CMOV;
		if (op2 >= 0x90 && op2 <= 0x9f)
			return NB_TM_SETCC;
		if (op2 == 0xb0 || op2 == 0xb1)
			return NB_TM_CMPXCHG;
		if (op2 == 0x31)
			return NB_TM_RDTSC;
		/* 0F AE with ModRM E8-EF lfence, F0-F7 mfence, F8-FF sfence */
		if (op2 == 0xae && i + 2 < len && code[i + 2] >= 0xe8)
			return code[i + 2] < 0xf0 ? NB_TM_LFENCE : code[i + 2] < 0xf8 ? NB_TM_MFENCE
				: NB_TM_SFENCE;
		return NB_TM_ALU;
	default:
		return NB_TM_ALU;
	}
}
