/*
 * t_measured.c - the timing model against latencies measured on real
 * parts (TAP); run by t_measured.sh as `nbsim --model=M -- t_measured M`,
 * M = northwood, prescott, willamette or cedarmill.
 *
 * Each row is a dependent chain (every instruction needs the previous
 * one's result), 32 links per loop iteration (16 for a two-instruction
 * link), timed by the difference method: cycles (global_power_events
 * RUNNING) of the kernel at n1 and 3 n1 iterations after a warm-up run,
 * so set-up, the PMU accesses and the loop's own dec/jnz overlap cancel
 * (the loop branch is off every chain).  Operand sizes are those of the
 * measured rows (r32: the tables were taken in 32-bit code).  A few rows
 * time independent operations instead (eight chains: the unit's
 * throughput, the tables' "T" column), and the rep rows the bytes of a
 * rep string (cycles per byte: the tables' "BW in L1D" inverted).
 *
 * The measured figures, from the InstLatx64/InstLatx64 repository
 * (InstLatX64's measurements, AIDA64/EVEREST's latency benchmark):
 *   [F29]  GenuineIntel/GenuineIntel0000F29_P4_Northwood_InstLatX86.txt,
 *          a Pentium 4 2.80 GHz, family 15 model 2 stepping 9 (the model
 *          --model=northwood reports);
 *   [F29M] ..._F29_P4_Northwood_MemLatX86.txt, the same part;
 *   [F43]  GenuineIntel/GenuineIntel0000F43_P4_Prescott_InstLatX86.txt, a
 *          Pentium 4 3.20 GHz, family 15 model 4 stepping 3 (a Prescott
 *          core as --model=prescott, which reports model 3 at 3.4 GHz);
 *   [F43X64] ..._F43_P4_Prescott_InstLatX64.txt, the same part in
 *          64-bit mode (the guest's mode; the r64 forms);
 *   [F43M] ..._F43_P4_Prescott_MemLatX86.txt, the same part;
 *   [F13], [F13M] ..._F13_P4_Willamette_InstLatX86.txt, _MemLatX86.txt, a
 *          Willamette 1.7 GHz, family 15 model 1 (--model=willamette, 2.0
 *          GHz in the model);
 *   [F62], [F62X64], [F62M] ..._F62_P4_Presler_InstLatX86.txt,
 *          _InstLatX64.txt, _MemLatX86.txt, a Pentium D 3.47 GHz, family
 *          15 model 6: the 65 nm core of Cedar Mill (--model=cedarmill,
 *          3.6 GHz; the repository has no InstLat file of a Cedar Mill);
 *          "[F62 n]" is the row of number n, the same instruction as
 *          F29's and F43's row n.
 * A source names the row by its number in the file's first column and
 * its text, e.g. [F29 118 "ADC r32, r32"]; the figure is its latency
 * column ("L:").  Where the row's latency column is the chain's
 * throughput (fences, locked operations: "L" and "T" agree) that is
 * said.  Memory latency is in ns on the part ("Mem latency" line: 16 MB
 * block, 1 KB stride), converted here at the model's clock (2.8, 3.4,
 * 2.0, 3.6 GHz: the parts nb_cpu.c reports), since DRAM does not scale
 * with the core clock.
 *
 * Tolerances (each row says which and why):
 *  - core operations 10%: the tables give latencies to 0.1 cycle, with
 *    the benchmark's loop overhead removed; the model works in half
 *    cycles (the double-speed ALUs), so 10% holds every figure above 5
 *    cycles to within the model's granularity and the short ones
 *    (0.5-4) exactly;
 *  - L2 load-to-use 15%: the measured chase reads 18 to 19 (Northwood),
 *    26 to 28 (Prescott, Presler) depending on the block size and stride;
 *  - memory 20%: the part's figure depends on its chipset and DRAM
 *    (page hits, the refresh) and on the stride's DTLB misses, which the
 *    tables do not separate.
 * A row the model does not meet yet is a TAP TODO with both figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "guest.h"
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

/* a ring of k pointers stride bytes apart, in address order */
static char *ring(unsigned k, unsigned stride)
{
	char *buf = fresh((size_t)k * stride + 8);
	for (unsigned i = 0; i < k; i++)
		memcpy(buf + (size_t)i * stride, &(void *){ buf + (size_t)((i + 1) % k) * stride },
		       sizeof(void *));
	return buf;
}

/*
 * Streams from memory (README "Bus model", "Bandwidth"): each call moves
 * fresh bytes (a cursor through buffers larger than any modelled cache,
 * so the difference method's runs see no line the run before brought in):
 * a rep movsb of n KB, a rep stosb of n KB, and a STREAM triad a[i] =
 * b[i] + 3 c[i] of n x 128 doubles.  The bus moves 8 bytes per transfer; a copy reads and writes
 * each byte (2 bytes on the bus a byte copied, 3 with the destination's
 * read for ownership), a triad 3 doubles an element as STREAM counts it.
 */
#define BW_BYTES (8u << 20)
static char *bw_src, *bw_dst;
static size_t bw_at;

static void k_movsb_mem(char *p, uint64_t n)
{
	char *s = bw_src + bw_at, *d = bw_dst + bw_at;
	uint64_t c = n << 10;

	(void)p;
	bw_at += c;
	__asm__ volatile("cld; rep movsb" : "+S"(s), "+D"(d), "+c"(c) : : "memory");
}

static char *st_dst;
static size_t st_at;

static void k_stosb_mem(char *p, uint64_t n)
{
	char *d = st_dst + st_at;
	uint64_t c = n << 10;

	(void)p;
	st_at += c;
	__asm__ volatile("cld; rep stosb" : "+D"(d), "+c"(c) : "a"(0) : "memory");
}

static double *tr_a, *tr_b, *tr_c;
static size_t tr_at;

static void k_triad_mem(char *p, uint64_t n)
{
	double *a = tr_a + tr_at, *b = tr_b + tr_at, *c = tr_c + tr_at;

	(void)p;
	tr_at += n * 128;
	for (uint64_t i = 0; i < n * 128; i++)
		a[i] = b[i] + 3.0 * c[i];
	__asm__ volatile("" : : "r"(a) : "memory");
}

enum { D_NONE, D_WORD, D_L1, D_L2, D_MEM, D_BUF };

struct row {
	const char *what;
	guest_kern_fn fn;
	unsigned data;           /* D_*                                      */
	unsigned n1, k;          /* iterations, links per iteration          */
	double tol;
	/* per model (0 northwood, 1 prescott, 2 willamette, 3 cedarmill):
	 * measured cycles (0: ns given
	 * in ns[]), the source, and why it is a TODO (NULL: expected to
	 * hold) */
	double want[4], ns[4];
	const char *src[4];
	const char *todo[4];
};

#define TOL_CORE 0.10
#define TOL_L2 0.15
#define TOL_MEM 0.20

/* VEX runs rep lods as one lods: rcx is left as it was (a guest's rep
 * lodsl of 256 dwords advances rsi by 4 under nbsim), so there are no
 * iterations to time */
#define LODS_TODO "rep lods runs once under VEX (rcx unchanged): no iterations to time"



