/*
 * nb_cache.h - set-associative cache model (README "Cache model").
 * Pure module (no libc, no valgrind).
 */
#ifndef NB_CACHE_H
#define NB_CACHE_H

#include <stdint.h>

#define NB_CACHE_MAX_LINES 16384      /* 2 MB of 128-byte lines            */

/* Each set's ways are kept in recency order: way 0 most recently used,
 * the last way the LRU victim (invalid lines sink to the end); caches of
 * 8 ways keep lines in place and the order apart (nb_cache_ref8_geo).  One 64-bit
 * word per way, so that a set's search touches one array: bits 0-47 the
 * line address + 1 (0 = invalid; user addresses are below 2^48), bits
 * 48-55 the valid sectors, bit 63 dirty (written since its fill).  The
 * unsectored fast path keeps only the address (NB_TAG_KEY). */
#define NB_TAG_KEY    ((UINT64_C(1) << 48) - 1)
#define NB_TAG_VSHIFT 48
#define NB_TAG_DIRTY  (UINT64_C(1) << 63)
struct nb_cache {
	unsigned sets, ways;          /* sets: a power of two                 */
	unsigned line_shift;          /* log2(line bytes) (the tag unit)      */
	unsigned sector_shift;        /* log2(sector bytes) (the fill unit)   */
	unsigned sector_mask;         /* sectors per line - 1                 */
	unsigned set_shift;           /* log2(sets)                           */
	uint64_t fill_line;           /* the valid bits of every sector       */
	uint64_t tag[NB_CACHE_MAX_LINES];
	/* 8 ways (nb_cache_ref8): a byte per way, in the order of tag[],
	 * NB_CACHE_FP of its line (0 for an invalid way), so that most
	 * misses are found without searching the set */
	uint64_t fp[NB_CACHE_MAX_LINES / 8];
	/* 8 ways: per set, the ways in recency order (nb_cache_ref8_geo) */
	uint32_t order[NB_CACHE_MAX_LINES / 8];
	/* the layout: 1 (8 ways, set by nb_cache_init) lines in place and
	 * order[] (nb_cache_ref8_geo), 0 ways in recency order
	 * (nb_cache_ref_any; tests/unit/t_cache.c's reference cache of 8 ways) */
	unsigned perm;
};

/* the fingerprint of a line in a cache of 2^set_shift sets: 8 bits of the
 * line address above the set index */
#define NB_CACHE_FP(line, set_shift) (((line) >> (set_shift)) & 0xff)
#define NB_CACHE_FP_ONES  UINT64_C(0x0101010101010101)
#define NB_CACHE_FP_HIGHS UINT64_C(0x8080808080808080)

/*
 * size_kb, ways, line bytes (tag granularity) and sector bytes (fill
 * granularity, <= line; line / sector <= 8); the number of sets must be a
 * power of two.  Returns 0
 * if the geometry does not fit.
 */
int nb_cache_init(struct nb_cache *c, unsigned size_kb, unsigned ways,
		  unsigned line_bytes, unsigned sector_bytes);

/*
 * Access the sector holding addr.  Returns 1 on a hit.  On a miss, if
 * allocate, the sector is filled: into its line if the line is present
 * (a sector miss), else into the least recently used way of the set (the
 * victim's sectors are dropped).  A hit makes the line most recently used.
 */
int nb_cache_access(struct nb_cache *c, uint64_t addr, int allocate);

/*
 * Invalidate the sector holding addr (README "Write-combining buffers":
 * a non-temporal store evicts its line).  A line left without a valid
 * sector becomes an invalid way, moved to the LRU end of its set (in
 * either layout; its fingerprint byte 0).  Returns the sector's state before: NB_CACHE_MISS
 * (not present), NB_CACHE_CLEAN or NB_CACHE_DIRTY.
 */
int nb_cache_invalidate(struct nb_cache *c, uint64_t addr);

