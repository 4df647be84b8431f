/*
 * nb_tlb.c - TLB model and memory-hierarchy parameters (see nb_tlb.h).
 *
 * Sources:
 *  [SDM2]  Intel SDM Vol. 2A, CPUID leaf 2 descriptor table: every modelled
 *          part reports descriptor 0x5b (data TLB, 4 KB and 4 MB pages, 64
 *          entries, fully associative) and 0x50 (instruction TLB, 4 KB and
 *          2/4 MB pages, 64 entries) (nb_cpu.c leaf2 values).
 *  [OPT04] IA-32 Intel Architecture Optimization Reference Manual (2004),
 *          Table 1-1 "Pentium 4 and Intel Xeon Processor Cache Parameters":
 *          access latency (integer) of the L2: 7 clocks (CPUID models 0-2),
 *          18 (models 3, 4, 1 MB), 20 (2 MB, model 6); L3 14 clocks; and the
 *          text: "on the order of 12 processor cycles to get to the bus and
 *          back within the processor, and 6-12 bus cycles to access memory".
 *  Memory latency (model parameter): 12 + 12 bus cycles x the core/bus clock
 *  ratio of the part in nb_cpu.c (bus clock 100 MHz Willamette and Gallatin,
 *  200 MHz Northwood/Prescott/Cedar Mill): 12 + 12 x 20 = 252 (2.0 GHz),
 *  12 + 12 x 14 = 180 (2.8 GHz), 12 + 12 x 17 = 216 (3.4 GHz), 12 + 12 x 18 =
 *  228 (3.6 GHz), 12 + 12 x 28 = 348 (Gallatin 2.8 GHz).
 *  TLB replacement: Intel does not document it; true LRU is our choice.
 *  [OPT06] IA-32 Intel Architecture Optimization Reference Manual,
 *          248966-013 (2006), "Loads and Stores" (p. 1-24): "48 load buffers
 *          and 24 store buffers", footnote: processors with CPUID model 3
 *          have more; "Aliasing Cases in the Pentium 4 and Intel Xeon
 *          Processors" (p. 2-45): data conflicts on the same address bits
 *          15:6 on models 0-2, bits 21:6 on model 3.
 *  [SDM1]  Intel SDM Vol. 1, sec. 2.2, NetBurst: "Up to 48 loads and 24
 *          stores in pipeline"; footnote: 90 nm parts handle more than 24.
 *  [XT04]  ExtremeTech, "Review: Intel Prescott Pentium 4 Processor" (2004,
 *          p. 4, from Intel's Prescott disclosure): 32 stores outstanding
 *          "versus 24 in past P4s".
 *  Cedar Mill (model 6, a 65 nm Prescott) gets the model-3 figures: our
 *  choice, not documented.
 */
#include "nb_tlb.h"

int nb_tlb_init(struct nb_tlb *t, unsigned entries, unsigned page_shift)
{
	if (!entries || entries > NB_TLB_MAX || page_shift > 30)
		return 0;
	t->entries = entries;
	t->page_shift = page_shift;
	for (unsigned i = 0; i < NB_TLB_MAX; i++)
		t->vpn[i] = 0;
	return 1;
}

int nb_tlb_access(struct nb_tlb *t, uint64_t addr)
{
	uint64_t v = (addr >> t->page_shift) + 1;
	unsigned i, n = t->entries;
	int hit;

	if (t->vpn[0] == v)
		return 1;
	for (i = 1; i < n && t->vpn[i] != v; i++)
		;
	hit = i < n;
	if (!hit)
		i = n - 1;                       /* LRU victim (or an empty slot) */
	for (; i > 0; i--)
		t->vpn[i] = t->vpn[i - 1];
	t->vpn[0] = v;
	return hit;
}

static const struct nb_mem_params params[] = {
	/* model l3 DTLB ITLB  L2  L3  mem STB alias */
	{ 1, 0, 64, 64,  7,  0, 252, 24, 16 },   /* Willamette 2.0 GHz, 400 MT/s bus   */
	{ 2, 0, 64, 64,  7,  0, 180, 24, 16 },   /* Northwood 2.8 GHz, 800 MT/s bus    */
	{ 3, 0, 64, 64, 18,  0, 216, 32, 22 },   /* Prescott 3.4 GHz, 1 MB L2          */
	{ 6, 0, 64, 64, 20,  0, 228, 32, 22 },   /* Cedar Mill 3.6 GHz, 2 MB L2        */
	{ 2, 1, 64, 64,  7, 14, 348, 24, 16 },   /* Gallatin Xeon MP 2.8 GHz, 400 MT/s */
};

const struct nb_mem_params *nb_mem_params_find(unsigned cpuid_model, unsigned l3)
{
	for (unsigned i = 0; i < sizeof params / sizeof params[0]; i++)
		if (params[i].cpuid_model == cpuid_model && params[i].l3 == (l3 != 0))
			return &params[i];
	return 0;
}
