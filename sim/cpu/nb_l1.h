/*
 * nb_l1.h - the L1 data cache: set-associative, 64-byte lines, true LRU,
 * kept so that a hit can be found and recorded by generated code without a
 * helper call (README "Cache model", "Speed").  Pure module (no libc, no
 * valgrind).
 *
 * True LRU by time stamps: each way (a slot of tag[] and stamp[], the
 * set's ways side by side) holds its line (address >> 6; NB_L1_NO_LINE =
 * invalid) and a stamp, the value of a clock at its last use plus the
 * slot's byte offset (8 x slot: the clock counts in steps larger than any
 * offset, so the way's number is in bits 3-5 and stamps of one set compare
 * as their clocks); the victim is the way with the smallest stamp, found
 * as the minimum of the set's stamps alone (invalid ways have clock 0: the
 * first invalid way is the victim).  A hint table indexed by the low bits
 * of the line address remembers the slot (its byte offset) a line was last
 * seen in, always a slot of that line's set, so the hit path is: read the
 * hinted slot's tag, compare, store a new stamp (nb_l1_fast, which nbsim's
 * instrumentation emits as IR) with no set or way arithmetic.  A wrong or
 * stale hint only sends the access to nb_l1_access, which searches the set
 * and repairs the hint: the result is that of true LRU whatever the hints
 * say (tests/unit/t_cache.c compares with nb_cache.h).
 */
#ifndef NB_L1_H
#define NB_L1_H

#include <stdint.h>
#include "nb_cache.h"

#define NB_L1_MAX_LINES 512            /* 32 KB of 64-byte lines           */
#define NB_L1_HINT_BITS 12             /* 4096 two-byte slot hints         */
#define NB_L1_LINE_SHIFT 6
#define NB_L1_MAX_WAYS 8
/* the clock's step: above the largest slot offset (8 x NB_L1_MAX_LINES) */
#define NB_L1_STAMP_STEP 4096
#define NB_L1_NO_LINE UINT64_MAX       /* an invalid way's tag (no line: a
					  line is an address >> 6)      */
/* the stamp of slot s at clock k; the way of a stamp (ways: the set's) */
#define NB_L1_STAMP(k, s) ((k) + 8 * (uint64_t)(s))
#define NB_L1_STAMP_WAY(st, ways) ((unsigned)((st) >> 3) & ((ways) - 1))

struct nb_l1 {
	unsigned sets, ways;          /* sets: a power of two                  */
	unsigned way_shift;           /* log2(ways): ways a power of two too   */
	uint64_t clock;               /* uses so far x NB_L1_STAMP_STEP        */
	unsigned set_shift;           /* log2(sets)                            */
	uint64_t tag[NB_L1_MAX_LINES];
	uint64_t stamp[NB_L1_MAX_LINES];
	/* per set, a byte per way: NB_CACHE_FP of its line (nb_cache.h; 0
	 * for an invalid way), so that most misses need no search */
	uint64_t fp[NB_L1_MAX_LINES];
	uint16_t hint[1u << NB_L1_HINT_BITS];   /* 8 x slot              */
	uint64_t sink;                /* the fast path's stamp store on a miss */
};

/* size_kb and ways (both powers of two, ways <= 8); returns 0 if they do
 * not fit */
int nb_l1_init(struct nb_l1 *c, unsigned size_kb, unsigned ways);

/* Way w of set (its first slot base) gets line (address >> 6): its tag
 * and fingerprint byte */
static inline __attribute__((always_inline))
void nb_l1_put(struct nb_l1 *c, unsigned set, unsigned base, unsigned w, uint64_t line)
{
	c->tag[base + w] = line;
	c->fp[set] = (c->fp[set] & ~(UINT64_C(0xff) << (8 * w))) |
		NB_CACHE_FP(line, c->set_shift) << (8 * w);
}

/* Way w (slot base + w) holding line is used now: the clock's value is
 * its stamp, and the line's hint names it */
static inline __attribute__((always_inline))
void nb_l1_use(struct nb_l1 *c, unsigned base, unsigned w, uint64_t line)
{
	c->stamp[base + w] = NB_L1_STAMP(c->clock, base + w);
	c->hint[line & ((1u << NB_L1_HINT_BITS) - 1)] = (uint16_t)(8 * (base + w));
}