/*
 * The same access, returning the line's state before it: NB_CACHE_MISS
 * (sector not present), NB_CACHE_CLEAN or NB_CACHE_DIRTY (a hit on a line
 * written since it was filled: MESI Modified; clean is Exclusive, as the
 * modelled package has no other caching agent).  write marks the line
 * dirty when it is present after the access.
 */
enum { NB_CACHE_MISS = 0, NB_CACHE_CLEAN = 1, NB_CACHE_DIRTY = 2 };
/* allocate: 0 none, NB_FILL_SECTOR the missing sector, NB_FILL_LINE every
 * sector of the line (a sectored L2 read miss fetches both 64-byte halves:
 * IA-32 Optimization Reference Manual, Table 1-1 note 1) */
enum { NB_FILL_SECTOR = 1, NB_FILL_LINE = 2 };
/* Any number of ways: a search that stops at the hit, and a move of the
 * ways before it (nb_cache_ref uses nb_cache_ref8 for 8 ways) */
static inline int nb_cache_ref_any(struct nb_cache *c, uint64_t addr, int allocate, int write)
{
	uint64_t line = addr >> c->line_shift, t = (line + 1) & NB_TAG_KEY;
	uint64_t sbit = UINT64_C(1) << (NB_TAG_VSHIFT + ((addr >> c->sector_shift) & c->sector_mask));
	uint64_t fill = allocate == NB_FILL_LINE ? c->fill_line : sbit;
	uint64_t dirty = write ? NB_TAG_DIRTY : 0;
	uint64_t *tag = &c->tag[(unsigned)(line & (c->sets - 1)) * c->ways], v;
	unsigned w, n = c->ways;
	int st;

	if ((tag[0] & NB_TAG_KEY) == t) {        /* MRU: the common case */
		st = !(tag[0] & sbit) ? NB_CACHE_MISS
			: (tag[0] & NB_TAG_DIRTY) ? NB_CACHE_DIRTY : NB_CACHE_CLEAN;
		if (st == NB_CACHE_MISS && !allocate)
			return st;
		if (st == NB_CACHE_MISS)
			tag[0] |= fill;
		tag[0] |= dirty;
		return st;
	}
	for (w = 1; w < n && (tag[w] & NB_TAG_KEY) != t; w++)
		;
	if (w < n) {
		st = !(tag[w] & sbit) ? NB_CACHE_MISS
			: (tag[w] & NB_TAG_DIRTY) ? NB_CACHE_DIRTY : NB_CACHE_CLEAN;
		if (st == NB_CACHE_MISS && !allocate)
			return st;
		v = tag[w] | (st == NB_CACHE_MISS ? fill : 0) | dirty;
	} else {
		if (!allocate)
			return NB_CACHE_MISS;
		st = NB_CACHE_MISS;
		w = n - 1;                       /* LRU victim */
		v = t | fill | dirty;
	}
	for (; w > 0; w--)                       /* move to the front */
		tag[w] = tag[w - 1];
	tag[0] = v;
	return st;
}

/*
 * The same reference for a cache of 8 ways (every modelled L2 and L3), in
 * the layout made for it: a line stays in its way (tag[] holds the set's 8
 * ways in way order, fp[] a byte per way), and order[] holds the set's
 * recency as a permutation, a 4-bit way number per rank (bits 0-3 the most
 * recently used way, bits 28-31 the least).  A reference costs a handful of
 * loads and stores: the fingerprints find the way (or show the line is not
 * there), a hit moves its way number to rank 0, a miss replaces the way of
 * rank 7.  (The former layout moved the set's eight tags on every miss:
 * in nbsim every instruction of a cache miss's helper call counts, README
 * "Speed".)  Same results and replacement as nb_cache_ref_any
 * (tests/unit/t_cache.c compares them rank by rank: nb_cache_rank_tag).
 */
