/*
 * nb_wpath.c - wrong-path model (see nb_wpath.h): a model, not a
 * measurement; its parameters are documented in the header and README.
 */
#include "nb_wpath.h"

void nb_wpath_init(struct nb_wpath *w, unsigned penalty)
{
	unsigned cycles = penalty > NB_WP_FETCH_STAGES ? penalty - NB_WP_FETCH_STAGES : 0;
	w->per_mispredict = (uint64_t)cycles * NB_WP_WIDTH;
}

uint64_t nb_wpath_uops(const struct nb_wpath *w, uint64_t mispredicts)
{
	return w->per_mispredict * mispredicts;
}

uint64_t nb_wpath_share(uint64_t bogus_uops, uint64_t part, uint64_t committed_uops)
{
	if (!committed_uops)
		return 0;
	return (uint64_t)((unsigned __int128)bogus_uops * part / committed_uops);
}

uint64_t nb_wpath_share_carry(uint64_t bogus_uops, uint64_t part, uint64_t committed_uops,
			      uint32_t *frac)
{
	unsigned __int128 q;

	/* nothing to share: the carry stays (and step mode, which folds
	 * every retirement cycle, skips the 128-bit division) */
	if (!committed_uops || !bogus_uops || !part)
		return 0;
	q = (((unsigned __int128)bogus_uops * part) << 32) / committed_uops + *frac;
	*frac = (uint32_t)q;
	return (uint64_t)(q >> 32);
}
