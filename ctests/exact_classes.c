/*
 * exact_classes.c - exact counts of the tagged metrics, FP/SIMD classes and
 * branch types by the difference method, through the public PAPI API, on
 * the simulated NetBurst (nbsim's default model, Prescott).
 *
 * Each kernel is an inline-asm loop run at two lengths with the same event
 * set; the difference of the counts must equal (N2 - N1) x the
 * per-iteration count of nbsim's models (sim/README.md), exactly.  The
 * metrics are native events (native_events/metrics.txt): the component's
 * scheduler places their helper ESCRs (uop_type for front-end tagging, the
 * FP/SIMD upstream event with TagEnable for execution tagging).
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "papi.h"
#define NBDIFF_PREROLL 16     /* predictor state independent of the last n (nbdiff.h) */
#include "nbdiff.h"

#define N1 1000
#define N2 5000

static uint64_t mbuf[8] __attribute__((aligned(64)));

/* memory: per iteration loads 3 (mov load, add r,m, add m,r), stores 2
 * (add m,r, mov store), 6 instructions: 3 with a load, 2 with a store */
static __attribute__((noinline)) void k_mem(long n)
{
	uint64_t t = 0;
	__asm__ volatile(
		"1:\n\t"
		"mov (%[p]), %[t]\n\t"
		"add 8(%[p]), %[t]\n\t"
		"add %[t], 16(%[p])\n\t"
		"mov %[t], 24(%[p])\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [t] "+r"(t), [n] "+r"(n)
		: [p] "r"(mbuf)
		: "memory", "cc");
}

/* FP/SIMD: per iteration 1 x87 (fadd), 2 scalar SP, 3 scalar DP, 4 packed
 * SP, 5 packed DP, 6 64-bit SIMD integer, 7 128-bit SIMD integer, and 3
 * x87/SIMD moves: a load (movaps m -> xmm: port 2), a store and a register
 * copy (port 0); 33 instructions */
static __attribute__((noinline)) void k_fp(long n)
{
	__asm__ volatile(
		"fld1\n\t"
		"fld1\n\t"
		"1:\n\t"
		"fadd %%st(1), %%st\n\t"
		".rept 2\n\taddss %%xmm1, %%xmm0\n\t.endr\n\t"
		".rept 3\n\taddsd %%xmm1, %%xmm0\n\t.endr\n\t"
		".rept 4\n\tmulps %%xmm2, %%xmm2\n\t.endr\n\t"
		".rept 5\n\taddpd %%xmm1, %%xmm3\n\t.endr\n\t"
		".rept 6\n\tpaddd %%mm0, %%mm1\n\t.endr\n\t"
		".rept 7\n\tpaddd %%xmm3, %%xmm4\n\t.endr\n\t"
		"movaps (%[p]), %%xmm5\n\t"
		"movaps %%xmm5, 16(%[p])\n\t"
		"movaps %%xmm5, %%xmm6\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		"emms\n\t"
		"fstp %%st(0)\n\t"
		"fstp %%st(0)\n\t"
		: [n] "+r"(n)
		: [p] "r"(mbuf)
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "mm0", "mm1",
		  "memory", "cc");
}

/* indirect call of a leaf: per iteration call *%r (CALL, INDIRECT), ret
 * (RETURN, INDIRECT), jnz (CONDITIONAL); all predicted once warm (BTB last
 * target, return stack) */
__asm__(".text\n\t.type nb_cls_leaf,@function\nnb_cls_leaf:\n\tret\n\t"
	".size nb_cls_leaf,.-nb_cls_leaf\n");
static __attribute__((noinline)) void k_icall(long n)
{
	__asm__ volatile(
		"sub $128, %%rsp\n\t"          /* keep off the red zone */
		"lea nb_cls_leaf(%%rip), %%rax\n\t"
		"1:\n\t"
		"call *%%rax\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		"add $128, %%rsp\n\t"
		: [n] "+r"(n)
		:
		: "rax", "memory", "cc");
}

