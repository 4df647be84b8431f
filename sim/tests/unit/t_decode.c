/*
 * t_decode.c - native unit test of the opcode classification (cpu/nb_idecode.c,
 * TAP): branch kinds (retired_branch_type), FP/SIMD classes, x87/SIMD moves
 * (x87_SIMD_moves_uop), MS ROM instructions, write-combining classes
 * (non-temporal stores, WC buffer flushes); the measured uops of the
 * MMX/SSE forms (cpu/nb_uops.c) by encoding, and the Pentium D's REP MOVS
 * loads (cpu/nb_pdrules.c nb_pd_rep) against rows of Weaver's
 * measurements.  Encodings: Intel SDM Vol. 2.
 */
#include <stdio.h>
#include "cpu/nb_idecode.h"
#include "cpu/nb_uops.h"
#include "cpu/nb_pdrules.h"
#include "tap.h"

/* uops on the P4 (model 2) and Prescott sheets (0: no row, the general rule) */
static const struct u {
	const char *what;
	uint8_t b[8];
	unsigned len, p4, p4e;
} uop_cases[] = {
	{ "addps %xmm0,%xmm1", { 0x0f, 0x58, 0xc8 }, 3, 1, 1 },
	{ "addpd (%rdi),%xmm0 (a load: +1)", { 0x66, 0x0f, 0x58, 0x07 }, 4, 2, 2 },
	{ "movups (%rdi),%xmm0", { 0x0f, 0x10, 0x07 }, 3, 4, 4 },
	{ "movss (%rdi),%xmm0 (F3: not movups)", { 0xf3, 0x0f, 0x10, 0x07 }, 4, 1, 1 },
	{ "movupd %xmm0,(%rdi)", { 0x66, 0x0f, 0x11, 0x07 }, 4, 10, 6 },
	{ "movdqu (%rdi),%xmm0", { 0xf3, 0x0f, 0x6f, 0x07 }, 4, 4, 4 },
	{ "movdqu %xmm0,(%rdi)", { 0xf3, 0x0f, 0x7f, 0x07 }, 4, 10, 6 },
	{ "movdqa (%rdi),%xmm0", { 0x66, 0x0f, 0x6f, 0x07 }, 4, 1, 1 },
	{ "movdqu %xmm1,%xmm0 (no row)", { 0xf3, 0x0f, 0x6f, 0xc1 }, 4, 0, 0 },
	{ "movlps (%rdi),%xmm0", { 0x0f, 0x12, 0x07 }, 3, 3, 2 },
	{ "cvtsd2ss %xmm1,%xmm0 (F2 over 66)", { 0x66, 0xf2, 0x0f, 0x5a, 0xc1 }, 5, 4, 3 },
	{ "cvtps2pd %xmm1,%xmm0", { 0x0f, 0x5a, 0xc1 }, 3, 4, 1 },
	{ "cvtpd2ps %xmm1,%xmm0", { 0x66, 0x0f, 0x5a, 0xc1 }, 4, 2, 2 },
	{ "cvtpd2pi (%rdi),%mm0", { 0x66, 0x0f, 0x2d, 0x07 }, 4, 4, 5 },
	{ "cvtsi2sd %rax,%xmm0 (REX.W)", { 0xf2, 0x48, 0x0f, 0x2a, 0xc0 }, 5, 4, 4 },
	{ "haddps %xmm1,%xmm0 (SSE3: no P4 row)", { 0xf2, 0x0f, 0x7c, 0xc1 }, 4, 0, 3 },
	{ "unpckhpd (%rdi),%xmm0", { 0x66, 0x0f, 0x15, 0x07 }, 4, 2, 3 },
	{ "movd %eax,%mm0", { 0x0f, 0x6e, 0xc0 }, 3, 2, 1 },
	{ "movd %eax,%xmm0", { 0x66, 0x0f, 0x6e, 0xc0 }, 4, 2, 2 },
	{ "movd %xmm0,%eax", { 0x66, 0x0f, 0x7e, 0xc0 }, 4, 2, 1 },
	{ "paddw (%rdi),%xmm0", { 0x66, 0x0f, 0xfd, 0x07 }, 4, 2, 2 },
	{ "psrldq $4,%xmm0", { 0x66, 0x0f, 0x73, 0xd8, 0x04 }, 5, 1, 1 },
	{ "pmovmskb %xmm0,%eax", { 0x66, 0x0f, 0xd7, 0xc0 }, 4, 2, 2 },
	{ "pextrw $1,%xmm0,%eax", { 0x66, 0x0f, 0xc5, 0xc0, 0x01 }, 5, 3, 2 },
	{ "maskmovq %mm1,%mm0", { 0x0f, 0xf7, 0xc1 }, 3, 8, 5 },
	{ "ldmxcsr (%rdi)", { 0x0f, 0xae, 0x17 }, 3, 12, 13 },
	{ "stmxcsr (%rdi)", { 0x0f, 0xae, 0x1f }, 3, 8, 3 },
	{ "mfence", { 0x0f, 0xae, 0xf0 }, 3, 6, 5 },
	{ "sfence", { 0x0f, 0xae, 0xf8 }, 3, 6, 3 },
	{ "prefetcht0 (%rdi)", { 0x0f, 0x18, 0x0f }, 3, 6, 1 },
	{ "clflush (%rdi) (no row)", { 0x0f, 0xae, 0x3f }, 3, 0, 0 },
	{ "pause", { 0xf3, 0x90 }, 2, 6, 3 },
	{ "emms", { 0x0f, 0x77 }, 2, 15, 20 },
	{ "add %rax,%rbx (no row)", { 0x48, 0x01, 0xc3 }, 3, 0, 0 },
};

