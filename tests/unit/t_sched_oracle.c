/*
 * t_sched_oracle.c - nb_sched_run against an exhaustive-search oracle.
 *
 * The oracle shares no code with the scheduler: every request's counting
 * unit tries every (ESCR, counter) pair the tables wire, every helper every
 * ESCR it may use, every execution metric every tag bit 0..3, and a
 * placement is accepted when all rules of nb_sched.h hold.  It prunes only
 * with "units left <= counters left" per counter group, and searches the
 * groups one at a time (they share no ESCR or counter: checked below).
 * Every placement the scheduler returns is also checked rule by rule.
 * A cascaded event request tries every counter H with an alternate
 * L = alt(H) and every ESCR wired to L and to H (same configuration).
 * A precise request's counting unit may use only the PEBS counter of the
 * set's logical processor: 16 (MSR_IQ_COUNTER4) on LP0, 17
 * (MSR_IQ_COUNTER5) on LP1 [SDM 18.16.3]; two precise requests never fit.  Half of the sets get a precise request on a PEBS-capable event or
 * a tagged metric.  An upstream FP/SIMD event with libpfm4's TAGn (the
 * generator gives some a TagValue) keeps its value in its ESCR image;
 * metrics' tag bits avoid every TAGn bit; overlapping but unequal values
 * on different uops, and a mispairing with execution_event, are refused
 * (nb_sched.h), written out again here.
 *
 *   t_sched_oracle [SETS [SEED]]      TAP on stdout
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nb_sched.h"
#include "sched_gen.h"

/* ---- the oracle -------------------------------------------------------- */

struct ounit {
	int req;
	uint16_t event, masks;
	uint8_t mods, tag;       /* tag: 0xff none, else TagValue bit */
	uint8_t utag;            /* TagValue a TAGn request gives, 0 none */
	uint8_t counting;        /* 1: a counter; 2: a cascaded pair */
	uint8_t precise;         /* counting on the PEBS counter only */
	uint8_t pin;             /* NB_NO_ESCR or ESCR */
	uint8_t group;
};

struct oracle {
	const struct nb_sched_cpu *cpu;
	struct ounit u[NB_SCHED_MAX * (1 + NB_MAX_HELPERS)];
	int nu;
	uint32_t usable;
	int escr_cfg[64];        /* unit whose config the ESCR holds, or -1 */
	int escr_refs[64];
	uint32_t ctr_used;
	int idx[NB_SCHED_MAX * (1 + NB_MAX_HELPERS)];
	int nidx;
};

/* Cascade alternates, written out from SDM 18.15.5.6 / 18.15.6.5 and seed
 * 003 (counters 0<->2, 1<->3 of each group of four; IQ 12<->14, 13<->15,
 * 16 from 14, 17 from 15); not shared with the scheduler's code. */
static const int8_t o_alt[NB_NUM_COUNTERS] = {
	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 14, 15,
};

static int o_same(const struct ounit *a, const struct ounit *b)
{
	return a->event == b->event && a->masks == b->masks && a->mods == b->mods && a->tag == b->tag &&
	       a->utag == b->utag;
}

static int o_escr_ok(const struct oracle *o, unsigned x)
{
	return ((nb_escrs[x].models >> o->cpu->model) & 1) && !((o->cpu->busy_escrs >> x) & 1);
}

static int o_left_ok(const struct oracle *o, int depth)
{
	int need = 0;

	for (int k = depth; k < o->nidx; k++)
		need += o->u[o->idx[k]].counting;
	return need <= __builtin_popcount(o->usable & ~o->ctr_used);
}

static int o_dfs(struct oracle *o, int depth);

/* Claim ESCR X for unit K (same configuration or free); 0 if taken. */
static int o_claim(struct oracle *o, unsigned x, int k)
{
	int prev = o->escr_cfg[x];

	if (!o_escr_ok(o, x) || (prev >= 0 && !o_same(&o->u[prev], &o->u[k])))
		return 0;
	o->escr_cfg[x] = k;
	o->escr_refs[x]++;
	return 1;
}

