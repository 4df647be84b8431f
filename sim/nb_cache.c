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
	c->sector_mask = (1u << (c->line_shift - c->sector_shift)) - 1;
	c->fill_line = ((UINT64_C(1) << (c->sector_mask + 1)) - 1) << NB_TAG_VSHIFT;
	c->set_shift = log2u(c->sets);
	for (unsigned i = 0; i < lines; i++)
		c->tag[i] = 0;
	for (unsigned i = 0; i < NB_CACHE_MAX_LINES / 8; i++) {
		c->fp[i] = 0;
		c->order[i] = NB_CACHE_ORDER0;
	}
	return 1;
}

int nb_cache_access(struct nb_cache *c, uint64_t addr, int allocate)
{
	return nb_cache_ref(c, addr, allocate, 0) != NB_CACHE_MISS;
}
