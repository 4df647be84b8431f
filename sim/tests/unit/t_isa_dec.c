/*
 * t_isa_dec.c - native unit test of nb_isa_missing (nb_isa.c, TAP): the
 * extension each encoding needs, per capability set (Northwood: none of
 * SSE3, CMPXCHG16B, LAHF64; Prescott: SSE3 and CMPXCHG16B; Cedar Mill:
 * all three), and the neighbours that share an opcode and must not fault
 * (POP r/m against XOP, FCMOVNE against FISTTP, the fences against
 * XSAVE, CLFLUSH against CLFLUSHOPT, CMPXCHG8B against CMPXCHG16B).
 * Encodings: Intel SDM Vol. 2 (opcode map, Appendix A), AMD APM Vol. 3.
 */
#include <stdio.h>
#include "cpu/nb_isa.h"
#include "tap.h"

struct c {
	const char *what;
	uint8_t b[8];
	unsigned len;
	uint8_t nw, ps, cm;     /* expected on Northwood, Prescott, Cedar Mill */
};

#define ALL(e) e, e, e
static const struct c cases[] = {
	{ "add %eax,%eax", { 0x01, 0xc0 }, 2, ALL(NB_ISA_OK) },
	{ "addpd", { 0x66, 0x0f, 0x58, 0xc1 }, 4, ALL(NB_ISA_OK) },
	{ "movlps (0F 12, no prefix)", { 0x0f, 0x12, 0x06 }, 3, ALL(NB_ISA_OK) },
	{ "movhpd (66 0F 16)", { 0x66, 0x0f, 0x16, 0x06 }, 4, ALL(NB_ISA_OK) },
	{ "haddpd", { 0x66, 0x0f, 0x7c, 0xc1 }, 4, NB_ISA_SSE3, NB_ISA_OK, NB_ISA_OK },
	{ "haddps (F2)", { 0xf2, 0x0f, 0x7c, 0xc1 }, 4, NB_ISA_SSE3, NB_ISA_OK, NB_ISA_OK },
	{ "hsubpd", { 0x66, 0x0f, 0x7d, 0xc1 }, 4, NB_ISA_SSE3, NB_ISA_OK, NB_ISA_OK },
	{ "addsubps (F2 0F D0)", { 0xf2, 0x0f, 0xd0, 0xc1 }, 4, NB_ISA_SSE3, NB_ISA_OK, NB_ISA_OK },
	{ "lddqu", { 0xf2, 0x0f, 0xf0, 0x06 }, 4, NB_ISA_SSE3, NB_ISA_OK, NB_ISA_OK },
	{ "movddup", { 0xf2, 0x0f, 0x12, 0xc1 }, 4, NB_ISA_SSE3, NB_ISA_OK, NB_ISA_OK },
	{ "movsldup", { 0xf3, 0x0f, 0x12, 0xc1 }, 4, NB_ISA_SSE3, NB_ISA_OK, NB_ISA_OK },
	{ "movshdup", { 0xf3, 0x0f, 0x16, 0xc1 }, 4, NB_ISA_SSE3, NB_ISA_OK, NB_ISA_OK },
	{ "66 F2 0F 7C: F2 wins (haddps)", { 0x66, 0xf2, 0x0f, 0x7c, 0xc1 }, 5,
	  NB_ISA_SSE3, NB_ISA_OK, NB_ISA_OK },
	{ "fisttpl (%rsi) (DB /1)", { 0xdb, 0x0e }, 2, NB_ISA_SSE3, NB_ISA_OK, NB_ISA_OK },
	{ "fisttpll (DD /1)", { 0xdd, 0x0e }, 2, NB_ISA_SSE3, NB_ISA_OK, NB_ISA_OK },
	{ "fcmovne %st(1) (DB C9: /1, register)", { 0xdb, 0xc9 }, 2, ALL(NB_ISA_OK) },
	{ "fild (%rsi) (DF /0)", { 0xdf, 0x06 }, 2, ALL(NB_ISA_OK) },
	{ "cmpxchg16b (REX.W 0F C7 /1)", { 0x48, 0x0f, 0xc7, 0x0e }, 4,
	  NB_ISA_CX16, NB_ISA_OK, NB_ISA_OK },
	{ "cmpxchg8b (0F C7 /1)", { 0x0f, 0xc7, 0x0e }, 3, ALL(NB_ISA_OK) },
	{ "lock cmpxchg16b", { 0xf0, 0x48, 0x0f, 0xc7, 0x0e }, 5, NB_ISA_CX16, NB_ISA_OK, NB_ISA_OK },
	{ "lahf", { 0x9f }, 1, NB_ISA_LAHF64, NB_ISA_LAHF64, NB_ISA_OK },
	{ "sahf", { 0x9e }, 1, NB_ISA_LAHF64, NB_ISA_LAHF64, NB_ISA_OK },
	{ "pshufb (66 0F 38 00)", { 0x66, 0x0f, 0x38, 0x00, 0xc1 }, 5, ALL(NB_ISA_0F38) },
	{ "movbe (0F 38 F0)", { 0x0f, 0x38, 0xf0, 0x06 }, 4, ALL(NB_ISA_0F38) },
	{ "palignr (66 0F 3A 0F)", { 0x66, 0x0f, 0x3a, 0x0f, 0xc1, 4 }, 6, ALL(NB_ISA_0F3A) },
	{ "popcnt", { 0xf3, 0x48, 0x0f, 0xb8, 0xc0 }, 5, ALL(NB_ISA_POPCNT) },
	{ "tzcnt (F3 0F BC: bsf on NetBurst)", { 0xf3, 0x0f, 0xbc, 0xc0 }, 4, ALL(NB_ISA_OK) },
	{ "vaddpd (C5)", { 0xc5, 0xfd, 0x58, 0xc1 }, 4, ALL(NB_ISA_VEX) },
	{ "andn (C4, BMI1)", { 0xc4, 0xe2, 0x78, 0xf2, 0xc1 }, 5, ALL(NB_ISA_VEX) },
	{ "vaddpd zmm (62)", { 0x62, 0xf1, 0xfd, 0x48, 0x58, 0xc1 }, 6, ALL(NB_ISA_EVEX) },
	{ "pop (%rax) (8F /0)", { 0x8f, 0x00 }, 2, ALL(NB_ISA_OK) },
	{ "pop %rax (8F C0)", { 0x8f, 0xc0 }, 2, ALL(NB_ISA_OK) },
	{ "XOP vprotb (8F E9 ...)", { 0x8f, 0xe9, 0x78, 0x90, 0xc1 }, 5, ALL(NB_ISA_XOP) },
	{ "extrq (66 0F 79)", { 0x66, 0x0f, 0x79, 0xc1 }, 4, ALL(NB_ISA_SSE4A) },
	{ "movntss (F3 0F 2B)", { 0xf3, 0x0f, 0x2b, 0x06 }, 4, ALL(NB_ISA_SSE4A) },
	{ "movntps (0F 2B)", { 0x0f, 0x2b, 0x06 }, 3, ALL(NB_ISA_OK) },
	{ "lfence (0F AE E8)", { 0x0f, 0xae, 0xe8 }, 3, ALL(NB_ISA_OK) },
	{ "mfence (0F AE F0)", { 0x0f, 0xae, 0xf0 }, 3, ALL(NB_ISA_OK) },
	{ "sfence (0F AE F8)", { 0x0f, 0xae, 0xf8 }, 3, ALL(NB_ISA_OK) },
	{ "fxsave (0F AE /0)", { 0x0f, 0xae, 0x06 }, 3, ALL(NB_ISA_OK) },
	{ "ldmxcsr (0F AE /2)", { 0x0f, 0xae, 0x16 }, 3, ALL(NB_ISA_OK) },
	{ "clflush (0F AE /7)", { 0x0f, 0xae, 0x3e }, 3, ALL(NB_ISA_OK) },
	{ "clflushopt (66 0F AE /7)", { 0x66, 0x0f, 0xae, 0x3e }, 4, ALL(NB_ISA_CLFLUSHOPT) },
	{ "clwb (66 0F AE /6)", { 0x66, 0x0f, 0xae, 0x36 }, 4, ALL(NB_ISA_CLFLUSHOPT) },
	{ "xsave (0F AE /4)", { 0x0f, 0xae, 0x26 }, 3, ALL(NB_ISA_XSAVE) },
	{ "xrstor (REX.W 0F AE /5)", { 0x48, 0x0f, 0xae, 0x2e }, 4, ALL(NB_ISA_XSAVE) },
	{ "xsaveopt (0F AE /6)", { 0x0f, 0xae, 0x36 }, 3, ALL(NB_ISA_XSAVE) },
	{ "xsavec (0F C7 /4)", { 0x0f, 0xc7, 0x26 }, 3, ALL(NB_ISA_XSAVE) },
	{ "xgetbv (0F 01 D0)", { 0x0f, 0x01, 0xd0 }, 3, ALL(NB_ISA_XSAVE) },
	{ "rdfsbase (F3 REX.W 0F AE /0)", { 0xf3, 0x48, 0x0f, 0xae, 0xc0 }, 5, ALL(NB_ISA_FSGSBASE) },
	{ "rdrand %eax (0F C7 /6)", { 0x0f, 0xc7, 0xf0 }, 3, ALL(NB_ISA_RDRAND) },
	{ "rdseed %eax (0F C7 /7)", { 0x0f, 0xc7, 0xf8 }, 3, ALL(NB_ISA_RDRAND) },
	{ "rdtscp (0F 01 F9)", { 0x0f, 0x01, 0xf9 }, 3, ALL(NB_ISA_RDTSCP) },
	{ "rdtsc (0F 31)", { 0x0f, 0x31 }, 2, ALL(NB_ISA_OK) },
	{ "xbegin (C7 F8)", { 0xc7, 0xf8, 0, 0, 0, 0 }, 6, ALL(NB_ISA_TSX) },
	{ "mov $0,(%rax) (C7 /0)", { 0xc7, 0x00, 0, 0, 0, 0 }, 6, ALL(NB_ISA_OK) },
	{ "xtest (0F 01 D6)", { 0x0f, 0x01, 0xd6 }, 3, ALL(NB_ISA_TSX) },
	{ "endbr64 (a hint NOP)", { 0xf3, 0x0f, 0x1e, 0xfa }, 4, ALL(NB_ISA_OK) },
	{ "prefixes only (truncated)", { 0x66, 0xf2 }, 2, ALL(NB_ISA_OK) },
	{ "0F alone (truncated)", { 0x0f }, 1, ALL(NB_ISA_OK) },
};

int main(void)
{
	static const struct nb_isa_caps caps[3] = {
		{ 0, 0, 0 },    /* Northwood (nb_cpu.c: leaf 1 ECX 0x400) */
		{ 1, 1, 0 },    /* Prescott (ECX 0x641d)                  */
		{ 1, 1, 1 },    /* Cedar Mill (+ 0x80000001 ECX bit 0)    */
	};
	static const char *const mn[3] = { "northwood", "prescott", "cedarmill" };

	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct c *c = &cases[i];
		const uint8_t want[3] = { c->nw, c->ps, c->cm };
		for (unsigned m = 0; m < 3; m++) {
			enum nb_isa_ext e = nb_isa_missing(c->b, c->len, &caps[m]);
			tap_ok(e == want[m], "%s on %s: %s (want %s)", c->what, mn[m], nb_isa_name(e),
			       nb_isa_name((enum nb_isa_ext)want[m]));
		}
	}
	return tap_done_plan();
}
