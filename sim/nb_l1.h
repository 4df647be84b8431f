/*
 * nb_l1.h - the L1 data cache: set-associative, 64-byte lines, true LRU,
 * kept so that a hit can be found and recorded by generated code without a
 * helper call (README "Cache model", "Speed").  Pure module (no libc, no
 * valgrind).
 *
 * True LRU by time stamps: each way holds its line (address >> 6, plus 1;
 * 0 = invalid) and the value of a clock at its last use; the victim is the
 * way with the smallest stamp (invalid ways have stamp 0).  A hint table
 * indexed by the low bits of the line address remembers the way a line was
 * last seen in, so the hit path is: read the hinted way's tag, compare,
 * store a new stamp (nb_l1_fast, which nbsim's instrumentation emits as
 * IR).  A wrong or stale hint only sends the access to nb_l1_access, which
 * searches the set and repairs the hint: the result is that of true LRU
 * whatever the hints say (tests/t_cache.c compares with nb_cache.h).
 */
#ifndef NB_L1_H
#define NB_L1_H

#include <stdint.h>

#define NB_L1_MAX_LINES 512            /* 32 KB of 64-byte lines           */
#define NB_L1_HINT_BITS 12             /* 4096 one-byte way hints          */
#define NB_L1_LINE_SHIFT 6

struct nb_l1 {
	unsigned sets, ways;          /* sets: a power of two                  */
	unsigned way_shift;           /* log2(ways): ways a power of two too   */
	uint64_t clock;               /* uses so far (the newest stamp)        */
	uint64_t tag[NB_L1_MAX_LINES];
	uint64_t stamp[NB_L1_MAX_LINES];
	uint8_t hint[1u << NB_L1_HINT_BITS];
	uint64_t sink;                /* the fast path's stamp store on a miss */
};

/* size_kb and ways (both powers of two); returns 0 if they do not fit */
int nb_l1_init(struct nb_l1 *c, unsigned size_kb, unsigned ways);

/* One access to the line of addr: returns 1 on a hit (the line becomes
 * most recently used); on a miss, if allocate, the line replaces the least
 * recently used one of its set.  (Inline: nbsim's cache helper calls it
 * for every access the generated hit path passes on.) */
static inline int nb_l1_access(struct nb_l1 *c, uint64_t addr, int allocate)
{
	uint64_t line = addr >> NB_L1_LINE_SHIFT, t = line + 1;
	unsigned base = (unsigned)(line & (c->sets - 1)) << c->way_shift;
	unsigned w, victim = 0, found = ~0u;
	uint64_t oldest = UINT64_MAX;

	/* without branches on the data (conditional moves): a miss's search
	 * for the oldest stamp in random order mispredicted about half the
	 * compares, and doubled the cost of a miss */
	for (w = 0; w < c->ways; w++) {
		uint64_t tg = c->tag[base + w], st = c->stamp[base + w];
		int older = st < oldest;
		found = tg == t ? w : found;
		oldest = older ? st : oldest;
		victim = older ? w : victim;
	}
	if (found == ~0u) {
		if (!allocate)
			return 0;
		w = victim;
		c->tag[base + w] = t;
	} else
		w = found;
	c->stamp[base + w] = ++c->clock;
	c->hint[line & ((1u << NB_L1_HINT_BITS) - 1)] = (uint8_t)w;
	return found != ~0u;
}


/* The index of addr's hinted way in tag[] / stamp[] */
static inline unsigned nb_l1_slot(const struct nb_l1 *c, uint64_t addr)
{
	uint64_t line = addr >> NB_L1_LINE_SHIFT;
	return ((unsigned)(line & (c->sets - 1)) << c->way_shift) +
		c->hint[line & ((1u << NB_L1_HINT_BITS) - 1)];
}

/*
 * The generated hit path, in C (for the tests; nbsim emits the same
 * operations as IR): if the hinted way holds addr's line, record the use
 * and return 1; else return 0 and change nothing (the stamp store goes to
 * sink), and the caller does nb_l1_access.
 */
static inline int nb_l1_fast(struct nb_l1 *c, uint64_t addr)
{
	unsigned s = nb_l1_slot(c, addr);
	int hit = c->tag[s] == (addr >> NB_L1_LINE_SHIFT) + 1;
	uint64_t *st = hit ? &c->stamp[s] : &c->sink;
	*st = ++c->clock;
	return hit;
}

#endif /* NB_L1_H */
