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
	c->perm = ways == 8;
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

/* (README "Write-combining buffers": a non-temporal store evicts its line
 * from the caches) */
int nb_cache_invalidate(struct nb_cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift, t = (line + 1) & NB_TAG_KEY;
	uint64_t sbit = UINT64_C(1) << (NB_TAG_VSHIFT + ((addr >> c->sector_shift) & c->sector_mask));
	unsigned set = (unsigned)(line & (c->sets - 1)), n = c->ways, w, i;
	uint64_t *tag = &c->tag[set * n];
	int st;

	for (w = 0; w < n && (tag[w] & NB_TAG_KEY) != t; w++)
		;
	if (w == n || !(tag[w] & sbit))
		return NB_CACHE_MISS;
	st = (tag[w] & NB_TAG_DIRTY) ? NB_CACHE_DIRTY : NB_CACHE_CLEAN;
	tag[w] &= ~sbit;
	if (tag[w] & c->fill_line)              /* another sector stays */
		return st;
	if (c->perm) {
		/* the way stays; its number leaves its rank r for rank 7,
		 * the ranks above r move down one */
		uint64_t o = c->order[set], y = o ^ (w * 0x11111111u), z, low;
		unsigned r;
		tag[w] = 0;
		c->fp[set] &= ~(UINT64_C(0xff) << (8 * w));
		z = (y - 0x11111111u) & ~y & 0x88888888u;
		r = (unsigned)__builtin_ctzll(z) >> 2;
		low = (UINT64_C(1) << (4 * r)) - 1;
		c->order[set] = (uint32_t)((o & low) | ((o >> (4 * r + 4)) << (4 * r)) |
					   (uint64_t)w << 28);
		return st;
	}
	for (i = w; i + 1 < n; i++)             /* the empty way sinks to the end */
		tag[i] = tag[i + 1];
	tag[n - 1] = 0;
	return st;
}
