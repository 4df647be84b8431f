/*
 * nb_sched_search.c - the exact search of nb_sched_run: requests as
 * configurations, the counters left to them, a depth-first search per
 * counter group over the configurations' ESCR picks (Hall's condition for
 * two halves decides the counters), cascade pairs at its leaves, and the
 * maps of execution metrics to tag bits around it.  The method is
 * described in nb_sched.c.
 */
#include <string.h>
#include "nb_sched_int.h"

/* Event-mask bit of NBOGUS<tag> of the execution metric's counting event. */
static uint16_t nbogus_mask(unsigned event, unsigned tag)
{
	const struct nb_event *e = &nb_events[event];
	char want[8] = "NBOGUS0";

	want[6] = (char)('0' + tag);
	for (unsigned i = 0; i < e->nmasks; i++)
		if (!strcmp(e->masks[i].name, want))
			return (uint16_t)(1u << e->masks[i].bit);
	return 0;
}

/* ---- configurations ------------------------------------------------------- */

static int add_unit(struct nbs_st *s, unsigned event, uint16_t masks, uint8_t mods,
		    uint8_t tag, uint8_t utag, uint8_t twin, unsigned pin, int counting)
{
	const struct nb_event *e = &nb_events[event];
	struct nbs_cfg *c;
	int k;

	for (k = 0; k < s->ncfg; k++) {
		c = &s->cfg[k];
		if (c->event == event && c->masks == masks && c->mods == mods && c->tag == tag &&
		    c->utag == utag && c->twin == twin)
			break;
	}
	c = &s->cfg[k];
	if (k == s->ncfg) {
		memset(c, 0, sizeof(*c));
		c->event = (uint16_t)event;
		c->masks = masks;
		c->mods = mods;
		c->tag = tag;
		c->utag = utag;
		c->twin = twin;
		c->group = nb_escrs[e->escrs[0]].group;
		for (unsigned x = 0; x < e->nescrs; x++)
			if ((s->escr_ok >> e->escrs[x]) & 1)
				c->cand[c->ncand++] = e->escrs[x];
		s->ncfg++;
	}
	if (pin != NB_NO_ESCR) {
		int j;

		if (!((s->escr_ok >> pin) & 1))
			return -1;
		for (j = 0; j < c->ncand && c->cand[j] != pin; j++)
			;
		if (j == c->ncand) {
			if (c->ncand == NBS_MAX_CAND)
				return -1;
			c->cand[c->ncand++] = (uint8_t)pin;
		}
		c->req |= (uint8_t)(1u << j);
	}
	if (counting)
		c->demand++;
	else
		c->helper = 1;
	return k;
}

/* Build the configurations of requests 0..n-1 under the current tags. */
static int build(struct nbs_st *s)
{
	s->ncfg = 0;
	for (int i = 0; i < s->n; i++) {
		const struct nb_evsel *r = &s->req[i];
		uint8_t mods = r->mods & (NB_MOD_U | NB_MOD_K | NB_MOD_USET | NB_MOD_KSET);
		int k;

		if (r->kind != NB_SEL_METRIC) {
			k = add_unit(s, r->event, r->masks, mods, NB_NO_TAG, r->tag, r->twin, NB_NO_ESCR, 1);
			if (k >= 0 && (r->cccr & NB_CCCR_MOD_CASCADE))
				s->cfg[k].casc++;
			if (k >= 0 && i == s->prec)
				s->cfg[k].prec = 1;
		} else {
			const struct nb_metric *m = &nb_metrics[r->event];
			uint8_t tag = m->type == NB_TAG_EXECUTION ? s->tagof[i] : NB_NO_TAG;
			uint16_t cm = m->count_masks;

			if (tag != NB_NO_TAG)
				cm = nbogus_mask(m->count_event, tag);
			/* The counting ESCR itself carries no tag bits. */
			k = add_unit(s, m->count_event, cm, mods, NB_NO_TAG, 0, r->twin, NB_NO_ESCR, 1);
			if (k >= 0 && i == s->prec)
				s->cfg[k].prec = 1;
			for (unsigned h = 0; h < m->nhelpers && k >= 0; h++) {
				const struct nb_helper *hp = &m->helpers[h];

				if (add_unit(s, hp->event, hp->masks, mods,
					     hp->tag_enable ? tag : NB_NO_TAG, 0, 0, hp->escr, 0) < 0)
					k = -1;
			}
		}
		if (k < 0)
			return -1;
		s->unit_cfg[i] = k;
	}
	return 0;
}

