/*
 * nb_uops.c - measured uops of the MMX/SSE/SSE2/SSE3 instruction forms on
 * the two NetBurst cores (nb_uops.h).
 *
 * Source: Agner Fog, "Instruction tables" (Technical University of
 * Denmark, version of 2021-08-17), two sheets: "Intel Pentium 4" (measured
 * on a family F model 2 part; column P4 below) and "Intel Pentium 4 w.
 * EM64T (Prescott)" (family F, model 4; column P4E), each in its sections
 * "Integer MMX and XMM instructions" and "Floating point XMM
 * instructions" (and the integer section's rows of the fences, PAUSE,
 * PREFETCH, MOVNTI): each entry is the row's "μops" (issued from
 * the decoder, stored in the trace cache) plus its "Microcode"
 * (additional μops from the microcode ROM).  Note a of those sections:
 * "Add 1 μop if source is a memory operand"; a memory form the sheet does
 * not list separately is its register form's count plus that one load
 * uop (the uop model's own rule, also where a row lacks the note).  A
 * form the sheet does not list (0 below) keeps the uop model's general
 * rule; the P4 sheet has no SSE3 rows (models 0-2 lack SSE3: #UD).
 * docs/counting-rules.md "uop model" has the table with each row's name.
 */
#include "nb_uops.h"
#include "nb_idecode.h"

enum { PN = 1, P66 = 2, PF3 = 4, PF2 = 8, PALL = 15 };

struct row {
	uint8_t op;             /* second opcode byte (0F op)             */
	uint8_t pfx;            /* mandatory prefixes it applies to (P*)  */
	uint8_t p4[2], p4e[2];  /* per sheet: uops of the register / memory
				 * form (0: no row)                       */
};

/* { op, prefixes, { P4 r, m }, { P4E r, m } }; Agner's row name after each
 * entry ("r,m"/"m,r" as on the sheets); where the sheets differ, the P4
 * figure first. */
