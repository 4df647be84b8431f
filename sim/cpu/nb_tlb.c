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
 *  [F13M], [F29M], [F43M], [F62M], [F25M]  InstLatX64's load-to-use
 *          measurements of real parts, repository InstLatx64/InstLatx64,
 *          GenuineIntel/GenuineIntel0000<CPUID>_P4_<name>_MemLatX86.txt:
 *          F13 Willamette 1.7 GHz, F29 Northwood 2.84 GHz, F43 Prescott
 *          3.2 GHz, F62 Presler 3.47 GHz (the 65 nm core of Cedar Mill),
 *          F25 Gallatin 3.46 GHz (L3).  L2: the "BlockRandom Read Latency"
 *          table's 128.0K row (a chase within the L2, past the L1D):
 *          18 (F13, F29, F25), 28 (F43), 27-28 (F62).  L3 (F25): its
 *          "L3 latency" line, 43 cycles (2048 KB, 128 B stride), the
 *          table's L3 is that less the L2's 18.  Memory: the "Mem
 *          latency" line (16 MB, 1 KB stride), in ns because DRAM does not
 *          scale with the core: 159.8 ns (F13), 111.2 (F29), 94.0 (F43),
 *          80.4 (F62), 124.8 (F25), at the model's clock (nb_cpu.c: 2.0,
 *          2.8, 3.4, 3.6, 2.8 GHz): 320, 311, 320, 289, 349 cycles load to
 *          use; the table's mem is that less the L2 (and L3) it adds to.
 *  The documented L2 latencies ([OPT04] 7 and 18 clocks) are the L2's
 *  access; the measured load-to-use adds the load's replay: the timing
 *  model holds a miss slot for the access only (nb_tmparams.c miss_free).
 *  The earlier memory latency, 12 + 12 bus cycles x the core/bus clock
 *  ratio (180 cycles on Northwood), was built from [OPT04]'s text and
 *  read 40% short of the measured parts.
 *  TLB replacement: Intel does not document it; true LRU is our choice.
 *  [TAOCP3] D. E. Knuth, The Art of Computer Programming, Vol. 3, 2nd ed.,
 *          sec. 6.4: multiplicative ("Fibonacci") hashing; open addressing
 *          with linear probing and its deletion, Algorithm R.
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

#define SLOT_MASK (NB_TLB_SLOTS - 1u)

/* A page's home slot: multiplicative hashing by 2^64/phi, its top 8 bits
 * [TAOCP3, 6.4, "Fibonacci hashing": consecutive keys spread apart] */
static inline unsigned home(uint64_t v)
{
	return (unsigned)((v * UINT64_C(0x9e3779b97f4a7c15)) >> 56);
}

int nb_tlb_init(struct nb_tlb *t, unsigned entries, unsigned page_shift)
{
	if (!entries || entries > NB_TLB_MAX || page_shift > 30)
		return 0;
	t->entries = entries;
	t->page_shift = page_shift;
	t->mru = 0;
	t->used = 0;
	t->head = t->tail = NB_TLB_NONE;
	for (unsigned i = 0; i < NB_TLB_MAX; i++) {
		t->vpn[i] = 0;
		t->prev[i] = t->next[i] = NB_TLB_NONE;
	}
	for (unsigned i = 0; i < NB_TLB_SLOTS; i++)
		t->slot[i] = NB_TLB_NONE;
	return 1;
}

/* The slot of page v (vpn + 1), or the empty slot that ends its probe
 * sequence (linear probing upwards) */
static inline unsigned find(const struct nb_tlb *t, uint64_t v)
{
	unsigned s = home(v);

	while (t->slot[s] != NB_TLB_NONE && t->vpn[t->slot[s]] != v)
		s = (s + 1) & SLOT_MASK;
	return s;
}

/* Empty slot s: the entries after it in its cluster whose probe sequence
 * passes s move back into the hole, so that every page stays reachable
 * without tombstones [TAOCP3, 6.4, Algorithm R, here probing upwards] */
static void unslot(struct nb_tlb *t, unsigned s)
{
	for (unsigned j = s;;) {
		unsigned e;
		j = (j + 1) & SLOT_MASK;
		e = t->slot[j];
		if (e == NB_TLB_NONE)
			break;
		/* e's sequence runs home .. j; s is on it if no nearer to j */
		if (((j - home(t->vpn[e])) & SLOT_MASK) >= ((j - s) & SLOT_MASK)) {
			t->slot[s] = (uint8_t)e;
			s = j;
		}
	}
	t->slot[s] = NB_TLB_NONE;
}

static inline void unlink_entry(struct nb_tlb *t, unsigned e)
{
	unsigned p = t->prev[e], n = t->next[e];

	if (p != NB_TLB_NONE)
		t->next[p] = (uint8_t)n;
	else
		t->head = (uint8_t)n;
	if (n != NB_TLB_NONE)
		t->prev[n] = (uint8_t)p;
	else
		t->tail = (uint8_t)p;
}

/* e becomes the most recently used entry, holding page v */
static inline void push_entry(struct nb_tlb *t, unsigned e, uint64_t v)
{
	t->prev[e] = NB_TLB_NONE;
	t->next[e] = t->head;
	if (t->head != NB_TLB_NONE)
		t->prev[t->head] = (uint8_t)e;
	else
		t->tail = (uint8_t)e;
	t->head = (uint8_t)e;
	t->mru = v;
}

int nb_tlb_lookup(struct nb_tlb *t, uint64_t v)
{
	unsigned s, e;

	s = find(t, v);
	e = t->slot[s];
	if (e != NB_TLB_NONE) {                  /* a hit: not the head */
		unlink_entry(t, e);
		push_entry(t, e, v);
		return 1;
	}
	if (t->used < t->entries) {
		e = t->used++;                   /* a free entry */
	} else {
		e = t->tail;                     /* the LRU entry is replaced */
		unslot(t, find(t, t->vpn[e]));
		unlink_entry(t, e);
		s = find(t, v);                  /* the hole may have moved */
	}
	t->vpn[e] = v;
	t->slot[s] = (uint8_t)e;
	push_entry(t, e, v);
	return 0;
}

static const struct nb_mem_params params[] = {
	/* model l3 DTLB ITLB  L2  L3  mem STB alias */
	{ 1, 0, 64, 64, 18,  0, 302, 24, 16 },   /* Willamette 2.0 GHz [F13M]          */
	{ 2, 0, 64, 64, 18,  0, 293, 24, 16 },   /* Northwood 2.8 GHz [F29M]           */
	{ 3, 0, 64, 64, 28,  0, 292, 32, 22 },   /* Prescott 3.4 GHz [F43M]            */
	{ 6, 0, 64, 64, 28,  0, 261, 32, 22 },   /* Cedar Mill 3.6 GHz [F62M]          */
	{ 2, 1, 64, 64, 18, 25, 306, 24, 16 },   /* Gallatin Xeon MP 2.8 GHz [F25M]    */
};

const struct nb_mem_params *nb_mem_params_find(unsigned cpuid_model, unsigned l3)
{
	for (unsigned i = 0; i < sizeof params / sizeof params[0]; i++)
		if (params[i].cpuid_model == cpuid_model && params[i].l3 == (l3 != 0))
			return &params[i];
	return 0;
}