/* loads of one REP MOVS{B,W,L,Q} with RCX = n on the Pentium D:
 * deater/deterministic @ 6cb9ac2, static/mov_graph/results.movs{b,w,l,q}
 * (second column) */
static const struct r { unsigned z, n, loads; } rep_cases[] = {
	{ 1, 0, 3 }, { 1, 3, 3 }, { 1, 4, 8 }, { 1, 7, 8 }, { 1, 8, 8 }, { 1, 63, 63 },
	{ 1, 64, 4 }, { 1, 127, 67 }, { 1, 128, 8 }, { 1, 4097, 257 }, { 1, 65535, 4155 },
	{ 2, 8, 8 }, { 2, 9, 9 }, { 2, 63, 63 }, { 2, 64, 8 }, { 2, 72, 16 }, { 2, 8191, 1051 },
	{ 4, 7, 8 }, { 4, 16, 16 }, { 4, 64, 16 }, { 4, 80, 20 }, { 4, 4095, 1035 },
	{ 8, 7, 8 }, { 8, 63, 63 }, { 8, 64, 32 }, { 8, 65, 33 }, { 8, 4095, 2051 },
};

struct c {
	const char *what;
	uint8_t b[6];
	unsigned len;
	uint8_t br, fp, rom;
};

static const struct c cases[] = {
	{ "jz rel8", { 0x74, 0x02 }, 2, NB_BR_COND, NB_FP_NONE, 0 },
	{ "jnz rel32", { 0x0f, 0x85, 0, 0, 0, 0 }, 6, NB_BR_COND, NB_FP_NONE, 0 },
	{ "loop", { 0xe2, 0xfe }, 2, NB_BR_COND, NB_FP_NONE, 0 },
	{ "jmp rel8", { 0xeb, 0x00 }, 2, NB_BR_JMP, NB_FP_NONE, 0 },
	{ "call rel32", { 0xe8, 0, 0, 0, 0 }, 5, NB_BR_CALL, NB_FP_NONE, 0 },
	{ "ret", { 0xc3 }, 1, NB_BR_RET, NB_FP_NONE, 0 },
	{ "call *%rax", { 0xff, 0xd0 }, 2, NB_BR_ICALL, NB_FP_NONE, 0 },
	{ "jmp *%rax", { 0xff, 0xe0 }, 2, NB_BR_IJMP, NB_FP_NONE, 0 },
	{ "notrack jmp *%rax", { 0x3e, 0xff, 0xe0 }, 3, NB_BR_IJMP, NB_FP_NONE, 0 },
	{ "push (%rax) (FF /6)", { 0xff, 0x30 }, 2, NB_BR_NONE, NB_FP_NONE, 0 },
	{ "fadd %st(1),%st", { 0xd8, 0xc1 }, 2, NB_BR_NONE, NB_FP_X87, 0 },
	{ "fld1", { 0xd9, 0xe8 }, 2, NB_BR_NONE, NB_FP_X87, 0 },
	{ "fld (%rax) m32", { 0xd9, 0x00 }, 2, NB_BR_NONE, NB_FP_MOVE, 0 },
	{ "fldcw (%rax)", { 0xd9, 0x28 }, 2, NB_BR_NONE, NB_FP_NONE, 0 },
	{ "fxch %st(1)", { 0xd9, 0xc9 }, 2, NB_BR_NONE, NB_FP_MOVE, 0 },
	{ "fstp %st(0)", { 0xdd, 0xd8 }, 2, NB_BR_NONE, NB_FP_MOVE, 0 },
	{ "fild m64 (DF /5)", { 0xdf, 0x28 }, 2, NB_BR_NONE, NB_FP_MOVE, 0 },
	{ "fnstsw %ax", { 0xdf, 0xe0 }, 2, NB_BR_NONE, NB_FP_NONE, 0 },
	{ "fcmovb", { 0xda, 0xc1 }, 2, NB_BR_NONE, NB_FP_MOVE, 0 },
	{ "fadd m64 (DC /0)", { 0xdc, 0x00 }, 2, NB_BR_NONE, NB_FP_X87, 0 },
	{ "addss", { 0xf3, 0x0f, 0x58, 0xc1 }, 4, NB_BR_NONE, NB_FP_SSP, 0 },
	{ "addsd", { 0xf2, 0x0f, 0x58, 0xc1 }, 4, NB_BR_NONE, NB_FP_SDP, 0 },
	{ "mulps", { 0x0f, 0x59, 0xd2 }, 3, NB_BR_NONE, NB_FP_PSP, 0 },
	{ "addpd", { 0x66, 0x0f, 0x58, 0xd9 }, 4, NB_BR_NONE, NB_FP_PDP, 0 },
	{ "paddd %mm0,%mm1", { 0x0f, 0xfe, 0xc8 }, 3, NB_BR_NONE, NB_FP_MMX64, 0 },
	{ "paddd %xmm3,%xmm4", { 0x66, 0x0f, 0xfe, 0xe3 }, 4, NB_BR_NONE, NB_FP_MMX128, 0 },
	{ "movaps (%rax),%xmm5", { 0x0f, 0x28, 0x28 }, 3, NB_BR_NONE, NB_FP_MOVE, 0 },
	{ "movaps %xmm5,(%rax)", { 0x0f, 0x29, 0x28 }, 3, NB_BR_NONE, NB_FP_MOVE, 0 },
	{ "movsd %xmm1,%xmm0", { 0xf2, 0x0f, 0x10, 0xc1 }, 4, NB_BR_NONE, NB_FP_MOVE, 0 },
	{ "movq %xmm0,%rax (66 REX 0F 7E)", { 0x66, 0x48, 0x0f, 0x7e, 0xc0 }, 5, NB_BR_NONE, NB_FP_MOVE, 0 },
	{ "movdqa (66 0F 6F)", { 0x66, 0x0f, 0x6f, 0xc1 }, 4, NB_BR_NONE, NB_FP_MOVE, 0 },
	{ "lddqu (F2 0F F0)", { 0xf2, 0x0f, 0xf0, 0x00 }, 4, NB_BR_NONE, NB_FP_MOVE, 0 },
	{ "movnti (integer, 0F C3)", { 0x0f, 0xc3, 0x00 }, 3, NB_BR_NONE, NB_FP_NONE, 0 },
	{ "emms", { 0x0f, 0x77 }, 2, NB_BR_NONE, NB_FP_NONE, 0 },
	{ "rep movsb", { 0xf3, 0xa4 }, 2, NB_BR_NONE, NB_FP_NONE, 1 },
	{ "movsb (no rep)", { 0xa4 }, 1, NB_BR_NONE, NB_FP_NONE, 0 },
	{ "cpuid", { 0x0f, 0xa2 }, 2, NB_BR_NONE, NB_FP_NONE, 1 },
	{ "div %rcx", { 0x48, 0xf7, 0xf1 }, 3, NB_BR_NONE, NB_FP_NONE, 1 },
	{ "add %rax,%rbx", { 0x48, 0x01, 0xc3 }, 3, NB_BR_NONE, NB_FP_NONE, 0 },
};

