/*
 * measured_kern.h - the chains and kernels t_measured.c times (its rows,
 * measured_rows.h, name them): each runs n iterations of a dependent
 * chain (or of independent chains: a unit's throughput; or of a string
 * instruction) on its data p.  Included by t_measured.c alone.
 */
#ifndef MEASURED_KERN_H
#define MEASURED_KERN_H

#include <stdint.h>
#include "kernels.h"

/* n copies of body, n iterations */
#define LOOPN(k, body) "1:\n\t.rept " #k "\n\t" body "\n\t.endr\n\tdec %[n]\n\tjnz 1b\n\t"

#define INT_CHAIN(name, body)							\
static void name(char *p, uint64_t n)						\
{										\
	uint32_t a = 1, b = 1;							\
	(void)p;								\
	__asm__ volatile(LOOP(body) : [a] "+r"(a), [n] "+r"(n) : [b] "r"(b) : "cc"); \
}
INT_CHAIN(k_add, "add %k[b], %k[a]")
INT_CHAIN(k_adc, "adc %k[b], %k[a]")
INT_CHAIN(k_sbb, "sbb %k[b], %k[a]")
INT_CHAIN(k_cmov, "cmovnz %k[b], %k[a]")
INT_CHAIN(k_shl, "shl $1, %k[a]")
INT_CHAIN(k_shr, "shr $1, %k[a]")
INT_CHAIN(k_rol, "rol $1, %k[a]")
INT_CHAIN(k_imul, "imul %k[b], %k[a]")
INT_CHAIN(k_bswap, "bswap %k[a]")
INT_CHAIN(k_lea, "lea (%q[a],%q[b]), %k[a]")
INT_CHAIN(k_lea3, "lea 8(%q[a],%q[b]), %k[a]")
INT_CHAIN(k_leasc, "lea (%q[a],%q[b],8), %k[a]")
INT_CHAIN(k_leascd, "lea 8(%q[a],%q[b],8), %k[a]")
INT_CHAIN(k_rcl1, "rcl $1, %k[a]")
INT_CHAIN(k_rcli, "rcl $3, %k[a]")
INT_CHAIN(k_shld, "shld $1, %k[a], %k[a]")
INT_CHAIN(k_bts, "bts %k[b], %k[a]")
INT_CHAIN(k_btsi, "bts $5, %k[a]")

/* the same with a 64-bit chain, and with the count in cl (C) */
#define INT64_CHAIN(name, body)							\
static void name(char *p, uint64_t n)						\
{										\
	uint64_t a = 1;								\
	(void)p;								\
	__asm__ volatile(LOOP(body) : [a] "+r"(a), [n] "+r"(n) : : "cc");	\
}
#define CL_CHAIN(name, type, count, body)					\
static void name(char *p, uint64_t n)						\
{										\
	type a = 1, c = count;							\
	(void)p;								\
	__asm__ volatile(LOOP(body) : [a] "+r"(a), [n] "+r"(n) : "c"(c) : "cc"); \
}
INT_CHAIN(k_shld16, "shld $1, %w[a], %w[a]")
CL_CHAIN(k_rcrcl, uint32_t, 3, "rcr %%cl, %k[a]")
CL_CHAIN(k_shrdcl, uint32_t, 1, "shrd %%cl, %k[a], %k[a]")
CL_CHAIN(k_shrd16cl, uint32_t, 1, "shrd %%cl, %w[a], %w[a]")
CL_CHAIN(k_shlcl, uint32_t, 1, "shl %%cl, %k[a]")
INT64_CHAIN(k_rcl64i, "rcl $3, %[a]")
CL_CHAIN(k_rcl64cl, uint64_t, 3, "rcl %%cl, %[a]")
INT64_CHAIN(k_shld64, "shld $1, %[a], %[a]")
CL_CHAIN(k_shrd64cl, uint64_t, 1, "shrd %%cl, %[a], %[a]")
INT64_CHAIN(k_rol64, "rol $1, %[a]")

/* string instructions without rep, 32 an iteration over the same 128
 * bytes of p: the chain runs through rdi/rsi, which move back once an
 * iteration (one ALU step on the chain: 1/32 of a link) */
#define STR_CHAIN(name, op, back)						\
static void name(char *p, uint64_t n)						\
{										\
	char *d = p, *s = p;							\
	__asm__ volatile("cld\n\t1:\n\t.rept 32\n\t" op "\n\t.endr\n\t" back	\
			 "\n\tdec %[n]\n\tjnz 1b"					\
			 : "+D"(d), "+S"(s), [n] "+r"(n) : : "cc", "memory", "rax");	\
}
STR_CHAIN(k_stosd, "stosl", "sub $128, %%rdi")
STR_CHAIN(k_lodsd, "lodsl", "sub $128, %%rsi")
STR_CHAIN(k_movsd, "movsl", "sub $128, %%rsi\n\tsub $128, %%rdi")

