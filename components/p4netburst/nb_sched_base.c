/*
 * nb_sched_base.c - the scheduler's vocabulary, which every part of it
 * (nb_sched_int.h) and its callers use: a request's name in messages, and
 * the counter wiring of cascaded pairs.  Below the parts, so that none of
 * them calls back up into the entry points (nb_sched.c).
 */
#include <stdio.h>
#include "nb_sched_int.h"

/* Counter wiring for cascading: native_events/pmu.txt (CASCADE_FROM). */
int nb_sched_cascade_alt(unsigned c)
{
	return c < NB_NUM_COUNTERS ? nb_counters[c].cascade_from : -1;
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
