/*
 * nb_sched_explain.c - the message of a failed placement: the request
 * that cannot join the ones before it, those it competes with, and the
 * resource (counters of a group, cascade pairs, or ESCRs and the counters
 * they feed), with the sibling's share and the precise counter named.
 */
#include <stdarg.h>
#include <stdio.h>
#include "nb_sched_int.h"

/* A format checked by the compiler at every call (-Wformat=2: no format
 * is ever a variable; tests/repo/t_format_audit.t). */
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

void nbs_explain(struct nbs_st *s, int k, char *why, size_t len)
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
		const struct nbs_cfg *c = &s->cfg[s->unit_cfg[i]];
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
	ctrs = nbs_half_counters(s, (unsigned)g, 0) | nbs_half_counters(s, (unsigned)g, 1);
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
