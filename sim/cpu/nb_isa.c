/*
 * nb_isa.c - which x86-64 instructions a NetBurst model does not have
 * (nb_isa.h).  Opcodes from the SDM Vol. 2 opcode map (Appendix A) and
 * each instruction's page; AMD's XOP and SSE4a from AMD's APM Vol. 3/4.
 */
#include "nb_isa.h"

static const char *const names[NB_ISA_NEXT] = {
	[NB_ISA_OK] = "none",
	[NB_ISA_SSE3] = "SSE3",
	[NB_ISA_CX16] = "CMPXCHG16B",
	[NB_ISA_LAHF64] = "LAHF/SAHF in 64-bit mode",
	[NB_ISA_VEX] = "AVX/AVX2/FMA/BMI (VEX encoding)",
	[NB_ISA_EVEX] = "AVX-512 (EVEX encoding)",
	[NB_ISA_XOP] = "XOP (AMD)",
	[NB_ISA_0F38] = "SSSE3/SSE4/MOVBE/CRC32/AES/SHA (0F 38 opcode map)",
	[NB_ISA_0F3A] = "SSSE3/SSE4/PCLMULQDQ (0F 3A opcode map)",
	[NB_ISA_POPCNT] = "POPCNT",
	[NB_ISA_SSE4A] = "SSE4a (AMD)",
	[NB_ISA_XSAVE] = "XSAVE",
	[NB_ISA_RDRAND] = "RDRAND/RDSEED/RDPID",
	[NB_ISA_RDTSCP] = "RDTSCP",
	[NB_ISA_TSX] = "TSX",
	[NB_ISA_FSGSBASE] = "FSGSBASE",
	[NB_ISA_CLFLUSHOPT] = "CLFLUSHOPT/CLWB",
};

const char *nb_isa_name(enum nb_isa_ext e)
{
	return (unsigned)e < NB_ISA_NEXT ? names[e] : "?";
}

/* 0F 01 with a register ModRM byte: the system group's later members */
static enum nb_isa_ext grp7(uint8_t m)
{
	switch (m) {
	case 0xd0: case 0xd1:           /* xgetbv, xsetbv */
		return NB_ISA_XSAVE;
	case 0xd5: case 0xd6:           /* xend, xtest */
		return NB_ISA_TSX;
	case 0xf9:                      /* rdtscp */
		return NB_ISA_RDTSCP;
	default:
		return NB_ISA_OK;
	}
}

/* 0F AE (group 15); pfx: the last of 66/F2/F3 (0 for none) */
static enum nb_isa_ext grp15(uint8_t m, uint8_t pfx)
{
	unsigned mod = m >> 6, reg = m >> 3 & 7;

	if (mod == 3)                   /* F3: rd/wr fs/gs base (0-3) */
		return pfx == 0xf3 && reg < 4 ? NB_ISA_FSGSBASE : NB_ISA_OK;
	if (reg == 4 || reg == 5)       /* xsave, xrstor */
		return NB_ISA_XSAVE;
	if (reg == 6)                   /* xsaveopt; 66: clwb */
		return pfx == 0x66 ? NB_ISA_CLFLUSHOPT : pfx ? NB_ISA_OK : NB_ISA_XSAVE;
	if (reg == 7 && pfx == 0x66)    /* clflushopt (clflush has no prefix) */
		return NB_ISA_CLFLUSHOPT;
	return NB_ISA_OK;
}

/* 0F C7 (group 9) */
static enum nb_isa_ext grp9(uint8_t m, unsigned rexw, const struct nb_isa_caps *c)
{
	unsigned mod = m >> 6, reg = m >> 3 & 7;

	if (mod == 3)                   /* rdrand, rdseed (F3: rdpid) */
		return reg == 6 || reg == 7 ? NB_ISA_RDRAND : NB_ISA_OK;
	if (reg == 1)                   /* cmpxchg8b; REX.W: cmpxchg16b */
		return rexw && !c->cx16 ? NB_ISA_CX16 : NB_ISA_OK;
	if (reg >= 3 && reg <= 5)       /* xrstors, xsavec, xsaves */
		return NB_ISA_XSAVE;
	return NB_ISA_OK;
}

