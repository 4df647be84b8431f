/*
 * nb_sched.c - exact ESCR/counter placement of events and tagged metrics.
 *
 * Facts used (see nb_sched.h for the rules): the ESCR -> counter wiring of
 * pmu.txt [SDM Table 18-63]; every ESCR of a counter group feeds either the
 * group's first counter pair(s) or its second ("halves": BPU/MS/FLAME
 * {0,1}/{2,3} of the group, IQ {12,13,16}/{14,15,17}), and the groups share
 * no ESCR or counter.
 *
 * Method.  Requests become units: a counting unit (needs a counter through
 * an ESCR) per request and a helper unit (needs an ESCR only) per metric
 * helper.  Units with identical ESCR images form one configuration.  Global
 * choices come first: the TagValue bit of each execution metric (injective
 * maps into 0..3, at most 24).  Then the counter groups are independent.
 * In a group, each configuration picks a set of ESCRs (one ESCR, or one per
 * half when it has several counting units); ESCRs are exclusive.  Given the
 * picks, counting units that can use one half only are fixed demand on that
 * half, the others are flexible, and Hall's condition for two bins
 * (d0 <= c0, d1 <= c1, d0 + d1 + flex <= c0 + c1) decides exactly whether
 * counters exist.  A depth-first search over the picks, pruned by that
 * condition, is therefore exact, and small: a group has at most six
 * counters, so few configurations.
 *
 * Precise requests.  A precise request's counting unit takes the PEBS
 * counter of the event set's logical processor, 16 on LP0 or 17 on LP1
 * (NB_SCHED_PEBS_COUNTER + thread): with one in the set, that counter
 * leaves the usable counters (halves, capacities, cascade pairs), the unit
 * leaves its configuration's Hall demand, and that configuration must pick
 * an ESCR wired to it.  Exact: the unit's counter is fixed, so what is
 * left is the same problem without that counter.
 *
 * Cascaded requests.  A cascaded pair is a low counter L and H with
 * alt(H) = L (0<->2, 1<->3 of each group, IQ 12<->14, 13<->15, 16 from 14,
 * 17 from 15).  Every ESCR of a half feeds every counter of that half
 * (pmu.txt), so a pair needs the configuration on an ESCR of each half it
 * touches: both halves, except IQ {15, 17} (second half only).  The
 * search prunes with necessary conditions (K pairs: 2K counters, at most
 * as many as disjoint usable pairs exist); at a leaf it tries every choice
 * of disjoint pairs the configurations' halves allow (at most two pairs
 * of four per group) and Hall's condition on what they leave.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "nb_sched.h"

#define MAX_CFG  (NB_SCHED_MAX * (1 + NB_MAX_HELPERS))
#define MAX_CAND 3

struct cfg {
	uint16_t event, masks;
	uint8_t mods, tag;       /* tag: NB_NO_TAG or TagValue bit */
	uint8_t utag;            /* TagValue a request gives (nb_evsel .tag), 0: none */
	uint8_t group;
	uint8_t demand;          /* counting units (cascaded ones included) */
	uint8_t casc;            /* of which cascaded (a counter pair each) */
	uint8_t prec;            /* of which precise (counter 16; at most 1) */
	uint8_t helper;          /* has helper units */
	uint8_t ncand;
	uint8_t cand[MAX_CAND];
	uint8_t req;             /* bit j: cand[j] required (pinned helper) */
	uint8_t pick;            /* bit j: cand[j] chosen */
	uint8_t halves;          /* of the pick: bit 0 first half, bit 1 second */
};

struct st {
	const struct nb_evsel *req;
	int n;
	const struct nb_sched_cpu *cpu;
	uint32_t usable;         /* counters we may use (16 not, with a precise request) */
	uint32_t usable_all;     /* the same, counter 16 included */
	int prec;                /* the precise request, or -1 */
	unsigned pebs;           /* its counter: 16 on LP0, 17 on LP1 (NB_SCHED_PEBS_COUNTER) */
	int setup16;             /* usable is set up for: 1 with, 0 without precise, -1 not yet */
	uint64_t escr_ok;        /* ESCRs on this model, not the sibling's */
	uint8_t low[NB_NUM_GROUPS];   /* lowest counter of each group */
	uint32_t halfmask[NB_NUM_GROUPS][2];  /* usable counters per half */
	uint8_t tagof[NB_SCHED_MAX];  /* execution metric request -> tag */
	unsigned utags;          /* TagValue bits the requests' TAGn use (kept as given) */
	struct cfg cfg[MAX_CFG];
	int ncfg;
	int unit_cfg[NB_SCHED_MAX];   /* counting unit of request i */
	int bad_group;           /* group that failed, or -1 */
	/* search state */
	int order[MAX_CFG];
	int norder;
	int cap[2];
	int kmax;                /* disjoint usable cascade pairs of the group */
	unsigned group;          /* the group being searched */
	uint64_t used;
	uint8_t npairs[NB_NUM_GROUPS];
	uint8_t pair[NB_NUM_GROUPS][4][2];   /* usable pairs {L, H}, alt(H) = L */
	uint8_t maxpairs[NB_NUM_GROUPS];
};

