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
	for (unsigned i = 0; i < lines; i++) {
		c->tag[i] = 0;
		c->valid[i] = 0;
	}
	return 1;
}

int nb_cache_access(struct nb_cache *c, uint64_t addr, int allocate)
{
	uint64_t line = addr >> c->line_shift, t = line + 1;
	unsigned sbit = 1u << ((addr >> c->sector_shift) &
			       ((1u << (c->line_shift - c->sector_shift)) - 1));
	uint64_t *tag = &c->tag[(unsigned)(line & (c->sets - 1)) * c->ways];
	uint8_t *valid = &c->valid[tag - c->tag], v;
	unsigned w, n = c->ways;
	int hit;

	if (tag[0] == t) {                       /* MRU: the common case */
		hit = (valid[0] & sbit) != 0;
		if (allocate)
			valid[0] |= (uint8_t)sbit;
		return hit;
	}
	for (w = 1; w < n && tag[w] != t; w++)
		;
	if (w < n) {
		hit = (valid[w] & sbit) != 0;
		if (!hit && !allocate)
			return 0;
		v = (uint8_t)(valid[w] | sbit);
	} else {
		if (!allocate)
			return 0;
		hit = 0;
		w = n - 1;                       /* LRU victim */
		v = (uint8_t)sbit;
	}
	for (; w > 0; w--) {                     /* move to the front */
		tag[w] = tag[w - 1];
		valid[w] = valid[w - 1];
	}
	tag[0] = t;
	valid[0] = v;
	return hit;
}
