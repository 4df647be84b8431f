/*
 * nb_sched_fill.c - the placement the search found, as struct nb_assign:
 * cascaded pairs first, the precise request on its counter, then fixed and
 * flexible demand per half (Hall's condition held, so counters exist),
 * the replay MSRs, and the helper ESCRs no counting unit programs.
 */
#include <string.h>
#include "nb_sched_int.h"

static int take(uint32_t *free_ctrs, uint32_t half)
{
	uint32_t m = *free_ctrs & half;
	int c;

	if (!m)
		return -1;
	c = __builtin_ctz(m);
	*free_ctrs &= ~(1u << c);
	return c;
}

static unsigned escr_in_half(const struct nbs_st *s, const struct nbs_cfg *c, unsigned h)
{
	for (int j = 0; j < c->ncand; j++)
		if ((c->pick & (1u << j)) && nbs_half_of(s, c->cand[j]) == h)
			return c->cand[j];
	return 0;
}

/* Cascaded units first, on pairs that leave room for the others. */
static void fill_cascades(struct nbs_st *s, struct nb_assign *out, uint32_t *free_ctrs)
{
	for (unsigned g = 0; g < NB_NUM_GROUPS; g++) {
		uint8_t ch[NB_SCHED_MAX];
		int d[3] = { 0, 0, 0 }, any = 0;

		for (int k = 0; k < s->ncfg; k++) {
			const struct nbs_cfg *c = &s->cfg[k];

			if (c->group == g && c->halves)
				d[c->halves - 1] += c->demand - c->casc - c->prec;
			any |= c->group == g && c->casc;
		}
		if (!any || !nbs_pairs_fit(s, g, 0, *free_ctrs, d[0], d[1], d[2], ch))
			continue;   /* found by the search: exists */
		for (int i = 0; i < s->n; i++) {
			struct nbs_cfg *c = &s->cfg[s->unit_cfg[i]];
			struct nb_slot *sl = &out->slot[i];
			unsigned lo, hi;

			if (!nbs_is_cascade(&s->req[i]) || c->group != g)
				continue;
			lo = s->pair[g][ch[i]][0];
			hi = s->pair[g][ch[i]][1];
			sl->cascade = 1;
			sl->counter = (uint8_t)lo;
			sl->hi_counter = (uint8_t)hi;
			sl->escr = (uint8_t)escr_in_half(s, c, nbs_ctr_half(s, g, lo));
			sl->hi_escr = (uint8_t)escr_in_half(s, c, nbs_ctr_half(s, g, hi));
			sl->event = c->event;
			sl->masks = c->masks;
			sl->tag = NB_NO_TAG;
			sl->tag_value = c->utag;
			*free_ctrs &= ~((1u << lo) | (1u << hi));
			out->counters_used |= (1u << lo) | (1u << hi);
			out->escrs_used |= (UINT64_C(1) << sl->escr) | (UINT64_C(1) << sl->hi_escr);
		}
	}
}

void nbs_fill(struct nbs_st *s, struct nb_assign *out)
{
	uint32_t free_ctrs = s->usable;
	uint32_t half[NB_NUM_GROUPS][2];

	memset(out, 0, sizeof(*out));
	for (unsigned g = 0; g < NB_NUM_GROUPS; g++)
		for (unsigned h = 0; h < 2; h++)
			half[g][h] = nbs_half_counters(s, g, h);
	fill_cascades(s, out, &free_ctrs);
	if (s->prec >= 0) {
		/* the precise request on counter 16, through an ESCR wired to it */
		struct nbs_cfg *c = &s->cfg[s->unit_cfg[s->prec]];
		struct nb_slot *sl = &out->slot[s->prec];

		for (int j = 0; j < c->ncand; j++)
			if (((c->pick >> j) & 1) &&
			    ((nb_escrs[c->cand[j]].counters >> s->pebs) & 1))
				sl->escr = c->cand[j];
		sl->counter = s->pebs;
		sl->event = c->event;
		sl->masks = c->masks;
		sl->tag = NB_NO_TAG;
		sl->tag_value = c->utag;
		out->counters_used |= 1u << s->pebs;
		out->escrs_used |= UINT64_C(1) << sl->escr;
	}
	/* fixed demand first, then flexible */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < s->n; i++) {
			struct nbs_cfg *c = &s->cfg[s->unit_cfg[i]];
			unsigned h;
			int ctr;

			if ((c->halves == 3) != (pass == 1) || nbs_is_cascade(&s->req[i]) || i == s->prec)
				continue;
			h = c->halves == 2 ? 1 : 0;
			ctr = take(&free_ctrs, half[c->group][h]);
			if (ctr < 0 && c->halves == 3) {
				h = 1;
				ctr = take(&free_ctrs, half[c->group][h]);
			}
			out->slot[i].counter = (uint8_t)ctr;   /* exists: Hall's condition held */
			out->slot[i].escr = (uint8_t)escr_in_half(s, c, h);
			out->slot[i].event = c->event;
			out->slot[i].masks = c->masks;
			out->slot[i].tag = NB_NO_TAG;
			out->slot[i].tag_value = c->utag;
			out->counters_used |= 1u << ctr;
			out->escrs_used |= UINT64_C(1) << out->slot[i].escr;
		}
	}
	/* helper ESCRs not programmed by a counting unit */
	for (int i = 0; i < s->n; i++) {
		const struct nb_evsel *r = &s->req[i];
		const struct nb_metric *m;

		if (r->kind != NB_SEL_METRIC)
			continue;
		m = &nb_metrics[r->event];
		if (m->type == NB_TAG_REPLAY) {
			out->pebs_enable = m->pebs_enable;
			out->matrix_vert = m->matrix_vert;
			if (r->cccr & NB_CCCR_MOD_PRECISE)
				out->pebs_enable |= NB_PEBS_ENABLE_PEBS;
		}
	}
	for (int k = 0; k < s->ncfg; k++) {
		struct nbs_cfg *c = &s->cfg[k];

		if (!c->helper)
			continue;
		for (int j = 0; j < c->ncand; j++) {
			unsigned e = c->cand[j];
			struct nb_helper_slot *hs;
			int owner = 0;

			if (!(c->pick & (1u << j)) || ((out->escrs_used >> e) & 1))
				continue;
			for (int i = 0; i < s->n; i++)
				if (s->req[i].kind == NB_SEL_METRIC)
					for (unsigned h = 0; h < nb_metrics[s->req[i].event].nhelpers; h++)
						if (nb_metrics[s->req[i].event].helpers[h].event == c->event)
							owner = i;
			hs = &out->helper[out->nhelpers++];
			hs->escr = (uint8_t)e;
			hs->tag = c->tag;
			hs->mods = c->mods;
			hs->owner = (uint8_t)owner;
			hs->event = c->event;
			hs->masks = c->masks;
			out->escrs_used |= UINT64_C(1) << e;
		}
	}
}
