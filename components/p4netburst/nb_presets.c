/*
 * nb_presets.c - choose, per event set, the alternative of each PAPI preset
 * (see nb_presets.h).  The alternatives and their order are data
 * (native_events/presets.txt); this file only searches them.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "nb_presets.h"

#define MAX_COMBOS 4096
#define PRUNE_ABOVE 32           /* combinations beyond which failures prune */          /* at most 3 * 2^6 with today's presets.txt */

static int term_on_cpu(const struct nb_preset_ref *t, unsigned model, unsigned feats)
{
	const struct nb_event *e;

	if (t->kind == NB_REF_METRIC)
		return nb_metric_on_cpu(t->index, model, feats);
	if (!nb_event_on_cpu(t->index, model, feats))
		return 0;
	e = &nb_events[t->index];
	for (unsigned i = 0; i < e->nmasks; i++)
		if ((t->masks & (1u << e->masks[i].bit)) &&
		    !nb_mask_on_cpu(&e->masks[i], model, feats))
			return 0;
	return 1;
}

int nb_preset_alt_usable(unsigned p, unsigned a, unsigned model, unsigned feats)
{
	const struct nb_preset_alt *alt;

	if (p >= nb_num_presets || a >= nb_presets[p].nalts)
		return 0;
	alt = &nb_presets[p].alts[a];
	if (!((alt->models >> model) & 1) || (alt->features & ~feats) || alt->nterms == 0)
		return 0;
	for (unsigned k = 0; k < alt->nterms; k++)
		if (!term_on_cpu(&alt->terms[k], model, feats))
			return 0;
	return 1;
}

int nb_preset_slots(unsigned p, unsigned model, unsigned feats)
{
	int s = 0;

	for (unsigned a = 0; p < nb_num_presets && a < nb_presets[p].nalts; a++)
		if (nb_preset_alt_usable(p, a, model, feats) && nb_presets[p].alts[a].nterms > s)
			s = nb_presets[p].alts[a].nterms;
	return s;
}

int nb_preset_lookup(const char *name, size_t n)
{
	for (unsigned p = 0; p < nb_num_presets; p++)
		if (strlen(nb_presets[p].name) == n && strncasecmp(nb_presets[p].name, name, n) == 0)
			return (int)p;
	return -1;
}

void nb_preset_term_sel(const struct nb_preset_ref *t, struct nb_evsel *out)
{
	memset(out, 0, sizeof(*out));
	out->event = t->index;
	if (t->kind == NB_REF_METRIC) {
		out->kind = NB_SEL_METRIC;
	} else {
		out->kind = NB_SEL_EVENT;
		out->masks = t->masks ? t->masks : nb_event_default_masks(t->index);
	}
}

int nb_preset_alt_format(const struct nb_preset_alt *a, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned k = 0; k < a->nterms; k++) {
		int c = a->coef[k], m = c < 0 ? -c : c, w;
		const char *sign = k == 0 ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + ");
		char mul[8] = "";

		if (m != 1)
			snprintf(mul, sizeof(mul), "%d*", m);
		w = snprintf(buf + off, off < len ? len - off : 0, "%s%s%s", sign, mul,
			     a->terms[k].name);
		if (w < 0 || off + (size_t)w >= len)
			return -1;
		off += (size_t)w;
	}
	return (int)off;
}

/* The distinct presets of a request list and their usable alternatives. */
struct search {
	int np;
	uint16_t preset[NB_SCHED_MAX];
	int8_t first[NB_SCHED_MAX];     /* first request of preset j */
	uint8_t nua[NB_SCHED_MAX];
	uint8_t ua[NB_SCHED_MAX][8];
	uint8_t choice[NB_SCHED_MAX];   /* index into ua[j] */
};

static int preset_pos(const struct search *s, unsigned p)
{
	for (int j = 0; j < s->np; j++)
		if (s->preset[j] == p)
			return j;
	return -1;
}

static int add_hw(struct nb_plan *pl, const struct nb_evsel *sel, int req)
{
	for (int h = 0; h < pl->nhw; h++)
		if (nb_evsel_same(&pl->hw[h], sel))
			return h;
	if (pl->nhw == NB_SCHED_MAX)
		return -1;
	pl->hw[pl->nhw] = *sel;
	pl->hw_req[pl->nhw] = (int8_t)req;
	return pl->nhw++;
}