static const struct row rows[] = {
	/* Floating point XMM instructions: moves */
	{ 0x10, PN | P66,  { 1, 4 },  { 1, 4 } },  /* MOVUPS/D r,r; r,m             */
	{ 0x10, PF3 | PF2, { 1, 1 },  { 1, 1 } },  /* MOVSS, MOVSD r,r; r,m         */
	{ 0x11, PN | P66,  { 1, 10 }, { 1, 6 } },  /* MOVUPS/D r,r; m,r (4 + 6; 4 + 2) */
	{ 0x11, PF3 | PF2, { 1, 2 },  { 1, 2 } },  /* MOVSS/SD r,r; MOVSS, MOVSD m,r */
	{ 0x12, PN,        { 1, 3 },  { 1, 2 } },  /* MOVHLPS r,r; MOVLPS r,m       */
	{ 0x12, P66,       { 0, 3 },  { 0, 2 } },  /* MOVLPD r,m                    */
	{ 0x12, PF3 | PF2, { 0, 0 },  { 1, 0 } },  /* MOVSLDUP r,r; MOVDDUP r,r     */
	{ 0x13, PN | P66,  { 0, 2 },  { 0, 2 } },  /* MOVLPS/D m,r                  */
	{ 0x14, PN | P66,  { 1, 2 },  { 1, 2 } },  /* UNPCKLPS/D r,r/m              */
	{ 0x15, PN | P66,  { 1, 2 },  { 2, 3 } },  /* UNPCKHPS/D r,r/m              */
	{ 0x16, PN,        { 1, 3 },  { 1, 2 } },  /* MOVLHPS r,r; MOVHPS r,m       */
	{ 0x16, P66,       { 0, 3 },  { 0, 2 } },  /* MOVHPD r,m                    */
	{ 0x16, PF3,       { 0, 0 },  { 1, 0 } },  /* MOVSHDUP r,r                  */
	{ 0x17, PN | P66,  { 0, 2 },  { 0, 2 } },  /* MOVHPS/D m,r                  */
	{ 0x28, PN | P66,  { 1, 1 },  { 1, 1 } },  /* MOVAPS/D r,r; r,m             */
	{ 0x29, PN | P66,  { 1, 2 },  { 1, 2 } },  /* MOVAPS/D r,r; m,r             */
	{ 0x2b, PN | P66,  { 0, 2 },  { 0, 2 } },  /* MOVNTPS/D m,r                 */
	{ 0x50, PN | P66,  { 2, 0 },  { 2, 0 } },  /* MOVMSKPS/D r32,r              */
	/* conversion (note a) */
	{ 0x2a, PN | P66,  { 4, 5 },  { 4, 5 } },  /* CVTPI2PS xmm,mm; CVTPI2PD xmm,mm */
	{ 0x2a, PF3,       { 3, 4 },  { 3, 4 } },  /* CVTSI2SS xmm,r32              */
	{ 0x2a, PF2,       { 4, 5 },  { 4, 5 } },  /* CVTSI2SD xmm,r32              */
	{ 0x2c, PN,        { 3, 4 },  { 3, 4 } },  /* CVT(T)PS2PI mm,xmm            */
	{ 0x2d, PN,        { 3, 4 },  { 3, 4 } },
	{ 0x2c, P66,       { 3, 4 },  { 4, 5 } },  /* CVT(T)PD2PI mm,xmm            */
	{ 0x2d, P66,       { 3, 4 },  { 4, 5 } },
	{ 0x2c, PF3 | PF2, { 2, 3 },  { 2, 3 } },  /* CVT(T)SS2SI, CVT(T)SD2SI r32,xmm */
	{ 0x2d, PF3 | PF2, { 2, 3 },  { 2, 3 } },
	{ 0x5a, PN,        { 4, 5 },  { 1, 2 } },  /* CVTPS2PD r,r/m                */
	{ 0x5a, P66,       { 2, 3 },  { 2, 3 } },  /* CVTPD2PS r,r/m                */
	{ 0x5a, PF2,       { 4, 5 },  { 3, 4 } },  /* CVTSD2SS r,r/m                */
	{ 0x5a, PF3,       { 4, 5 },  { 2, 3 } },  /* CVTSS2SD r,r/m                */
	{ 0x5b, PN | P66 | PF3, { 1, 2 }, { 1, 2 } }, /* CVTDQ2PS, CVT(T)PS2DQ r,r/m */
	{ 0xe6, PF3,       { 3, 4 },  { 3, 4 } },  /* CVTDQ2PD r,r/m                */
	{ 0xe6, P66 | PF2, { 2, 3 },  { 2, 3 } },  /* CVT(T)PD2DQ r,r/m             */
	/* arithmetic, logic, math (note a) */
	{ 0x58, PALL,      { 1, 2 },  { 1, 2 } },  /* ADDPS/D ADDSS/D               */
	{ 0x5c, PALL,      { 1, 2 },  { 1, 2 } },  /* SUBPS/D SUBSS/D               */
	{ 0x59, PALL,      { 1, 2 },  { 1, 2 } },  /* MULPS/D MULSS/D               */
	{ 0x5e, PALL,      { 1, 2 },  { 1, 2 } },  /* DIVSS, DIVPS, DIVSD, DIVPD    */
	{ 0x5d, PALL,      { 1, 2 },  { 1, 2 } },  /* MINPS/D MINSS/D               */
	{ 0x5f, PALL,      { 1, 2 },  { 1, 2 } },  /* MAXPS/D MAXSS/D               */
	{ 0xc2, PALL,      { 1, 2 },  { 1, 2 } },  /* CMPccPS/D CMPccSS/D           */
	{ 0x51, PALL,      { 1, 2 },  { 1, 2 } },  /* SQRTSS, SQRTPS, SQRTSD, SQRTPD */
	{ 0x52, PN | PF3,  { 2, 3 },  { 2, 3 } },  /* RSQRTPS, RSQRTSS              */
	{ 0x53, PN | PF3,  { 2, 3 },  { 2, 3 } },  /* RCPPS RCPSS                   */
	{ 0x2e, PN | P66,  { 2, 3 },  { 2, 3 } },  /* COMISS/D UCOMISS/D            */
	{ 0x2f, PN | P66,  { 2, 3 },  { 2, 3 } },
	{ 0x54, PN | P66,  { 1, 2 },  { 1, 2 } },  /* ANDPS/D ANDNPS/D ORPS/D XORPS/D */
	{ 0x55, PN | P66,  { 1, 2 },  { 1, 2 } },
	{ 0x56, PN | P66,  { 1, 2 },  { 1, 2 } },
	{ 0x57, PN | P66,  { 1, 2 },  { 1, 2 } },
	{ 0xd0, P66 | PF2, { 0, 0 },  { 1, 2 } },  /* ADDSUBPS/D                    */
	{ 0x7c, P66 | PF2, { 0, 0 },  { 3, 4 } },  /* HADDPS/D HSUBPS/D             */
	{ 0x7d, P66 | PF2, { 0, 0 },  { 3, 4 } },
	{ 0xc6, PN | P66,  { 1, 2 },  { 1, 2 } },  /* SHUFPS/D r,r/m,i              */
	/* Integer MMX and XMM instructions: moves */
	{ 0x6e, PN,        { 2, 1 },  { 1, 1 } },  /* MOVD mm,r32; MOVD mm,m32     */
	{ 0x6e, P66,       { 2, 1 },  { 2, 1 } },  /* MOVD xmm,r32; MOVD xmm,m32   */
	{ 0x7e, PN,        { 2, 2 },  { 2, 2 } },  /* MOVD r32,mm; MOVD m32,r      */
	{ 0x7e, P66,       { 2, 2 },  { 1, 2 } },  /* MOVD r32,xmm; MOVD m32,r     */
	{ 0x7e, PF3,       { 1, 1 },  { 1, 1 } },  /* MOVQ xmm,xmm; MOVQ r,m64     */
	{ 0x6f, PN,        { 1, 1 },  { 1, 1 } },  /* MOVQ mm,mm; MOVQ r,m64       */
	{ 0x6f, P66,       { 1, 1 },  { 1, 1 } },  /* MOVDQA xmm,xmm; MOVDQA xmm,m */
	{ 0x6f, PF3,       { 0, 4 },  { 0, 4 } },  /* MOVDQU xmm,m                 */
	{ 0x7f, PN,        { 1, 2 },  { 1, 2 } },  /* MOVQ mm,mm; MOVQ m64,r       */
	{ 0x7f, P66,       { 1, 2 },  { 1, 2 } },  /* MOVDQA xmm,xmm; MOVDQA m,xmm */
	{ 0x7f, PF3,       { 0, 10 }, { 0, 6 } },  /* MOVDQU m,xmm (4 + 6; 4 + 2)  */
	{ 0xd6, P66,       { 1, 2 },  { 1, 2 } },  /* MOVQ xmm,xmm; MOVQ m64,r     */
	{ 0xd6, PF2,       { 3, 0 },  { 3, 0 } },  /* MOVDQ2Q mm,xmm               */
	{ 0xd6, PF3,       { 2, 0 },  { 2, 0 } },  /* MOVQ2DQ xmm,mm               */
	{ 0xf0, PF2,       { 0, 0 },  { 0, 4 } },  /* LDDQU xmm,m                  */
	{ 0xe7, PN,        { 0, 3 },  { 0, 3 } },  /* MOVNTQ m,mm                  */
	{ 0xe7, P66,       { 0, 2 },  { 0, 2 } },  /* MOVNTDQ m,xmm                */
	{ 0xc3, PN,        { 0, 2 },  { 0, 2 } },  /* MOVNTI m,r32 (integer section) */
	{ 0xf7, PN,        { 8, 0 },  { 5, 0 } },  /* MASKMOVQ mm,mm (4 + 4; 1 + 4) */
	{ 0xf7, P66,       { 10, 0 }, { 7, 0 } },  /* MASKMOVDQU xmm,xmm (4 + 6; 1 + 6) */
	{ 0xd7, PN | P66,  { 2, 0 },  { 2, 0 } },  /* PMOVMSKB r32,r               */
	{ 0xc5, PN | P66,  { 3, 0 },  { 2, 0 } },  /* PEXTRW r32,mm,i; r32,xmm,i   */
	{ 0xc4, PN | P66,  { 2, 3 },  { 2, 3 } },  /* PINSRW r,r32,i               */
	{ 0x70, PALL,      { 1, 2 },  { 1, 2 } },  /* PSHUFW, PSHUFD, PSHUFL/HW    */
	{ 0x77, PN,        { 15, 0 }, { 20, 0 } }, /* EMMS (4 + 11; 10 + 10)       */
};

