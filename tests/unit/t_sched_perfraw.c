/*
 * t_sched_perfraw.c - nb_perf_raw (Linux perf raw config, kernel P4
 * format) against libpfm4 4.13's perf encoding (pfm_get_os_event_encoding,
 * PFM_OS_PERF_EVENT, PMU forced to netburst) for every event and mask both
 * know, and against the kernel facts for replay metrics, where libpfm4
 * drops the metric index.
 *
 * Prints "D name ours libpfm4" for every difference; the .t wrapper
 * compares them with the reasoned list in t_sched_perfraw.known.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>
#include "nb_encode.h"

static int pfm_raw(const char *name, uint64_t *cfg)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;

	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	if (pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT, &arg) != PFM_SUCCESS)
		return -1;
	*cfg = attr.config;
	return 0;
}

/* libpfm4 spelling of an event or mask: ours, else our alias. */
static int try_names(const char *ev, const char *ev_alias, const char *mask, const char *mask_alias,
		     uint64_t *cfg, char *used, size_t len)
{
	const char *evs[2] = { ev, ev_alias }, *ms[2] = { mask, mask_alias };

	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++) {
			if (!evs[i] || !ms[j])
				continue;
			snprintf(used, len, "netburst::%s:%s", evs[i], ms[j]);
			if (pfm_raw(used, cfg) == 0)
				return 0;
		}
	return -1;
}

int main(void)
{
	int tests = 0, compared = 0, missing = 0;

	setenv("LIBPFM_FORCE_PMU", "netburst", 1);
	if (pfm_initialize() != PFM_SUCCESS) {
		printf("1..0 # SKIP libpfm4 does not initialise\n");
		return 0;
	}
	for (unsigned e = 0; e < nb_num_events; e++) {
		const struct nb_event *ev = &nb_events[e];

		if (ev->kernel_idx == NB_KERNEL_NONE)
			continue;
		for (unsigned k = 0; k < ev->nmasks; k++) {
			struct nb_evsel s;
			uint64_t theirs, ours;
			char used[256];

			memset(&s, 0, sizeof(s));
			s.event = (uint16_t)e;
			s.masks = (uint16_t)(1u << ev->masks[k].bit);
			ours = nb_perf_raw(&s, NB_DOM_USER);
			if (try_names(ev->name, ev->alias, ev->masks[k].name, ev->masks[k].alias,
				      &theirs, used, sizeof(used))) {
				printf("M %s:%s\n", ev->name, ev->masks[k].name);
				missing++;
				continue;
			}
			compared++;
			if (ours != theirs)
				printf("D %s:%s %#llx %#llx\n", ev->name, ev->masks[k].name,
				       (unsigned long long)ours, (unsigned long long)theirs);
		}
	}
	/* replay metrics: kernel facts (CCCR bits 0-6 = P4_PEBS_METRIC index) */
	for (unsigned m = 0; m < nb_num_metrics; m++) {
		const struct nb_metric *mt = &nb_metrics[m];
		struct nb_evsel s, c;
		uint64_t raw, base;

		if (mt->type != NB_TAG_REPLAY)
			continue;
		memset(&s, 0, sizeof(s));
		s.kind = NB_SEL_METRIC;
		s.event = (uint16_t)m;
		memset(&c, 0, sizeof(c));
		c.event = mt->count_event;
		c.masks = mt->count_masks;
		raw = nb_perf_raw(&s, NB_DOM_USER);
		base = nb_perf_raw(&c, NB_DOM_USER);
		printf("%sok %d - %s: perf raw %#llx = replay_event:NBOGUS with metric %u in CCCR bits 0-6\n",
		       raw == (base | mt->kernel_idx) && mt->kernel_idx && mt->kernel_idx < 128 ? "" : "not ",
		       ++tests, mt->name, (unsigned long long)raw, mt->kernel_idx);
	}
	printf("# compared %d event:mask encodings with libpfm4, %d not known to libpfm4\n", compared, missing);
	printf("%sok %d - at least 150 encodings compared\n", compared >= 150 ? "" : "not ", ++tests);
	printf("1..%d\n", tests);
	return 0;
}
