/*
 * t_coverage.c - guest for tests/sim/t_sim_coverage.t: does nbsim produce what
 * sim/coverage.txt claims?
 *
 * Reads lines "EVENT:MASK STATUS" (gen_coverage.pl --list) on stdin.  For
 * each mask that exists on the running model it programs one counter for
 * that event and mask alone (the IOQ and BSQ events: the mask within a
 * selection of everything else, test_mask), runs a workload that exercises every part of
 * the CPU model (loads and stores missing the L1D, every FP/SIMD class and
 * moves, random conditional branches, alternating indirect calls and jumps,
 * returns deeper than the return stack, REP strings, cpuid, 272 KB of
 * straight-line code, loads the store buffer blocks or cancels, stores
 * whose RFOs miss every level and evict Modified lines, non-temporal
 * stores to more lines than there are WC buffers), and prints
 *     count EVENT:MASK N
 * or "skip EVENT:MASK (reason)" for a mask the model lacks.  The caller
 * checks N > 0 for exact/modelled masks and N == 0 (and nbsim's warning)
 * for not-modelled ones.  Tagging is on for the whole run: front-end
 * (uop_type TAGLOADS+TAGSTORES on RAT_ESCR0), execution (packed_SP_uop ALL,
 * TagValue 0xf on FIRM_ESCR0) and replay (1stL_cache_load_miss_retired:
 * IA32_PEBS_ENABLE 0x01000001, MATRIX_VERT 1), so the downstream events
 * count.
 */
#include <stdio.h>
#include <string.h>
#include "nbsim_client.h"
#include "nb_events.h"

static unsigned model, l3;
static char big[256 * 1024] __attribute__((aligned(64)));
static char src[64], dst[64];
/* two 768 KB buffers: together larger than the L2 of the models tested here
 * (prescott 1 MB, xeonmp 512 KB), smaller than the xeonmp's 2 MB L3
 * (sim/README.md "Cache model") */
static char rd[768 * 1024] __attribute__((aligned(128)));
static char wr_buf[768 * 1024] __attribute__((aligned(128)));
/* never-touched sectors for every call (misses in every level): 64 per call */
static char cold[32 * 1024 * 1024] __attribute__((aligned(128)));
/* 16 lines 256 KB apart: one set of the L2 (1 MB: 1024 sets of 128 bytes;
 * 512 KB: 512) and of the L3 (2 MB: 2048 sets), 8 ways each: a store to
 * each misses every level (RFOs) and evicts a Modified line (writebacks) */
#define CONFLICT_STRIDE (256 * 1024)
static char conflict[16 * CONFLICT_STRIDE] __attribute__((aligned(128)));
/* a store and a load 4 MB + 16 bytes apart (store buffer aliasing) */
static char alias_buf[4 * 1024 * 1024 + 128] __attribute__((aligned(128)));
static size_t cold_at;
/* non-temporal stores: 9 lines, more than the 6 or 8 WC buffers */
static char nt_buf[10 * 64] __attribute__((aligned(64)));
static volatile uint64_t lcg = 12345;
/* FP assist operands: a denormal (2^-1024), 1.0, 1e-200, 1e200, a result */
static double fpa_ops[5] = { 0x1p-1024, 1.0, 1e-200, 1e200, 0 };

__asm__(".text\n\t.type cov_leaf1,@function\ncov_leaf1:\n\tret\n\t"
	".type cov_leaf2,@function\ncov_leaf2:\n\tnop\n\tret\n");
void cov_leaf1(void);
void cov_leaf2(void);

static void (*volatile leaf[2])(void) = { cov_leaf1, cov_leaf2 };

/* depth 24 > the 16-entry return stack: the outer returns mispredict */
static __attribute__((noinline)) int deep(int n)
{
	int r = n ? deep(n - 1) + 1 : 0;
	__asm__ volatile("" : "+r"(r) : : "memory");
	return r;
}

/* 68000 one-uop instructions (272 KB of code, 68 pages): more trace lines
 * than the 12K-uop trace cache and more pages than the 64-entry ITLB hold,
 * so every call misses both (trace-cache builds, ITLB misses, page walks) */
__asm__(".text\n\t.type cov_bigcode,@function\ncov_bigcode:\n\t"
	".rept 68000\n\tadd $1, %rax\n\t.endr\n\tret\n\t.size cov_bigcode, .-cov_bigcode\n");
void cov_bigcode(void);