static const struct row rows[] = {
	{ "add r32, r32", k_add, D_NONE, 200, 32, TOL_CORE,
	  { 0.5, 1.0, 0.5, 1.0 }, { 0, 0, 0, 0 },
	  { "[F29 72 \"ADD r32, r32\"]",
	    "[F43 72 \"ADD r32, r32\"]",
	    "[F13 72 \"ADD r32, r32\"]",
	    "[F62 72]" },
	  { NULL, NULL, NULL, NULL } },
	{ "adc r32, r32", k_adc, D_NONE, 100, 32, TOL_CORE,
	  { 7.0, 10.0, 7.0, 10.0 }, { 0, 0, 0, 0 },
	  { "[F29 118 \"ADC r32, r32\"]",
	    "[F43 118 \"ADC r32, r32\"]",
	    "[F13 118 \"ADC r32, r32\"]",
	    "[F62 118]" },
	  { NULL, NULL, NULL, NULL } },
	{ "sbb r32, r32", k_sbb, D_NONE, 100, 32, TOL_CORE,
	  { 7.0, 10.0, 7.0, 10.0 }, { 0, 0, 0, 0 },
	  { "[F29 122 \"SBB r32, r32\"]",
	    "[F43 122 \"SBB r32, r32\"]",
	    "[F13 122 \"SBB r32, r32\"]",
	    "[F62 122]" },
	  { NULL, NULL, NULL, NULL } },
	{ "cmovnz r32, r32", k_cmov, D_NONE, 100, 32, TOL_CORE,
	  { 6.1, 9.5, 6.3, 9.5 }, { 0, 0, 0, 0 },
	  { "[F29 41 \"CMOVNZ r32, r32\"]",
	    "[F43 41 \"CMOVNZ r32, r32\"]",
	    "[F13 41 \"CMOVNZ r32, r32\"]",
	    "[F62 41]" },
	  { NULL, NULL, NULL, NULL } },
	/* Prescott: 1.4 in the 64-bit run, 1.3 in the 32-bit one [F43 200] */
	{ "setc r8", k_setc, D_NONE, 200, 32, TOL_CORE,
	  { 1.0, 1.4, 1.0, 1.4 }, { 0, 0, 0, 0 },
	  { "[F29 200 \"SETC r8\"]",
	    "[F43X64 200 \"SETC r8\"]",
	    "[F13 200 \"SETC r8\"]",
	    "[F62X64 200 \"SETC r8\"]" },
	  { NULL, NULL, NULL, NULL } },
	/* Prescott: the 64-bit mode run (the guest's mode) reads 1.0, the
	 * 32-bit run 1.4 [F43 223] */
	{ "shl r32, imm8", k_shl, D_NONE, 200, 32, TOL_CORE,
	  { 4.0, 1.0, 4.0, 1.0 }, { 0, 0, 0, 0 },
	  { "[F29 223 \"SHL r32, imm8\"]",
	    "[F43X64 223 \"SHL r32, imm8\"]",
	    "[F13 223 \"SHL r32, imm8\"]",
	    "[F62 223]" },
	  { NULL, NULL, NULL, NULL } },
	{ "shl r32, cl", k_shlcl, D_NONE, 100, 32, TOL_CORE,
	  { 6.0, 2.0, 6.0, 2.0 }, { 0, 0, 0, 0 },
	  { "[F29 227 \"SHL r32, cl\"]",
	    "[F43 227 \"SHL r32, cl\"]",
	    "[F13 227 \"SHL r32, cl\"]",
	    "[F62 227]" },
	  { NULL, NULL, NULL, NULL } },
	{ "shr r32, imm8", k_shr, D_NONE, 200, 32, TOL_CORE,
	  { 4.0, 1.0, 4.0, 1.0 }, { 0, 0, 0, 0 },
	  { "[F29 235 \"SHR r32, imm8\"]",
	    "[F43 235 \"SHR r32, imm8\"]",
	    "[F13 235 \"SHR r32, imm8\"]",
	    "[F62 235]" },
	  { NULL, NULL, NULL, NULL } },
	{ "rol r32, imm8", k_rol, D_NONE, 200, 32, TOL_CORE,
	  { 4.0, 1.0, 4.0, 1.0 }, { 0, 0, 0, 0 },
	  { "[F29 271 \"ROL r32, imm8\"]",
	    "[F43 271 \"ROL r32, imm8\"]",
	    "[F13 271 \"ROL r32, imm8\"]",
	    "[F62 271]" },
	  { NULL, NULL, NULL, NULL } },
	/* 64-bit forms: Prescott's shr and rol take 7 [F43X64]; Northwood
	 * has no 64-bit mode: its 32-bit figure */
	{ "shr r64, imm8", k_shr64, D_NONE, 50, 32, TOL_CORE,
	  { 4.0, 7.0, 4.0, 7.0 }, { 0, 0, 0, 0 },
	  { "[F29 235 \"SHR r32, imm8\"]",
	    "[F43X64 236 \"SHR r64, imm8\"]",
	    "[F13 235 \"SHR r32, imm8\"]",
	    "[F62X64 236 \"SHR r64, imm8\"]" },
	  { NULL, NULL, NULL, NULL } },
	{ "rol r64, imm8", k_rol64, D_NONE, 50, 32, TOL_CORE,
	  { 4.0, 7.0, 4.0, 7.0 }, { 0, 0, 0, 0 },
	  { "[F29 271 \"ROL r32, imm8\"]",
	    "[F43X64 272 \"ROL r64, imm8\"]",
	    "[F13 271 \"ROL r32, imm8\"]",
	    "[F62X64 272 \"ROL r64, imm8\"]" },
	  { NULL, NULL, NULL, NULL } },
	{ "imul r32, r32", k_imul, D_NONE, 100, 32, TOL_CORE,
	  { 15.0, 10.0, 15.0, 10.0 }, { 0, 0, 0, 0 },
	  { "[F29 328 \"IMUL r32, r32\"]",
	    "[F43 328 \"IMUL r32, r32\"]",
	    "[F13 328 \"IMUL r32, r32\"]",
	    "[F62 328]" },
	  { NULL, NULL, NULL, NULL } },
	{ "mul r32 (eax)", k_mul, D_NONE, 100, 32, TOL_CORE,
	  { 16.0, 12.0, 16.0, 12.0 }, { 0, 0, 0, 0 },
	  { "[F29 350 \"MUL r32 (eax)\"]",
	    "[F43 350 \"MUL r32 (eax)\"]",
	    "[F13 350 \"MUL r32 (eax)\"]",
	    "[F62 350]" },
	  { NULL, NULL, NULL, NULL } },
	{ "div r32", k_div, D_NONE, 20, 32, TOL_CORE,
	  { 59.0, 76.0, 57.0, 76.0 }, { 0, 0, 0, 0 },
	  { "[F29 430 \"DIV r32 64/32b (full)\"]",
	    "[F43 430 \"DIV r32 64/32b (full)\"]",
	    "[F13 430 \"DIV r32 64/32b (full)\"]",
	    "[F62 430]" },
	  { NULL, NULL, NULL, NULL } },
	{ "idiv r8 (by 1, chain through ax)", k_idiv8, D_NONE, 10, 32, TOL_CORE,
	  { 70.0, 78.0, 66.0, 78.0 }, { 0, 0, 0, 0 },
	  { "[F29 363 \"IDIV r8 1/1 ax upd\"]",
	    "[F43 363 \"IDIV r8 1/1 ax upd\"]",
	    "[F13 363 \"IDIV r8 1/1 ax upd\"]",
	    "[F62 363]" },
	  { NULL, NULL, NULL, NULL } },
	{ "idiv r16 (by 1, chain through ax, dx)", k_idiv16, D_NONE, 10, 32, TOL_CORE,
	  { 67.0, 81.0, 66.0, 81.0 }, { 0, 0, 0, 0 },
	  { "[F29 376 \"IDIV r16 1/1 ax/dx upd\"]",
	    "[F43 376 \"IDIV r16 1/1 ax/dx upd\"]",
	    "[F13 376 \"IDIV r16 1/1 ax/dx upd\"]",
	    "[F62 376]" },
	  { NULL, NULL, NULL, NULL } },
	/* 64-bit divides: Prescott's and Presler's 64-bit rows; Northwood and
	 * Willamette have no 64-bit mode: their r32 figure */
	{ "cqo + idiv r64 (by 1, chain through rax)", k_idiv64, D_NONE, 10, 16, TOL_CORE,
	  { 57.0, 107.0, 57.0, 107.0 }, { 0, 0, 0, 0 },
	  { "[F29 389 \"IDIV r32 1/1 eax upd\"]",
	    "[F43X64 403 \"IDIV r64 1/1 rax upd\"]",
	    "[F13 389 \"IDIV r32 1/1 eax upd\"]",
	    "[F62X64 403 \"IDIV r64 1/1 rax upd\"]" },
	  { NULL, NULL, NULL, NULL } },
	{ "xor edx + div r64 (by 1, chain through rax)", k_div64, D_NONE, 10, 16, TOL_CORE,
	  { 57.0, 52.1, 57.0, 52.1 }, { 0, 0, 0, 0 },
	  { "[F29 442 \"DIV r32 1/1 eax upd\"]",
	    "[F43X64 456 \"DIV r64 1/1 rax upd\"]",
	    "[F13 442 \"DIV r32 1/1 eax upd\"]",
	    "[F62X64 456 \"DIV r64 1/1 rax upd\"]" },
	  { NULL, NULL, NULL, NULL } },
	{ "bswap r32", k_bswap, D_NONE, 200, 32, TOL_CORE,
	  { 4.0, 1.0, 7.0, 1.0 }, { 0, 0, 0, 0 },
	  { "[F29 319 \"BSWAP r32\"]",
	    "[F43 319 \"BSWAP r32\"]",
	    "[F13 319 \"BSWAP r32\"]",
	    "[F62 319]" },
	  { NULL, NULL, NULL, NULL } },
	{ "lea r32, [r + r]", k_lea, D_NONE, 200, 32, TOL_CORE,
	  { 0.5, 1.0, 0.5, 1.0 }, { 0, 0, 0, 0 },
	  { "[F29 206 \"LEA r32, [r32+r32]\"]",
	    "[F43 206 \"LEA r32, [r32 + r32]\"]",
	    "[F13 206 \"LEA r32, [r32+r32]\"]",
	    "[F62 206]" },
	  { NULL, NULL, NULL, NULL } },
	{ "lea r32, [r + r + disp8]", k_lea3, D_NONE, 200, 32, TOL_CORE,
	  { 1.0, 2.0, 1.0, 2.0 }, { 0, 0, 0, 0 },
	  { "[F29 209 \"LEA r32, [r+r+disp8]\"]",
	    "[F43 209 \"LEA r32, [r+r+disp8]\"]",
	    "[F13 209 \"LEA r32, [r+r+disp8]\"]",
	    "[F62 209]" },
	  { NULL, NULL, NULL, NULL } },
	{ "lea r32, [r + r*8]", k_leasc, D_NONE, 200, 32, TOL_CORE,
	  { 4.0, 2.0, 4.0, 2.0 }, { 0, 0, 0, 0 },
	  { "[F29 212 \"LEA r32, [r+r*8]\"]",
	    "[F43 212 \"LEA r32, [r+r*8]\"]",
	    "[F13 212 \"LEA r32, [r+r*8]\"]",
	    "[F62 212]" },
	  { NULL, NULL, NULL, NULL } },
	{ "lea r32, [r + r*8 + disp8]", k_leascd, D_NONE, 200, 32, TOL_CORE,
	  { 5.0, 3.0, 5.0, 3.0 }, { 0, 0, 0, 0 },
	  { "[F29 215 \"LEA r32, [r+r*8+disp8]\"]",
	    "[F43 215 \"LEA r32, [r+r*8+disp8]\"]",
	    "[F13 215 \"LEA r32, [r+r*8+disp8]\"]",
	    "[F62 215]" },
	  { NULL, NULL, NULL, NULL } },
	{ "xchg r32, r32", k_xchg, D_NONE, 200, 32, TOL_CORE,
	  { 1.0, 1.5, 1.0, 1.5 }, { 0, 0, 0, 0 },
	  { "[F29 60 \"XCHG r1_32, r2_32\"]",
	    "[F43 60 \"XCHG r1_32, r2_32\"]",
	    "[F13 60 \"XCHG r1_32, r2_32\"]",
	    "[F62 60]" },
	  { NULL, NULL, NULL, NULL } },
	{ "cmpxchg r32, r32", k_cmpxchg, D_NONE, 100, 32, TOL_CORE,
	  { 11.0, 19.0, 11.0, 19.0 }, { 0, 0, 0, 0 },
	  { "[F29 551 \"CMPXCHG r32, r32\"]",
	    "[F43 551 \"CMPXCHG r32, r32\"]",
	    "[F13 551 \"CMPXCHG r32, r32\"]",
	    "[F62 551]" },
	  { NULL, NULL, NULL, NULL } },
	{ "lfence (back to back)", k_lfence, D_NONE, 20, 32, TOL_CORE,
	  { 40.0, 52.0, 36.0, 52.0 }, { 0, 0, 0, 0 },
	  { "[F29 770 \"LFENCE\"]",
	    "[F43 772 \"LFENCE\"]",
	    "[F13 770 \"LFENCE\"]",
	    "[F62 770]" },
	  { NULL, NULL, NULL, NULL } },
	/* pause: InstLatX64's row has no latency ("no true dep."): its
	 * throughput column, back to back as the fences */
	{ "pause (back to back)", k_pause, D_NONE, 20, 32, TOL_CORE,
	  { 40.0, 54.25, 36.0, 52.0 }, { 0, 0, 0, 0 },
	  { "[F29 15 \"PAUSE\" T]",
	    "[F43 15 \"PAUSE\" T]",
	    "[F13 15 \"PAUSE\" T]",
	    "[F62 15 \"PAUSE\" T]" },
	  { NULL, NULL, NULL, NULL } },
	/* rdtsc: no latency measured ("no true dep."): the throughput
	 * column, back to back */
	{ "rdtsc (back to back)", k_rdtsc, D_NONE, 5, 32, TOL_CORE,
	  { 80.0, 100.0, 80.0, 100.08 }, { 0, 0, 0, 0 },
	  { "[F29 555 \"RDTSC\" T]",
	    "[F43X64 555 \"RDTSC\" T]",
	    "[F13 555 \"RDTSC\" T]",
	    "[F62X64 555 \"RDTSC\" T]" },
	  { NULL, NULL, NULL, NULL } },
	{ "sfence (back to back)", k_sfence, D_NONE, 20, 32, TOL_CORE,
	  { 39.1, 54.3, 39.1, 54.6 }, { 0, 0, 0, 0 },
	  { "[F29 769 \"SFENCE\"]",
	    "[F43 771 \"SFENCE\"]",
	    "[F13 769 \"SFENCE\"]",
	    "[F62 769]" },
	  { NULL, NULL, NULL, NULL } },
	{ "mfence (back to back)", k_mfence, D_NONE, 20, 32, TOL_CORE,
	  { 100.0, 124.0, 98.0, 124.0 }, { 0, 0, 0, 0 },
	  { "[F29 771 \"MFENCE\"]",
	    "[F43 773 \"MFENCE\"]",
	    "[F13 771 \"MFENCE\"]",
	    "[F62 771]" },
	  { NULL, NULL, NULL, NULL } },
	{ "lock add [m32], r32", k_lockadd, D_WORD, 10, 32, TOL_CORE,
	  { 124.1, 88.6, 124.2, 88.1 }, { 0, 0, 0, 0 },
	  { "[F29 86 \"LOCK ADD [m32], r32\"]",
	    "[F43 86 \"LOCK ADD [m32], r32\"]",
	    "[F13 86 \"LOCK ADD [m32], r32\"]",
	    "[F62 86]" },
	  { NULL, NULL, NULL, NULL } },
	{ "xchg r32, [m32] (locked)", k_xchgm, D_WORD, 10, 32, TOL_CORE,
	  { 125.0, 81.5, 124.9, 81.5 }, { 0, 0, 0, 0 },
	  { "[F29 64 \"XCHG r32, [m32]\"]",
	    "[F43 64 \"XCHG r32, [m32]\"]",
	    "[F13 64 \"XCHG r32, [m32]\"]",
	    "[F62 64]" },
	  { NULL, NULL, NULL, NULL } },
	{ "movd xmm, r32 + movd r32, xmm", k_movd, D_NONE, 100, 16, TOL_CORE,
	  { 18.0, 13.0, 18.0, 13.0 }, { 0, 0, 0, 0 },
	  { "[F29 981 \"MOVD r32, xmm+MOVD xmm, r32\"]",
	    "[F43 1171 \"MOVD r32, xmm+MOVD xmm, r32\"]",
	    "[F13 981 \"MOVD r32, xmm+MOVD xmm, r32\"]",
	    "[F62 981]" },
	  { NULL, NULL, NULL, NULL } },
	{ "x87 fadd", c_fadd, D_NONE, 200, 32, TOL_CORE,
	  { 5.0, 6.0, 5.0, 6.0 }, { 0, 0, 0, 0 },
	  { "[F29 577 \"FADD st(i), st\"]",
	    "[F43 577 \"FADD st(i), st\"]",
	    "[F13 577 \"FADD st(i), st\"]",
	    "[F62 577]" },
	  { NULL, NULL, NULL, NULL } },
	{ "x87 fmul", k_fmul, D_NONE, 200, 32, TOL_CORE,
	  { 7.0, 8.0, 7.0, 8.0 }, { 0, 0, 0, 0 },
	  { "[F29 580 \"FMUL st(i), st\"]",
	    "[F43 580 \"FMUL st(i), st\"]",
	    "[F13 580 \"FMUL st(i), st\"]",
	    "[F62 580]" },
	  { NULL, NULL, NULL, NULL } },
	/* the x87 control word's default precision is extended (80 bits) */
	{ "x87 fdiv (extended precision)", k_fdiv, D_NONE, 20, 32, TOL_CORE,
	  { 43.0, 45.0, 43.0, 45.0 }, { 0, 0, 0, 0 },
	  { "[F29 586 \"FDIV80 st(i), st\"]",
	    "[F43 586 \"FDIV80 st(i), st\"]",
	    "[F13 586 \"FDIV80 st(i), st\"]",
	    "[F62 586]" },
	  { NULL, NULL, NULL, NULL } },
	{ "addsd", k_addsd, D_NONE, 200, 32, TOL_CORE,
	  { 4.0, 5.0, 4.0, 5.0 }, { 0, 0, 0, 0 },
	  { "[F29 912 \"ADDSD xmm, xmm\"]",
	    "[F43 1040 \"ADDSD xmm, xmm\"]",
	    "[F13 912 \"ADDSD xmm, xmm\"]",
	    "[F62 912]" },
	  { NULL, NULL, NULL, NULL } },
	{ "mulsd", k_mulsd, D_NONE, 200, 32, TOL_CORE,
	  { 6.0, 7.0, 6.0, 7.0 }, { 0, 0, 0, 0 },
	  { "[F29 914 \"MULSD xmm, xmm\"]",
	    "[F43 1044 \"MULSD xmm, xmm\"]",
	    "[F13 914 \"MULSD xmm, xmm\"]",
	    "[F62 914]" },
	  { NULL, NULL, NULL, NULL } },
	{ "divsd", k_divsd, D_NONE, 20, 32, TOL_CORE,
	  { 38.0, 40.0, 38.0, 40.0 }, { 0, 0, 0, 0 },
	  { "[F29 932 \"DIVSD xmm, xmm\"]",
	    "[F43 1080 \"DIVSD xmm, xmm\"]",
	    "[F13 932 \"DIVSD xmm, xmm\"]",
	    "[F62 932]" },
	  { NULL, NULL, NULL, NULL } },
	{ "sqrtsd", k_sqrtsd, D_NONE, 20, 32, TOL_CORE,
	  { 38.0, 40.1, 38.0, 40.0 }, { 0, 0, 0, 0 },
	  { "[F29 942 \"SQRTSD xmm, xmm\"]",
	    "[F43 1100 \"SQRTSD xmm, xmm\"]",
	    "[F13 942 \"SQRTSD xmm, xmm\"]",
	    "[F62 942]" },
	  { NULL, NULL, NULL, NULL } },
	{ "paddd xmm, xmm", k_paddd, D_NONE, 200, 32, TOL_CORE,
	  { 2.0, 2.0, 2.0, 2.0 }, { 0, 0, 0, 0 },
	  { "[F29 1013 \"PADDD xmm, xmm\"]",
	    "[F43 1234 \"PADDD xmm, xmm\"]",
	    "[F13 1013 \"PADDD xmm, xmm\"]",
	    "[F62 1013]" },
	  { NULL, NULL, NULL, NULL } },
	{ "pmullw xmm, xmm", k_pmullw, D_NONE, 200, 32, TOL_CORE,
	  { 6.0, 7.0, 6.0, 7.0 }, { 0, 0, 0, 0 },
	  { "[F29 1062 \"PMULLW xmm, xmm\"]",
	    "[F43 1332 \"PMULLW xmm, xmm\"]",
	    "[F13 1062 \"PMULLW xmm, xmm\"]",
	    "[F62 1062]" },
	  { NULL, NULL, NULL, NULL } },
	{ "pshufd xmm, xmm, imm8", k_pshufd, D_NONE, 200, 32, TOL_CORE,
	  { 4.0, 4.0, 4.0, 4.0 }, { 0, 0, 0, 0 },
	  { "[F29 1144 \"PSHUFD xmm, xmm, im8\"]",
	    "[F43 1482 \"PSHUFD xmm, xmm, im8\"]",
	    "[F13 1144 \"PSHUFD xmm, xmm, im8\"]",
	    "[F62 1144]" },
	  { NULL, NULL, NULL, NULL } },
	{ "rcl r32, 1", k_rcl1, D_NONE, 100, 32, TOL_CORE,
	  { 4.0, 7.0, 4.0, 7.0 }, { 0, 0, 0, 0 },
	  { "[F29 291 \"RCL r32, 1\"]",
	    "[F43 291 \"RCL r32, 1\"]",
	    "[F13 291 \"RCL r32, 1\"]",
	    "[F62 291]" },
	  { NULL, NULL, NULL, NULL } },
	{ "rcl r32, imm8", k_rcli, D_NONE, 20, 32, TOL_CORE,
	  { 19.0, 25.0, 19.0, 25.0 }, { 0, 0, 0, 0 },
	  { "[F29 295 \"RCL r32, imm8\"]",
	    "[F43 295 \"RCL r32, imm8\"]",
	    "[F13 295 \"RCL r32, imm8\"]",
	    "[F62 295]" },
	  { NULL, NULL, NULL, NULL } },
	{ "rcr r32, cl", k_rcrcl, D_NONE, 20, 32, TOL_CORE,
	  { 19.0, 25.3, 19.0, 25.4 }, { 0, 0, 0, 0 },
	  { "[F29 311 \"RCR r32, cl\"]",
	    "[F43 311 \"RCR r32, cl\"]",
	    "[F13 311 \"RCR r32, cl\"]",
	    "[F62 311]" },
	  { NULL, NULL, NULL, NULL } },
	{ "shld r32, r32, imm8", k_shld, D_NONE, 50, 32, TOL_CORE,
	  { 8.0, 9.0, 12.0, 9.0 }, { 0, 0, 0, 0 },
	  { "[F29 254 \"SHLD r32, r32, imm8\"]",
	    "[F43 254 \"SHLD r1_32, r1_32, imm8\"]",
	    "[F13 254 \"SHLD r32, r32, imm8\"]",
	    "[F62 254]" },
	  { NULL, NULL, NULL, NULL } },
	{ "shrd r32, r32, cl", k_shrdcl, D_NONE, 50, 32, TOL_CORE,
	  { 8.0, 9.0, 12.0, 9.0 }, { 0, 0, 0, 0 },
	  { "[F29 263 \"SHRD r32, r32, cl\"]",
	    "[F43 263 \"SHRD r1_32, r1_32, cl\"]",
	    "[F13 263 \"SHRD r32, r32, cl\"]",
	    "[F62 263]" },
	  { NULL, NULL, NULL, NULL } },
	/* 16-bit forms: Northwood's shld 14 and shrd 16 are one class (15) */
	{ "shld r16, r16, imm8", k_shld16, D_NONE, 50, 32, TOL_CORE,
	  { 14.0, 10.0, 12.0, 10.7 }, { 0, 0, 0, 0 },
	  { "[F29 253 \"SHLD r16, r16, imm8\"]",
	    "[F43 253 \"SHLD r1_16, r1_16, imm8\"]",
	    "[F13 253 \"SHLD r16, r16, imm8\"]",
	    "[F62 253]" },
	  { NULL, NULL, NULL, NULL } },
	{ "shrd r16, r16, cl", k_shrd16cl, D_NONE, 50, 32, TOL_CORE,
	  { 16.0, 12.0, 12.0, 12.0 }, { 0, 0, 0, 0 },
	  { "[F29 262 \"SHRD r16, r16, cl\"]",
	    "[F43 262 \"SHRD r1_16, r1_16, cl\"]",
	    "[F13 262 \"SHRD r16, r16, cl\"]",
	    "[F62 262]" },
	  { NULL, NULL, NULL, NULL } },
	/* rcl r64 by imm8 and cl: Prescott's and Presler's 64-bit rows (31,
	 * against rcr r64's 25); Northwood and Willamette: the r32 figure */
	{ "rcl r64, imm8", k_rcl64i, D_NONE, 20, 32, TOL_CORE,
	  { 19.0, 31.0, 19.0, 31.0 }, { 0, 0, 0, 0 },
	  { "[F29 295 \"RCL r32, imm8\"]",
	    "[F43X64 296 \"RCL r64, imm8\"]",
	    "[F13 295 \"RCL r32, imm8\"]",
	    "[F62X64 296 \"RCL r64, imm8\"]" },
	  { NULL, NULL, NULL, NULL } },
	{ "rcl r64, cl", k_rcl64cl, D_NONE, 20, 32, TOL_CORE,
	  { 19.0, 31.0, 19.0, 31.0 }, { 0, 0, 0, 0 },
	  { "[F29 299 \"RCL r32, cl\"]",
	    "[F43X64 300 \"RCL r64, cl\"]",
	    "[F13 299 \"RCL r32, cl\"]",
	    "[F62X64 300 \"RCL r64, cl\"]" },
	  { NULL, NULL, NULL, NULL } },
	/* Northwood and Willamette: no 64-bit mode, their r32 figure */
	{ "shld r64, r64, imm8", k_shld64, D_NONE, 50, 32, TOL_CORE,
	  { 8.0, 10.0, 12.0, 10.0 }, { 0, 0, 0, 0 },
	  { "[F29 254 \"SHLD r32, r32, imm8\"]",
	    "[F43X64 255 \"SHLD r1_64, r1_64, imm8\"]",
	    "[F13 254 \"SHLD r32, r32, imm8\"]",
	    "[F62X64 255 \"SHLD r64, r64, imm8\"]" },
	  { NULL, NULL, NULL, NULL } },
	{ "shrd r64, r64, cl", k_shrd64cl, D_NONE, 50, 32, TOL_CORE,
	  { 8.0, 12.0, 12.0, 12.0 }, { 0, 0, 0, 0 },
	  { "[F29 263 \"SHRD r32, r32, cl\"]",
	    "[F43X64 264 \"SHRD r1_64, r1_64, cl\"]",
	    "[F13 263 \"SHRD r32, r32, cl\"]",
	    "[F62X64 264 \"SHRD r64, r64, cl\"]" },
	  { NULL, NULL, NULL, NULL } },
	{ "bts r32, r32", k_bts, D_NONE, 50, 32, TOL_CORE,
	  { 6.0, 9.0, 6.0, 9.0 }, { 0, 0, 0, 0 },
	  { "[F29 195 \"BTS r32, r32\"]",
	    "[F43 195 \"BTS r32, r32\"]",
	    "[F13 195 \"BTS r32, r32\"]",
	    "[F62 195]" },
	  { NULL, NULL, NULL, NULL } },
	{ "bts r32, imm8", k_btsi, D_NONE, 50, 32, TOL_CORE,
	  { 4.0, 8.0, 6.0, 8.0 }, { 0, 0, 0, 0 },
	  { "[F29 198 \"BTS r32, imm8\"]",
	    "[F43 198 \"BTS r32, imm8\"]",
	    "[F13 198 \"BTS r32, imm8\"]",
	    "[F62 198]" },
	  { NULL, NULL, NULL, NULL } },
	{ "stosd (chain through rdi)", k_stosd, D_BUF, 50, 32, TOL_CORE,
	  { 6.0, 8.0, 6.0, 8.0 }, { 0, 0, 0, 0 },
	  { "[F29 523 \"STOSD\"]",
	    "[F43 523 \"STOSD\"]",
	    "[F13 523 \"STOSD\"]",
	    "[F62 523]" },
	  { NULL, NULL, NULL, NULL } },
	{ "lodsd (chain through rsi)", k_lodsd, D_BUF, 50, 32, TOL_CORE,
	  { 6.0, 8.0, 6.0, 8.0 }, { 0, 0, 0, 0 },
	  { "[F29 515 \"LODSD\"]",
	    "[F43 515 \"LODSD\"]",
	    "[F13 515 \"LODSD\"]",
	    "[F62 515]" },
	  { NULL, NULL, NULL, NULL } },
	{ "movsd (string, chain through rsi, rdi)", k_movsd, D_BUF, 50, 32, TOL_CORE,
	  { 6.0, 8.0, 6.0, 8.0 }, { 0, 0, 0, 0 },
	  { "[F29 531 \"MOVSD\"]",
	    "[F43 531 \"MOVSD\"]",
	    "[F13 531 \"MOVSD\"]",
	    "[F62 531]" },
	  { NULL, NULL, NULL, NULL } },
	/* rep strings: the tables give bytes per cycle in the L1D ("BW in
	 * L1D"); the rows want its inverse.  rep movs and stos: the fast
	 * strings' rate is the W row's (nb_tmparams.c str_tpb, [F29 526,
	 * 534] ...); these B and D rows are measured apart */
	{ "rep stosd, 1 KB (cycles per byte)", k_repstosd, D_BUF, 20, 1024, TOL_CORE,
	  { 0.2353, 0.2924, 0.2342, 0.2899 }, { 0, 0, 0, 0 },
	  { "[F29 527 \"REP STOSD\" 4.25 B/c]",
	    "[F43X64 527 \"REP STOSD\" 3.42 B/c]",
	    "[F13 527 \"REP STOSD\" 4.27 B/c]",
	    "[F62 527 3.45 B/c]" },
	  { NULL, NULL, NULL, NULL } },
	{ "rep stosb, 1 KB (cycles per byte)", k_repstosb, D_BUF, 20, 1024, TOL_CORE,
	  { 0.2475, 0.3012, 0.2347, 0.2994 }, { 0, 0, 0, 0 },
	  { "[F29 525 \"REP STOSB\" 4.04 B/c]",
	    "[F43X64 525 \"REP STOSB\" 3.32 B/c]",
	    "[F13 525 \"REP STOSB\" 4.26 B/c]",
	    "[F62 525 3.34 B/c]" },
	  { NULL, NULL, NULL, NULL } },
	{ "rep movsd, 1 KB (cycles per byte)", k_repmovsd, D_BUF, 20, 1024, TOL_CORE,
	  { 0.1323, 0.1502, 0.1344, 0.1531 }, { 0, 0, 0, 0 },
	  { "[F29 535 \"REP MOVSD\" 7.56 B/c]",
	    "[F43X64 535 \"REP MOVSD\" 6.66 B/c]",
	    "[F13 535 \"REP MOVSD\" 7.44 B/c]",
	    "[F62 535 6.53 B/c]" },
	  { NULL, NULL, NULL, NULL } },
	{ "rep movsb, 1 KB (cycles per byte)", k_repmovsb, D_BUF, 20, 1024, TOL_CORE,
	  { 0.1481, 0.16, 0.1351, 0.1637 }, { 0, 0, 0, 0 },
	  { "[F29 533 \"REP MOVSB\" 6.75 B/c]",
	    "[F43X64 533 \"REP MOVSB\" 6.25 B/c]",
	    "[F13 533 \"REP MOVSB\" 7.40 B/c]",
	    "[F62 533 6.11 B/c]" },
	  { NULL, NULL, NULL, NULL } },
	{ "rep lodsd, 1 KB (cycles per byte)", k_replodsd, D_BUF, 20, 1024, TOL_CORE,
	  { 1.01, 1, 1.01, 1 }, { 0, 0, 0, 0 },
	  { "[F29 519 \"REP LODSD\" 0.99 B/c]",
	    "[F43X64 519 \"REP LODSD\" 1.00 B/c]",
	    "[F13 519 \"REP LODSD\" 0.99 B/c]",
	    "[F62 519 1.00 B/c]" },
	  { LODS_TODO, LODS_TODO, LODS_TODO, LODS_TODO } },
	{ "repne scasd, 1 KB (cycles per byte)", k_repnescasd, D_BUF, 20, 1024, TOL_CORE,
	  { 1.01, 1, 1.01, 1.01 }, { 0, 0, 0, 0 },
	  { "[F29 543 \"REPNE SCASD\" 0.99 B/c]",
	    "[F43X64 543 \"REPNE SCASD\" 1.00 B/c]",
	    "[F13 543 \"REPNE SCASD\" 0.99 B/c]",
	    "[F62 543 0.99 B/c]" },
	  { NULL, NULL, NULL, NULL } },
	/* the byte form, measured apart (the class's 4 cycles an element
	 * come from the dword row) */
	{ "repne scasb, 1 KB (cycles per byte)", k_repnescasb, D_BUF, 5, 1024, TOL_CORE,
	  { 4.0, 4.1667, 4.0, 4.0 }, { 0, 0, 0, 0 },
	  { "[F29 541 \"REPNE SCASB\" 0.25 B/c]",
	    "[F43X64 541 \"REPNE SCASB\" 0.24 B/c]",
	    "[F13 541 \"REPNE SCASB\" 0.25 B/c]",
	    "[F62 541 0.25 B/c]" },
	  { NULL, NULL, NULL, NULL } },
	/* repe cmps: 2 cycles an element (the byte row); the word row,
	 * measured apart, agrees */
	{ "repe cmpsb, 1 KB (cycles per byte)", k_repecmpsb, D_BUF, 5, 1024, TOL_CORE,
	  { 2.0, 2.0408, 2.0, 2.0408 }, { 0, 0, 0, 0 },
	  { "[F29 509 \"REPE CMPSB\" 0.50 B/c]",
	    "[F43X64 509 \"REPE CMPSB\" 0.49 B/c]",
	    "[F13 509 \"REPE CMPSB\" 0.50 B/c]",
	    "[F62 509 0.49 B/c]" },
	  { NULL, NULL, NULL, NULL } },
	{ "repe cmpsw, 1 KB (cycles per byte)", k_repecmpsw, D_BUF, 10, 1024, TOL_CORE,
	  { 1.0101, 1.0309, 1.0101, 1.0309 }, { 0, 0, 0, 0 },
	  { "[F29 510 \"REPE CMPSW\" 0.99 B/c]",
	    "[F43X64 510 \"REPE CMPSW\" 0.97 B/c]",
	    "[F13 510 \"REPE CMPSW\" 0.99 B/c]",
	    "[F62 510 0.97 B/c]" },
	  { NULL, NULL, NULL, NULL } },
	/* store-to-load forwarding (Prescott: 5.0 in the 64-bit run, 5.7 in
	 * the 32-bit one [F43 80]); the chain closed by a reload at the end
	 * of each iteration (1/32 of a load more than the measured chain) */
	{ "add [m32], r32 (chain through memory, iterations chained by a reload)", k_addm_reload,
	  D_WORD, 50, 32, TOL_CORE,
	  { 8.8, 5.0, 8.9, 5.1 }, { 0, 0, 0, 0 },
	  { "[F29 80 \"ADD [m32], r32\"]",
	    "[F43X64 80 \"ADD [m32], r32\"]",
	    "[F13 80 \"ADD [m32], r32\"]",
	    "[F62 80]" },
	  { NULL, NULL, NULL, NULL } },
	/* the plain chain: each loop iteration (a superblock run) reads the
	 * dword the previous one's last add stored (forwarding across runs,
	 * nb_tmbuild.c) */
	{ "add [m32], r32 (chain through memory)", k_addm, D_WORD, 50, 32, TOL_CORE,
	  { 8.8, 5.0, 8.9, 5.1 }, { 0, 0, 0, 0 },
	  { "[F29 80 \"ADD [m32], r32\"]",
	    "[F43X64 80 \"ADD [m32], r32\"]",
	    "[F13 80 \"ADD [m32], r32\"]",
	    "[F62 80]" },
	  { NULL, NULL, NULL, NULL } },
	/* another instruction's chain through memory, measured apart from
	 * row 80 (whose figure NB_TM_FWD was derived from) */
	{ "add [m32], imm8 (chain through memory)", k_addmi, D_WORD, 50, 32, TOL_CORE,
	  { 8.8, 5.0, 8.9, 5.0 }, { 0, 0, 0, 0 },
	  { "[F29 99 \"ADD [m32], imm8\"]",
	    "[F43X64 99 \"ADD [m32], imm8\"]",
	    "[F13 99 \"ADD [m32], imm8\"]",
	    "[F62X64 99 \"ADD [m32], imm8\"]" },
	  { NULL, NULL, NULL, NULL } },
	{ "x87 fsqrt (extended precision)", k_fsqrt, D_NONE, 20, 32, TOL_CORE,
	  { 43.0, 45.0, 43.0, 45.0 }, { 0, 0, 0, 0 },
	  { "[F29 595 \"FSQRT80 (1.0l)\"]",
	    "[F43 595 \"FSQRT80 (1.0l)\"]",
	    "[F13 595 \"FSQRT80 (1.0l)\"]",
	    "[F62 595]" },
	  { NULL, NULL, NULL, NULL } },
	{ "psadbw xmm, xmm", k_psadbw, D_NONE, 100, 32, TOL_CORE,
	  { 4.0, 4.0, 4.0, 4.0 }, { 0, 0, 0, 0 },
	  { "[F29 1140 \"PSADBW xmm, xmm\"]",
	    "[F43 1474 \"PSADBW xmm, xmm\"]",
	    "[F13 1140 \"PSADBW xmm, xmm\"]",
	    "[F62 1140]" },
	  { NULL, NULL, NULL, NULL } },
	{ "psadbw mm, mm", k_psadbw_mm, D_NONE, 100, 32, TOL_CORE,
	  { 4.0, 4.0, 4.0, 4.0 }, { 0, 0, 0, 0 },
	  { "[F29 763 \"PSADBW mm, mm\"]",
	    "[F43 765 \"PSADBW mm, mm\"]",
	    "[F13 763 \"PSADBW mm, mm\"]",
	    "[F62 763]" },
	  { NULL, NULL, NULL, NULL } },
	{ "psadbw mm, mm (throughput, 7 chains)", k_psadbw_mm_tp, D_NONE, 100, 32, TOL_CORE,
	  { 1.0, 1.0, 1.0, 1.0 }, { 0, 0, 0, 0 },
	  { "[F29 763 \"PSADBW mm, mm\" T]",
	    "[F43 765 \"PSADBW mm, mm\" T]",
	    "[F13 763 \"PSADBW mm, mm\" T]",
	    "[F62 763 T]" },
	  { NULL, NULL, NULL, NULL } },
	/* throughput rows: the "T" column, cycles per operation of eight
	 * independent chains */
	{ "paddd xmm, xmm (throughput)", k_paddd_tp, D_NONE, 100, 32, TOL_CORE,
	  { 2.0, 2.0, 2.0, 2.0 }, { 0, 0, 0, 0 },
	  { "[F29 1013 \"PADDD xmm, xmm\" T]",
	    "[F43 1234 \"PADDD xmm, xmm\" T]",
	    "[F13 1013 \"PADDD xmm, xmm\" T]",
	    "[F62 1013 T]" },
	  { NULL, NULL, NULL, NULL } },
	{ "pmullw xmm, xmm (throughput)", k_pmullw_tp, D_NONE, 100, 32, TOL_CORE,
	  { 2.0, 2.0, 2.0, 2.0 }, { 0, 0, 0, 0 },
	  { "[F29 1062 \"PMULLW xmm, xmm\" T]",
	    "[F43 1332 \"PMULLW xmm, xmm\" T]",
	    "[F13 1062 \"PMULLW xmm, xmm\" T]",
	    "[F62 1062 T]" },
	  { NULL, NULL, NULL, NULL } },
	{ "paddd mm, mm (throughput)", k_paddd_mm_tp, D_NONE, 100, 32, TOL_CORE,
	  { 1.0, 1.0, 1.0, 1.0 }, { 0, 0, 0, 0 },
	  { "[F29 643 \"PADDD mm, mm\" T]",
	    "[F43 643 \"PADDD mm, mm\" T]",
	    "[F13 643 \"PADDD mm, mm\" T]",
	    "[F62 643 T]" },
	  { NULL, NULL, NULL, NULL } },
	{ "L1D load-to-use (mov r, [r] chase)", k_chase, D_L1, 200, 32, TOL_CORE,
	  { 2.0, 4.0, 2.0, 4.0 }, { 0, 0, 0, 0 },
	  { "[F29 26 \"MOV r32, [m32]\"]",
	    "[F43 26 \"MOV r32, [m32]\"]",
	    "[F13 26 \"MOV r32, [m32]\"]",
	    "[F62 26]" },
	  { NULL, NULL, NULL, NULL } },
	/* L2: a 128 KB block (larger than the L1D, within the L2 and the
	 * DTLB's reach), 256 B stride (every load a new L1D line, past the
	 * L2's 128 B sector pair) */
	{ "L2 load-to-use (chase, 128 KB, stride 256)", k_chase, D_L2, 50, 32, TOL_L2,
	  { 18.0, 28.0, 18.0, 28.0 }, { 0, 0, 0, 0 },
	  { "[F29M \"BlockRandom Read Latency\" 128.0K row: 18]",
	    "[F43M \"BlockRandom Read Latency\" 128.0K row: 28]",
	    "[F13M \"BlockRandom Read Latency\" 128.0K row: 18]",
	    "[F62M \"BlockRandom Read Latency\" 128.0K row: 27-28]" },
	  { NULL, NULL, NULL, NULL } },
	/* memory: 16 MB, 1 KB stride, as the tables' "Mem latency" line */
	{ "memory load-to-use (chase, 16 MB, stride 1 KB)", k_chase, D_MEM, 10, 32, TOL_MEM,
	  { 0, 0, 0, 0 }, { 111.219, 93.993, 159.764, 80.387 },
	  { "[F29M \"Mem latency: 111.219ns\"]",
	    "[F43M \"Mem latency: 93.993ns\"]",
	    "[F13M \"Mem latency: 159.764ns\"]",
	    "[F62M \"Mem latency: 80.387ns\"]" },
	  { NULL, NULL, NULL, NULL } },
};