/* indirect jmp alternating between two targets: the BTB predicts the last
 * target, so every one is mispredicted: per iteration INDIRECT 1 (and 1
 * mispredicted), CONDITIONAL 1 (jnz, predicted), 1 mispredicted branch and
 * its wrong path (78 bogus uops on Prescott: (31 - 5) x 3) */
static __attribute__((noinline)) void k_ijmp(long n)
{
	uint64_t x, y;
	__asm__ volatile(
		"lea 2f(%%rip), %[x]\n\t"
		"lea 3f(%%rip), %[y]\n\t"
		"xor %[x], %[y]\n\t"           /* y = A ^ B, x = A */
		"1:\n\t"
		"xor %[y], %[x]\n\t"           /* x alternates B, A, B ... */
		"jmp *%[x]\n\t"
		"2:\n\t"
		"jmp 4f\n\t"
		"3:\n\t"
		"nop\n\t"
		"4:\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [x] "=&r"(x), [y] "=&r"(y), [n] "+r"(n)
		:
		: "cc");
}

/* microcode: per iteration rep movsb of 16 bytes (16 x 4 uops from the MS
 * ROM) and cpuid (8 uops, MS ROM): 2 MS ROM transfers, 72 ROM uops; 6 other
 * uops (3 mov, xor, dec, jnz) come from the trace cache */