#define NB_CACHE_ORDER0 UINT32_C(0x76543210)   /* way w at rank w        */
#define NB_CACHE_NIB_ONES UINT32_C(0x11111111)
#define NB_CACHE_NIB_HIGHS UINT32_C(0x88888888)

static inline __attribute__((always_inline))
int nb_cache_ref8_geo(struct nb_cache *c, uint64_t addr, int allocate, int write,
		      unsigned line_shift, unsigned sector_shift)
{
	unsigned smask = (1u << (line_shift - sector_shift)) - 1;
	uint64_t line = addr >> line_shift, t = (line + 1) & NB_TAG_KEY;
	uint64_t fill_line = ((UINT64_C(1) << (smask + 1)) - 1) << NB_TAG_VSHIFT;
	uint64_t dirty = (uint64_t)(write != 0) << 63;
	unsigned set = (unsigned)(line & (c->sets - 1)), w, r;
	uint64_t *tag = &c->tag[set * 8], f = NB_CACHE_FP(line, c->set_shift), v, sbit;
	/* the ways whose fingerprint byte equals the line's: the lowest set
	 * bit of m is such a way; bits above it may be false (a borrow), so
	 * each candidate's tag is compared (its low 48 bits: the shift drops
	 * the state bits); no bit: not in the set */
	uint64_t x = c->fp[set] ^ (f * NB_CACHE_FP_ONES);
	uint64_t m = (x - NB_CACHE_FP_ONES) & ~x & NB_CACHE_FP_HIGHS;
	uint32_t o, y, z;
	int st;

	for (; m; m &= m - 1) {
		w = (unsigned)__builtin_ctzll(m) >> 3;
		if (!((tag[w] ^ t) << (64 - NB_TAG_VSHIFT)))
			goto present;
	}
	if (!allocate)
		return NB_CACHE_MISS;
	/* the LRU way goes */
	o = c->order[set];
	w = o >> 28;
	c->order[set] = o << 4 | w;
	tag[w] = t | dirty | (allocate == NB_FILL_LINE ? fill_line
			      : UINT64_C(1) << (NB_TAG_VSHIFT + ((addr >> sector_shift) & smask)));
	c->fp[set] = (c->fp[set] & ~(UINT64_C(0xff) << (8 * w))) | f << (8 * w);
	return NB_CACHE_MISS;
present:
	v = tag[w];
	sbit = UINT64_C(1) << (NB_TAG_VSHIFT + ((addr >> sector_shift) & smask));
	st = !(v & sbit) ? NB_CACHE_MISS : (v & NB_TAG_DIRTY) ? NB_CACHE_DIRTY : NB_CACHE_CLEAN;
	if (st == NB_CACHE_MISS && !allocate)
		return st;
	tag[w] = v | (st == NB_CACHE_MISS ? (allocate == NB_FILL_LINE ? fill_line : sbit) : 0) | dirty;
	/* w's rank r: the lowest zero nibble of y (exact: w occurs once);
	 * ranks 0..r-1 move up one, w takes rank 0, ranks above r stay */
	o = c->order[set];
	y = o ^ (w * NB_CACHE_NIB_ONES);
	z = (y - NB_CACHE_NIB_ONES) & ~y & NB_CACHE_NIB_HIGHS;
	r = (unsigned)__builtin_ctz(z) >> 2;
	v = (UINT64_C(16) << (4 * r)) - 1;       /* ranks 0..r */
	c->order[set] = (uint32_t)((o & ~v) | (((uint64_t)o << 4) & v) | w);
	return st;
}

/* 8 ways, the line and sector sizes of the cache (nbsim's cache helper
 * passes the L2's as constants: nb_cache_ref8_geo) */
static inline __attribute__((always_inline))
int nb_cache_ref8(struct nb_cache *c, uint64_t addr, int allocate, int write)
{
	return nb_cache_ref8_geo(c, addr, allocate, write, c->line_shift, c->sector_shift);
}

