/*
 * t_replay.c - replay tagging and the cache model under nbsim (TAP).
 * Run on the Northwood model (t_replay.sh: nbsim --model=northwood).
 *
 * replay_event:NBOGUS with IA32_PEBS_ENABLE = 0x01000001 and
 * MSR_PEBS_MATRIX_VERT = 1 counts 1stL_cache_load_miss_retired: retired load
 * uops that missed the L1D; with PEBS_ENABLE = 0x01000002,
 * 2ndL_cache_load_miss_retired (missed the L2).  Checked by the difference
 * method (N1, N2 loads after warm-up):
 *  - Sprunt's l1_miss experiment [seed 000, IEEE Micro 2002]: a pointer
 *    chain through 8 locations 8 KB apart (mov (%rax), %rax) thrashes the
 *    8 KB 4-way L1D: every load misses; the L2 holds them;
 *  - 4 locations 8 KB apart fit the set: no miss;
 *  - a 64 KB array read with a 64-byte stride: every load misses the L1D,
 *    none the L2 (512 KB);
 *  - a 1 MB array, stride 128 bytes: misses both (L2 512 KB);
 *  - a 64 KB array, stride 64, with PEBS_ENABLE bit 24 clear: nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nbsim_client.h"
#include "nb_events.h"
#include "guest.h"

#define N1 8000
#define N2 24000

/* n dependent loads following the chain from p */
static __attribute__((noinline)) void chase(void *p, uint64_t n)
{
	__asm__ volatile(
		"1:\n\t"
		"mov (%[p]), %[p]\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [p] "+r"(p), [n] "+r"(n)
		:
		: "memory", "cc");
}

/* replay_event:NBOGUS on counter 16 (CRU_ESCR2), loads of chase(p, n) */
static int measure(void *p, uint64_t n, uint64_t pebs, uint64_t *out)
{
	uint64_t escr = ((uint64_t)nb_events[NB_EV_REPLAY_EVENT].event_select << NB_ESCR_EVSEL_SHIFT) |
		(UINT64_C(1) << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR;
	uint64_t cccr = NB_CCCR_ENABLE |
		((uint64_t)nb_escrs[NB_ESCR_CRU_ESCR2].select << NB_CCCR_ESCRSEL_SHIFT) |
		((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT);
	int ok = guest_wrmsr(NB_MSR_IA32_PEBS_ENABLE, pebs) && guest_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 1) &&
		guest_wrmsr(nb_escrs[NB_ESCR_CRU_ESCR2].msr, escr) && guest_wrmsr(nb_counters[16].msr, 0) &&
		guest_wrmsr(nb_counters[16].cccr_msr, cccr);
	if (!ok)
		return 0;
	chase(p, n);
	return guest_wrmsr(nb_counters[16].cccr_msr, 0) && nbsim_rdmsr(nb_counters[16].msr, out) == NBSIM_OK;
}

/* warm-up, N1, N2: the difference of the counts */
static uint64_t diff(void *p, uint64_t pebs, int *ok)
{
	uint64_t w, x, y;
	*ok = measure(p, N1, pebs, &w) && measure(p, N1, pebs, &x) && measure(p, N2, pebs, &y);
	return y - x;
}

/* a cyclic chain of k pointers, stride bytes apart, in buf */
static void *ring(char *buf, unsigned k, unsigned stride)
{
	for (unsigned i = 0; i < k; i++)
		*(void **)(buf + (size_t)i * stride) = buf + (size_t)((i + 1) % k) * stride;
	return buf;
}

#define L1MISS 0x01000001u
#define L2MISS 0x01000002u

int main(void)
{
	struct nbsim_info inf;
	char *buf = aligned_alloc(4096, 1 << 20);
	int ok;
	uint64_t d;

	if (!tap_ok(nbsim_present(), "running under nbsim"))
		return 1;
	memset(&inf, 0, sizeof inf);
	tap_ok(nbsim_info(&inf) == NBSIM_OK && inf.model == 2,
	       "model 2 (Northwood: 8 KB 4-way L1D, 512 KB L2): %s", inf.model_name);

	d = diff(ring(buf, 8, 8192), L1MISS, &ok);
	TAP_EQ(ok ? d : ~0ULL, N2 - N1,
	       "Sprunt l1_miss: 8 loads 8 KB apart: every load misses the L1D (%d)", N2 - N1);
	d = diff(ring(buf, 8, 8192), L2MISS, &ok);
	TAP_EQ(ok ? d : ~0ULL, 0, "... and hits the L2: 2ndL_cache_load_miss_retired 0");
	d = diff(ring(buf, 4, 8192), L1MISS, &ok);
	TAP_EQ(ok ? d : ~0ULL, 0, "4 loads 8 KB apart fit the 4-way set: no L1D miss");
	d = diff(ring(buf, 5, 8192), L1MISS, &ok);
	TAP_EQ(ok ? d : ~0ULL, N2 - N1, "5 loads 8 KB apart: LRU misses every time");
	d = diff(ring(buf, 1024, 64), L1MISS, &ok);
	TAP_EQ(ok ? d : ~0ULL, N2 - N1, "64 KB, stride 64: every load misses the L1D");
	d = diff(ring(buf, 1024, 64), L2MISS, &ok);
	TAP_EQ(ok ? d : ~0ULL, 0, "64 KB, stride 64: no L2 miss");
	d = diff(ring(buf, 8192, 128), L2MISS, &ok);
	TAP_EQ(ok ? d : ~0ULL, N2 - N1, "1 MB, stride 128: every load misses the 512 KB L2");
	d = diff(ring(buf, 128, 64), L1MISS, &ok);
	TAP_EQ(ok ? d : ~0ULL, 0, "8 KB, stride 64: fits the L1D, no miss");
	d = diff(ring(buf, 1024, 64), L1MISS & ~(1u << 24), &ok);
	TAP_EQ(ok ? d : ~0ULL, 0, "PEBS_ENABLE bit 24 clear: replay_event counts nothing");
	guest_wrmsr(NB_MSR_IA32_PEBS_ENABLE, 0);
	guest_wrmsr(NB_MSR_MSR_PEBS_MATRIX_VERT, 0);
	free(buf);
	return tap_done_plan();
}