static void o_unclaim(struct oracle *o, unsigned x)
{
	if (--o->escr_refs[x] == 0)
		o->escr_cfg[x] = -1;
}

/* A cascaded unit: every pair L = alt(H), H, every ESCR for each. */
static int o_cascade(struct oracle *o, int depth)
{
	int k = o->idx[depth];
	const struct nb_event *e = &nb_events[o->u[k].event];
	uint32_t freec = o->usable & ~o->ctr_used;

	for (unsigned h = 0; h < NB_NUM_COUNTERS; h++) {
		unsigned l = (unsigned)o_alt[h];

		if (!((freec >> h) & 1) || !((freec >> l) & 1) || l == h)
			continue;
		for (unsigned i = 0; i < e->nescrs; i++) {
			unsigned x = e->escrs[i];

			if (!((nb_escrs[x].counters >> l) & 1) || !o_claim(o, x, k))
				continue;
			for (unsigned j = 0; j < e->nescrs; j++) {
				unsigned y = e->escrs[j];

				if (!((nb_escrs[y].counters >> h) & 1) || !o_claim(o, y, k))
					continue;
				o->ctr_used |= (1u << l) | (1u << h);
				if (o_dfs(o, depth + 1))
					return 1;
				o->ctr_used &= ~((1u << l) | (1u << h));
				o_unclaim(o, y);
			}
			o_unclaim(o, x);
		}
	}
	return 0;
}

static int o_dfs(struct oracle *o, int depth)
{
	const struct ounit *u;
	const struct nb_event *e;
	unsigned cands[4];
	int nc = 0;

	if (depth == o->nidx)
		return 1;
	if (!o_left_ok(o, depth))
		return 0;
	u = &o->u[o->idx[depth]];
	if (u->counting == 2)
		return o_cascade(o, depth);
	e = &nb_events[u->event];
	if (u->pin != NB_NO_ESCR)
		cands[nc++] = u->pin;
	else
		for (unsigned x = 0; x < e->nescrs; x++)
			cands[nc++] = e->escrs[x];
	for (int j = 0; j < nc; j++) {
		unsigned x = cands[j];
		int prev = o->escr_cfg[x];

		if (!o_escr_ok(o, x))
			continue;
		if (prev >= 0 && !o_same(&o->u[prev], u))
			continue;
		o->escr_cfg[x] = o->idx[depth];
		o->escr_refs[x]++;
		if (!u->counting) {
			if (o_dfs(o, depth + 1))
				return 1;
		} else {
			for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
				if (!((nb_escrs[x].counters >> c) & 1) || !((o->usable >> c) & 1) ||
				    ((o->ctr_used >> c) & 1) || (u->precise && c != 16 + (o->cpu->thread & 1)))
					continue;
				o->ctr_used |= 1u << c;
				if (o_dfs(o, depth + 1))
					return 1;
				o->ctr_used &= ~(1u << c);
			}
		}
		if (--o->escr_refs[x] == 0)
			o->escr_cfg[x] = -1;
	}
	return 0;
}

static uint16_t o_nbogus(unsigned ev, unsigned tag)
{
	char want[16];

	snprintf(want, sizeof(want), "NBOGUS%u", tag);
	for (unsigned i = 0; i < nb_events[ev].nmasks; i++)
		if (!strcmp(nb_events[ev].masks[i].name, want))
			return (uint16_t)(1u << nb_events[ev].masks[i].bit);
	return 0;
}