/* write-combining classes (README "Write-combining buffers"): NB_IC_NT,
 * NB_IC_WCFLUSH */
struct wc {
	const char *what;
	uint8_t b[7];
	unsigned len;
	uint8_t cls;
};

static const struct wc wc_cases[] = {
	{ "movntps %xmm0,(%rax)", { 0x0f, 0x2b, 0x00 }, 3, NB_IC_NT },
	{ "movntpd %xmm0,(%rax)", { 0x66, 0x0f, 0x2b, 0x00 }, 4, NB_IC_NT },
	{ "movntss (F3 0F 2B, AMD SSE4a)", { 0xf3, 0x0f, 0x2b, 0x00 }, 4, 0 },
	{ "movnti %eax,(%rdx)", { 0x0f, 0xc3, 0x02 }, 3, NB_IC_NT },
	{ "movnti %rax,8(%rdx) (REX.W)", { 0x48, 0x0f, 0xc3, 0x42, 0x08 }, 5, NB_IC_NT },
	{ "movntq %mm0,(%rax)", { 0x0f, 0xe7, 0x00 }, 3, NB_IC_NT },
	{ "movntdq %xmm1,(%rdi)", { 0x66, 0x0f, 0xe7, 0x0f }, 4, NB_IC_NT },
	{ "movntdq %xmm9,(%rdi) (66 REX)", { 0x66, 0x44, 0x0f, 0xe7, 0x0f }, 5, NB_IC_NT },
	{ "maskmovq %mm1,%mm0", { 0x0f, 0xf7, 0xc1 }, 3, NB_IC_NT },
	{ "maskmovdqu %xmm1,%xmm0", { 0x66, 0x0f, 0xf7, 0xc1 }, 4, NB_IC_NT },
	{ "psubq %mm1,%mm0 (0F FB: not F7)", { 0x0f, 0xfb, 0xc1 }, 3, 0 },
	{ "movdqa %xmm1,(%rdi) (66 0F 7F)", { 0x66, 0x0f, 0x7f, 0x0f }, 4, 0 },
	{ "movaps %xmm0,(%rax) (0F 29)", { 0x0f, 0x29, 0x00 }, 3, 0 },
	{ "mov %rax,(%rdx)", { 0x48, 0x89, 0x02 }, 3, 0 },
	{ "sfence", { 0x0f, 0xae, 0xf8 }, 3, NB_IC_WCFLUSH },
	{ "mfence", { 0x0f, 0xae, 0xf0 }, 3, NB_IC_WCFLUSH },
	{ "lfence", { 0x0f, 0xae, 0xe8 }, 3, 0 },
	{ "clflush (%rax) (0F AE /7)", { 0x0f, 0xae, 0x38 }, 3, 0 },
	{ "stmxcsr (%rax) (0F AE /3)", { 0x0f, 0xae, 0x18 }, 3, 0 },
	{ "lock addl $1,(%rax)", { 0xf0, 0x83, 0x00, 0x01 }, 4, NB_IC_WCFLUSH },
	{ "lock cmpxchg %rcx,(%rdx) (F0 REX)", { 0xf0, 0x48, 0x0f, 0xb1, 0x0a }, 5, NB_IC_WCFLUSH },
	{ "xchg %rax,(%rdx)", { 0x48, 0x87, 0x02 }, 3, NB_IC_WCFLUSH },
	{ "xchg %al,(%rdx)", { 0x86, 0x02 }, 2, NB_IC_WCFLUSH },
	{ "xchg %rbx,%rbx (client request)", { 0x48, 0x87, 0xdb }, 3, 0 },
	{ "cpuid", { 0x0f, 0xa2 }, 2, NB_IC_WCFLUSH },
	{ "iretq", { 0x48, 0xcf }, 2, NB_IC_WCFLUSH },
	{ "add %rax,%rbx", { 0x48, 0x01, 0xc3 }, 3, 0 },
};

