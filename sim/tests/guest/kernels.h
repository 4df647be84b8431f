/*
 * kernels.h - the guest kernels that t_timing.c (one thread) and
 * t_smt_ht.c (two threads under --ht=yes) both measure, so that the
 * two-thread figures are of the very instructions the one-thread ones
 * are.  Each kernel runs n iterations; p is its data (unused by some).
 *  - c_fadd: Sprunt 2002's fp_add_latency (seed 000, "Benchmark
 *    results"): 32 serially dependent x87 fadds per iteration;
 *  - s_l1_miss: Sprunt's l1_miss: 8 load-op adds from 8 lines 8 KB apart
 *    (every load misses the 4-way 8 KB L1D of Northwood, hits the L2);
 *  - t_add: 32 independent adds on 8 registers per iteration:
 *    retirement-bound, 3 uops per cycle [HIN01].
 */
#ifndef KERNELS_H
#define KERNELS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* n zeroed bytes, page-aligned (aborts when out of memory: a test
 * program's setup) */
static inline char *fresh(size_t n)
{
	char *p = aligned_alloc(4096, (n + 4095) & ~(size_t)4095);
	if (!p)
		abort();
	memset(p, 0, n);
	return p;
}

/* 32 copies of body, n times */
#define LOOP(body) "1:\n\t.rept 32\n\t" body "\n\t.endr\n\tdec %[n]\n\tjnz 1b\n\t"

static __attribute__((unused)) void c_fadd(char *p, uint64_t n)
{
	(void)p;
	__asm__ volatile("fld1\n\tfld1\n\t" LOOP("fadd %%st(1), %%st") "fstp %%st(0)\n\tfstp %%st(0)"
			 : [n] "+r"(n) : : "cc", "st", "st(1)");
}

static __attribute__((unused)) void s_l1_miss(char *p, uint64_t n)
{
	uint64_t a = 0;
	__asm__ volatile("1:\n\t"
			 "add 0(%[p]), %[a]\n\tadd 8192(%[p]), %[a]\n\tadd 16384(%[p]), %[a]\n\t"
			 "add 24576(%[p]), %[a]\n\tadd 32768(%[p]), %[a]\n\tadd 40960(%[p]), %[a]\n\t"
			 "add 49152(%[p]), %[a]\n\tadd 57344(%[p]), %[a]\n\t"
			 "dec %[n]\n\tjnz 1b"
			 : [a] "+r"(a), [n] "+r"(n) : [p] "r"(p) : "cc", "memory");
}

static __attribute__((unused)) void t_add(char *p, uint64_t n)
{
	uint64_t b = 1;
	(void)p;
	__asm__ volatile("1:\n\t.rept 4\n\tadd %[b], %%r8\n\tadd %[b], %%r9\n\tadd %[b], %%r10\n\t"
			 "add %[b], %%r11\n\tadd %[b], %%r12\n\tadd %[b], %%r13\n\tadd %[b], %%r14\n\t"
			 "add %[b], %%r15\n\t.endr\n\tdec %[n]\n\tjnz 1b"
			 : [n] "+r"(n) : [b] "r"(b)
			 : "cc", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15");
}

#endif
