/*
 * t_wc.c - WC_Buffer under nbsim: the write-combining buffer model (TAP),
 * on Northwood (t_wc.sh: 6 WC buffers) and Prescott (t_wc_prescott.sh:
 * 8) (README "Write-combining buffers", nb_wcb.c).
 *
 * Every count is a difference: the same kernel at N1 and N2 iterations
 * (after a warm-up run), each run starting with empty WC buffers (an
 * sfence before the counter starts), so set-up and register accesses
 * cancel.  Kernels (inline asm, per iteration):
 *   dq4       4 x movntdq filling one line               1 eviction (full line)
 *   nti8      8 x movnti (8 bytes) filling one line        1 (full line)
 *   mask4     4 x maskmovdqu (all bytes) filling one line  1 (full line)
 *   rr7, rr9  one movnti to each of 7 (9) lines, offset 0: 7 (9) no-free
 *             evictions with 6 buffers; with 8: 0 (9)
 *   sfence, mfence, lock, xchg, cpuid: movnti, then the instruction: 1
 *   lfence    movnti, lfence: 0 (lfence does not empty the buffers)
 *   merge     movnti to p and p + 8, sfence: 1
 *   split     movnti at p, movnti at p + 124 (two more lines), sfence: 3
 *   plain     mov (a write-back store), sfence: 0 (not modelled, README)
 * WCB_EVICTS (DAC_ESCR0, counter 8), WCB_FULL_EVICT (DAC_ESCR1, counter
 * 10), and both masks on one counter.  Then the caches: a load of a line
 * the loop wrote with movnti misses the L1D and the L2 every iteration
 * (the non-temporal store evicted it), after a plain store none
 * (1stL_/2ndL_cache_load_miss_retired; the WC model is on from the first
 * WC_Buffer count, as nbsim's needs only grow).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "guest.h"

#define N1 3000
#define N2 9000
#define DN (N2 - N1)

typedef guest_kern_fn kern_fn;

static __attribute__((noinline)) void dq4(char *p, uint64_t n)
{
	__asm__ volatile("pxor %%xmm0, %%xmm0\n\t"
			 "1:\n\t"
			 "movntdq %%xmm0, (%[p])\n\t"
			 "movntdq %%xmm0, 16(%[p])\n\t"
			 "movntdq %%xmm0, 32(%[p])\n\t"
			 "movntdq %%xmm0, 48(%[p])\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [p] "r"(p) : "memory", "cc", "xmm0");
}

static __attribute__((noinline)) void nti8(char *p, uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "movnti %[n], (%[p])\n\t"
			 "movnti %[n], 8(%[p])\n\t"
			 "movnti %[n], 16(%[p])\n\t"
			 "movnti %[n], 24(%[p])\n\t"
			 "movnti %[n], 32(%[p])\n\t"
			 "movnti %[n], 40(%[p])\n\t"
			 "movnti %[n], 48(%[p])\n\t"
			 "movnti %[n], 56(%[p])\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [p] "r"(p) : "memory", "cc");
}

/* maskmovdqu %xmm1 (mask: all ones), %xmm0 -> (%rdi) */
static __attribute__((noinline)) void mask4(char *p, uint64_t n)
{
	char *d;
	__asm__ volatile("pcmpeqb %%xmm1, %%xmm1\n\t"
			 "pxor %%xmm0, %%xmm0\n\t"
			 "1:\n\t"
			 "mov %[p], %%rdi\n\t"
			 "maskmovdqu %%xmm1, %%xmm0\n\t"
			 "add $16, %%rdi\n\t"
			 "maskmovdqu %%xmm1, %%xmm0\n\t"
			 "add $16, %%rdi\n\t"
			 "maskmovdqu %%xmm1, %%xmm0\n\t"
			 "add $16, %%rdi\n\t"
			 "maskmovdqu %%xmm1, %%xmm0\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), "=&D"(d) : [p] "r"(p) : "memory", "cc", "xmm0", "xmm1");
}

static __attribute__((noinline)) void rr7(char *p, uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "movnti %[n], (%[p])\n\t"
			 "movnti %[n], 64(%[p])\n\t"
			 "movnti %[n], 128(%[p])\n\t"
			 "movnti %[n], 192(%[p])\n\t"
			 "movnti %[n], 256(%[p])\n\t"
			 "movnti %[n], 320(%[p])\n\t"
			 "movnti %[n], 384(%[p])\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [p] "r"(p) : "memory", "cc");
}

static __attribute__((noinline)) void rr9(char *p, uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "movnti %[n], (%[p])\n\t"
			 "movnti %[n], 64(%[p])\n\t"
			 "movnti %[n], 128(%[p])\n\t"
			 "movnti %[n], 192(%[p])\n\t"
			 "movnti %[n], 256(%[p])\n\t"
			 "movnti %[n], 320(%[p])\n\t"
			 "movnti %[n], 384(%[p])\n\t"
			 "movnti %[n], 448(%[p])\n\t"
			 "movnti %[n], 512(%[p])\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [p] "r"(p) : "memory", "cc");
}

/* movnti, then an instruction INSN (p + 256: a word it may use) */
#define NT_THEN(name, insn, ...)						\
	static __attribute__((noinline)) void name(char *p, uint64_t n)	\
	{								\
		uint64_t t = 0;						\
		__asm__ volatile("1:\n\t"				\
				 "movnti %[n], (%[p])\n\t"		\
				 insn "\n\t"				\
				 "dec %[n]\n\t"				\
				 "jnz 1b\n\t"				\
				 : [n] "+r"(n), [t] "+r"(t)		\
				 : [p] "r"(p) : "memory", "cc", ##__VA_ARGS__);	\
	}
NT_THEN(nt_sfence, "sfence")
NT_THEN(nt_mfence, "mfence")
NT_THEN(nt_lfence, "lfence")
NT_THEN(nt_lock, "lock addq $1, 256(%[p])")
NT_THEN(nt_xchg, "xchg %[t], 256(%[p])")
NT_THEN(nt_merge, "movnti %[n], 8(%[p])\n\tsfence")
NT_THEN(nt_split, "movnti %[n], 124(%[p])\n\tsfence")

static __attribute__((noinline)) void nt_cpuid(char *p, uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "movnti %[n], (%[p])\n\t"
			 "xor %%eax, %%eax\n\t"
			 "cpuid\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [p] "r"(p) : "memory", "cc", "rax", "rbx", "rcx", "rdx");
}

/* a plain store then sfence: replaces the movnti of NT_THEN's loop */
static __attribute__((noinline)) void wb_store(char *p, uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "mov %[n], (%[p])\n\t"
			 "sfence\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n) : [p] "r"(p) : "memory", "cc");
}

/* the caches: load the line, then write it with movnti (or mov) */
static __attribute__((noinline)) void ld_nt(char *p, uint64_t n)
{
	uint64_t v;
	__asm__ volatile("1:\n\t"
			 "mov (%[p]), %[v]\n\t"
			 "movnti %[v], (%[p])\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [v] "=&r"(v) : [p] "r"(p) : "memory", "cc");
}

static __attribute__((noinline)) void ld_st(char *p, uint64_t n)
{
	uint64_t v;
	__asm__ volatile("1:\n\t"
			 "mov (%[p]), %[v]\n\t"
			 "mov %[v], (%[p])\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [v] "=&r"(v) : [p] "r"(p) : "memory", "cc");
}

/* each measured run starts with empty WC buffers */
static void empty_wcbs(void)
{
	__asm__ volatile("sfence" ::: "memory");
}

/* the difference method over N1 and N2 iterations (guest.h) */
static uint64_t diff(const struct cnt *c, const struct setup *s, kern_fn fn, char *p)
{
	return guest_diff(c, s, empty_wcbs, fn, p, N1, N2);
}

int main(void)
{
	struct nbsim_info inf;
	char *buf = aligned_alloc(4096, 1u << 16);
	unsigned bufs;
	/* WC_Buffer masks: WCB_EVICTS bit 0, WCB_FULL_EVICT bit 1 [events.txt] */
	const struct cnt evicts = { NB_ESCR_DAC_ESCR0, NB_EV_WC_BUFFER, 1u << 0 };
	const struct cnt full = { NB_ESCR_DAC_ESCR1, NB_EV_WC_BUFFER, 1u << 1 };
	const struct cnt both = { NB_ESCR_DAC_ESCR0, NB_EV_WC_BUFFER, 3 };
	const struct cnt replay = { NB_ESCR_CRU_ESCR2, NB_EV_REPLAY_EVENT, 1 };
	/* 1stL_ / 2ndL_cache_load_miss_retired [metrics.txt]: 0x01000001 / 1, 0x01000002 / 1 */
	const struct setup l1m = { 0x01000001, 1, { 0, 0, 0 } };
	const struct setup l2m = { 0x01000002, 1, { 0, 0, 0 } };
	struct kern { const char *name; kern_fn fn; uint64_t ev, full; };

	if (!tap_ok(nbsim_present() && buf, "running under nbsim"))
		return 1;
	memset(buf, 0, 1u << 16);
	memset(&inf, 0, sizeof inf);
	tap_ok(nbsim_info(&inf) == NBSIM_OK && (inf.model == 2 || inf.model == 3) && !inf.l3_kb,
	       "model 2 or 3 without L3 (Northwood or Prescott): %s", inf.model_name);
	/* [nb_wcb.c, OPTWC]: 6 WC buffers, 8 on model 3 */
	bufs = inf.model == 3 ? 8 : 6;
	{
		const struct kern kern[] = {
			{ "4 x movntdq fill a line", dq4, DN, 0 },
			{ "8 x movnti fill a line", nti8, DN, 0 },
			{ "4 x maskmovdqu (all bytes) fill a line", mask4, DN, 0 },
			{ "movnti to 7 lines round-robin", rr7, bufs < 7 ? 7 * DN : 0,
			  bufs < 7 ? 7 * DN : 0 },
			{ "movnti to 9 lines round-robin", rr9, 9 * DN, 9 * DN },
			{ "movnti, sfence", nt_sfence, DN, 0 },
			{ "movnti, mfence", nt_mfence, DN, 0 },
			{ "movnti, lfence (no flush)", nt_lfence, 0, 0 },
			{ "movnti, lock add", nt_lock, DN, 0 },
			{ "movnti, xchg with memory", nt_xchg, DN, 0 },
			{ "movnti, cpuid", nt_cpuid, DN, 0 },
			{ "2 x movnti to one line, sfence (merged)", nt_merge, DN, 0 },
			{ "movnti, movnti crossing a line, sfence", nt_split, 3 * DN, 0 },
			{ "mov (write-back), sfence", wb_store, 0, 0 },
		};
		for (unsigned i = 0; i < sizeof kern / sizeof kern[0]; i++) {
			char *p = buf + 4096;
			TAP_EQ(diff(&evicts, NULL, kern[i].fn, p), kern[i].ev,
			       "%s: WCB_EVICTS", kern[i].name);
			TAP_EQ(diff(&full, NULL, kern[i].fn, p), kern[i].full,
			       "%s: WCB_FULL_EVICT", kern[i].name);
			TAP_EQ(diff(&both, NULL, kern[i].fn, p), kern[i].ev + kern[i].full,
			       "%s: WCB_EVICTS|WCB_FULL_EVICT (one counter)", kern[i].name);
		}
	}
	/* the caches (the WC model is on since the first count above) */
	TAP_EQ(diff(&replay, &l1m, ld_nt, buf + 8192), DN,
	       "load, movnti to its line: the load misses the L1D every iteration");
	TAP_EQ(diff(&replay, &l2m, ld_nt, buf + 8192), DN,
	       "  and the L2 (the line left every cache)");
	TAP_EQ(diff(&replay, &l1m, ld_st, buf + 8192), 0, "load, mov to its line: no L1D miss");

	guest_wrmsr(NB_MSR_IA32_PEBS_ENABLE, 0);
	guest_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 0);
	return tap_done_plan();
}