/* PACKSS/US, PUNPCK*, PADD/PSUB*, PCMP*, PMUL*, PMADDWD, PAVG, PMIN/MAX,
 * PSADBW, PAND(N)/POR/PXOR, PSLL/PSRL/PSRA by register or memory: 1 uop
 * (rows of both sheets "PACKSSWB/DW PACKUSWB", "PUNPCKH/L..", "PADDB/W/D PADD(U)SB/W",
 * "PSUBB/W/D PSUB(U)SB/W", "PADDQ, PSUBQ", "PCMPEQB/W/D PCMPGTB/W/D",
 * "PMULLW PMULHW", "PMULHUW", "PMADDWD", "PMULUDQ", "PAVGB/W",
 * "PMIN/MAXUB", "PMIN/MAXSW", "PSADBW", "PAND, PANDN", "POR, PXOR",
 * "PSLL/RLW/D/Q, PSRAW/D"; note a) */
static int simd_alu(uint8_t op, int pfx)
{
	if (pfx != PN && pfx != P66)
		return 0;
	if ((op >= 0x60 && op <= 0x6b) || (pfx == P66 && (op == 0x6c || op == 0x6d)))
		return 1;
	if (op >= 0x74 && op <= 0x76)
		return 1;
	if (op >= 0xd1 && op <= 0xfe && op != 0xd6 && op != 0xd7 && op != 0xe6 &&
	    op != 0xe7 && op != 0xf0 && op != 0xf7)
		return 1;
	return 0;
}