static const struct cnt CYC = { NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1 };

int main(int argc, char **argv)
{
	static const char *const models[4] = { "northwood", "prescott", "willamette", "cedarmill" };
	static const double ghz[4] = { 2.8, 3.4, 2.0, 3.6 };    /* nb_cpu.c */
	int m = -1;

	for (int i = 0; i < 4; i++)
		if (argc > 1 && !strcmp(argv[1], models[i]))
			m = i;
	if (m < 0 || !nbsim_present()) {
		printf("1..0 # SKIP needs nbsim and a model argument (northwood|prescott|willamette|cedarmill)\n");
		return 0;
	}
	tap_plan((int)(sizeof rows / sizeof rows[0]) + 5);

	char *word = fresh(64);
	char *self = fresh(64);
	memcpy(self, &self, sizeof self);
	char *cur_l1 = fresh(8), *cur_l2 = fresh(8), *cur_mem = fresh(8);
	memcpy(cur_l1, &self, sizeof self);
	char *l2ring = ring(128 * 1024 / 256, 256);
	memcpy(cur_l2, &l2ring, sizeof l2ring);
	char *memring = ring(16 * 1024, 1024);
	memcpy(cur_mem, &memring, sizeof memring);
	char *buf = fresh(2048);
	char *data[] = { NULL, word, cur_l1, cur_l2, cur_mem, buf };

	for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];
		double want = r->want[m] ? r->want[m] : r->ns[m] * ghz[m];
		uint64_t d = guest_diff(&CYC, NULL, NULL, r->fn, data[r->data], r->n1, 3 * r->n1);
		double got = (double)d / (2.0 * r->n1 * r->k);
		int ok = got >= want * (1 - r->tol) && got <= want * (1 + r->tol);
		char what[160];

		if (r->ns[m])
			snprintf(what, sizeof what, "%.1f ns at %.1f GHz = %.0f cycles", r->ns[m],
				 ghz[m], want);
		else
			snprintf(what, sizeof what, want < 1 ? "%.3f cycles" : "%.1f cycles", want);
		if (r->todo[m])
			tap_ok_todo(ok, r->todo[m], "%s: simulated %.3f cycles per link, measured %s %s "
				    "(%.0f%%)", r->what, got, what, r->src[m], r->tol * 100);
		else
			tap_ok(ok, "%s: simulated %.3f cycles per link, measured %s %s (%.0f%%)",
			       r->what, got, what, r->src[m], r->tol * 100);
	}

	/* the bus's limit: 8 bytes x the transfer rate (400 MT/s on
	 * Willamette, 800 on the others: sim/cpu/nb_bus.c), in bytes per
	 * core cycle.  A copy from memory reads and writes each byte (the
	 * limit of the bytes it copies is half the bus's), and with the
	 * destination's read for ownership puts 3 bytes on the bus a byte
	 * copied: bound by the bus, it moves them at the bus's rate (5%).
	 * The triad puts 32 bytes on the bus (its RFO's 8 with STREAM's
	 * 24) an element: at or under the bus; it is bound by the window
	 * (the misses the 126 uops in flight reach: no hardware prefetcher
	 * is modelled), over a quarter of the bus */
	static const double mts[4] = { 800, 800, 400, 800 };
	double fsb = 8 * mts[m] / (ghz[m] * 1000);
	bw_src = fresh(BW_BYTES);
	bw_dst = fresh(BW_BYTES);
	uint64_t d = guest_diff(&CYC, NULL, NULL, k_movsb_mem, NULL, 1024, 3 * 1024);
	double cp = (double)(2 << 20) / (double)d;      /* bytes copied a cycle */
	tap_ok(2 * cp <= fsb, "rep movsb, 2 MB from memory: %.3f bytes a cycle copied, %.3f read and "
	       "written, at or under the bus's %.3f (%.0f MT/s x 8 B at %.1f GHz)", cp, 2 * cp, fsb,
	       mts[m], ghz[m]);
	tap_ok(3 * cp >= fsb * 0.95 && 3 * cp <= fsb * 1.05, "rep movsb, 2 MB from memory: %.3f bytes "
	       "a cycle on the bus with the reads for ownership, the bus's %.3f (5%%)", 3 * cp, fsb);
	/* stores alone: each byte stored is read for ownership and
	 * written back, 2 bytes on the bus; the front end waits for the
	 * bus (it ran at the string engine's 4.25 bytes a cycle before) */
	st_dst = fresh(BW_BYTES);
	d = guest_diff(&CYC, NULL, NULL, k_stosb_mem, NULL, 1024, 3 * 1024);
	double st = (double)(2 << 20) / (double)d;      /* bytes stored a cycle */
	tap_ok(2 * st >= fsb * 0.95 && 2 * st <= fsb * 1.05, "rep stosb, 2 MB to memory: %.3f bytes a "
	       "cycle stored, %.3f on the bus with the reads for ownership, the bus's %.3f (5%%)", st,
	       2 * st, fsb);
	tr_a = (double *)(void *)fresh(BW_BYTES);
	tr_b = (double *)(void *)fresh(BW_BYTES);
	tr_c = (double *)(void *)fresh(BW_BYTES);
	d = guest_diff(&CYC, NULL, NULL, k_triad_mem, NULL, 1024, 3 * 1024);
	double tr = 24.0 * 2 * 1024 * 128 / (double)d;    /* STREAM's bytes a cycle */
	tap_ok(tr * 32 / 24 <= fsb, "triad, 3 x 2 MB from memory: %.3f bytes a cycle as STREAM counts "
	       "them (%.2f GB/s), %.3f on the bus, at or under the bus's %.3f", tr, tr * ghz[m],
	       tr * 32 / 24, fsb);
	tap_ok(tr * 32 / 24 >= fsb / 4, "triad from memory: %.3f bytes a cycle on the bus, over a "
	       "quarter of the bus's %.3f", tr * 32 / 24, fsb);
	return tap_done();
}