static __attribute__((noinline)) void workload(void)
{
	uint64_t x, y, t = 0;

	/* the memory hierarchy: a load per 128-byte sector of rd (L2 misses;
	 * L3 hits in E state on xeonmp), then of wr_buf, which the previous
	 * call wrote (L3 hits in M state), then a store per sector of wr_buf;
 * 64 sectors of cold never read before (misses in every level);
	 * one split load and one split store (crossing a 64-byte line) */
	for (size_t j = 0; j < sizeof rd; j += 128)
		__asm__ volatile("mov (%[p]), %[t]" : [t] "+r"(t) : [p] "r"(rd + j) : "memory");
	for (size_t j = 0; j < sizeof wr_buf; j += 128)
		__asm__ volatile("mov (%[p]), %[t]" : [t] "+r"(t) : [p] "r"(wr_buf + j) : "memory");
	for (size_t j = 0; j < sizeof wr_buf; j += 128)
		__asm__ volatile("mov %[t], (%[p])" : : [t] "r"(t), [p] "r"(wr_buf + j) : "memory");
	for (unsigned j = 0; j < 64; j++, cold_at = (cold_at + 128) % sizeof cold)
		__asm__ volatile("mov (%[p]), %[t]" : [t] "+r"(t) : [p] "r"(cold + cold_at) : "memory");
	__asm__ volatile("mov 60(%[p]), %[t]\n\tmov %[t], 124(%[p])"
			 : [t] "+r"(t) : [p] "r"(big) : "memory");
	/* the bus (sim/README.md "Bus model"): RFOs missing every level and
	 * Modified victims written back, in one L2 and L3 set */
	for (unsigned j = 0; j < 16; j++)
		__asm__ volatile("mov %[t], (%[p])" : : [t] "r"(t), [p] "r"(conflict + j * CONFLICT_STRIDE) : "memory");
	/* the store buffer (sim/README.md "Store buffer"): a 4-byte load at +2
	 * of an 8-byte store (UNALGN_ADDR), an 8-byte load of a 4-byte store
	 * (PARTIAL_DATA), a load 4 MB + 16 after a store (the same address bits
	 * 21:6, so also 15:6: 64K_CONF on every model) */
	__asm__ volatile("mov %[t], (%[p])\n\tmovl 2(%[p]), %k[t]\n\t"
			 "movl %k[t], 8(%[p])\n\tmov 8(%[p]), %[t]\n\t"
			 "mov %[t], 16(%[p])\n\tmov 4194336(%[p]), %[t]"
			 : [t] "+r"(t) : [p] "r"(alias_buf) : "memory");

	/* the WC buffers (sim/README.md "Write-combining buffers"): movnti to
	 * 9 lines (no free buffer for the 7th or 9th), 4 x movntdq filling
	 * a line, sfence */
	for (unsigned j = 0; j < 9; j++)
		__asm__ volatile("movnti %[t], (%[p])" : : [t] "r"(t), [p] "r"(nt_buf + 64 * j)
				 : "memory");
	__asm__ volatile("pxor %%xmm7, %%xmm7\n\tmovntdq %%xmm7, (%[p])\n\t"
			 "movntdq %%xmm7, 16(%[p])\n\tmovntdq %%xmm7, 32(%[p])\n\t"
			 "movntdq %%xmm7, 48(%[p])\n\tsfence"
			 : : [p] "r"(nt_buf + 64 * 9) : "xmm7", "memory");

	for (unsigned i = 0; i < 200; i++) {
		/* loads (stride 64 over 256 KB: L1D misses) and stores */
		__asm__ volatile("mov (%[p]), %[t]\n\tadd %[t], 8(%[p])\n\tmov %[t], 16(%[p])\n\t"
				 : [t] "+r"(t) : [p] "r"(big + (i * 1088) % sizeof big) : "memory");
		/* every FP/SIMD class and x87/SIMD moves */
		__asm__ volatile("fld1\n\tfld1\n\tfadd %%st(1), %%st\n\tfstp %%st(0)\n\tfstp %%st(0)\n\t"
				 "addss %%xmm1, %%xmm0\n\taddsd %%xmm1, %%xmm0\n\t"
				 "mulps %%xmm2, %%xmm2\n\taddpd %%xmm1, %%xmm3\n\t"
				 "paddd %%mm0, %%mm1\n\temms\n\tpaddd %%xmm3, %%xmm4\n\t"
				 "movaps (%[p]), %%xmm5\n\tmovaps %%xmm5, 16(%[p])\n\t"
				 : : [p] "r"(big) : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
				   "xmm5", "mm0", "mm1", "memory");
		/* FP assists: addsd of a denormal (SSE_input_assist); x87 fadd
		 * m64 of a denormal (PREA), a product below the double range
		 * (POAU) and above it (POAO) */
		__asm__ volatile("movsd 8(%[f]), %%xmm6\n\taddsd (%[f]), %%xmm6\n\t"
				 "fld1\n\tfaddl (%[f])\n\tfstp %%st(0)\n\t"
				 "fldl 16(%[f])\n\tfmull 16(%[f])\n\tfstpl 32(%[f])\n\t"
				 "fldl 24(%[f])\n\tfmull 24(%[f])\n\tfstpl 32(%[f])\n\t"
				 : : [f] "r"(fpa_ops) : "xmm6", "st", "memory");
		/* a 50/50 conditional branch (mispredicts) */
		lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
		if ((int64_t)lcg < 0)
			t++;
		/* indirect calls alternating between two targets (mispredict) */
		leaf[i & 1]();
		/* indirect jmp alternating between two targets */
		__asm__ volatile("lea 2f(%%rip), %[x]\n\tlea 3f(%%rip), %[y]\n\t"
				 "test $1, %[i]\n\tcmovnz %[y], %[x]\n\t"
				 "jmp *%[x]\n\t2:\n\tnop\n\t3:\n\t"
				 : [x] "=&r"(x), [y] "=&r"(y) : [i] "r"((uint64_t)i) : "cc");
		/* MS ROM: rep movsb, cpuid */
		__asm__ volatile("mov $16, %%rcx\n\tmov %[s], %%rsi\n\tmov %[d], %%rdi\n\t"
				 "rep movsb\n\txor %%eax, %%eax\n\tcpuid\n\t"
				 : : [s] "r"(src), [d] "r"(dst)
				 : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "memory");
		if (i % 20 == 0)
			t += (uint64_t)deep(24);
	}
	__asm__ volatile("call cov_bigcode" : : : "rax", "memory", "cc");
	__asm__ volatile("" : : "r"(t));
}