/* Counter wiring for cascading: native_events/pmu.txt (CASCADE_FROM). */
int nb_sched_cascade_alt(unsigned c)
{
	return c < NB_NUM_COUNTERS ? nb_counters[c].cascade_from : -1;
}

/* ---- facts derived from the tables -------------------------------------- */

static unsigned half_of(const struct st *s, unsigned escr)
{
	const struct nb_escr *x = &nb_escrs[escr];

	return (x->counters >> s->low[x->group]) & 1 ? 0 : 1;
}

static uint32_t half_counters(const struct st *s, unsigned group, unsigned h)
{
	return s->halfmask[group][h];
}

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

void nb_sched_name(const struct nb_evsel *sel, char *buf, size_t len)
{
	if (sel->kind == NB_SEL_METRIC) {
		snprintf(buf, len, "%s", nb_metrics[sel->event].name);
		return;
	}
	if (nb_evsel_format(sel, buf, len) < 0)
		snprintf(buf, len, "%s", nb_events[sel->event].name);
}

/* ---- configurations ------------------------------------------------------- */

static int add_unit(struct st *s, unsigned event, uint16_t masks, uint8_t mods,
		    uint8_t tag, uint8_t utag, unsigned pin, int counting)
{
	const struct nb_event *e = &nb_events[event];
	struct cfg *c;
	int k;

	for (k = 0; k < s->ncfg; k++) {
		c = &s->cfg[k];
		if (c->event == event && c->masks == masks && c->mods == mods && c->tag == tag &&
		    c->utag == utag)
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
			if (c->ncand == MAX_CAND)
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
static int build(struct st *s)
{
	s->ncfg = 0;
	for (int i = 0; i < s->n; i++) {
		const struct nb_evsel *r = &s->req[i];
		uint8_t mods = r->mods & (NB_MOD_U | NB_MOD_K | NB_MOD_USET | NB_MOD_KSET);
		int k;

		if (r->kind != NB_SEL_METRIC) {
			k = add_unit(s, r->event, r->masks, mods, NB_NO_TAG, r->tag, NB_NO_ESCR, 1);
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
			k = add_unit(s, m->count_event, cm, mods, NB_NO_TAG, 0, NB_NO_ESCR, 1);
			if (k >= 0 && i == s->prec)
				s->cfg[k].prec = 1;
			for (unsigned h = 0; h < m->nhelpers && k >= 0; h++) {
				const struct nb_helper *hp = &m->helpers[h];

				if (add_unit(s, hp->event, hp->masks, mods,
					     hp->tag_enable ? tag : NB_NO_TAG, 0, hp->escr, 0) < 0)
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

static int is_cascade(const struct nb_evsel *r)
{
	return r->kind == NB_SEL_EVENT && (r->cccr & NB_CCCR_MOD_CASCADE);
}

static unsigned ctr_half(const struct st *s, unsigned g, unsigned ctr)
{
	return (s->halfmask[g][0] >> ctr) & 1 ? 0 : 1;
}

/*
 * Pairs for the cascaded requests of group G from request I on (each
 * within the halves its configuration picked), among FREE counters, such
 * that fixed demand D0/D1 and flexible F fit what is left.  Records the
 * pair index of each in CH[request].  Exact: what is left matters only by
 * its count per half.
 */
static int pairs_fit(const struct st *s, unsigned g, int i, uint32_t free_ctrs,
		     int d0, int d1, int f, uint8_t *ch)
{
	const struct cfg *c;

	while (i < s->n && !(is_cascade(&s->req[i]) && s->cfg[s->unit_cfg[i]].group == g))
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
		unsigned need = (1u << ctr_half(s, g, l)) | (1u << ctr_half(s, g, h));

		if ((free_ctrs & m) != m || (need & ~(unsigned)c->halves))
			continue;
		ch[i] = (uint8_t)p;
		if (pairs_fit(s, g, i + 1, free_ctrs & ~m, d0, d1, f, ch))
			return 1;
	}
	return 0;
}

static int dfs(struct st *s, int depth, int d0, int d1, int f, int K)
{
	struct cfg *c;

	/* necessary conditions (a pair: two counters) */
	if (K > s->kmax || d0 > s->cap[0] || d1 > s->cap[1] ||
	    d0 + d1 + f + 2 * K > s->cap[0] + s->cap[1])
		return 0;
	if (depth == s->norder) {
		uint8_t ch[NB_SCHED_MAX];

		return K == 0 || pairs_fit(s, s->group, 0, s->usable, d0, d1, f, ch);
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
					hreq |= 1u << half_of(s, c->cand[j]);
			}
			for (int j = 0; j < c->ncand && ok; j++) {
				unsigned h = 1u << half_of(s, c->cand[j]);

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

static int ncand_choices(const struct cfg *c)
{
	return c->demand + c->casc >= 2 ? (1 << c->ncand) : c->ncand;
}

static int solve_group(struct st *s, unsigned g)
{
	int demand = 0;

	s->norder = 0;
	for (int k = 0; k < s->ncfg; k++) {
		struct cfg *c = &s->cfg[k];
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
	s->cap[0] = __builtin_popcount(half_counters(s, g, 0));
	s->cap[1] = __builtin_popcount(half_counters(s, g, 1));
	s->kmax = s->maxpairs[g];
	s->group = g;
	if (demand > s->cap[0] + s->cap[1])
		return 0;
	return dfs(s, 0, 0, 0, 0, 0);
}

static int solve_groups(struct st *s)
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
static int try_tags(struct st *s, const int *key, int nkeys, int next, unsigned taken, int sym)
{
	if (next == nkeys)
		return solve_groups(s);
	for (unsigned t = 0; t < 4; t++) {
		if (taken & (1u << t))
			continue;
		for (int i = 0; i < s->n; i++)
			if (key[i] == next)
				s->tagof[i] = (uint8_t)t;
		if (try_tags(s, key, nkeys, next + 1, taken | (1u << t), sym))
			return 1;
		if (sym)
			return 0;
	}
	return 0;
}

/* ---- global constraints --------------------------------------------------- */

/* TagValue bits execution_event MASKS count: NBOGUSn and BOGUSn select
 * uops whose tag has bit n (events.txt execution_event). */
static unsigned exec_count_bits(uint16_t masks)
{
	const struct nb_event *e = &nb_events[NB_EV_EXECUTION_EVENT];
	unsigned b = 0;

	for (unsigned i = 0; i < e->nmasks; i++) {
		const char *nm = e->masks[i].name;
		const char *d = !strncmp(nm, "NBOGUS", 6) ? nm + 6 :
				!strncmp(nm, "BOGUS", 5) ? nm + 5 : NULL;

		if ((masks & (1u << e->masks[i].bit)) && d && d[0] >= '0' && d[0] <= '3' && !d[1])
			b |= 1u << (d[0] - '0');
	}
	return b;
}

void nb_sched_tag_bonds(const struct nb_evsel *req, int n, int *lead)
{
	for (int i = 0; i < n; i++)
		lead[i] = i;
	for (int i = 0; i < n; i++) {
		if (req[i].kind != NB_SEL_EVENT || !req[i].tag)
			continue;
		for (int j = 0; j < n; j++) {
			int a, b;

			if (req[j].kind != NB_SEL_EVENT || req[j].event != NB_EV_EXECUTION_EVENT ||
			    !(exec_count_bits(req[j].masks) & req[i].tag))
				continue;
			/* union: relabel the larger lead's group with the smaller */
			a = lead[i] < lead[j] ? lead[i] : lead[j];
			b = lead[i] < lead[j] ? lead[j] : lead[i];
			for (int k = 0; k < n; k++)
				if (lead[k] == b)
					lead[k] = a;
		}
	}
}

/* A mispairing: a TAGn request whose value no execution_event request
 * selects, while an execution_event request selects none of the TAGn
 * values (x87_FP_uop:ALL:TAG1 with execution_event:NBOGUS0).  Either alone
 * is a set still being built (upstream events or counting events added
 * first) and is accepted.  0, or -1 and the message. */
static int mispaired(const struct nb_evsel *req, int n, char *why, size_t len)
{
	char a[NB_NAME_MAX], b[NB_NAME_MAX];
	unsigned counted = 0, utags = 0;

	for (int i = 0; i < n; i++) {
		if (req[i].kind != NB_SEL_EVENT)
			continue;
		utags |= req[i].tag;
		if (req[i].event == NB_EV_EXECUTION_EVENT)
			counted |= exec_count_bits(req[i].masks);
	}
	for (int i = 0; i < n && utags; i++) {
		const struct nb_evsel *r = &req[i];
		int c;

		if (r->kind != NB_SEL_EVENT || !r->tag || (r->tag & counted))
			continue;
		for (c = 0; c < n; c++)
			if (req[c].kind == NB_SEL_EVENT && req[c].event == NB_EV_EXECUTION_EVENT &&
			    !(exec_count_bits(req[c].masks) & utags))
				break;
		if (c == n)
			return 0;
		nb_sched_name(r, a, sizeof(a));
		nb_sched_name(&req[c], b, sizeof(b));
		snprintf(why, len, "%s tags its uops with TagValue %#x, which no execution_event "
			 "request of the set counts, and %s counts TagValue bits %#x, which no TAGn "
			 "of the set gives: count them with execution_event:NBOGUS%u", a, r->tag, b,
			 exec_count_bits(req[c].masks), (unsigned)__builtin_ctz(r->tag));
		return -1;
	}
	return 0;
}

int nb_sched_tag_pairing(const struct nb_evsel *req, int n, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	return mispaired(req, n, why, len);
}

/* Requests that tag uops themselves (libpfm4's TAGn): 0, or -1 and a
 * message, if two of them tag different uops with TagValues that overlap
 * but differ (execution_event NBOGUSn would count a mix that neither asked
 * for: equal values are counted together, as PAPI's netburst PAPI_FP_OPS
 * preset does with x87_FP_uop:ALL:TAG1 and scalar_SP_uop:ALL:TAG1, and
 * disjoint ones apart), or if they are mispaired with the set's
 * execution_event requests (below).  Sets utags. */
static int check_user_tags(struct st *s, char *why, size_t len)
{
	char a[NB_NAME_MAX], b[NB_NAME_MAX];

	s->utags = 0;
	for (int i = 0; i < s->n; i++) {
		const struct nb_evsel *r = &s->req[i];

		if (r->kind != NB_SEL_EVENT || !r->tag)
			continue;
		for (int j = 0; j < i; j++) {
			const struct nb_evsel *q = &s->req[j];

			if (q->kind != NB_SEL_EVENT || !q->tag || !(q->tag & r->tag) ||
			    q->tag == r->tag || (q->event == r->event && q->masks == r->masks))
				continue;
			nb_sched_name(q, b, sizeof(b));
			nb_sched_name(r, a, sizeof(a));
			snprintf(why, len, "%s (TagValue %#x) and %s (TagValue %#x) tag different uops "
				 "with tag values that share bits but differ: execution_event would "
				 "count a mix of both; give them the same TAGn to count them together, "
				 "or TAGn with no bit in common to count them apart",
				 b, q->tag, a, r->tag);
			return -1;
		}
		s->utags |= r->tag;
	}
	return mispaired(s->req, s->n, why, len);
}

/* 0 if requests 0..n-1 agree on the shared tagging resources; else -1 and
 * a message naming the two requests. */
static int check_global(struct st *s, int *key, int *nkeys, char *why, size_t len)
{
	const struct nb_sched_cpu *cpu = s->cpu;
	char a[NB_NAME_MAX], b[NB_NAME_MAX];
	int fe = -1, rp = -1, ex = -1, pre = -1;
	unsigned types = 0;

	*nkeys = 0;
	if (check_user_tags(s, why, len) < 0)
		return -1;
	if (s->utags)
		types |= 1u << NB_TAG_EXECUTION;
	for (int i = 0; i < s->n; i++) {
		const struct nb_evsel *r = &s->req[i];

		key[i] = -1;
		if ((r->cccr & NB_CCCR_MOD_PRECISE) && pre >= 0) {
			/* (a metric's name alone does not say it is precise) */
			nb_sched_name(&s->req[pre], b, sizeof(b));
			nb_sched_name(r, a, sizeof(a));
			snprintf(why, len, "%s%s and %s%s are both precise (PEBS): PEBS samples on "
				 "counter 16 (MSR_IQ_COUNTER4) only, so one precise event per event set",
				 b, s->req[pre].kind == NB_SEL_METRIC ? ":precise" : "",
				 a, r->kind == NB_SEL_METRIC ? ":precise" : "");
			return -1;
		}
		if (r->cccr & NB_CCCR_MOD_PRECISE) {
			unsigned ev = r->kind == NB_SEL_METRIC ? nb_metrics[r->event].count_event : r->event;
			int wired = 0;

			pre = i;
			nb_sched_name(r, a, sizeof(a));
			if ((cpu->busy_counters >> s->pebs) & 1) {
				snprintf(why, len, "%s is precise (PEBS) and must count on counter %u "
					 "(%s), which the other logical processor holds", a, s->pebs,
					 nb_counters[s->pebs].name);
				return -1;
			}
			for (unsigned x = 0; x < nb_events[ev].nescrs; x++)
				if (((s->escr_ok >> nb_events[ev].escrs[x]) & 1) &&
				    ((nb_escrs[nb_events[ev].escrs[x]].counters >> s->pebs) & 1))
					wired = 1;
			if (!wired) {
				snprintf(why, len, "%s is precise (PEBS) and must count on counter %u "
					 "(%s), but no ESCR of %s%s feeds it", a, s->pebs, nb_counters[s->pebs].name,
					 nb_events[ev].name, cpu->busy_escrs ?
					 " that the other logical processor leaves free" : " on this CPU model");
				return -1;
			}
		}
		if ((r->cccr & NB_CCCR_MOD_CASCADE) && (r->kind == NB_SEL_METRIC ||
							 (r->cccr & NB_CCCR_MOD_PRECISE))) {
			nb_sched_name(r, a, sizeof(a));
			snprintf(why, len, "%s: cascade applies to plain events, not to metrics "
				 "or precise ones", a);
			return -1;
		}
		if (r->kind != NB_SEL_METRIC) {
			if (!((nb_events[r->event].models >> cpu->model) & 1)) {
				nb_sched_name(r, a, sizeof(a));
				snprintf(why, len, "%s does not exist on CPU model %u", a, cpu->model);
				return -1;
			}
			continue;
		}
		const struct nb_metric *m = &nb_metrics[r->event];

		/* named only when a message is written */
		snprintf(a, sizeof(a), "%s", m->name);
		if (!((m->models >> cpu->model) & 1)) {
			snprintf(why, len, "%s does not exist on CPU model %u", a, cpu->model);
			return -1;
		}
		types |= 1u << m->type;
		if (m->type == NB_TAG_REPLAY) {
			if (rp < 0 && cpu->busy_pebs_enable &&
			    (cpu->busy_pebs_enable != m->pebs_enable ||
			     cpu->busy_matrix_vert != m->matrix_vert)) {
				snprintf(why, len, "%s needs IA32_PEBS_ENABLE %#x and MSR_PEBS_MATRIX_VERT %#x, "
					 "but the other logical processor has set them to %#x and %#x",
					 a, m->pebs_enable, m->matrix_vert,
					 cpu->busy_pebs_enable, cpu->busy_matrix_vert);
				return -1;
			}
			if (rp >= 0 && (nb_metrics[s->req[rp].event].pebs_enable != m->pebs_enable ||
					nb_metrics[s->req[rp].event].matrix_vert != m->matrix_vert)) {
				nb_sched_name(&s->req[rp], b, sizeof(b));
				snprintf(why, len, "%s and %s both need IA32_PEBS_ENABLE and "
					 "MSR_PEBS_MATRIX_VERT, with different values; measure them in separate runs",
					 b, a);
				return -1;
			}
			if (rp < 0)
				rp = i;
		} else if (m->type == NB_TAG_FRONTEND) {
			if (fe >= 0 && s->req[fe].event != r->event) {
				nb_sched_name(&s->req[fe], b, sizeof(b));
				snprintf(why, len, "%s and %s both need front-end tagging "
					 "(front_end_event counts every tagged uop); measure them in separate runs",
					 b, a);
				return -1;
			}
			fe = i;
		} else if (m->type == NB_TAG_EXECUTION) {
			int j;

			for (j = 0; j < i; j++)
				if (key[j] >= 0 && s->req[j].event == r->event &&
				    (s->req[j].mods & 0x0f) == (r->mods & 0x0f))
					break;
			if (j < i) {
				key[i] = key[j];
			} else {
				if (*nkeys == 4 - __builtin_popcount(s->utags)) {
					int u;

					for (u = 0; u < s->n && !(s->req[u].kind == NB_SEL_EVENT &&
								 s->req[u].tag); u++)
						;
					if (u == s->n) {
						nb_sched_name(&s->req[ex], b, sizeof(b));
						snprintf(why, len, "%s cannot be counted beside %s and three "
							 "more execution metrics: execution tagging has four "
							 "tag values", a, b);
						return -1;
					}
					nb_sched_name(&s->req[u], b, sizeof(b));
					snprintf(why, len, "%s needs a TagValue bit of its own, but the "
						 "set's TAGn requests (%s among them) and execution metrics take all "
						 "four (TagValue bits %#x are kept as given): execution tagging "
						 "has four tag values", a, b, s->utags);
					return -1;
				}
				key[i] = (*nkeys)++;
			}
			ex = i;
		}
	}
	/* A uop_type ESCR tags the uops of its masks whether a counter counts
	 * it or not, TagEnable clear [S003 l.3025-3064: perfex programs
	 * uop_type as 04000405H for Memory_loads; sim/tool/nb_derive.c fe_tags()]:
	 * beside a front-end metric, front_end_event would count those uops
	 * too, unless the metric tags them anyway. */
	if (fe >= 0) {
		const struct nb_metric *m = &nb_metrics[s->req[fe].event];

		for (int i = 0; i < s->n; i++) {
			const struct nb_evsel *r = &s->req[i];

			if (r->kind != NB_SEL_EVENT || r->event != NB_EV_UOP_TYPE ||
			    !(r->masks & ~m->helpers[0].masks))
				continue;
			nb_sched_name(r, b, sizeof(b));
			snprintf(why, len, "%s tags uops that %s does not tag (a uop_type ESCR "
				 "tags them whether counted or not), and front_end_event would count "
				 "them for %s; measure them in separate runs", b, m->name, m->name);
			return -1;
		}
	}
	if (pre >= 0 && __builtin_popcount(types) > 1) {
		nb_sched_name(&s->req[pre], a, sizeof(a));
		snprintf(why, len, "%s is precise (PEBS), and PEBS allows one tagging mechanism at a "
			 "time, but the set mixes replay, front-end and execution metrics", a);
		return -1;
	}
	return 0;
}

/* ---- the answer --------------------------------------------------------- */

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

static unsigned escr_in_half(const struct st *s, const struct cfg *c, unsigned h)
{
	for (int j = 0; j < c->ncand; j++)
		if ((c->pick & (1u << j)) && half_of(s, c->cand[j]) == h)
			return c->cand[j];
	return 0;
}

/* Cascaded units first, on pairs that leave room for the others. */
static void fill_cascades(struct st *s, struct nb_assign *out, uint32_t *free_ctrs)
{
	for (unsigned g = 0; g < NB_NUM_GROUPS; g++) {
		uint8_t ch[NB_SCHED_MAX];
		int d[3] = { 0, 0, 0 }, any = 0;

		for (int k = 0; k < s->ncfg; k++) {
			const struct cfg *c = &s->cfg[k];

			if (c->group == g && c->halves)
				d[c->halves - 1] += c->demand - c->casc - c->prec;
			any |= c->group == g && c->casc;
		}
		if (!any || !pairs_fit(s, g, 0, *free_ctrs, d[0], d[1], d[2], ch))
			continue;   /* found by the search: exists */
		for (int i = 0; i < s->n; i++) {
			struct cfg *c = &s->cfg[s->unit_cfg[i]];
			struct nb_slot *sl = &out->slot[i];
			unsigned lo, hi;

			if (!is_cascade(&s->req[i]) || c->group != g)
				continue;
			lo = s->pair[g][ch[i]][0];
			hi = s->pair[g][ch[i]][1];
			sl->cascade = 1;
			sl->counter = (uint8_t)lo;
			sl->hi_counter = (uint8_t)hi;
			sl->escr = (uint8_t)escr_in_half(s, c, ctr_half(s, g, lo));
			sl->hi_escr = (uint8_t)escr_in_half(s, c, ctr_half(s, g, hi));
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

static void fill(struct st *s, struct nb_assign *out)
{
	uint32_t free_ctrs = s->usable;
	uint32_t half[NB_NUM_GROUPS][2];

	memset(out, 0, sizeof(*out));
	for (unsigned g = 0; g < NB_NUM_GROUPS; g++)
		for (unsigned h = 0; h < 2; h++)
			half[g][h] = half_counters(s, g, h);
	fill_cascades(s, out, &free_ctrs);
	if (s->prec >= 0) {
		/* the precise request on counter 16, through an ESCR wired to it */
		struct cfg *c = &s->cfg[s->unit_cfg[s->prec]];
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
			struct cfg *c = &s->cfg[s->unit_cfg[i]];
			unsigned h;
			int ctr;

			if ((c->halves == 3) != (pass == 1) || is_cascade(&s->req[i]) || i == s->prec)
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
		struct cfg *c = &s->cfg[k];

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

/* ---- entry points --------------------------------------------------------- */

/* The counters left to the units other than a precise one (WITH16: one
 * is in the set and takes counter 16): per half, and cascade pairs. */
static void cascade_pairs(struct st *s);

static void setup_counters(struct st *s, int with16)
{
	s->usable = s->usable_all;
	if (with16)
		s->usable &= ~(UINT32_C(1) << s->pebs);
	memset(s->halfmask, 0, sizeof(s->halfmask));
	for (unsigned i = 0; i < nb_num_escrs; i++)
		s->halfmask[nb_escrs[i].group][half_of(s, i)] |= nb_escrs[i].counters & s->usable;
	cascade_pairs(s);
	s->setup16 = with16;
}

/* The usable cascade pairs of each group and how many are disjoint. */
static void cascade_pairs(struct st *s)
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

static void setup_counters(struct st *s, int with16);

static int attempt(struct st *s, int n, char *why, size_t len)
{
	int key[NB_SCHED_MAX], nkeys;

	s->n = n;
	s->bad_group = -1;
	if (check_global(s, key, &nkeys, why, len) < 0)
		return -2;
	s->prec = -1;
	for (int i = 0; i < n; i++)
		if (s->req[i].cccr & NB_CCCR_MOD_PRECISE)
			s->prec = i;
	if (s->setup16 != (s->prec >= 0))
		setup_counters(s, s->prec >= 0);
	for (int i = 0; i < n; i++)
		s->tagof[i] = NB_NO_TAG;
	int sym = 1;

	for (int i = 0; i < n && nkeys; i++)
		if (s->req[i].kind == NB_SEL_EVENT)
			for (unsigned m = 0; m < nb_num_metrics; m++)
				if (nb_metrics[m].type == NB_TAG_EXECUTION &&
				    nb_metrics[m].count_event == s->req[i].event)
					sym = 0;
	return try_tags(s, key, nkeys, 0, s->utags, sym) ? 0 : -1;
}

/* A format checked by the compiler at every call (-Wformat=2: no format
 * is ever a variable; tests/t_format_audit.t). */
__attribute__((format(printf, 4, 5)))
static int append(char *buf, size_t len, int off, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (off < 0 || (size_t)off >= len)
		return off;
	va_start(ap, fmt);
	k = vsnprintf(buf + off, len - (size_t)off, fmt, ap);
	va_end(ap);
	return k < 0 ? off : off + k;
}

static void explain(struct st *s, int k, char *why, size_t len)
{
	char name[NB_NAME_MAX], num[16];
	static const char *const gname[NB_NUM_GROUPS] = { "BPU", "MS", "FLAME", "IQ" };
	int g = s->bad_group, demand = 0, off, nothers = 0, nx = 0, K = 0;
	uint64_t want = 0;
	uint32_t ctrs = 0;

	nb_sched_name(&s->req[k], name, sizeof(name));
	if (g < 0) {
		snprintf(why, len, "%s: a helper ESCR it needs does not exist on CPU model %u%s", name,
			 s->cpu->model, s->cpu->busy_escrs ? " or is in use by the other logical processor" : "");
		return;
	}
	/* the ESCRs (all, not only the free ones) the culprit's units in
	 * group g can use */
	{
		const struct nb_evsel *r = &s->req[k];
		unsigned evs[1 + NB_MAX_HELPERS];
		int ne = 0;

		if (r->kind == NB_SEL_METRIC) {
			const struct nb_metric *m = &nb_metrics[r->event];

			evs[ne++] = m->count_event;
			for (unsigned h = 0; h < m->nhelpers; h++)
				evs[ne++] = m->helpers[h].escr != NB_NO_ESCR ? 0x100u | m->helpers[h].escr
									     : m->helpers[h].event;
		} else {
			evs[ne++] = r->event;
		}
		for (int i = 0; i < ne; i++) {
			if (evs[i] & 0x100u) {
				want |= UINT64_C(1) << (evs[i] & 0xff);
				continue;
			}
			for (unsigned x = 0; x < nb_events[evs[i]].nescrs; x++)
				want |= UINT64_C(1) << nb_events[evs[i]].escrs[x];
		}
		for (unsigned x = 0; x < nb_num_escrs; x++)
			if (nb_escrs[x].group != g || !((nb_escrs[x].models >> s->cpu->model) & 1))
				want &= ~(UINT64_C(1) << x);
	}
	for (int c = 0; c < s->ncfg; c++)
		if (s->cfg[c].group == g) {
			demand += s->cfg[c].demand + s->cfg[c].casc;
			K += s->cfg[c].casc;
		}
	off = snprintf(why, len, "%s", name);
	for (int i = 0; i < k; i++) {
		const struct cfg *c = &s->cfg[s->unit_cfg[i]];
		int in = c->group == g;

		if (!in && s->req[i].kind == NB_SEL_METRIC) {
			const struct nb_metric *m = &nb_metrics[s->req[i].event];

			for (unsigned h = 0; h < m->nhelpers; h++)
				if (nb_escrs[nb_events[m->helpers[h].event].escrs[0]].group == g)
					in = 1;
		}
		if (!in)
			continue;
		nb_sched_name(&s->req[i], name, sizeof(name));
		off = append(why, len, off, nothers++ ? ", %s" : " cannot be counted beside %s", name);
	}
	if (!nothers)
		off = append(why, len, off, "%s cannot be counted", "");
	ctrs = half_counters(s, (unsigned)g, 0) | half_counters(s, (unsigned)g, 1);
	/* the precise request's counter 16 counts among the group's (demand has it) */
	if (s->prec >= 0 && (unsigned)g == nb_counters[s->pebs].group)
		ctrs |= s->usable_all & (UINT32_C(1) << s->pebs);
	if (demand > __builtin_popcount(ctrs)) {
		snprintf(num, sizeof(num), "%d", demand);
		off = append(why, len, off, ": together they need %s counters of the ", num);
		off = append(why, len, off, "%s group, which has ", gname[g]);
		snprintf(num, sizeof(num), "%d", __builtin_popcount(ctrs));
		off = append(why, len, off, "%s usable", num);
		if (K)
			off = append(why, len, off, "%s (a cascaded event takes a counter pair)", "");
	} else if (K > s->maxpairs[g]) {
		snprintf(num, sizeof(num), "%d", K);
		off = append(why, len, off, ": %s cascaded events need a cascade counter pair each "
			     "(a counter and its alternate, SDM 18.15.5.6) in the ", num);
		off = append(why, len, off, "%s group, which has ", gname[g]);
		snprintf(num, sizeof(num), "%d", s->maxpairs[g]);
		off = append(why, len, off, "%s usable disjoint pairs", num);
		if ((s->cpu->busy_counters & ctrs) || (g == 0 && !(s->usable & 2)))
			off = append(why, len, off, "%s (counter 1 or the other logical processor's "
				     "counters break pairs)", "");
	} else {
		uint32_t reach = 0;

		off = append(why, len, off, ": %s ", nothers ? "they compete for" : "it needs");
		for (unsigned x = 0; x < nb_num_escrs; x++) {
			if (!((want >> x) & 1))
				continue;
			reach |= nb_escrs[x].counters;
			off = append(why, len, off, nx++ ? " or %s" : "ESCR %s", nb_escrs[x].name);
		}
		off = append(why, len, off, "%s (one configuration per ESCR) and counters", "");
		for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
			if (((reach & s->usable) >> c) & 1) {
				snprintf(num, sizeof(num), " %u", c);
				off = append(why, len, off, "%s", num);
			}
		if ((reach & 2) && !(s->usable & 2) && !((s->cpu->busy_counters >> 1) & 1))
			off = append(why, len, off, "%s; counter 1 is left unused (CCCR1 erratum)", "");
		if (K)
			off = append(why, len, off, "%s; a cascaded event needs its configuration on an "
				     "ESCR feeding each counter of its pair (a counter and its alternate)", "");
	}
	if ((s->cpu->busy_escrs & want) || (s->cpu->busy_counters & ctrs))
		off = append(why, len, off, "%s; the other logical processor holds some of them", "");
	if (s->prec >= 0 && (unsigned)g == nb_counters[s->pebs].group) {
		nb_sched_name(&s->req[s->prec], name, sizeof(name));
		off = append(why, len, off, "; %s", name);
		append(why, len, off, s->pebs == 16 ? "%s is precise (PEBS) and takes counter 16"
		       : "%s is precise (PEBS) and takes counter 17", "");
	}
}

int nb_sched_run(const struct nb_evsel *req, int n, const struct nb_sched_cpu *cpu,
		 struct nb_assign *out, int *culprit, char *why, size_t whylen)
{
	struct st s;
	int rc;

	if (whylen)
		why[0] = '\0';
	if (culprit)
		*culprit = -1;
	if (n < 0 || n > NB_SCHED_MAX) {
		snprintf(why, whylen, "%d events requested; the PMU has %d counters", n, NB_SCHED_MAX);
		return -1;
	}
	s.req = req;
	s.cpu = cpu;
	s.usable_all = ((UINT32_C(1) << NB_NUM_COUNTERS) - 1) & ~cpu->busy_counters;
	if (!(cpu->flags & NB_SCHED_ALLOW_CTR1))
		s.usable_all &= ~UINT32_C(2);
	s.prec = -1;
	s.pebs = NB_SCHED_PEBS_COUNTER + (cpu->thread & 1);
	s.setup16 = -1;
	s.escr_ok = 0;
	memset(s.low, 0xff, sizeof(s.low));
	for (unsigned i = 0; i < nb_num_escrs; i++) {
		const struct nb_escr *x = &nb_escrs[i];
		unsigned lo = (unsigned)__builtin_ctz(x->counters);

		if (((x->models >> cpu->model) & 1) && !((cpu->busy_escrs >> i) & 1))
			s.escr_ok |= UINT64_C(1) << i;
		if (lo < s.low[x->group])
			s.low[x->group] = (uint8_t)lo;
	}
	rc = attempt(&s, n, why, whylen);
	if (rc == 0) {
		if (out)
			fill(&s, out);
		return 0;
	}
	if (!whylen && !culprit)
		return -1;
	/* The first request that cannot join the ones before it: prefixes
	 * of a placeable set are placeable, so bisect for the shortest
	 * failing prefix. */
	{
		int lo = 0, hi = n;    /* prefix lo places, prefix hi fails */

		while (hi - lo > 1) {
			int mid = (lo + hi) / 2;

			if (attempt(&s, mid, why, whylen) == 0)
				lo = mid;
			else
				hi = mid;
		}
		rc = attempt(&s, hi, why, whylen);
		if (culprit)
			*culprit = hi - 1;
		if (rc == -1)
			explain(&s, hi - 1, why, whylen);
		else if (rc == 0)
			snprintf(why, whylen, "no placement found");
	}
	return -1;
}

int nb_schedule(const struct nb_evsel *ev, int n, unsigned model,
		unsigned flags, struct nb_slot *out, char *why, size_t whylen)
{
	struct nb_sched_cpu cpu;
	struct nb_assign a;

	memset(&cpu, 0, sizeof(cpu));
	cpu.model = model;
	cpu.flags = flags;
	if (nb_sched_run(ev, n, &cpu, &a, NULL, why, whylen) < 0)
		return -1;
	if (out && n > 0)
		memcpy(out, a.slot, (size_t)n * sizeof(*out));
	return 0;
}