/* ---- search within a counter group ------------------------------------- */
/*
 * Pairs for the cascaded requests of group G from request I on (each
 * within the halves its configuration picked), among FREE counters, such
 * that fixed demand D0/D1 and flexible F fit what is left.  Records the
 * pair index of each in CH[request].  Exact: what is left matters only by
 * its count per half.
 */
int nbs_pairs_fit(const struct nbs_st *s, unsigned g, int i, uint32_t free_ctrs,
		     int d0, int d1, int f, uint8_t *ch)
{
	const struct nbs_cfg *c;

	while (i < s->n && !(nbs_is_cascade(&s->req[i]) && s->cfg[s->unit_cfg[i]].group == g))
		i++;
	if (i == s->n) {
		int r0 = __builtin_popcount(free_ctrs & s->halfmask[g][0]);
		int r1 = __builtin_popcount(free_ctrs & s->halfmask[g][1]);

		return d0 <= r0 && d1 <= r1 && d0 + d1 + f <= r0 + r1;
	}
	c = &s->cfg[s->unit_cfg[i]];
	for (int p = 0; p < s->npairs[g]; p++) {
		unsigned l = s->pair[g][p][0], h = s->pair[g][p][1];
		uint32_t m = (1u << l) | (1u << h);
		unsigned need = (1u << nbs_ctr_half(s, g, l)) | (1u << nbs_ctr_half(s, g, h));

		if ((free_ctrs & m) != m || (need & ~(unsigned)c->halves))
			continue;
		ch[i] = (uint8_t)p;
		if (nbs_pairs_fit(s, g, i + 1, free_ctrs & ~m, d0, d1, f, ch))
			return 1;
	}
	return 0;
}

static int dfs(struct nbs_st *s, int depth, int d0, int d1, int f, int K)
{
	struct nbs_cfg *c;

	/* necessary conditions (a pair: two counters) */
	if (K > s->kmax || d0 > s->cap[0] || d1 > s->cap[1] ||
	    d0 + d1 + f + 2 * K > s->cap[0] + s->cap[1])
		return 0;
	if (depth == s->norder) {
		uint8_t ch[NB_SCHED_MAX];

		return K == 0 || nbs_pairs_fit(s, s->group, 0, s->usable, d0, d1, f, ch);
	}
	c = &s->cfg[s->order[depth]];
	/* Picks by size: a configuration needs more than one ESCR only to
	 * reach counters in both halves. */
	for (int size = 1; size <= c->ncand; size++) {
		for (unsigned pick = 1; pick < (1u << c->ncand); pick++) {
			unsigned halves = 0;
			uint64_t m = 0;
			int ok = 1;

			unsigned extra = pick & ~(unsigned)c->req, hreq = 0;

			if ((unsigned)__builtin_popcount(pick) != (unsigned)size ||
			    (pick & c->req) != c->req)
				continue;
			/* ESCRs beyond the required ones serve counting units only,
			 * each must open a half the others do not reach, and with
			 * nothing required one ESCR per counting unit at most. */
			if (__builtin_popcount(extra) > c->demand + c->casc &&
			    !(c->req == 0 && size == 1))
				continue;
			for (int j = 0; j < c->ncand; j++) {
				if (!(pick & (1u << j)))
					continue;
				if ((s->used >> c->cand[j]) & 1)
					ok = 0;
				m |= UINT64_C(1) << c->cand[j];
				if (!(extra & (1u << j)))
					hreq |= 1u << nbs_half_of(s, c->cand[j]);
			}
			for (int j = 0; j < c->ncand && ok; j++) {
				unsigned h = 1u << nbs_half_of(s, c->cand[j]);

				if (!(extra & (1u << j)))
					continue;
				if ((hreq & h) && !(c->req == 0 && size == 1))
					ok = 0;
				hreq |= h;
			}
			halves = hreq;
			if (!ok)
				continue;
			if (c->prec) {
				/* the precise unit's ESCR feeds counter 16 */
				int w = 0;

				for (int j = 0; j < c->ncand; j++)
					if (((pick >> j) & 1) &&
					    ((nb_escrs[c->cand[j]].counters >> s->pebs) & 1))
						w = 1;
				if (!w)
					continue;
			}
			c->pick = (uint8_t)pick;
			c->halves = (uint8_t)halves;
			s->used |= m;
			if (dfs(s, depth + 1,
				d0 + (halves == 1 ? c->demand - c->casc - c->prec : 0),
				d1 + (halves == 2 ? c->demand - c->casc - c->prec : 0),
				f + (halves == 3 ? c->demand - c->casc - c->prec : 0),
				K + c->casc))
				return 1;
			s->used &= ~m;
		}
	}
	return 0;
}