/* Requests -> hardware requests for the current choice; -1 if more than
 * the counters. */
static int build(const struct nb_req *req, int n, const struct search *s, struct nb_plan *pl)
{
	pl->nhw = 0;
	for (int i = 0; i < n; i++) {
		struct nb_evsel t;
		int h;

		pl->alt[i] = -1;
		pl->coef[i] = 1;
		if (req[i].kind == NB_REQ_PRESET) {
			int j = preset_pos(s, req[i].preset);
			const struct nb_preset_alt *a;

			pl->alt[i] = (int8_t)s->ua[j][s->choice[j]];
			a = &nb_presets[req[i].preset].alts[pl->alt[i]];
			if (req[i].slot >= a->nterms) {
				pl->hw_of[i] = -1;
				pl->coef[i] = 0;
				continue;
			}
			nb_preset_term_sel(&a->terms[req[i].slot], &t);
			pl->coef[i] = a->coef[req[i].slot];
		} else {
			t = req[i].sel;
		}
		if ((h = add_hw(pl, &t, i)) < 0)
			return -1;
		pl->hw_of[i] = (int8_t)h;
	}
	return 0;
}

/* The next combination whose choices for presets 0..LAST differ (LAST =
 * np - 1: simply the next one); 0 when there is none. */
static int next_combo(struct search *s, int last)
{
	for (int j = s->np - 1; j > last; j--)
		s->choice[j] = 0;
	for (int j = last; j >= 0; j--) {
		if (++s->choice[j] < s->nua[j])
			return 1;
		s->choice[j] = 0;
	}
	return 0;
}

/* After a failure whose first unplaceable hardware request is CUL: the
 * hardware requests 0..CUL come from requests 0..hw_req[CUL] alone (they
 * are created in request order), so every combination that keeps the
 * choices of the presets starting at or before that request fails too.
 * The last such preset, for next_combo. */
static int last_involved(const struct search *s, const struct nb_plan *pl, int cul)
{
	int r = pl->hw_req[cul], last = 0;

	for (int j = 0; j < s->np; j++)
		if (s->first[j] <= r)
			last = j;
	return last;
}

static int setup(const struct nb_req *req, int n, const struct nb_sched_cpu *cpu,
		 unsigned feats, struct search *s, char *why, size_t whylen)
{
	s->np = 0;
	for (int i = 0; i < n; i++) {
		unsigned p = req[i].preset;
		int j;

		if (req[i].kind != NB_REQ_PRESET || preset_pos(s, p) >= 0)
			continue;
		if (p >= nb_num_presets) {
			snprintf(why, whylen, "preset index %u out of range", p);
			return -1;
		}
		j = s->np++;
		s->preset[j] = (uint16_t)p;
		s->first[j] = (int8_t)i;
		s->nua[j] = 0;
		s->choice[j] = 0;
		for (unsigned a = 0; a < nb_presets[p].nalts && s->nua[j] < 8; a++)
			if (nb_preset_alt_usable(p, a, cpu->model, feats))
				s->ua[j][s->nua[j]++] = (uint8_t)a;
		if (!s->nua[j]) {
			snprintf(why, whylen, "%s: no alternative this CPU model can count",
				 nb_presets[p].name);
			return -1;
		}
	}
	return 0;
}

