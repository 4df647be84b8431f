/*
 * nb_cache.c - set-associative, sectored cache with true LRU replacement.
 * Intel does not document the NetBurst replacement policies; LRU is the
 * model's choice (README "Cache model").
 */
#include "nb_cache.h"

static unsigned log2u(unsigned v)
{
	unsigned n = 0;
	while ((1u << n) < v)
		n++;
	return n;
}

int nb_cache_init(struct nb_cache *c, unsigned size_kb, unsigned ways,
		  unsigned line_bytes, unsigned sector_bytes)
{
	unsigned lines;

	if (!ways || !line_bytes || !sector_bytes || sector_bytes > line_bytes ||
	    line_bytes / sector_bytes > 8)
		return 0;
	lines = size_kb * 1024u / line_bytes;
	if (lines > NB_CACHE_MAX_LINES || lines % ways || ((lines / ways) & (lines / ways - 1)))
		return 0;
	c->ways = ways;
	c->sets = lines / ways;
	c->line_shift = log2u(line_bytes);
	c->sector_shift = log2u(sector_bytes);
	for (unsigned i = 0; i < lines; i++)
		c->tag[i] = 0;
	return 1;
}

int nb_cache_ref(struct nb_cache *c, uint64_t addr, int allocate, int write)
{
	uint64_t line = addr >> c->line_shift, t = (line + 1) & NB_TAG_KEY;
	uint64_t sbit = UINT64_C(1) << (NB_TAG_VSHIFT + ((addr >> c->sector_shift) &
				((1u << (c->line_shift - c->sector_shift)) - 1)));
	uint64_t fill = allocate == NB_FILL_LINE
		? ((UINT64_C(1) << (1u << (c->line_shift - c->sector_shift))) - 1) << NB_TAG_VSHIFT
		: sbit;
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

int nb_cache_access(struct nb_cache *c, uint64_t addr, int allocate)
{
	return nb_cache_ref(c, addr, allocate, 0) != NB_CACHE_MISS;
}