/* The special forms' uops per sheet (P4, P4E): the integer section's
 * rows LFENCE, SFENCE, MFENCE, PAUSE, PREFETCHNTA, PREFETCHT0/1/2 (P4:
 * 4 + microcode 2 each; P4E: 1 + 2, MFENCE 1 + 4,
 * PREFETCH 1) and of the floating point section's "Other" (LDMXCSR m: P4
 * 4 + 8, P4E 2 + 11; STMXCSR m: P4 4 + 4, P4E 3). */
static const uint8_t lfence_sfence[] = { 6, 3 }, mfence[] = { 6, 5 },
	pause[] = { 6, 3 }, prefetch[] = { 6, 1 }, ldmxcsr[] = { 12, 13 },
	stmxcsr[] = { 8, 3 };

int nb_uops_measured(enum nb_uops_sheet sh, const uint8_t *c, unsigned len,
		     unsigned *uops)
{
	unsigned i = 0, n;
	int has66 = 0, rep = 0, mem, reg;
	uint8_t op, m;
	int pfx;

	while (i < len && nb_is_legacy_prefix(c[i])) {
		if (c[i] == 0x66)
			has66 = 1;
		else if (c[i] == 0xf2 || c[i] == 0xf3)
			rep = c[i];
		i++;
	}
	/* the mandatory prefix: F2/F3 over 66 [SDM Vol. 2, 2.1.2] */
	pfx = rep == 0xf3 ? PF3 : rep == 0xf2 ? PF2 : has66 ? P66 : PN;
	if (i < len && (c[i] & 0xf0) == 0x40)   /* REX */
		i++;
	if (i >= len)
		return 0;
	if (c[i] == 0x90 && pfx == PF3) {      /* PAUSE */
		*uops = pause[sh];
		return 1;
	}
	if (c[i] != 0x0f || i + 1 >= len)
		return 0;
	op = c[i + 1];
	m = i + 2 < len ? c[i + 2] : 0xc0;     /* (emms: no ModRM) */
	mem = (m >> 6) != 3;
	reg = (m >> 3) & 7;
	switch (op) {
	case 0xae:
		if (!mem) {     /* LFENCE E8-EF, MFENCE F0-F7, SFENCE F8-FF */
			if (m < 0xe8)
				return 0;
			*uops = m >= 0xf0 && m < 0xf8 ? mfence[sh] : lfence_sfence[sh];
			return 1;
		}
		if (pfx != PN || (reg != 2 && reg != 3))
			return 0;
		*uops = reg == 2 ? ldmxcsr[sh] : stmxcsr[sh];
		return 1;
	case 0x18:              /* PREFETCHNTA, PREFETCHT0/1/2 m */
		if (!mem || reg > 3)
			return 0;
		*uops = prefetch[sh];
		return 1;
	case 0x71: case 0x72: case 0x73:
		/* PSLL/RLW/D/Q, PSRAW/D r,i; PSLLDQ, PSRLDQ xmm,i: 1 on both */
		if (mem || (pfx != PN && pfx != P66))
			return 0;
		*uops = 1;
		return 1;
	}
	if (simd_alu(op, pfx)) {
		*uops = 1 + mem;
		return 1;
	}
	for (n = 0; n < sizeof rows / sizeof rows[0]; n++)
		if (rows[n].op == op && (rows[n].pfx & pfx)) {
			unsigned u = sh == NB_UOPS_P4E ? rows[n].p4e[mem] : rows[n].p4[mem];
			if (!u)
				return 0;
			*uops = u;
			return 1;
		}
	return 0;
}
