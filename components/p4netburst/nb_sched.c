/*
 * nb_sched.c - exhaustive ESCR/counter placement.
 *
 * Constraints [SDM 18.15; DESIGN.md]: an event can use only the ESCRs its
 * table entry lists (present on the CPU model); an ESCR feeds only the
 * counters wired to it; one event per counter; one configuration per ESCR
 * (two events with identical configurations may share it); counter 1 is
 * avoided unless asked for (CCCR1 erratum, as Linux does).
 */
#include <stdio.h>
#include <string.h>
#include "nb_sched.h"

struct search {
	const struct nb_evsel *ev;
	int n;
	unsigned model;
	unsigned flags;
	int order[NB_NUM_COUNTERS];
	int escr_owner[64];          /* event occupying the ESCR, or -1 */
	int escr_users[64];
	int ctr_owner[NB_NUM_COUNTERS];
	struct nb_slot *out;
};

/* Two events may share an ESCR when the ESCR images are the same: same
 * event and masks and privilege bits (CCCR-side modifiers may differ). */
static int same_config(const struct nb_evsel *a, const struct nb_evsel *b)
{
	return a->kind == b->kind && a->event == b->event && a->masks == b->masks &&
	       a->mods == b->mods;
}

static unsigned usable_counters(const struct search *s, unsigned escr)
{
	unsigned c = nb_escrs[escr].counters;

	if (!(s->flags & NB_SCHED_ALLOW_CTR1))
		c &= ~(1u << 1);
	return c;
}

static int escr_ok(const struct search *s, unsigned escr)
{
	return (nb_escrs[escr].models >> s->model) & 1;
}

static int options(const struct search *s, int i)
{
	const struct nb_event *e = &nb_events[s->ev[i].event];
	int k = 0;

	for (unsigned x = 0; x < e->nescrs; x++)
		if (escr_ok(s, e->escrs[x]))
			k += __builtin_popcount(usable_counters(s, e->escrs[x]));
	return k;
}

static int place(struct search *s, int depth)
{
	int i;
	const struct nb_event *e;

	if (depth == s->n)
		return 1;
	i = s->order[depth];
	e = &nb_events[s->ev[i].event];
	for (unsigned x = 0; x < e->nescrs; x++) {
		unsigned escr = e->escrs[x];
		int owner = s->escr_owner[escr];
		unsigned ctrs;

		if (!escr_ok(s, escr))
			continue;
		if (owner >= 0 && !same_config(&s->ev[owner], &s->ev[i]))
			continue;
		ctrs = usable_counters(s, escr);
		for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
			if (!(ctrs & (1u << c)) || s->ctr_owner[c] >= 0)
				continue;
			s->ctr_owner[c] = i;
			if (owner < 0)
				s->escr_owner[escr] = i;
			s->escr_users[escr]++;
			s->out[i].escr = (uint8_t)escr;
			s->out[i].counter = (uint8_t)c;
			if (place(s, depth + 1))
				return 1;
			s->ctr_owner[c] = -1;
			if (--s->escr_users[escr] == 0)
				s->escr_owner[escr] = -1;
		}
	}
	return 0;
}

static int try_prefix(struct search *s, int n)
{
	int opt[NB_NUM_COUNTERS];

	s->n = n;
	for (int i = 0; i < 64; i++) {
		s->escr_owner[i] = -1;
		s->escr_users[i] = 0;
	}
	for (int i = 0; i < NB_NUM_COUNTERS; i++)
		s->ctr_owner[i] = -1;
	/* most constrained first; stable for equal counts */
	for (int i = 0; i < n; i++) {
		int j = i;

		opt[i] = options(s, i);
		while (j > 0 && opt[s->order[j - 1]] > opt[i]) {
			s->order[j] = s->order[j - 1];
			j--;
		}
		s->order[j] = i;
	}
	return place(s, 0);
}

static void explain(const struct search *s, int k, char *why, size_t len)
{
	const struct nb_evsel *bad = &s->ev[k];
	const struct nb_event *e = &nb_events[bad->event];
	char name[NB_NAME_MAX];
	size_t off;
	int n;

	nb_evsel_format(bad, name, sizeof(name));
	if (options(s, k) == 0) {
		snprintf(why, len, "%s has no ESCR on CPU model %u", name, s->model);
		return;
	}
	n = snprintf(why, len, "%s cannot be counted beside the other events: "
		     "it needs ESCR", name);
	off = n > 0 ? (size_t)n : 0;
	for (unsigned x = 0; x < e->nescrs && off < len; x++) {
		n = snprintf(why + off, len - off, "%s %s", x ? " or" : "",
			     nb_escrs[e->escrs[x]].name);
		off += n > 0 ? (size_t)n : 0;
	}
	if (off < len) {
		n = snprintf(why + off, len - off,
			     " with a free counter, and those are taken by");
		off += n > 0 ? (size_t)n : 0;
	}
	for (int i = 0; i < k && off < len; i++) {
		for (unsigned x = 0; x < e->nescrs; x++) {
			unsigned escr = e->escrs[x];
			unsigned ctrs = usable_counters(s, escr);

			if (s->out[i].escr == escr ||
			    (ctrs & (1u << s->out[i].counter))) {
				nb_evsel_format(&s->ev[i], name, sizeof(name));
				n = snprintf(why + off, len - off, " %s", name);
				off += n > 0 ? (size_t)n : 0;
				break;
			}
		}
	}
}

int nb_schedule(const struct nb_evsel *ev, int n, unsigned model,
		unsigned flags, struct nb_slot *out, char *why, size_t whylen)
{
	struct search s;

	if (whylen)
		why[0] = '\0';
	if (n < 0 || n > NB_NUM_COUNTERS) {
		snprintf(why, whylen, "%d events requested; the PMU has %d counters",
			 n, NB_NUM_COUNTERS);
		return -1;
	}
	memset(&s, 0, sizeof(s));
	s.ev = ev;
	s.model = model;
	s.flags = flags;
	s.out = out;
	if (try_prefix(&s, n))
		return 0;
	/* Find the first event that cannot join the ones before it. */
	for (int k = 1; k <= n; k++) {
		if (!try_prefix(&s, k)) {
			if (k > 1)
				try_prefix(&s, k - 1);
			explain(&s, k - 1, why, whylen);
			return -1;
		}
	}
	snprintf(why, whylen, "no placement found");
	return -1;
}