/* rep string instructions over 1 KB of p (an L1D hit after the first):
 * cycles per byte, InstLatX64's "BW in L1D" inverted */
#define REP_STR(name, op, count)						\
static void name(char *p, uint64_t n)						\
{										\
	__asm__ volatile("cld\n\t1:\n\tmov %[p], %%rdi\n\tmov %[p], %%rsi\n\t"	\
			 "mov $" #count ", %%ecx\n\txor %%eax, %%eax\n\t" op		\
			 "\n\tdec %[n]\n\tjnz 1b"					\
			 : [n] "+r"(n) : [p] "r"(p)					\
			 : "cc", "memory", "rax", "rcx", "rsi", "rdi");			\
}
REP_STR(k_repstosd, "rep stosl", 256)
REP_STR(k_repstosb, "rep stosb", 1024)
REP_STR(k_repmovsd, "rep movsl", 256)
REP_STR(k_repmovsb, "rep movsb", 1024)
REP_STR(k_replodsd, "rep lodsl", 256)
REP_STR(k_repnescasd, "not %%eax\n\trepne scasl", 256)
REP_STR(k_repnescasb, "not %%eax\n\trepne scasb", 1024)
REP_STR(k_repecmpsb, "repe cmpsb", 1024)
REP_STR(k_repecmpsw, "repe cmpsw", 512)

/* a read-modify-write of one dword: the chain runs through memory (each
 * add's load needs the previous add's store), from one loop iteration
 * to the next too */
static void k_addm(char *p, uint64_t n)
{
	uint32_t b = 1;
	__asm__ volatile(LOOP("add %k[b], (%[p])") : [n] "+r"(n) : [b] "r"(b), [p] "r"(p)
			 : "cc", "memory");
}

static void k_addmi(char *p, uint64_t n)
{
	__asm__ volatile(LOOP("addl $1, (%[p])") : [n] "+r"(n) : [p] "r"(p) : "cc", "memory");
}

/* the same, the iterations chained through a register as well: the
 * iteration ends reloading the dword into b, which the next iteration's
 * adds add (a load per 32 links more) */
static void k_addm_reload(char *p, uint64_t n)
{
	uint32_t b = 1;
	__asm__ volatile("1:\n\t.rept 32\n\tadd %k[b], (%[p])\n\t.endr\n\t"
			 "mov (%[p]), %k[b]\n\tdec %[n]\n\tjnz 1b"
			 : [n] "+r"(n), [b] "+r"(b) : [p] "r"(p) : "cc", "memory");
}

static void k_shr64(char *p, uint64_t n)
{
	uint64_t a = ~0ULL;
	(void)p;
	__asm__ volatile(LOOP("shr $1, %[a]") : [a] "+r"(a), [n] "+r"(n) : : "cc");
}

/* setc r8: writes the low byte of the register (a partial write, which
 * depends on the register's old value on NetBurst) */
static void k_setc(char *p, uint64_t n)
{
	(void)p;
	__asm__ volatile("xor %%eax, %%eax\n\t" LOOP("setc %%al") : [n] "+r"(n) : : "cc", "rax");
}

static void k_xchg(char *p, uint64_t n)
{
	uint32_t a = 1, b = 2;
	(void)p;
	__asm__ volatile(LOOP("xchg %k[a], %k[b]") : [a] "+r"(a), [b] "+r"(b), [n] "+r"(n) : : "cc");
}

/* mul r32: edx:eax = eax * ecx, the chain through eax */
static void k_mul(char *p, uint64_t n)
{
	uint32_t a = 1, d = 0, c = 1;
	(void)p;
	__asm__ volatile(LOOP("mul %k[c]") : "+a"(a), "+d"(d), [n] "+r"(n) : [c] "r"(c) : "cc");
}

/* div r32: edx:eax / ecx, the remainder (< ecx) left in edx keeps every
 * quotient within 32 bits; the chain through eax and edx */
static void k_div(char *p, uint64_t n)
{
	uint32_t a = 0x12345678, d = 0, c = 3;
	(void)p;
	__asm__ volatile(LOOP("div %k[c]") : "+a"(a), "+d"(d), [n] "+r"(n) : [c] "r"(c) : "cc");
}

