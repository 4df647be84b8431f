/*
 * nb_tlb.h - translation look-aside buffer model, and the memory-hierarchy
 * parameters of each modelled part (README "TLBs", "Timing model",
 * "Store buffer").
 * Pure module (no libc, no valgrind).
 */
#ifndef NB_TLB_H
#define NB_TLB_H

#include <stdint.h>

#define NB_TLB_MAX 128
#define NB_TLB_SLOTS 256              /* hash slots: load <= 1/2         */
#define NB_TLB_NONE 0xffu             /* an empty slot; the list's end   */

/*
 * Fully associative, true LRU, O(1) per access: an open-addressed hash
 * (linear probing, deletion by backward shift) from page to entry, and
 * the entries in a doubly linked recency list.  A hit moves its entry to
 * the head; a miss takes a free entry, or the tail's (LRU), and its page.
 */
struct nb_tlb {
	uint64_t mru;                 /* vpn of the MRU entry; 0 = none (read */
				      /* by generated code, nb_instr.c)       */
	unsigned entries;             /* <= NB_TLB_MAX                        */
	unsigned page_shift;          /* log2(page bytes)                     */
	unsigned used;                /* entries holding a page               */
	uint8_t head, tail;           /* recency list: MRU, LRU entry         */
	uint64_t vpn[NB_TLB_MAX];     /* virtual page number + 1 per entry    */
	uint8_t prev[NB_TLB_MAX], next[NB_TLB_MAX]; /* towards the head/tail */
	uint8_t slot[NB_TLB_SLOTS];   /* entry of the page hashed there, or   */
				      /* NB_TLB_NONE                          */
};

/* Returns 0 if entries is 0 or above NB_TLB_MAX, or page_shift > 30. */
int nb_tlb_init(struct nb_tlb *t, unsigned entries, unsigned page_shift);

/* nb_tlb_access for page v (page number + 1) other than t->mru */
int nb_tlb_lookup(struct nb_tlb *t, uint64_t v);

/* Translate addr: 1 on a hit; 0 on a miss, after which the page walk has
 * filled an entry (a free one, else the LRU one is replaced).  Either way
 * the page becomes most recently used (t->mru).  The page number + 1 must
 * not wrap to 0 (addr = 2^64 - 1 with page_shift 0).  (Inline: the MRU
 * page, most accesses, costs a compare.) */
static inline int nb_tlb_access(struct nb_tlb *t, uint64_t addr)
{
	uint64_t v = (addr >> t->page_shift) + 1;

	return v == t->mru || nb_tlb_lookup(t, v);
}

/* Memory hierarchy of one modelled part. */
struct nb_mem_params {
	unsigned cpuid_model;         /* family-15 model it applies to        */
	unsigned l3;                  /* 1: the part has an L3                */
	unsigned dtlb_entries, itlb_entries;
	unsigned l2_latency;          /* load-use cycles of an L2 hit         */
	unsigned l3_latency;          /* of an L3 hit (0: no L3)              */
	unsigned mem_latency;         /* of a last-level miss                 */
	unsigned stb_entries;         /* store buffers (nb_stb.c)             */
	unsigned alias_bits;          /* data conflicts: same bits 6..n-1     */
};

/* Parameters for a CPUID model number (l3: the part has an L3), or 0. */
const struct nb_mem_params *nb_mem_params_find(unsigned cpuid_model, unsigned l3);

#endif /* NB_TLB_H */