static int wr(uint32_t msr, uint64_t v)
{
	if (nbsim_wrmsr(msr, v) != NBSIM_OK) {
		char why[200];
		nbsim_last_fault(why, sizeof why);
		printf("error WRMSR %#x: %s\n", msr, why);
		return 0;
	}
	return 1;
}

static void tagging(void)
{
	uint64_t t = NB_ESCR_T0_USR;
	wr(nb_escrs[NB_ESCR_RAT_ESCR0].msr,
	   ((uint64_t)nb_events[NB_EV_UOP_TYPE].event_select << NB_ESCR_EVSEL_SHIFT) |
	   (UINT64_C(6) << NB_ESCR_EMASK_SHIFT) | t);
	wr(nb_escrs[NB_ESCR_FIRM_ESCR0].msr,
	   ((uint64_t)nb_events[NB_EV_PACKED_SP_UOP].event_select << NB_ESCR_EVSEL_SHIFT) |
	   (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + 15)) | NB_ESCR_TAG_ENABLE |
	   (UINT64_C(0xf) << NB_ESCR_TAG_SHIFT) | t);
	wr(NB_MSR_IA32_PEBS_ENABLE, 0x01000001);
	wr(NB_MSR_MSR_PEBS_MATRIX_VERT, 1);
}

/*
 * The ESCR event mask that tests mask bit `bit` of event ev.  Most events
 * add their mask bits; the IOQ and BSQ events combine them (sim/README.md
 * "Bus model"): IOQ_allocation / IOQ_active_entries need a request type,
 * a read/write bit, a memory type and an agent at once (CPUID model >= 2,
 * the models tested here), so the bit replaces its own field in a mask
 * selecting every transaction of the model (type 00001, ALL_READ,
 * ALL_WRITE, MEM_WB, OWN, PREFETCH); BSQ_allocation / BSQ_active_entries
 * select one encoding per sub-group, so the bit is tested with an
 * encoding of the model's transactions that has it (read, prefetch read,
 * read-invalidate, writeback: 8 chunks, cacheable, WB, demand but the
 * prefetch), or the demand read's plus the bit if none has it.
 */