int main(void)
{
	for (unsigned i = 0; i < sizeof wc_cases / sizeof wc_cases[0]; i++) {
		const struct wc *k = &wc_cases[i];
		struct nb_insn d;
		unsigned got;
		nb_decode(k->b, k->len, &d);
		got = d.cls & (NB_IC_NT | NB_IC_WCFLUSH);
		tap_ok(got == k->cls, "%s: non-temporal %u, WC flush %u", k->what,
		       !!(k->cls & NB_IC_NT), !!(k->cls & NB_IC_WCFLUSH));
		if (got != k->cls)
			tap_diag("  got non-temporal %u, WC flush %u", !!(got & NB_IC_NT),
				 !!(got & NB_IC_WCFLUSH));
	}
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct c *k = &cases[i];
		struct nb_insn d;
		nb_decode(k->b, k->len, &d);
		tap_ok(d.br == k->br && d.fp == k->fp && !!(d.cls & NB_IC_ROM) == k->rom,
		       "%s: branch kind %u, class %u, MS ROM %u", k->what, k->br, k->fp, k->rom);
		if (d.br != k->br || d.fp != k->fp || !!(d.cls & NB_IC_ROM) != k->rom)
			tap_diag("  got branch kind %u, class %u, MS ROM %u", d.br, d.fp,
				 !!(d.cls & NB_IC_ROM));
	}
	for (unsigned i = 0; i < sizeof uop_cases / sizeof uop_cases[0]; i++) {
		static const char *const name[] = { "P4 (model 2)", "Prescott" };
		const struct u *k = &uop_cases[i];
		for (int sh = NB_UOPS_P4; sh < NB_UOPS_NSHEETS; sh++) {
			unsigned u = 0, want = sh == NB_UOPS_P4 ? k->p4 : k->p4e;
			int hit = nb_uops_measured((enum nb_uops_sheet)sh, k->b, k->len, &u);
			tap_ok(hit ? u == want : want == 0, "%s: %u uops (%s sheet)", k->what,
			       want, name[sh]);
			if (hit ? u != want : want != 0)
				tap_diag("  got %s %u", hit ? "row" : "no row", u);
		}
	}
	tap_ok(nb_uops_sheet(1) == NB_UOPS_P4 && nb_uops_sheet(2) == NB_UOPS_P4 &&
	       nb_uops_sheet(3) == NB_UOPS_P4E && nb_uops_sheet(6) == NB_UOPS_P4E,
	       "models 1-2 follow the P4 sheet, 3-6 Prescott's");
	for (unsigned i = 0; i < sizeof rep_cases / sizeof rep_cases[0]; i++) {
		const struct r *k = &rep_cases[i];
		uint64_t l, st;
		nb_pd_rep(1, k->z, k->n, 0, &l, &st);
		tap_ok(l == k->loads, "rep movs (%u bytes) x %u: %u loads on the Pentium D",
		       k->z, k->n, k->loads);
		if (l != k->loads)
			tap_diag("  got %llu", (unsigned long long)l);
	}
	{
		uint64_t l, st;
		nb_pd_rep(0, 1, 16384, 0, &l, &st);
		tap_ok(l == 0 && st == 1024, "rep stosb x 16384: 1,024 stores (STRING segment)");
		nb_pd_rep(0, 4, 4096, 1, &l, &st);
		tap_ok(l == 0 && st == 4096, "rep stosl x 4096 backward: 4,096 stores");
		nb_pd_rep(1, 8, 2048, 0, &l, &st);
		tap_ok(l == 1024 && st == 1024, "rep movsq x 2048: 1,024 loads, 1,024 stores");
	}
	return tap_done_plan();
}