static char src[64], dst[64];
static __attribute__((noinline)) void k_rom(long n)
{
	__asm__ volatile(
		"1:\n\t"
		"mov $16, %%rcx\n\t"
		"mov %[s], %%rsi\n\t"
		"mov %[d], %%rdi\n\t"
		"rep movsb\n\t"
		"xor %%eax, %%eax\n\t"
		"cpuid\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [n] "+r"(n)
		: [s] "r"(src), [d] "r"(dst)
		: "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "memory", "cc");
}

struct set {
	const char *what;
	void (*fn)(long);
	struct nbdiff_ev ev[4];    /* slack: overhead allowance (nbdiff_is_slack), 0 = exact */
};


static int nevents(const struct set *s)
{
	return nbdiff_nevents(s->ev, 4);
}

static void check_set(const struct set *s)
{
	nbdiff_check_set(s->what, s->ev, 4, s->fn, N1, N2);
}

#define P "p4netburst:::"
static const struct set sets[] = {
	/* first, while nbsim instruments nothing yet (its needs only grow): a
	 * BOGUS mask alone must switch on the branch model and uop counts that
	 * the wrong-path model needs (78 bogus uops per mispredict, Prescott) */
	{ "ijmp", k_ijmp, { { P "uops_retired:BOGUS", 78, 78 } } },
	/* front-end tagging: loads, stores (not together: front_end_event
	 * counts every tagged uop) and the tagged instructions */
	{ "mem", k_mem, { { P "Memory_loads", 3, 0 }, { P "instr_retired:NBOGUSTAG", 3, 0 },
			  { P "instr_retired:NBOGUSNTAG", 3, 0 } } },
	{ "mem", k_mem, { { P "Memory_stores", 2, 0 }, { P "instr_retired:NBOGUSTAG", 2, 0 },
			  { P "uop_type:TAGSTORES", 2, 0 } } },
	{ "mem", k_mem, { { P "Memory_loads_stores", 5, 0 }, { P "instr_retired:NBOGUSTAG", 4, 0 } } },
	/* execution tagging, one metric at a time with the tagged instructions */
	{ "fp", k_fp, { { P "X87_FP_retired", 1, 0 }, { P "instr_retired:NBOGUSTAG", 1, 0 } } },
	{ "fp", k_fp, { { P "scalar_SP_retired", 2, 0 }, { P "instr_retired:NBOGUSTAG", 2, 0 } } },
	{ "fp", k_fp, { { P "scalar_DP_retired", 3, 0 }, { P "instr_retired:NBOGUSTAG", 3, 0 } } },
	{ "fp", k_fp, { { P "packed_SP_retired", 4, 0 }, { P "instr_retired:NBOGUSTAG", 4, 0 } } },
	{ "fp", k_fp, { { P "packed_DP_retired", 5, 0 }, { P "instr_retired:NBOGUSTAG", 5, 0 } } },
	{ "fp", k_fp, { { P "64_bit_MMX_retired", 6, 0 }, { P "instr_retired:NBOGUSTAG", 6, 0 } } },
	{ "fp", k_fp, { { P "128_bit_MMX_retired", 7, 0 }, { P "instr_retired:NBOGUSTAG", 7, 0 } } },
	{ "fp", k_fp, { { P "X87_SIMD_memory_moves_retired", 3, 0 },
			{ P "instr_retired:NBOGUSTAG", 3, 0 },
			{ P "instr_retired:NBOGUSNTAG", 33 - 3, 0 } } },
	/* two execution metrics at once (tag bits 0 and 1) */
	{ "fp", k_fp, { { P "packed_SP_retired", 4, 0 }, { P "scalar_DP_retired", 3, 0 },
			{ P "instr_retired:NBOGUSTAG", 7, 0 } } },
	/* the upstream events themselves and the move ports */
	{ "fp", k_fp, { { P "x87_SIMD_moves_uop:ALLP0", 2, 0 }, { P "x87_SIMD_moves_uop:ALLP2", 1, 0 } } },
	{ "fp", k_fp, { { P "instr_completed:NBOGUS", 33, 0 } } },
	/* branch types */
	{ "icall", k_icall, { { P "retired_branch_type:CONDITIONAL", 1, 0 },
			      { P "retired_branch_type:CALL", 1, 0 } } },
	{ "icall", k_icall, { { P "retired_branch_type:RETURN", 1, 0 },
			      { P "retired_branch_type:INDIRECT", 2, 0 } } },
	{ "icall", k_icall, { { P "retired_mispred_branch_type:INDIRECT", 0, 1 },
			      { P "retired_mispred_branch_type:CONDITIONAL", 0, 1 } } },
	{ "ijmp", k_ijmp, { { P "retired_branch_type:INDIRECT", 1, 0 },
			    { P "retired_mispred_branch_type:INDIRECT", 1, 1 } } },
	{ "ijmp", k_ijmp, { { P "retired_branch_type:CONDITIONAL", 1, 0 },
			    { P "retired_mispred_branch_type:CONDITIONAL", 0, 1 } } },
	{ "ijmp", k_ijmp, { { "PAPI_BR_MSP", 1, 1 }, { P "uops_retired:BOGUS", 78, 78 } } },
	/* replay tagging of mispredicted branches */
	{ "ijmp", k_ijmp, { { P "Tagged_mispred_branch", 1, 1 }, { P "instr_retired:NBOGUSTAG", 1, 1 } } },
	{ "icall", k_icall, { { P "Tagged_mispred_branch", 0, 1 } } },
	/* a preset on retired_branch_type */
	{ "icall", k_icall, { { "PAPI_BR_CN", 1, 0 } } },
	/* (the third figure: an allowance for one misprediction, and its 78
	 * wrong-path uops, in PAPI's start/stop code, whose branches can alias
	 * the kernel's in the predictor depending on code layout:
	 * nbdiff_is_slack) */
	/* microcode ROM and trace cache: whether a non-ROM uop comes from a
	 * trace (DELIVER) or is being built (BUILD) depends on the modelled
	 * trace cache; their sum is exact */
	/* (tc_ms_xfer and uop_queue_writes share MS_ESCR0/1) */
	{ "rom", k_rom, { { P "tc_ms_xfer:CISC", 2, 0 }, { P "uop_queue_writes:FROM_ROM", 72, 0 },
			  { P "uops_retired:NBOGUS", 78, 0 } } },
	{ "rom", k_rom, { { P "uop_queue_writes:FROM_TC_BUILD:FROM_TC_DELIVER", 6, 78 },
			  { P "uop_queue_writes:FROM_ROM", 72, 0 } } },
};

int main(void)
{
	int r, plan = 0;
	unsigned ns = sizeof sets / sizeof sets[0];

	for (unsigned i = 0; i < ns; i++)
		plan += nevents(&sets[i]);
	tap_plan(plan);
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(r));
	for (unsigned i = 0; i < ns; i++)
		check_set(&sets[i]);
	PAPI_shutdown();
	return tap_exit();
}
