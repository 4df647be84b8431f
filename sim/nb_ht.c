/* nb_ht.c - thread placement on logical processors (see nb_ht.h). */
#include "nb_ht.h"

void nb_ht_init(struct nb_ht *h, int ht)
{
	h->ht = ht;
	h->live[0] = 1;
	h->live[1] = 0;
}

unsigned nb_ht_lp(const struct nb_ht *h, unsigned tid)
{
	return h->ht && tid ? (tid - 1) & 1u : 0;
}

void nb_ht_create(struct nb_ht *h, unsigned tid)
{
	h->live[nb_ht_lp(h, tid)]++;
}

void nb_ht_exit(struct nb_ht *h, unsigned tid)
{
	unsigned lp = nb_ht_lp(h, tid);
	if (h->live[lp])
		h->live[lp]--;
}

unsigned nb_ht_active(const struct nb_ht *h)
{
	return (h->live[0] ? 1u : 0u) | (h->live[1] ? 2u : 0u);
}
