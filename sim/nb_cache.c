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
	if (lines > NB_CACHE_MAX_LINES || lines % ways)
		return 0;
	c->ways = ways;
	c->sets = lines / ways;
	c->line_shift = log2u(line_bytes);
	c->sector_shift = log2u(sector_bytes);
	c->clock = 0;
	for (unsigned i = 0; i < lines; i++) {
		c->tag[i] = 0;
		c->used[i] = 0;
		c->valid[i] = 0;
	}
	return 1;
}

int nb_cache_access(struct nb_cache *c, uint64_t addr, int allocate)
{
	uint64_t line = addr >> c->line_shift;
	unsigned set = (unsigned)(line % c->sets);
	unsigned sbit = 1u << ((addr >> c->sector_shift) & ((1u << (c->line_shift - c->sector_shift)) - 1));
	unsigned base = set * c->ways, victim = base;

	c->clock++;
	for (unsigned w = base; w < base + c->ways; w++) {
		if (c->tag[w] == line + 1) {
			int hit = (c->valid[w] & sbit) != 0;
			if (hit || allocate) {
				c->valid[w] |= (uint8_t)sbit;
				c->used[w] = c->clock;
			}
			return hit;
		}
		if (c->used[w] < c->used[victim])
			victim = w;
	}
	if (allocate) {
		c->tag[victim] = line + 1;
		c->valid[victim] = (uint8_t)sbit;
		c->used[victim] = c->clock;
	}
	return 0;
}