/* idiv r8 by 1: ax = 5 stays 5 (al the quotient, ah the remainder 0),
 * the chain through ax */
static void k_idiv8(char *p, uint64_t n)
{
	uint32_t a = 5, c = 1;
	(void)p;
	__asm__ volatile(LOOP("idiv %b[c]") : "+a"(a), [n] "+r"(n) : [c] "q"(c) : "cc");
}

/* idiv r16 by 1: dx:ax = 5 stays 5, the chain through ax and dx */
static void k_idiv16(char *p, uint64_t n)
{
	uint32_t a = 5, d = 0, c = 1;
	(void)p;
	__asm__ volatile(LOOP("idiv %w[c]") : "+a"(a), "+d"(d), [n] "+r"(n) : [c] "r"(c) : "cc");
}

/* the compilers' 64-bit divides: cqo; idiv r64 and xor edx, edx; div
 * r64, by 1 (rax = 5 stays 5): the chain through rax */
static void k_idiv64(char *p, uint64_t n)
{
	uint64_t a = 5, d = 0, c = 1;
	(void)p;
	__asm__ volatile(LOOPN(16, "cqo\n\tidiv %[c]") : "+a"(a), "+d"(d), [n] "+r"(n)
			 : [c] "r"(c) : "cc");
}

static void k_div64(char *p, uint64_t n)
{
	uint64_t a = 5, d = 0, c = 1;
	(void)p;
	__asm__ volatile(LOOPN(16, "xor %%edx, %%edx\n\tdiv %[c]") : "+a"(a), "+d"(d), [n] "+r"(n)
			 : [c] "r"(c) : "cc");
}

/* cmpxchg r32, r32 (no lock): compares eax with a, writes a or eax */
static void k_cmpxchg(char *p, uint64_t n)
{
	uint32_t a = 1, b = 1, x = 1;
	(void)p;
	__asm__ volatile(LOOP("cmpxchg %k[b], %k[x]") : "+a"(a), [x] "+r"(x), [n] "+r"(n)
			 : [b] "r"(b) : "cc");
}

#define FENCE(name, op)								\
static void name(char *p, uint64_t n)						\
{										\
	(void)p;								\
	__asm__ volatile(LOOP(op) : [n] "+r"(n) : : "cc", "memory");		\
}
FENCE(k_lfence, "lfence")
FENCE(k_sfence, "sfence")
FENCE(k_mfence, "mfence")
FENCE(k_pause, "pause")

/* rdtsc back to back (its results unused: InstLatX64's row has no
 * latency, "no true dep.") */
static void k_rdtsc(char *p, uint64_t n)
{
	(void)p;
	__asm__ volatile(LOOP("rdtsc") : [n] "+r"(n) : : "cc", "rax", "rdx");
}

/* locked read-modify-writes of one L1-resident dword */
static void k_lockadd(char *p, uint64_t n)
{
	uint32_t b = 1;
	__asm__ volatile(LOOP("lock add %k[b], (%[p])") : [n] "+r"(n) : [b] "r"(b), [p] "r"(p)
			 : "cc", "memory");
}

static void k_xchgm(char *p, uint64_t n)
{
	uint32_t a = 1;
	__asm__ volatile(LOOP("xchg %k[a], (%[p])") : [a] "+r"(a), [n] "+r"(n) : [p] "r"(p)
			 : "cc", "memory");
}

/* movd xmm <- r32 and back: one link is the round trip */
static void k_movd(char *p, uint64_t n)
{
	uint32_t a = 1;
	double x = 0;
	(void)p;
	__asm__ volatile(LOOPN(16, "movd %k[a], %[x]\n\tmovd %[x], %k[a]")
			 : [a] "+r"(a), [x] "+x"(x), [n] "+r"(n) : : "cc");
}

#define X87_CHAIN(name, op)							\
static void name(char *p, uint64_t n)						\
{										\
	(void)p;								\
	__asm__ volatile("fld1\n\tfld1\n\t" LOOP(op " %%st(1), %%st")		\
			 "fstp %%st(0)\n\tfstp %%st(0)"				\
			 : [n] "+r"(n) : : "cc", "st", "st(1)");		\
}
X87_CHAIN(k_fmul, "fmul")
X87_CHAIN(k_fdiv, "fdiv")

/* fsqrt of 1.0, over and over (InstLatX64's "FSQRT80 (1.0l)") */
static void k_fsqrt(char *p, uint64_t n)
{
	(void)p;
	__asm__ volatile("fld1\n\t" LOOP("fsqrt") "fstp %%st(0)" : [n] "+r"(n) : : "cc", "st");
}