static int o_place(struct oracle *o, const struct nb_evsel *req, int n, const uint8_t *tags)
{
	o->nu = 0;
	for (int i = 0; i < n; i++) {
		const struct nb_evsel *r = &req[i];
		uint8_t mods = r->mods & 0x0f;
		struct ounit *u = &o->u[o->nu++];

		memset(u, 0, sizeof(*u));
		u->req = i;
		u->mods = mods;
		u->tag = 0xff;
		u->counting = 1;
		u->precise = (r->cccr & NB_CCCR_MOD_PRECISE) != 0;
		u->pin = NB_NO_ESCR;
		if (r->kind == NB_SEL_EVENT) {
			u->event = r->event;
			u->masks = r->masks;
			u->utag = r->tag;
			if (r->cccr & NB_CCCR_MOD_CASCADE)
				u->counting = 2;
		} else {
			const struct nb_metric *m = &nb_metrics[r->event];

			u->event = m->count_event;
			u->masks = m->type == NB_TAG_EXECUTION ? o_nbogus(m->count_event, tags[i]) : m->count_masks;
			for (unsigned h = 0; h < m->nhelpers; h++) {
				struct ounit *v = &o->u[o->nu++];

				memset(v, 0, sizeof(*v));
				v->req = i;
				v->event = m->helpers[h].event;
				v->masks = m->helpers[h].masks;
				v->mods = mods;
				v->tag = m->helpers[h].tag_enable ? tags[i] : 0xff;
				v->pin = m->helpers[h].escr;
			}
		}
	}
	for (int k = 0; k < o->nu; k++)
		o->u[k].group = nb_escrs[nb_events[o->u[k].event].escrs[0]].group;
	for (unsigned g = 0; g < NB_NUM_GROUPS; g++) {
		for (int x = 0; x < 64; x++) {
			o->escr_cfg[x] = -1;
			o->escr_refs[x] = 0;
		}
		o->ctr_used = 0;
		o->nidx = 0;
		for (int k = 0; k < o->nu; k++)
			if (o->u[k].group == g)
				o->idx[o->nidx++] = k;
		/* units left vs counters left must count this group's counters only */
		uint32_t all = o->usable, gm = 0;

		for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
			if (nb_counters[c].group == g)
				gm |= 1u << c;
		o->usable &= gm;
		int ok = o_dfs(o, 0);

		o->usable = all;
		if (!ok)
			return 0;
	}
	return 1;
}

/* Global rules, then every tag choice per execution-metric request,
 * among the bits no TAGn request uses (UTAGS). */
static unsigned o_utags;

static int o_tags(struct oracle *o, const struct nb_evsel *req, int n, uint8_t *tags, int i)
{
	if (i == n)
		return o_place(o, req, n, tags);
	if (req[i].kind != NB_SEL_METRIC || nb_metrics[req[i].event].type != NB_TAG_EXECUTION) {
		tags[i] = 0xff;
		return o_tags(o, req, n, tags, i + 1);
	}
	for (uint8_t t = 0; t < 4; t++) {
		int clash = (o_utags >> t) & 1;

		for (int j = 0; j < i; j++)
			if (tags[j] == t && !(req[j].event == req[i].event &&
					      (req[j].mods & 0x0f) == (req[i].mods & 0x0f)))
				clash = 1;
		if (clash)
			continue;
		tags[i] = t;
		if (o_tags(o, req, n, tags, i + 1))
			return 1;
	}
	return 0;
}

