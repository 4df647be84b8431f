/*
 * nb_filter.c - CCCR filtering, counter increment, cascading (see
 * nb_filter.h for the facts and their sources).
 */
#include "nb_filter.h"
#include "nb_events.h"

/* CCCR bits [SDM Fig. 18-45; seed 003 sec. 9 <cccr_config>; DESIGN.md]:
 * Compare 18, Complement 19, Threshold 20-23, Edge 24, FORCE_OVF 25. */
struct nb_filter nb_filter_from_cccr(uint64_t cccr)
{
	struct nb_filter f;
	f.compare = (cccr >> 18) & 1;
	f.complement = (cccr >> 19) & 1;
	f.threshold = (uint8_t)((cccr >> 20) & 0xf);
	f.edge = (cccr >> 24) & 1;
	f.force_ovf = (cccr >> 25) & 1;
	return f;
}

int nb_filter_cond(const struct nb_filter *f, unsigned out)
{
	return f->complement ? out <= f->threshold : out > f->threshold;
}

unsigned nb_filter_cycle(const struct nb_filter *f, uint64_t events, uint8_t *prev)
{
	unsigned out = nb_filter_clamp(events);
	int t;

	if (!f->compare)
		return out;
	t = nb_filter_cond(f, out);
	if (f->edge) {
		unsigned inc = t && !*prev;
		*prev = (uint8_t)t;
		return inc;
	}
	*prev = (uint8_t)t;
	return (unsigned)t;
}

int nb_counter_add(uint64_t *ctr, uint64_t inc)
{
	uint64_t old = *ctr & NB_FILTER_CTR_MASK;
	*ctr = (old + inc) & NB_FILTER_CTR_MASK;
	return inc > NB_FILTER_CTR_MASK - old;
}

uint64_t nb_filter_count(const struct nb_filter *f, uint64_t events, uint64_t n,
			 uint8_t *prev, uint64_t *ctr, int *ovf, uint64_t *ovf_cycle)
{
	uint64_t first, rest, total, need;

	if (!n)
		return 0;
	if (n == 1 && !f->force_ovf) {
		/* one cycle, no FORCE_OVF: the per-cycle fast path */
		unsigned inc = nb_filter_cycle(f, events, prev);
		if (inc) {
			if (nb_counter_add(ctr, inc)) {
				*ovf = 1;
				*ovf_cycle = 1;
			}
		}
		return inc;
	}
	/* The first cycle may differ from the others (Edge); every later
	 * cycle of the run has the same output, so the same increment. */
	first = nb_filter_cycle(f, events, prev);
	rest = (f->compare && f->edge) ? 0 : first;
	total = first + rest * (n - 1);
	if (!total)
		return 0;
	need = NB_FILTER_CTR_MASK - (*ctr & NB_FILTER_CTR_MASK) + 1;  /* to wrap */
	if (f->force_ovf) {
		*ovf = 1;
		*ovf_cycle = first ? 1 : 2;
	} else if (total >= need) {
		*ovf = 1;
		if (first >= need)
			*ovf_cycle = 1;
		else
			*ovf_cycle = 1 + (need - first + rest - 1) / rest;
	}
	nb_counter_add(ctr, total);
	return total;
}

int nb_cascade_alternate(unsigned c)
{
	/* native_events/pmu.txt, CASCADE_FROM */
	return c < NB_NUM_COUNTERS ? nb_counters[c].cascade_from : -1;
}