static int ncand_choices(const struct nbs_cfg *c)
{
	return c->demand + c->casc >= 2 ? (1 << c->ncand) : c->ncand;
}

static int solve_group(struct nbs_st *s, unsigned g)
{
	int demand = 0;

	s->norder = 0;
	for (int k = 0; k < s->ncfg; k++) {
		struct nbs_cfg *c = &s->cfg[k];
		int j;

		if (c->group != g)
			continue;
		if (c->ncand == 0)
			return 0;
		demand += c->demand + c->casc - c->prec;
		/* most constrained first */
		for (j = s->norder; j > 0 &&
		     ncand_choices(&s->cfg[s->order[j - 1]]) > ncand_choices(c); j--)
			s->order[j] = s->order[j - 1];
		s->order[j] = k;
		s->norder++;
	}
	if (s->norder == 0)
		return 1;
	s->cap[0] = __builtin_popcount(nbs_half_counters(s, g, 0));
	s->cap[1] = __builtin_popcount(nbs_half_counters(s, g, 1));
	s->kmax = s->maxpairs[g];
	s->group = g;
	if (demand > s->cap[0] + s->cap[1])
		return 0;
	return dfs(s, 0, 0, 0, 0, 0);
}

static int solve_groups(struct nbs_st *s)
{
	s->used = 0;
	if (build(s) < 0) {
		s->bad_group = -1;
		return 0;
	}
	for (unsigned g = 0; g < NB_NUM_GROUPS; g++) {
		if (!solve_group(s, g)) {
			s->bad_group = (int)g;
			return 0;
		}
	}
	return 1;
}

/* Try every injective map of the distinct execution metrics to tag bits.
 * Tag values matter only through the counting masks NBOGUSn, which a
 * plain execution_event request may share; without one, every map is the
 * same problem up to renaming, so the first is enough (SYM). */
int nbs_try_tags(struct nbs_st *s, const int *key, int nkeys, int next, unsigned taken, int sym)
{
	if (next == nkeys)
		return solve_groups(s);
	for (unsigned t = 0; t < 4; t++) {
		if (taken & (1u << t))
			continue;
		for (int i = 0; i < s->n; i++)
			if (key[i] == next)
				s->tagof[i] = (uint8_t)t;
		if (nbs_try_tags(s, key, nkeys, next + 1, taken | (1u << t), sym))
			return 1;
		if (sym)
			return 0;
	}
	return 0;
}

/* ---- the counters ------------------------------------------------------ */

/* The usable cascade pairs of each group and how many are disjoint. */
static void cascade_pairs(struct nbs_st *s)
{
	memset(s->npairs, 0, sizeof(s->npairs));
	memset(s->maxpairs, 0, sizeof(s->maxpairs));
	for (unsigned h = 0; h < NB_NUM_COUNTERS; h++) {
		int l = nb_sched_cascade_alt(h);
		unsigned g = nb_counters[h].group;

		if (l < 0 || !((s->usable >> h) & 1) || !((s->usable >> l) & 1))
			continue;
		/* mutual alternates (c ^ 2): one pair, low counter first */
		if (nb_sched_cascade_alt((unsigned)l) == (int)h && (unsigned)l > h)
			continue;
		s->pair[g][s->npairs[g]][0] = (uint8_t)l;
		s->pair[g][s->npairs[g]][1] = (uint8_t)h;
		s->npairs[g]++;
	}
	for (unsigned g = 0; g < NB_NUM_GROUPS; g++)
		for (unsigned set = 1; set < (1u << s->npairs[g]); set++) {
			uint32_t m = 0;
			int ok = 1;

			for (int p = 0; p < s->npairs[g]; p++) {
				uint32_t pm = (1u << s->pair[g][p][0]) | (1u << s->pair[g][p][1]);

				if (!((set >> p) & 1))
					continue;
				if (m & pm)
					ok = 0;
				m |= pm;
			}
			if (ok && __builtin_popcount(set) > s->maxpairs[g])
				s->maxpairs[g] = (uint8_t)__builtin_popcount(set);
		}
}

/* The counters left to the units other than a precise one (WITH16: one
 * is in the set and takes counter 16): per half, and cascade pairs. */
void nbs_setup_counters(struct nbs_st *s, int with16)
{
	s->usable = s->usable_all;
	if (with16)
		s->usable &= ~(UINT32_C(1) << s->pebs);
	memset(s->halfmask, 0, sizeof(s->halfmask));
	for (unsigned i = 0; i < nb_num_escrs; i++)
		s->halfmask[nb_escrs[i].group][nbs_half_of(s, i)] |= nb_escrs[i].counters & s->usable;
	cascade_pairs(s);
	s->setup16 = with16;
}