/* the two-byte map: 0F op (m: the byte after op, its ModRM when it has one) */
static enum nb_isa_ext map0f(uint8_t op, uint8_t m, uint8_t pfx, unsigned rexw, unsigned more,
			     const struct nb_isa_caps *c)
{
	switch (op) {
	case 0x38:
		return NB_ISA_0F38;
	case 0x3a:
		return NB_ISA_0F3A;
	case 0x01:
		return more ? grp7(m) : NB_ISA_OK;
	case 0xae:
		return more ? grp15(m, pfx) : NB_ISA_OK;
	case 0xc7:
		return more ? grp9(m, rexw, c) : NB_ISA_OK;
	case 0xb8:                      /* popcnt (no prefix: jmpe, IA-64) */
		return pfx == 0xf3 ? NB_ISA_POPCNT : NB_ISA_OK;
	case 0x78: case 0x79:           /* 66 extrq, F2 insertq (none: vmread/vmwrite) */
		return pfx == 0x66 || pfx == 0xf2 ? NB_ISA_SSE4A : NB_ISA_OK;
	case 0x2b:                      /* F2/F3: movntsd/movntss */
		return pfx == 0xf2 || pfx == 0xf3 ? NB_ISA_SSE4A : NB_ISA_OK;
	}
	if (c->sse3)
		return NB_ISA_OK;
	/* SSE3 [SDM Vol. 2 pages of ADDSUBPD/PS, HADDPD/PS, HSUBPD/PS,
	 * LDDQU, MOVDDUP, MOVSHDUP, MOVSLDUP: CPUID.01H:ECX.SSE3] */
	switch (op) {
	case 0x7c: case 0x7d: case 0xd0:        /* hadd, hsub, addsub: 66 or F2 */
		return pfx == 0x66 || pfx == 0xf2 ? NB_ISA_SSE3 : NB_ISA_OK;
	case 0xf0:                              /* lddqu */
		return pfx == 0xf2 ? NB_ISA_SSE3 : NB_ISA_OK;
	case 0x12:                              /* movddup, movsldup */
		return pfx == 0xf2 || pfx == 0xf3 ? NB_ISA_SSE3 : NB_ISA_OK;
	case 0x16:                              /* movshdup */
		return pfx == 0xf3 ? NB_ISA_SSE3 : NB_ISA_OK;
	}
	return NB_ISA_OK;
}

enum nb_isa_ext nb_isa_missing(const uint8_t *code, unsigned len, const struct nb_isa_caps *caps)
{
	unsigned i = 0, rexw = 0;
	uint8_t pfx = 0;

	/* legacy prefixes: the last of 66/F2/F3 selects the SSE form (66
	 * gives way to F2/F3) */
	for (; i < len; i++) {
		uint8_t b = code[i];
		if (b == 0xf2 || b == 0xf3)
			pfx = b;
		else if (b == 0x66) {
			if (!pfx)
				pfx = b;
		} else if (!(b == 0xf0 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x26 ||
			     b == 0x64 || b == 0x65 || b == 0x67))
			break;
	}
	if (i < len && (code[i] & 0xf0) == 0x40) {
		rexw = code[i] >> 3 & 1;
		i++;
	}
	if (i >= len)
		return NB_ISA_OK;
	switch (code[i]) {
	case 0xc4: case 0xc5:   /* in 64-bit mode always VEX (LES/LDS are invalid) */
		return NB_ISA_VEX;
	case 0x62:              /* in 64-bit mode always EVEX (BOUND is invalid) */
		return NB_ISA_EVEX;
	case 0x8f:              /* XOP when the map field is 8 or more; POP r/m has reg 0 */
		return i + 1 < len && (code[i + 1] & 0x1f) >= 8 ? NB_ISA_XOP : NB_ISA_OK;
	case 0x9e: case 0x9f:   /* sahf, lahf */
		return caps->lahf64 ? NB_ISA_OK : NB_ISA_LAHF64;
	case 0xdb: case 0xdd: case 0xdf:        /* fisttp m32/m64/m16 (/1, memory) */
		if (i + 1 < len && (code[i + 1] >> 3 & 7) == 1 && code[i + 1] >> 6 != 3 &&
		    !caps->sse3)
			return NB_ISA_SSE3;
		return NB_ISA_OK;
	case 0xc6: case 0xc7:   /* xabort (C6 F8), xbegin (C7 F8) */
		return i + 1 < len && code[i + 1] == 0xf8 ? NB_ISA_TSX : NB_ISA_OK;
	case 0x0f:
		if (i + 1 >= len)
			return NB_ISA_OK;
		return map0f(code[i + 1], i + 2 < len ? code[i + 2] : 0, pfx, rexw, i + 2 < len,
			     caps);
	}
	return NB_ISA_OK;
}
