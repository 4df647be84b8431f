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
	/* (two sets at least, as 16 lines a KB and 8 ways at most give: an
	 * access crossing into the next line then finds its hinted slot in
	 * another set, nb_l1_fast) */
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
		c->tag[i] = NB_L1_NO_LINE;
		c->stamp[i] = NB_L1_STAMP(0, i);   /* clock 0 */
		c->fp[i] = 0;
	}
	/* (way 0 of the set of the lines each hint is for) */
	for (unsigned i = 0; i < (1u << NB_L1_HINT_BITS); i++)
		c->hint[i] = (uint16_t)(8 * (i & (sets - 1)) * ways);
	return 1;
}

int nb_l1_invalidate(struct nb_l1 *c, uint64_t addr)
{
	uint64_t line = addr >> NB_L1_LINE_SHIFT;
	unsigned set = (unsigned)(line & (c->sets - 1)), base = set * c->ways;

	for (unsigned w = 0; w < c->ways; w++)
		if (c->tag[base + w] == line) {
			c->tag[base + w] = NB_L1_NO_LINE;
			c->stamp[base + w] = NB_L1_STAMP(0, base + w);  /* the next victim */
			c->fp[set] &= ~(UINT64_C(0xff) << (8 * w));
			return 1;
		}
	return 0;
}
