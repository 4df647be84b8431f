/* nb_ht.c - thread placement on logical processors (see nb_ht.h). */
#include "nb_ht.h"

static unsigned alternate(unsigned tid)
{
	return tid ? (tid - 1) & 1u : 0;
}

void nb_ht_init(struct nb_ht *h, int ht)
{
	h->ht = ht;
	h->place = NB_HT_FIXED;
	h->moves = 0;
	for (unsigned t = 0; t < NB_HT_MAXT; t++) {
		h->lp[t] = h->home[t] = (unsigned char)alternate(t);
		h->alive[t] = 0;
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

void nb_ht_create(struct nb_ht *h, unsigned tid)
{
	unsigned lp = h->ht ? alternate(tid) : 0;

	/* valgrind announces the main thread too: counted once */
	if (tid < NB_HT_MAXT && h->alive[tid])
		nb_ht_exit(h, tid);
	/* fork placement: the LP with fewer live threads */
	if (h->ht && h->place == NB_HT_MIGRATE && h->live[0] != h->live[1])
		lp = h->live[0] < h->live[1] ? 0 : 1;
	if (tid < NB_HT_MAXT) {
		h->lp[tid] = h->home[tid] = (unsigned char)lp;
		h->alive[tid] = 1;
	}
	h->live[lp]++;
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
		if (h->alive[t] && h->lp[t] == busy && (!may_move || may_move(t, arg))) {
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