#define XMM_CHAIN(name, body)							\
static void name(char *p, uint64_t n)						\
{										\
	double x = 1.0, y = 1.0;						\
	(void)p;								\
	__asm__ volatile(LOOP(body) : [x] "+x"(x), [n] "+r"(n) : [y] "x"(y) : "cc"); \
}
XMM_CHAIN(k_addsd, "addsd %[y], %[x]")
XMM_CHAIN(k_mulsd, "mulsd %[y], %[x]")
XMM_CHAIN(k_divsd, "divsd %[y], %[x]")
XMM_CHAIN(k_sqrtsd, "sqrtsd %[x], %[x]")
XMM_CHAIN(k_paddd, "paddd %[y], %[x]")
XMM_CHAIN(k_pmullw, "pmullw %[y], %[x]")
XMM_CHAIN(k_pshufd, "pshufd $0x1b, %[x], %[x]")
XMM_CHAIN(k_psadbw, "psadbw %[y], %[x]")

/* throughput: eight independent chains (xmm0-7, each its latency apart
 * at most 7 cycles: under a cycle a link), so the unit bounds them
 * (InstLatX64's "T" column); 32 operations an iteration */
#define XMM_TP(name, op)							\
static void name(char *p, uint64_t n)						\
{										\
	(void)p;								\
	__asm__ volatile(LOOPN(4, op " %%xmm8, %%xmm0\n\t" op " %%xmm8, %%xmm1\n\t"	\
			       op " %%xmm8, %%xmm2\n\t" op " %%xmm8, %%xmm3\n\t"	\
			       op " %%xmm8, %%xmm4\n\t" op " %%xmm8, %%xmm5\n\t"	\
			       op " %%xmm8, %%xmm6\n\t" op " %%xmm8, %%xmm7")	\
			 : [n] "+r"(n) : : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",	\
			   "xmm5", "xmm6", "xmm7", "xmm8");				\
}
XMM_TP(k_paddd_tp, "paddd")
XMM_TP(k_pmullw_tp, "pmullw")

/* the same with MMX registers: four chains (mm0-3), mm4 the operand */
static void k_paddd_mm_tp(char *p, uint64_t n)
{
	(void)p;
	__asm__ volatile(LOOPN(8, "paddd %%mm4, %%mm0\n\tpaddd %%mm4, %%mm1\n\t"
			       "paddd %%mm4, %%mm2\n\tpaddd %%mm4, %%mm3") "emms"
			 : [n] "+r"(n) : : "cc", "mm0", "mm1", "mm2", "mm3", "mm4", "st");
}

/* psadbw mm: its latency (a chain through mm0) and its throughput
 * (seven chains, mm0-6, mm7 the operand: the 4-cycle latency hidden) */
static void k_psadbw_mm(char *p, uint64_t n)
{
	(void)p;
	__asm__ volatile(LOOP("psadbw %%mm7, %%mm0") "emms"
			 : [n] "+r"(n) : : "cc", "mm0", "mm7", "st");
}

static void k_psadbw_mm_tp(char *p, uint64_t n)
{
	(void)p;
	__asm__ volatile(LOOPN(4, "psadbw %%mm7, %%mm0\n\tpsadbw %%mm7, %%mm1\n\t"
			       "psadbw %%mm7, %%mm2\n\tpsadbw %%mm7, %%mm3\n\t"
			       "psadbw %%mm7, %%mm4\n\tpsadbw %%mm7, %%mm5\n\t"
			       "psadbw %%mm7, %%mm6\n\tpsadbw %%mm7, %%mm0") "emms"
			 : [n] "+r"(n) : : "cc", "mm0", "mm1", "mm2", "mm3", "mm4", "mm5",
			   "mm6", "mm7", "st");
}

/* pointer chases: p is a ring cursor (where the chain stopped) */
static void k_chase(char *p, uint64_t n)
{
	void *q = *(void **)p;
	__asm__ volatile(LOOP("mov (%[q]), %[q]") : [q] "+r"(q), [n] "+r"(n) : : "cc", "memory");
	*(void **)p = q;
}

/* a dword loaded and stored back, over and over: each load needs the
 * store before it (InstLatX64's "MOV r32,[m32]+MOV [m32],r32"; one link
 * is the round trip) */
static void k_ldst(char *p, uint64_t n)
{
	__asm__ volatile(LOOP("mov (%[p]), %%eax\n\tmov %%eax, (%[p])") : [n] "+r"(n) : [p] "r"(p)
			 : "cc", "memory", "rax");
}

#endif /* MEASURED_KERN_H */
