/*
 * nb_comp_backend.c - the backend as every part of the component sees it:
 * which backend and CPU p4netburst.c's init found, PAPI's information on
 * the component, PAPI's domains in the backend's terms, messages, whether
 * the backend would refuse an event set, and its counters folded into a
 * set's 64-bit totals.  Below the parts (names, presets, sets, LPs,
 * overflow), so that none of them reaches up to the component vector.
 */
#include <stdio.h>
#include <string.h>

#include "nb_comp.h"

struct nb_cpu p4nb_cpu;
unsigned p4nb_cpu_feats;       /* NB_FEAT_* */
const struct nb_backend *p4nb_backend;
/* PAPI's information on the component (the vector's cmp_info: its index,
 * default domain, overflow signal), set by p4netburst.c's init */
const PAPI_component_info_t *p4nb_info;

unsigned p4nb_papi_dom(int domain)
{
	unsigned d = 0;

	if (domain & PAPI_DOM_USER)
		d |= NB_DOM_USER;
	if (domain & PAPI_DOM_KERNEL)
		d |= NB_DOM_KERNEL;
	return d;
}

void p4nb_report(const char *what, const char *msg)
{
	/* PAPIERROR prints when the user asked for PAPI's error messages
	 * (PAPI_set_debug(PAPI_VERB_ECONT) or PAPI_VERBOSE). */
	PAPIERROR("p4netburst: %s: %s", what, msg);
}

/* Would the backend count SEL[0..n-1], placed as A, in C's domain, on an
 * idle PMU?  What it cannot count at all (refuse: the perf backend's raw
 * configs and helper ESCRs), then its own placement of the registers
 * encoded as p4nb_start encodes them (check: the kernel's; without
 * overflow interrupts, which place nothing).  0, or nonzero with the
 * reason and the cure in WHY.  Asked when the set changes, when its
 * domain does, and (refuse) by p4nb_start. */
int p4nb_backend_refusal(const nb_control_t *c, int domain, const struct nb_evsel *sel, int n,
			 const struct nb_assign *a, char *why, size_t len)
{
	struct nb_regs r[NB_NUM_COUNTERS];
	unsigned dom = p4nb_papi_dom(domain);

	if (p4nb_backend->refuse && p4nb_backend->refuse(sel, n, a, why, len))
		return 1;
	if (!p4nb_backend->check)
		return 0;
	for (int h = 0; h < n && h < NB_NUM_COUNTERS; h++)
		nb_encode_ex(&sel[h], &a->slot[h], dom, c->lp, 0, &r[h]);
	return p4nb_backend->check(r, n, why, len) == NB_BACKEND_CONFLICT;
}

/* Fold the counters into the 64-bit totals. */
int p4nb_accumulate(nb_control_t *c)
{
	uint64_t raw[2 * NB_NUM_COUNTERS];   /* raw[n + i]: cascaded alternates */
	char err[256];

	if (p4nb_backend->read(c->regs, c->n, raw, err, sizeof(err))) {
		p4nb_report("read", err);
		return PAPI_ESYS;
	}
	for (int i = 0; i < c->n; i++) {
		uint64_t d = (raw[i] - c->last[i]) & NB_COUNTER_MASK;

		if (c->regs[i].cascade) {
			/* the pair's 41 bits, then deltas (nb_encode.h) */
			c->hwcount[i] = (long long)nb_cascade_fold(&c->casc[i], raw[i], raw[c->n + i]);
			continue;
		}

		c->hwcount[i] += (long long)d;
		c->last[i] = raw[i] & NB_COUNTER_MASK;
	}
	for (int i = 0; i < c->nnat; i++)
		c->count[i] = c->hw_of[i] < 0 ? 0 : c->coef[i] * c->hwcount[c->hw_of[i]];
	return PAPI_OK;
}