int nb_plan_run(const struct nb_req *req, int n, const struct nb_sched_cpu *cpu,
		unsigned feats, const int8_t *hint, struct nb_plan *out, char *why,
		size_t whylen)
{
	struct search s;
	int combos = 0, last, total = 1;

	if (whylen)
		why[0] = '\0';
	if (n < 0 || n > NB_SCHED_MAX) {
		snprintf(why, whylen, "%d events requested; the PMU has %d counters", n, NB_SCHED_MAX);
		return -1;
	}
	if (setup(req, n, cpu, feats, &s, why, whylen))
		return -1;
	/* Few combinations: try them all.  Many: after a failure, skip the
	 * combinations that keep the failing prefix (a culprit search costs a
	 * few scheduler runs, so it pays only when much can be skipped). */
	for (int j = 0; j < s.np && total <= PRUNE_ABOVE; j++)
		total *= s.nua[j];
	do {
		int cul = -1;

		last = s.np - 1;
		combos++;
		if (build(req, n, &s, out) == 0) {
			if (nb_sched_run(out->hw, out->nhw, cpu, &out->assign, NULL, NULL, 0) == 0) {
				out->tried = combos;
				return 0;
			}
			if (total > PRUNE_ABOVE && nb_sched_run(out->hw, out->nhw, cpu, &out->assign, &cul,
						     NULL, 0) && cul >= 0)
				last = last_involved(&s, out, cul);
		}
	} while (combos < MAX_COMBOS && next_combo(&s, last));
	out->tried = combos;
	/* Explain with the hinted alternatives (else the preferred ones). */
	memset(s.choice, 0, sizeof(s.choice));
	for (int j = 0; hint && j < s.np; j++)
		for (int c = 0; c < s.nua[j]; c++)
			if (hint[s.preset[j]] == s.ua[j][c] + 1)
				s.choice[j] = (uint8_t)c;
	if (build(req, n, &s, out))
		snprintf(why, whylen, "the events need more than the %d counters", NB_SCHED_MAX);
	else if (nb_sched_run(out->hw, out->nhw, cpu, &out->assign, NULL, why, whylen) == 0)
		snprintf(why, whylen, "no combination of the presets' alternatives fits");
	if (s.np && combos > 1) {
		size_t l = strlen(why);

		snprintf(why + l, whylen > l ? whylen - l : 0,
			 " (nor does any other choice of the presets' alternatives: %d tried)", combos);
	}
	if (s.np && whylen) {
		/* Name the presets first: each alternative counts the same thing
		 * (docs/PRESETS.md), so none that fits means refusal. */
		char head[512], alt[256];
		size_t l = 0;

		head[0] = '\0';
		for (int j = 0; j < s.np && l < sizeof(head); j++) {
			int w;

			nb_preset_alt_format(&nb_presets[s.preset[j]].alts[s.ua[j][s.choice[j]]],
					     alt, sizeof(alt));
			w = snprintf(head + l, sizeof(head) - l, "%s%s (%s)", j ? ", " : "",
				     nb_presets[s.preset[j]].name, alt);
			if (w > 0)
				l += (size_t)w;
		}
		if (l < sizeof(head)) {
			char rest[1024];

			snprintf(rest, sizeof(rest), "%s", why);
			snprintf(why, whylen, "%s: no alternative that counts the same fits: %s",
				 head, rest);
		}
	}
	return -1;
}

int nb_plan_note(const struct nb_req *req, int n, const struct nb_plan *plan,
		 const struct nb_sched_cpu *cpu, unsigned feats, char *buf, size_t len)
{
	struct search s;
	struct nb_plan trial;
	char tmp[512], used[256], pref[256];
	size_t off = 0;
	int count = 0;

	if (len)
		buf[0] = '\0';
	if (setup(req, n, cpu, feats, &s, tmp, sizeof(tmp)))
		return 0;
	/* The choice the plan made, per preset. */
	for (int i = 0; i < n; i++) {
		int j;

		if (req[i].kind != NB_REQ_PRESET)
			continue;
		j = preset_pos(&s, req[i].preset);
		for (int c = 0; c < s.nua[j]; c++)
			if (s.ua[j][c] == plan->alt[i])
				s.choice[j] = (uint8_t)c;
	}
	for (int j = 0; j < s.np; j++) {
		const struct nb_preset *p = &nb_presets[s.preset[j]];
		uint8_t keep = s.choice[j];
		int w;

		if (keep == 0)
			continue;
		count++;
		s.choice[j] = 0;
		tmp[0] = '\0';
		if (build(req, n, &s, &trial))
			snprintf(tmp, sizeof(tmp), "more than %d counters", NB_SCHED_MAX);
		else
			(void)nb_sched_run(trial.hw, trial.nhw, cpu, &trial.assign, NULL, tmp, sizeof(tmp));
		s.choice[j] = keep;
		nb_preset_alt_format(&p->alts[s.ua[j][0]], pref, sizeof(pref));
		nb_preset_alt_format(&p->alts[s.ua[j][keep]], used, sizeof(used));
		w = snprintf(buf + off, off < len ? len - off : 0,
			     "%s: counted as %s (alternative %u): the preferred %s does not fit beside "
			     "the other events (%s)\n", p->name, used, s.ua[j][keep] + 1u, pref,
			     tmp[0] ? tmp : "conflict");
		if (w > 0)
			off += (size_t)w;
		if (off >= len)
			break;
	}
	return count;
}