static uint32_t test_mask(unsigned ev, unsigned bit)
{
	static const uint32_t bsq[] = { 0x328c, 0x308c, 0x328d, 0x328f };
	uint32_t b = 1u << bit, m = 0x1u | (3u << 5) | (1u << 11) | (1u << 13) | (1u << 15);

	if (ev == NB_EV_IOQ_ALLOCATION || ev == NB_EV_IOQ_ACTIVE_ENTRIES) {
		if (bit <= 4)
			return (m & ~0x1fu) | b;
		if (bit <= 6)
			return (m & ~(3u << 5)) | b;
		if (bit <= 11)
			return (m & ~(0x1fu << 7)) | b;
		if (bit == 13 || bit == 14)
			return (m & ~(3u << 13)) | b;
		return m | b;
	}
	if (ev == NB_EV_BSQ_ALLOCATION || ev == NB_EV_BSQ_ACTIVE_ENTRIES) {
		for (unsigned i = 0; i < sizeof bsq / sizeof bsq[0]; i++)
			if (bsq[i] & b)
				return bsq[i];
		return bsq[0] | b;
	}
	return b;
}

static void one(const char *evname, const char *mname)
{
	int ev = -1, k = -1, escr = -1, ctr = -1;
	uint64_t v = 0;

	for (unsigned i = 0; i < nb_num_events; i++)
		if (!strcmp(nb_events[i].name, evname))
			ev = (int)i;
	if (ev < 0) {
		printf("error unknown event %s\n", evname);
		return;
	}
	for (unsigned i = 0; i < nb_events[ev].nmasks; i++)
		if (!strcmp(nb_events[ev].masks[i].name, mname))
			k = (int)i;
	if (k < 0) {
		printf("error unknown mask %s:%s\n", evname, mname);
		return;
	}
	if (!(nb_events[ev].models & (1u << model)) ||
	    !(nb_events[ev].masks[k].models & (1u << model))) {
		printf("skip %s:%s (not on model %u)\n", evname, mname, model);
		return;
	}
	if ((nb_events[ev].masks[k].features & NB_FEAT_L3) && !l3) {
		printf("skip %s:%s (needs an L3)\n", evname, mname);
		return;
	}
	for (unsigned i = 0; i < nb_events[ev].nescrs && escr < 0; i++) {
		unsigned e = nb_events[ev].escrs[i];
		if (e == NB_ESCR_RAT_ESCR0 || e == NB_ESCR_FIRM_ESCR0 ||
		    !(nb_escrs[e].models & (1u << model)))
			continue;
		escr = (int)e;
	}
	if (escr < 0) {
		printf("error no ESCR for %s\n", evname);
		return;
	}
	for (unsigned c = 0; c < NB_NUM_COUNTERS && ctr < 0; c++)
		if (nb_escrs[escr].counters & (1u << c))
			ctr = (int)c;
	if (!wr(nb_escrs[escr].msr,
		((uint64_t)nb_events[ev].event_select << NB_ESCR_EVSEL_SHIFT) |
		((uint64_t)test_mask((unsigned)ev, nb_events[ev].masks[k].bit) << NB_ESCR_EMASK_SHIFT) |
		NB_ESCR_T0_USR) ||
	    !wr(nb_counters[ctr].msr, 0) ||
	    !wr(nb_counters[ctr].cccr_msr, NB_CCCR_ENABLE |
		((uint64_t)nb_escrs[escr].select << NB_CCCR_ESCRSEL_SHIFT) |
		((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT)))
		return;
	workload();
	wr(nb_counters[ctr].cccr_msr, 0);
	if (nbsim_rdmsr(nb_counters[ctr].msr, &v) != NBSIM_OK) {
		printf("error RDMSR counter %d\n", ctr);
		return;
	}
	wr(nb_escrs[escr].msr, 0);
	printf("count %s:%s %llu\n", evname, mname, (unsigned long long)v);
	fflush(stdout);
}

int main(void)
{
	struct nbsim_info inf;
	char line[256];

	if (!nbsim_present() || nbsim_info(&inf) != NBSIM_OK) {
		printf("error not running under nbsim\n");
		return 1;
	}
	model = inf.model;
	l3 = inf.l3_kb != 0;
	tagging();
	workload();             /* warm the caches of the code, lazy binding */
	while (fgets(line, sizeof line, stdin)) {
		char *colon = strchr(line, ':'), *sp;
		if (!colon || !(sp = strchr(colon, ' ')))
			continue;
		*colon = 0;
		*sp = 0;
		one(line, colon + 1);
	}
	return 0;
}
