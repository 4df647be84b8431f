/* nb_ht.c - thread placement on logical processors (see nb_ht.h). */
#include "nb_ht.h"

static unsigned alternate(unsigned tid)
{
	return tid ? (tid - 1) & 1u : 0;
}

unsigned nb_ht_all(const struct nb_ht *h)
{
	return h->ht ? 3u : 1u;
}

void nb_ht_init(struct nb_ht *h, int ht)
{
	h->ht = ht;
	h->place = NB_HT_FIXED;
	h->moves = 0;
	for (unsigned t = 0; t < NB_HT_MAXT; t++) {
		h->lp[t] = h->home[t] = (unsigned char)alternate(t);
		h->alive[t] = 0;
		h->mask[t] = (unsigned char)nb_ht_all(h);
	}
	h->alive[1] = 1;
	h->live[0] = 1;
	h->live[1] = 0;
}

void nb_ht_set_place(struct nb_ht *h, int place)
{
	h->place = place;
}

unsigned nb_ht_lp(const struct nb_ht *h, unsigned tid)
{
	if (!h->ht)
		return 0;
	return tid < NB_HT_MAXT ? h->lp[tid] : alternate(tid);
}

unsigned nb_ht_home(const struct nb_ht *h, unsigned tid)
{
	if (!h->ht)
		return 0;
	return tid < NB_HT_MAXT ? h->home[tid] : alternate(tid);
}

void nb_ht_create_by(struct nb_ht *h, unsigned tid, unsigned parent)
{
	unsigned lp = h->ht ? alternate(tid) : 0;
	unsigned m = nb_ht_mask(h, parent);

	/* valgrind announces the main thread too: counted once */
	if (tid < NB_HT_MAXT && h->alive[tid])
		nb_ht_exit(h, tid);
	/* fork placement: the LP with fewer live threads */
	if (h->ht && h->place == NB_HT_MIGRATE && h->live[0] != h->live[1])
		lp = h->live[0] < h->live[1] ? 0 : 1;
	/* (Linux places a task on a CPU of its mask only) */
	if (!((m >> lp) & 1u))
		lp ^= 1u;
	if (tid < NB_HT_MAXT) {
		h->lp[tid] = h->home[tid] = (unsigned char)lp;
		h->alive[tid] = 1;
		h->mask[tid] = (unsigned char)m;
	}
	h->live[lp]++;
}

void nb_ht_create(struct nb_ht *h, unsigned tid)
{
	nb_ht_create_by(h, tid, 0);
}

unsigned nb_ht_mask(const struct nb_ht *h, unsigned tid)
{
	return tid && tid < NB_HT_MAXT ? h->mask[tid] & nb_ht_all(h) : nb_ht_all(h);
}

unsigned nb_ht_set_mask(struct nb_ht *h, unsigned tid, unsigned mask)
{
	mask &= nb_ht_all(h);
	if (mask && tid && tid < NB_HT_MAXT)
		h->mask[tid] = (unsigned char)mask;
	return mask;
}

unsigned nb_ht_want(const struct nb_ht *h, unsigned tid)
{
	unsigned lp = nb_ht_lp(h, tid);

	if (!h->ht || !tid || tid >= NB_HT_MAXT || !h->alive[tid] || ((h->mask[tid] >> lp) & 1u))
		return lp;
	return lp ^ 1u;
}

int nb_ht_move(struct nb_ht *h, unsigned tid, unsigned lp, int rehome)
{
	unsigned from;

	if (!h->ht || !tid || tid >= NB_HT_MAXT || !h->alive[tid] || lp > 1)
		return 0;
	from = h->lp[tid];
	if (rehome)
		h->home[tid] = (unsigned char)lp;
	if (from == lp)
		return 0;
	h->lp[tid] = (unsigned char)lp;
	if (h->live[from])
		h->live[from]--;
	h->live[lp]++;
	h->moves++;
	return 1;
}

void nb_ht_exit(struct nb_ht *h, unsigned tid)
{
	unsigned lp = nb_ht_lp(h, tid);

	if (tid < NB_HT_MAXT) {
		if (!h->alive[tid])
			return;
		h->alive[tid] = 0;
	}
	if (h->live[lp])
		h->live[lp]--;
}

unsigned nb_ht_balance(struct nb_ht *h, int (*may_move)(unsigned tid, void *arg), void *arg)
{
	unsigned busy, t;

	if (!h->ht || h->place != NB_HT_MIGRATE)
		return 0;
	if (h->live[0] >= h->live[1] + 2)
		busy = 0;
	else if (h->live[1] >= h->live[0] + 2)
		busy = 1;
	else
		return 0;
	for (t = NB_HT_MAXT - 1; t > 0; t--)
		if (h->alive[t] && h->lp[t] == busy && ((h->mask[t] >> (busy ^ 1)) & 1u) &&
		    (!may_move || may_move(t, arg))) {
			h->lp[t] = (unsigned char)(busy ^ 1);
			h->live[busy]--;
			h->live[busy ^ 1]++;
			h->moves++;
			return t;
		}
	return 0;
}

unsigned nb_ht_active(const struct nb_ht *h)
{
	return (h->live[0] ? 1u : 0u) | (h->live[1] ? 2u : 0u);
}