/* One access to the line of addr: returns 1 on a hit (the line becomes
 * most recently used); on a miss, if allocate, the line replaces the least
 * recently used one of its set.  ways is c->ways: nbsim's cache helper
 * passes it as a constant (4 or 8), so that the search is unrolled.
 * bump: advance the clock for the new stamp; 0 right after nb_l1_fast
 * declined the same access (it advanced the clock and gave that value to
 * the sink only, so the value is still unused: one clock step per access,
 * and the helper saves a load and a store). */
static inline __attribute__((always_inline))
int nb_l1_access_w(struct nb_l1 *c, uint64_t addr, int allocate, unsigned ways, int bump)
{
	uint64_t line = addr >> NB_L1_LINE_SHIFT;
	unsigned set = (unsigned)(line & (c->sets - 1)), base = set * ways, w, found = ways;
	const uint64_t *tg = &c->tag[base], *sp = &c->stamp[base];
	uint64_t oldest = sp[0], f = NB_CACHE_FP(line, c->set_shift);
	uint64_t x = c->fp[set] ^ (f * NB_CACHE_FP_ONES);

	/* a way with the line's fingerprint, else no search; the search
	 * without branches on the data (conditional moves): in random order
	 * it mispredicted about half the compares */
	if ((x - NB_CACHE_FP_ONES) & ~x & NB_CACHE_FP_HIGHS &
	    (ways == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * ways)) - 1)) {
#pragma GCC unroll 8
		for (w = 0; w < ways; w++)
			found = tg[w] == line ? w : found;
	}
#pragma GCC unroll 8
	for (w = 1; w < ways; w++)
		oldest = sp[w] < oldest ? sp[w] : oldest;
	if (found == ways) {
		if (!allocate)
			return 0;
		w = NB_L1_STAMP_WAY(oldest, ways);
		nb_l1_put(c, set, base, w, line);
	} else
		w = found;
	if (bump)
		c->clock += NB_L1_STAMP_STEP;
	nb_l1_use(c, base, w, line);
	return found != ways;
}

/* 1 if a way of addr's set has addr's line's fingerprint (the line may be
 * there), 0 if the line is certainly not in the set */
static inline __attribute__((always_inline))
int nb_l1_fp_match_w(const struct nb_l1 *c, uint64_t addr, unsigned ways)
{
	uint64_t line = addr >> NB_L1_LINE_SHIFT;
	unsigned set = (unsigned)(line & (c->sets - 1));
	uint64_t x = c->fp[set] ^ (NB_CACHE_FP(line, c->set_shift) * NB_CACHE_FP_ONES);

	return ((x - NB_CACHE_FP_ONES) & ~x & NB_CACHE_FP_HIGHS &
		(ways == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * ways)) - 1)) != 0;
}

/* addr's line, known not to be in its set, replaces the least recently
 * used way (what nb_l1_access_w does for a miss, without the search and
 * without a clock step: see bump).  The minimum stamp by pairs (a tree:
 * three compares deep, not seven). */
static inline __attribute__((always_inline))
void nb_l1_fill_w(struct nb_l1 *c, uint64_t addr, unsigned ways)
{
	uint64_t line = addr >> NB_L1_LINE_SHIFT, m;
	unsigned set = (unsigned)(line & (c->sets - 1)), base = set * ways, w;
	const uint64_t *sp = &c->stamp[base];
#define NB_L1_MIN(a, b) ((a) < (b) ? (a) : (b))
	m = NB_L1_MIN(NB_L1_MIN(sp[0], sp[1]), NB_L1_MIN(sp[2], sp[3]));
	if (ways == 8)
		m = NB_L1_MIN(m, NB_L1_MIN(NB_L1_MIN(sp[4], sp[5]), NB_L1_MIN(sp[6], sp[7])));
#undef NB_L1_MIN
	w = NB_L1_STAMP_WAY(m, ways);
	nb_l1_put(c, set, base, w, line);
	nb_l1_use(c, base, w, line);
}

/* nb_l1_access_w out of line (its search needs registers the common miss
 * does not), per way count and clock step (b: bump 1) */
#define NB_L1_ACCESS_OOL(name, ways, bump)					\
	static __attribute__((noinline, unused))				\
	int name(struct nb_l1 *c, uint64_t addr, int allocate)			\
	{									\
		return nb_l1_access_w(c, addr, allocate, ways, bump);		\
	}
