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
 *
 * This file holds the entry points; the parts are listed in
 * nb_sched_int.h.
 */
#include <stdio.h>
#include <string.h>
#include "nb_sched_int.h"

/* ---- entry points --------------------------------------------------------- */

/* Requests 0..N-1: 0 placed, -1 no placement (s->bad_group: the counter
 * group, or -1: a helper ESCR missing), -2 a set-wide rule broken (WHY). */
static int attempt(struct nbs_st *s, int n, char *why, size_t len)
{
	int key[NB_SCHED_MAX], nkeys;

	s->n = n;
	s->bad_group = -1;
	if (nbs_check_global(s, key, &nkeys, why, len) < 0)
		return -2;
	s->prec = -1;
	for (int i = 0; i < n; i++)
		if (s->req[i].cccr & NB_CCCR_MOD_PRECISE)
			s->prec = i;
	if (s->setup16 != (s->prec >= 0))
		nbs_setup_counters(s, s->prec >= 0);
	for (int i = 0; i < n; i++)
		s->tagof[i] = NB_NO_TAG;
	int sym = 1;

	for (int i = 0; i < n && nkeys; i++)
		if (s->req[i].kind == NB_SEL_EVENT)
			for (unsigned m = 0; m < nb_num_metrics; m++)
				if (nb_metrics[m].type == NB_TAG_EXECUTION &&
				    nb_metrics[m].count_event == s->req[i].event)
					sym = 0;
	return nbs_try_tags(s, key, nkeys, 0, s->utags, sym) ? 0 : -1;
}

int nb_sched_run(const struct nb_evsel *req, int n, const struct nb_sched_cpu *cpu,
		 struct nb_assign *out, int *culprit, char *why, size_t whylen)
{
	struct nbs_st s;
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
			nbs_fill(&s, out);
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
			nbs_explain(&s, hi - 1, why, whylen);
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