/* The tag word of the line at recency rank r (0 = most recently used) of
 * set `set`, in either layout (tests, statistics) */
static inline uint64_t nb_cache_rank_tag(const struct nb_cache *c, unsigned set, unsigned r)
{
	if (c->perm)
		return c->tag[set * 8 + ((c->order[set] >> (4 * r)) & 15)];
	return c->tag[set * c->ways + r];
}

/* (inline: nbsim's cache helper runs it for every L1D miss) */
static inline int nb_cache_ref(struct nb_cache *c, uint64_t addr, int allocate, int write)
{
	return c->perm ? nb_cache_ref8(c, addr, allocate, write)
		: nb_cache_ref_any(c, addr, allocate, write);
}

/*
 * The L1D hit path of nb_cache_access for a cache whose lines are not
 * sectored (line bytes = sector bytes): only the address is kept in the
 * tag word (a present tag means a valid line; no dirty state): use one of
 * the two functions per cache.  Same
 * result and replacement as nb_cache_access (tests/unit/t_cache.c checks).
 */
static inline int nb_cache_access_unsectored(struct nb_cache *c, uint64_t addr, int allocate)
{
	uint64_t line = addr >> c->line_shift, t = (line + 1) & NB_TAG_KEY;
	uint64_t *tag = &c->tag[(unsigned)(line & (c->sets - 1)) * c->ways];
	unsigned w, n = c->ways;
	int hit;

	if (tag[0] == t)
		return 1;
	for (w = 1; w < n && tag[w] != t; w++)
		;
	hit = w < n;
	if (!hit) {
		if (!allocate)
			return 0;
		w = n - 1;
	}
	for (; w > 0; w--)
		tag[w] = tag[w - 1];
	tag[0] = t;
	return hit;
}

/*
 * A look at the set of addr that changes nothing (the bus model, README
 * "Bus model", calls it before the reference): the state of addr's sector
 * (NB_CACHE_MISS / CLEAN / DIRTY), and in *victim the tag word of the
 * line a filling reference of addr would evict: the least recently used
 * way (recency rank ways - 1 in either layout: nb_cache_rank_tag) when the
 * line is not in the set, else 0 (also 0 for an invalid way).
 * Valid sectors of a victim: bits NB_TAG_VSHIFT.., dirty: NB_TAG_DIRTY.
 */
static inline int nb_cache_peek(const struct nb_cache *c, uint64_t addr, uint64_t *victim)
{
	uint64_t line = addr >> c->line_shift, t = (line + 1) & NB_TAG_KEY, v;
	uint64_t sbit = UINT64_C(1) << (NB_TAG_VSHIFT + ((addr >> c->sector_shift) & c->sector_mask));
	unsigned set = (unsigned)(line & (c->sets - 1));
	const uint64_t *tag = &c->tag[set * c->ways];

	for (unsigned w = 0; w < c->ways; w++)
		if ((tag[w] & NB_TAG_KEY) == t) {
			*victim = 0;
			return !(tag[w] & sbit) ? NB_CACHE_MISS
				: (tag[w] & NB_TAG_DIRTY) ? NB_CACHE_DIRTY : NB_CACHE_CLEAN;
		}
	v = nb_cache_rank_tag(c, set, c->ways - 1);
	*victim = (v & NB_TAG_KEY) ? v : 0;
	return NB_CACHE_MISS;
}

/* 64-byte lines a victim tag word holds Modified (its valid sectors if
 * dirty: the dirty bit is per line, README "Bus model") */
static inline unsigned nb_cache_dirty_sectors(uint64_t victim)
{
	unsigned n = 0;

	if (!(victim & NB_TAG_DIRTY))
		return 0;
	for (uint64_t v = (victim >> NB_TAG_VSHIFT) & 0xff; v; v &= v - 1)
		n++;
	return n;
}

#endif /* NB_CACHE_H */
