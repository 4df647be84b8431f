/*
 * nb_l1.c - L1 data cache with time-stamp LRU and way hints (nb_l1.h).
 * Intel does not document the NetBurst L1D replacement policy; LRU is the
 * model's choice (README "Cache model"), the same as nb_cache.c's.
 */
#include "nb_l1.h"

int nb_l1_init(struct nb_l1 *c, unsigned size_kb, unsigned ways)
{
	unsigned lines = size_kb * 1024u >> NB_L1_LINE_SHIFT, sets;

	if (!ways || (ways & (ways - 1)) || ways > NB_L1_MAX_WAYS || lines > NB_L1_MAX_LINES ||
	    lines % ways)
		return 0;
	sets = lines / ways;
	if (!sets || (sets & (sets - 1)))
		return 0;
	c->sets = sets;
	c->ways = ways;
	for (c->way_shift = 0; (1u << c->way_shift) < ways; c->way_shift++)
		;
	for (c->set_shift = 0; (1u << c->set_shift) < sets; c->set_shift++)
		;
	c->clock = 0;
	c->sink = 0;
	for (unsigned i = 0; i < NB_L1_MAX_LINES; i++) {
		c->tag[i] = 0;
		c->stamp[i] = i & (ways - 1);      /* clock 0, the way's number */
		c->fp[i] = 0;
	}
	for (unsigned i = 0; i < (1u << NB_L1_HINT_BITS); i++)
		c->hint[i] = 0;
	return 1;
}

int nb_l1_invalidate(struct nb_l1 *c, uint64_t addr)
{
	uint64_t line = addr >> NB_L1_LINE_SHIFT;
	unsigned set = (unsigned)(line & (c->sets - 1)), base = set * c->ways;

	for (unsigned w = 0; w < c->ways; w++)
		if (c->tag[base + w] == line + 1) {
			c->tag[base + w] = 0;
			c->stamp[base + w] = w;          /* clock 0: the next victim */
			c->fp[set] &= ~(UINT64_C(0xff) << (8 * w));
			return 1;
		}
	return 0;
}
