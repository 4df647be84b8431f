/*
 * nb_stb.c - store buffer model (see nb_stb.h, README "Store buffer").
 *
 * Sources:
 *  [OPT06] IA-32 Intel Architecture Optimization Reference Manual,
 *          248966-013 (April 2006):
 *          - sec. 1 "Loads and Stores" (p. 1-24): 24 store buffers, more on
 *            CPUID model 3 (the buffer sizes are in nb_tlb.c's table);
 *          - sec. 1 "Store Forwarding" (p. 1-25) and sec. 2 "Store
 *            Forwarding", coding rules 18 and 19: a load forwards from a
 *            store only if it starts at the store's linear address and its
 *            bytes are a subset of the bytes stored;
 *          - sec. 2 "Aliasing Cases in the Pentium 4 and Intel Xeon
 *            Processors" (p. 2-45): a reference conflicts with another one
 *            under way when their linear addresses have the same bits 15:6
 *            (CPUID models 0-2, "64K aliasing conflict") or 21:6 (model 3)
 *            in different lines.
 *  [EVT]   native_events/events.txt: MOB_load_replay PARTIAL_DATA "Load and
 *          store overlap only partially", UNALGN_ADDR "Low 4 address bits
 *          of load and store differ"; memory_cancel 64K_CONF "Conflict
 *          through 64 KB address aliasing".
 *
 * Model (our choices, README "Store buffer"): the buffer holds the last N
 * retired stores whatever the time since (stores are not drained); the
 * newest store that overlaps the load or aliases it decides:
 *   overlap, same start, load contained   -> forwarded
 *   overlap, same start, not contained    -> PARTIAL_DATA
 *   overlap, different start              -> UNALGN_ADDR
 *   other line, same bits 6..alias_bits-1 -> 64K_CONF
 * Not modelled: the store-data and store-address timing (NO_STD, NO_STA),
 * the wrap-around-a-line and 16-byte-alignment restrictions of forwarding
 * (such loads forward here).
 */
#include "nb_stb.h"

int nb_stb_init(struct nb_stb *b, unsigned entries, unsigned alias_bits)
{
	if (!entries || entries > NB_STB_MAX || alias_bits < 7 || alias_bits > 63)
		return 0;
	b->entries = entries;
	b->alias_bits = alias_bits;
	b->head = b->count = 0;
	b->bmask = (1u << (alias_bits - 6 < 10 ? alias_bits - 6 : 10)) - 1;
	for (unsigned i = 0; i < NB_STB_MAX; i++) {
		b->addr[i] = 0;
		b->size[i] = 0;
	}
	for (unsigned i = 0; i < NB_STB_BUCKETS; i++)
		b->bucket[i] = 0;
	return 1;
}

/* put slot i of a store at a (size bytes) into its lines' buckets (on)
 * or take it out */
static void stb_lines(struct nb_stb *b, unsigned i, uint64_t a, uint32_t size, int on)
{
	uint64_t first = (a >> 6) & b->bmask, last = ((a + size - 1) >> 6) & b->bmask;
	uint32_t bit = UINT32_C(1) << i;

	if (on) {
		b->bucket[first] |= bit;
		b->bucket[last] |= bit;
	} else {
		b->bucket[first] &= ~bit;
		b->bucket[last] &= ~bit;
	}
}

void nb_stb_store(struct nb_stb *b, uint64_t addr, uint32_t size)
{
	unsigned h = b->head;

	size = !size ? 1 : size > 64 ? 64 : size;
	if (b->count == b->entries)           /* the oldest leaves */
		stb_lines(b, h, b->addr[h], b->size[h], 0);
	else
		b->count++;
	b->addr[h] = addr;
	b->size[h] = size;
	stb_lines(b, h, addr, size, 1);
	b->head = h + 1 == b->entries ? 0 : h + 1;
}

enum nb_stb_result nb_stb_scan(const struct nb_stb *b, uint64_t addr, uint64_t end, uint32_t slots)
{
	uint64_t amask = ((UINT64_C(1) << b->alias_bits) - 1) & ~UINT64_C(63);
	uint64_t cand = slots;

	/* the candidate slots by age: bit k of cand (two copies of the ring)
	 * shifted by head, so bit entries-1 is the newest slot (head - 1) */
	cand = ((cand | (cand << b->entries)) >> b->head) & ((UINT64_C(1) << b->entries) - 1);
	while (cand) {
		unsigned k = 63 - (unsigned)__builtin_clzll(cand), i;
		uint64_t sa, se;
		cand &= ~(UINT64_C(1) << k);
		i = b->head + k;
		if (i >= b->entries)
			i -= b->entries;
		sa = b->addr[i];
		se = sa + b->size[i];
		if (sa < end && addr < se) {
			if (sa != addr)
				return NB_STB_UNALIGNED;
			return end <= se ? NB_STB_FORWARD : NB_STB_PARTIAL;
		}
		if ((sa >> 6) != (addr >> 6) && ((sa ^ addr) & amask) == 0)
			return NB_STB_ALIAS;
	}
	return NB_STB_NONE;
}
