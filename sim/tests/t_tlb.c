/*
 * t_tlb.c - native unit test of the TLB model and the memory-hierarchy
 * parameters (nb_tlb.c) (TAP).
 */
#include <stdio.h>
#include "nb_tlb.h"
#include "nb_cpu.h"
#include "tap.h"

static struct nb_tlb t;

/* misses of `rounds` passes over k pages (one access per page) */
static unsigned pages(unsigned k, unsigned rounds)
{
	unsigned m = 0;
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned i = 0; i < k; i++)
			m += !nb_tlb_access(&t, 0x7f0000000000u + (uint64_t)i * 4096 + 8 * r);
	return m;
}

int main(void)
{
	tap_ok(!nb_tlb_init(&t, 0, 12) && !nb_tlb_init(&t, NB_TLB_MAX + 1, 12),
	       "0 or too many entries: refused");
	nb_tlb_init(&t, 64, 12);
	TAP_EQ(pages(64, 10), 64, "64 pages, 10 passes: 64 cold misses only (64 entries)");
	nb_tlb_init(&t, 64, 12);
	TAP_EQ(pages(65, 10), 650, "65 pages cyclically: LRU misses every access");
	nb_tlb_init(&t, 64, 12);
	tap_ok(!nb_tlb_access(&t, 0x1000) && nb_tlb_access(&t, 0x1fff) && !nb_tlb_access(&t, 0x2000),
	       "4 KB pages: same page hits, next page misses");
	/* LRU: fill 64, touch the first, one new page evicts the second */
	nb_tlb_init(&t, 64, 12);
	pages(64, 1);
	nb_tlb_access(&t, 0x7f0000000000u);
	nb_tlb_access(&t, 0x7f0000000000u + 64 * 4096);
	tap_ok(nb_tlb_access(&t, 0x7f0000000000u) && !nb_tlb_access(&t, 0x7f0000000000u + 4096),
	       "LRU: the least recently used page is replaced");

	/* every modelled part: CPUID leaf-2 descriptors 0x5b (DTLB 64) and
	 * 0x50 (ITLB 64) [SDM Vol. 2A], parameters present */
	for (unsigned i = 0; i < nb_num_cpu_models; i++) {
		const struct nb_cpu_model *m = &nb_cpu_models[i];
		const struct nb_mem_params *p = nb_mem_params_find(m->model, m->l3_kb != 0);
		uint32_t eax = m->leaf2[0];
		tap_ok(p && p->dtlb_entries == 64 && p->itlb_entries == 64 &&
		       ((eax >> 8) & 0xff) == 0x50 && ((eax >> 16) & 0xff) == 0x5b,
		       "%s: DTLB/ITLB 64 entries, leaf-2 descriptors 0x5b/0x50", m->name);
		tap_ok(p && p->l2_latency == (m->l2_kb <= 512 ? 7u : m->l2_kb == 1024 ? 18u : 20u) &&
		       (p->l3_latency != 0) == (m->l3_kb != 0) && p->mem_latency > 100,
		       "%s: L2 latency %u (IA-32 Opt. Manual Table 1-1), L3 %u, memory %u",
		       m->name, p ? p->l2_latency : 0, p ? p->l3_latency : 0, p ? p->mem_latency : 0);
	}
	tap_ok(!nb_mem_params_find(5, 0), "unknown CPUID model: no parameters");
	return tap_done_plan();
}