static int oracle(const struct nb_evsel *req, int n, const struct nb_sched_cpu *cpu)
{
	static struct oracle o;
	uint8_t tags[NB_SCHED_MAX];
	uint32_t pe = cpu->busy_pebs_enable, mv = cpu->busy_matrix_vert;
	int fe = -1, precise = 0;
	unsigned types = 0;

	for (int i = 0; i < n; i++) {
		const struct nb_evsel *r = &req[i];

		if ((r->cccr & NB_CCCR_MOD_PRECISE) && precise++)
			return 0;       /* one PEBS counter */
		if ((r->cccr & NB_CCCR_MOD_CASCADE) &&
		    (r->kind != NB_SEL_EVENT || (r->cccr & NB_CCCR_MOD_PRECISE)))
			return 0;
		if (r->kind == NB_SEL_EVENT) {
			if (!((nb_events[r->event].models >> cpu->model) & 1))
				return 0;
			continue;
		}
		const struct nb_metric *m = &nb_metrics[r->event];

		if (!((m->models >> cpu->model) & 1))
			return 0;
		types |= 1u << m->type;
		if (m->type == NB_TAG_REPLAY) {
			if (pe && (pe != m->pebs_enable || mv != m->matrix_vert))
				return 0;
			pe = m->pebs_enable;
			mv = m->matrix_vert;
		}
		if (m->type == NB_TAG_FRONTEND) {
			if (fe >= 0 && fe != r->event)
				return 0;
			fe = r->event;
		}
	}
	/* TAGn: the values of requests tagging different uops (event or
	 * masks) are equal or disjoint; and no mispairing with execution_event
	 * (NBOGUSn, BOGUSn select tag bit n: event-mask bits n, n + 4). */
	o_utags = 0;
	{
		unsigned counted = 0;
		int blind = 0;

		for (int i = 0; i < n; i++) {
			const struct nb_evsel *r = &req[i];

			if (r->kind != NB_SEL_EVENT)
				continue;
			if (r->event == NB_EV_EXECUTION_EVENT)
				counted |= (r->masks | r->masks >> 4) & 0xfu;
			for (int j = 0; j < i && r->tag; j++)
				if (req[j].kind == NB_SEL_EVENT && req[j].tag && (req[j].tag & r->tag) &&
				    req[j].tag != r->tag &&
				    !(req[j].event == r->event && req[j].masks == r->masks))
					return 0;
			o_utags |= r->tag;
		}
		for (int i = 0; i < n; i++)
			if (req[i].kind == NB_SEL_EVENT && req[i].event == NB_EV_EXECUTION_EVENT &&
			    !(((req[i].masks | req[i].masks >> 4) & 0xfu) & o_utags))
				blind = 1;
		for (int i = 0; i < n && blind; i++)
			if (req[i].kind == NB_SEL_EVENT && req[i].tag && !(req[i].tag & counted))
				return 0;
		if (o_utags)
			types |= 1u << NB_TAG_EXECUTION;
	}
	if (precise && __builtin_popcount(types) > 1)
		return 0;
	/* uop_type tags its masks' uops even when only counted (seed 003's
	 * perfex example: no TagEnable): beside a front-end metric only the
	 * metric's own uop kinds may be selected. */
	for (int i = 0; fe >= 0 && i < n; i++)
		if (req[i].kind == NB_SEL_EVENT && req[i].event == NB_EV_UOP_TYPE &&
		    (req[i].masks & ~nb_metrics[fe].helpers[0].masks))
			return 0;
	o.cpu = cpu;
	o.usable = ((1u << NB_NUM_COUNTERS) - 1) & ~cpu->busy_counters;
	if (!(cpu->flags & NB_SCHED_ALLOW_CTR1))
		o.usable &= ~2u;
	return o_tags(&o, req, n, tags, 0);
}

/* ---- checking an answer rule by rule --------------------------------------- */

struct image { uint16_t event, masks; uint8_t mods, tag, utag; int set; };

static int claim_u(struct image *img, unsigned x, unsigned event, unsigned masks, unsigned mods,
		   unsigned tag, unsigned utag)
{
	if (img[x].set)
		return img[x].event == event && img[x].masks == masks && img[x].mods == mods &&
		       img[x].tag == tag && img[x].utag == utag;
	img[x].utag = (uint8_t)utag;
	img[x].set = 1;
	img[x].event = (uint16_t)event;
	img[x].masks = (uint16_t)masks;
	img[x].mods = (uint8_t)mods;
	img[x].tag = (uint8_t)tag;
	return 1;
}