NB_L1_ACCESS_OOL(nb_l1_access_w8_ool, 8, 0)
NB_L1_ACCESS_OOL(nb_l1_access_w4_ool, 4, 0)
NB_L1_ACCESS_OOL(nb_l1_access_w8b_ool, 8, 1)
NB_L1_ACCESS_OOL(nb_l1_access_w4b_ool, 4, 1)

/*
 * nbsim's lean helper's L1D access (ways 4 or 8, a constant), right after
 * nb_l1_fast declined the same access within one line: the result and
 * state of nb_l1_access_w(c, addr, allocate, ways, 0).  Most such accesses
 * miss with no fingerprint in the set: then no search, and a fill if
 * allocate; else the search, out of line.
 */
static inline __attribute__((always_inline))
int nb_l1_after_fast_w(struct nb_l1 *c, uint64_t addr, int allocate, unsigned ways)
{
	if (__builtin_expect(!nb_l1_fp_match_w(c, addr, ways), 1)) {
		if (allocate)
			nb_l1_fill_w(c, addr, ways);
		return 0;
	}
	return ways == 8 ? nb_l1_access_w8_ool(c, addr, allocate)
		: nb_l1_access_w4_ool(c, addr, allocate);
}

/*
 * nb_l1_access_w(c, addr, allocate, ways, 1) for an access within one
 * line, with the same result and state (stamps, hints and clock
 * included): the hinted way first, as nb_l1_fast does (a way holding the
 * line is the only one that does, and the hint already names it), then
 * the fingerprints, as nb_l1_after_fast_w does.  For nbsim's general helper, which every access
 * calls while the store buffer runs: most hits then cost a tag compare,
 * not the set's search and its oldest stamp.
 */
static inline __attribute__((always_inline))
int nb_l1_access_hinted_w(struct nb_l1 *c, uint64_t addr, int allocate, unsigned ways)
{
	uint64_t line = addr >> NB_L1_LINE_SHIFT;
	unsigned s = c->hint[line & ((1u << NB_L1_HINT_BITS) - 1)] / 8u;

	if (c->tag[s] == line) {
		c->clock += NB_L1_STAMP_STEP;
		c->stamp[s] = NB_L1_STAMP(c->clock, s);
		return 1;
	}
	if (__builtin_expect(!nb_l1_fp_match_w(c, addr, ways), 1)) {
		if (allocate) {         /* (a miss not allocating: no step) */
			c->clock += NB_L1_STAMP_STEP;
			nb_l1_fill_w(c, addr, ways);
		}
		return 0;
	}
	return ways == 8 ? nb_l1_access_w8b_ool(c, addr, allocate)
		: nb_l1_access_w4b_ool(c, addr, allocate);
}

/* the same for any geometry (c->ways read at run time) */
static inline int nb_l1_access(struct nb_l1 *c, uint64_t addr, int allocate)
{
	return nb_l1_access_w(c, addr, allocate, c->ways, 1);
}

/* Invalidate the line of addr (README "Write-combining buffers": a
 * non-temporal store evicts its line); 1 if it was present.  The way
 * becomes invalid with clock 0, so it is the set's next victim; a hint
 * naming it no longer matches. */
int nb_l1_invalidate(struct nb_l1 *c, uint64_t addr);

/* The index of addr's hinted way in tag[] / stamp[] (a slot of addr's
 * set) */
static inline unsigned nb_l1_slot(const struct nb_l1 *c, uint64_t addr)
{
	return c->hint[(addr >> NB_L1_LINE_SHIFT) & ((1u << NB_L1_HINT_BITS) - 1)] / 8u;
}

/*
 * The generated hit path, in C (for the tests; nbsim emits the same
 * operations as IR), for an access of size bytes (1-64) at addr: if the
 * hinted way holds addr's line, record the use and return 1; else return 0
 * and change nothing (the stamp store goes to sink), and the caller does
 * nb_l1_access.  The hinted way is that of the access's last byte: an
 * access crossing into the next line never hits here, as that line's set
 * (the next one) cannot hold the first byte's line, so no separate test
 * for a split access is needed.
 */
static inline int nb_l1_fast(struct nb_l1 *c, uint64_t addr, unsigned size)
{
	unsigned s = nb_l1_slot(c, addr + size - 1);
	int hit = c->tag[s] == addr >> NB_L1_LINE_SHIFT;
	uint64_t *st = hit ? &c->stamp[s] : &c->sink;
	c->clock += NB_L1_STAMP_STEP;
	*st = NB_L1_STAMP(c->clock, s);
	return hit;
}

#endif /* NB_L1_H */