static int claim(struct image *img, unsigned x, unsigned event, unsigned masks, unsigned mods, unsigned tag)
{
	return claim_u(img, x, event, masks, mods, tag, 0);
}

static const char *verify(const struct nb_evsel *req, int n, const struct nb_sched_cpu *cpu,
			  const struct nb_assign *a)
{
	struct image img[64];
	uint32_t used = 0;
	int tagkey[4] = { -1, -1, -1, -1 };

	memset(img, 0, sizeof(img));
	for (int i = 0; i < n; i++) {
		const struct nb_slot *s = &a->slot[i];
		const struct nb_evsel *r = &req[i];
		unsigned ev = r->kind == NB_SEL_EVENT ? r->event : nb_metrics[r->event].count_event;
		const struct nb_event *e = &nb_events[ev];
		int ok = 0;

		if (s->event != ev)
			return "slot event";
		for (unsigned x = 0; x < e->nescrs; x++)
			ok |= e->escrs[x] == s->escr;
		if (!ok || !((nb_escrs[s->escr].models >> cpu->model) & 1) || ((cpu->busy_escrs >> s->escr) & 1))
			return "ESCR not allowed";
		if (!((nb_escrs[s->escr].counters >> s->counter) & 1))
			return "counter not wired to ESCR";
		if ((used >> s->counter) & 1)
			return "counter used twice";
		if ((r->cccr & NB_CCCR_MOD_PRECISE) && s->counter != 16 + (cpu->thread & 1))
			return "precise request not on its logical processor's PEBS counter (16, 17)";
		if (((cpu->busy_counters >> s->counter) & 1) ||
		    (s->counter == 1 && !(cpu->flags & NB_SCHED_ALLOW_CTR1)))
			return "counter not usable";
		used |= 1u << s->counter;
		if (r->kind == NB_SEL_EVENT && s->masks != r->masks)
			return "masks";
		if (s->tag_value != (r->kind == NB_SEL_EVENT ? r->tag : 0))
			return "TagValue not as given";
		if (!claim_u(img, s->escr, s->event, s->masks, r->mods & 0x0f, 0xff, s->tag_value))
			return "ESCR configured twice";
		if ((r->kind == NB_SEL_EVENT && (r->cccr & NB_CCCR_MOD_CASCADE) != 0) != s->cascade)
			return "cascade flag";
		if (s->cascade) {
			ok = 0;
			for (unsigned x = 0; x < e->nescrs; x++)
				ok |= e->escrs[x] == s->hi_escr;
			if (!ok || !((nb_escrs[s->hi_escr].models >> cpu->model) & 1) ||
			    ((cpu->busy_escrs >> s->hi_escr) & 1))
				return "cascade ESCR not allowed";
			if (s->hi_counter >= NB_NUM_COUNTERS || o_alt[s->hi_counter] != s->counter)
				return "cascade: low counter is not the alternate of the high one";
			if (!((nb_escrs[s->hi_escr].counters >> s->hi_counter) & 1))
				return "cascade counter not wired to its ESCR";
			if ((used >> s->hi_counter) & 1)
				return "counter used twice";
			if (((cpu->busy_counters >> s->hi_counter) & 1) ||
			    (s->hi_counter == 1 && !(cpu->flags & NB_SCHED_ALLOW_CTR1)))
				return "cascade counter not usable";
			used |= 1u << s->hi_counter;
			if (!claim_u(img, s->hi_escr, s->event, s->masks, r->mods & 0x0f, 0xff, s->tag_value))
				return "cascade ESCR configured twice";
		}
	}
	for (int h = 0; h < a->nhelpers; h++) {
		const struct nb_helper_slot *hs = &a->helper[h];

		if (((cpu->busy_escrs >> hs->escr) & 1) || !((nb_escrs[hs->escr].models >> cpu->model) & 1))
			return "helper ESCR not allowed";
		if (!claim(img, hs->escr, hs->event, hs->masks, hs->mods, hs->tag))
			return "helper ESCR configured twice";
	}
	for (int i = 0; i < n; i++) {
		const struct nb_evsel *r = &req[i];
		const struct nb_metric *m;
		unsigned tag = 0xff;

		if (r->kind != NB_SEL_METRIC)
			continue;
		m = &nb_metrics[r->event];
		if (m->type == NB_TAG_REPLAY &&
		    (a->pebs_enable & ~NB_PEBS_ENABLE_PEBS) != m->pebs_enable)
			return "IA32_PEBS_ENABLE";
		if (m->type == NB_TAG_REPLAY && a->matrix_vert != m->matrix_vert)
			return "MSR_PEBS_MATRIX_VERT";
		if (m->type == NB_TAG_EXECUTION) {
			for (tag = 0; tag < 4 && o_nbogus(m->count_event, tag) != a->slot[i].masks; tag++)
				;
			if (tag == 4)
				return "execution count mask";
			for (int j = 0; j < n; j++)
				if (req[j].kind == NB_SEL_EVENT && ((req[j].tag >> tag) & 1))
					return "a metric's tag bit is a TAGn request's";
			int key = r->event * 16 + (r->mods & 0x0f);

			if (tagkey[tag] >= 0 && tagkey[tag] != key)
				return "tag shared by two metrics";
			tagkey[tag] = key;
		} else if (a->slot[i].masks != m->count_masks) {
			return "count masks";
		}
		for (unsigned h = 0; h < m->nhelpers; h++) {
			const struct nb_helper *hp = &m->helpers[h];
			unsigned want_tag = hp->tag_enable ? tag : 0xff;
			int found = 0;

			for (unsigned x = 0; x < 64; x++) {
				if (!img[x].set || img[x].event != hp->event || img[x].masks != hp->masks ||
				    img[x].mods != (r->mods & 0x0f) || img[x].tag != want_tag || img[x].utag)
					continue;
				if (hp->escr != NB_NO_ESCR && hp->escr != x)
					continue;
				found = 1;
			}
			if (!found)
				return "helper missing";
		}
	}
	return NULL;
}

/* Make a random request of the set precise: a PEBS-capable event
 * (front_end_event, execution_event, replay_event) or a tagged metric,
 * as the name parser allows (nb_evsel_pebs_capable). */
static void make_precise(struct nb_evsel *req, int n, const struct nb_sched_cpu *cpu)
{
	int i = (int)gen_below((unsigned)n);

	for (int t = 0; t < 50; t++) {
		if (gen_chance(50))
			gen_metric(&req[i], cpu->model);
		else
			gen_event(&req[i], cpu->model);
		if (nb_evsel_pebs_capable(&req[i]))
			break;
	}
	req[i].cccr &= ~NB_CCCR_MOD_CASCADE;
	req[i].cccr |= NB_CCCR_MOD_PRECISE;
}

/* Sometimes make request I a cascaded one (events, not precise). */
static void maybe_cascade(struct nb_evsel *req, int i)
{
	if (req[i].kind == NB_SEL_EVENT && !(req[i].cccr & NB_CCCR_MOD_PRECISE) && gen_chance(12))
		req[i].cccr |= NB_CCCR_MOD_CASCADE;
}

int main(int argc, char **argv)
{
	long sets = argc > 1 ? atol(argv[1]) : 100000;
	int fails = 0, tests = 0;
	long placed[2] = { 0, 0 }, rejected[2] = { 0, 0 }, disagree = 0, bad = 0;
	long with_metrics = 0, with_cascade = 0, cascade_placed = 0;
	long with_precise = 0, precise_placed = 0, precise_lp1 = 0;

	if (argc > 2)
		gen_state = strtoull(argv[2], NULL, 0);
	/* the decomposition the oracle relies on */
	for (unsigned x = 0; x < nb_num_escrs; x++)
		for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
			if (((nb_escrs[x].counters >> c) & 1) && nb_counters[c].group != nb_escrs[x].group)
				fails++;
	printf("%sok %d - every ESCR feeds only counters of its own group\n", fails ? "not " : "", ++tests);
	for (long k = 0; k < sets; k++) {
		struct nb_evsel req[NB_SCHED_MAX];
		struct nb_sched_cpu cpu;
		struct nb_assign a;
		char why[512];
		int n = 1 + (int)gen_below(NB_SCHED_MAX), ht, got, want, has_metric = 0;

		gen_set(req, n, &cpu, -1);
		for (int i = 0; i < n; i++)
			maybe_cascade(req, i);
		if (gen_chance(50))
			make_precise(req, n, &cpu);
		if (k % 2) {
			/* grow a set the hardware can count (the hard case for
			 * optimality), ending with one more random request */
			for (int i = 0; i < n - 1; i++)
				for (int t = 0; t < 20; t++) {
					gen_one(req, i, &cpu);
					maybe_cascade(req, i);
					if (oracle(req, i + 1, &cpu))
						break;
				}
		}
		ht = cpu.busy_escrs || cpu.busy_counters || cpu.thread || cpu.busy_pebs_enable;
		for (int i = 0; i < n; i++)
			has_metric |= req[i].kind == NB_SEL_METRIC;
		with_metrics += has_metric;
		{
			int hc = 0, hp = 0;

			for (int i = 0; i < n; i++) {
				hc |= !!(req[i].cccr & NB_CCCR_MOD_CASCADE);
				hp |= !!(req[i].cccr & NB_CCCR_MOD_PRECISE);
			}
			with_cascade += hc;
			with_precise += hp;
			if (hc && nb_sched_run(req, n, &cpu, NULL, NULL, why, sizeof(why)) == 0)
				cascade_placed++;
			if (hp && nb_sched_run(req, n, &cpu, NULL, NULL, why, sizeof(why)) == 0) {
				precise_placed++;
				precise_lp1 += cpu.thread & 1;   /* on counter 17 */
			}
		}
		got = nb_sched_run(req, n, &cpu, &a, NULL, why, sizeof(why)) == 0;
		want = oracle(req, n, &cpu);
		if (got) {
			placed[ht]++;
			const char *v = verify(req, n, &cpu, &a);

			if (v) {
				if (bad++ < 5)
					printf("# set %ld (n=%d): invalid placement: %s\n", k, n, v);
			}
		} else {
			rejected[ht]++;
			if (!why[0] && bad++ < 5)
				printf("# set %ld: rejected without a reason\n", k);
		}
		if (got != want && disagree++ < 5) {
			printf("# set %ld (n=%d, model %u, flags %u): scheduler %s, oracle %s; %s\n", k, n,
			       cpu.model, cpu.flags, got ? "placed" : "rejected", want ? "placed" : "rejected",
			       got ? "" : why);
			for (int i = 0; i < n; i++) {
				char nm[NB_NAME_MAX];

				nb_sched_name(&req[i], nm, sizeof(nm));
				printf("#   %s mods=%#x\n", nm, req[i].mods);
			}
		}
	}
	printf("%sok %d - %ld random sets (1..%d requests, %ld with metrics, %ld with cascaded events "
	       "of which %ld placed, %ld with precise requests of which %ld placed, %ld of them on "
	       "logical processor 1): scheduler and "
	       "oracle agree (non-HT placed %ld rejected %ld; HT placed %ld rejected %ld)\n",
	       disagree ? "not " : "", ++tests, sets, NB_SCHED_MAX, with_metrics, with_cascade,
	       cascade_placed, with_precise, precise_placed, precise_lp1,
	       placed[0], rejected[0], placed[1], rejected[1]);
	printf("%sok %d - every placement obeys the rules, every rejection has a reason\n",
	       bad ? "not " : "", ++tests);
	printf("1..%d\n", tests);
	return disagree || bad;
}
