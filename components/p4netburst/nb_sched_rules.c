/*
 * nb_sched_rules.c - the set-wide rules of nb_sched_run, checked before
 * any search: one precise request, on the PEBS counter, through an ESCR
 * wired to it; cascade for plain events; events and metrics of the CPU
 * model; the replay MSRs, front-end tagging and execution tag values
 * shared by the set (and the sibling); one tagging mechanism with PEBS.
 * The rules and their sources are in nb_sched.h.
 */
#include <stdio.h>
#include "nb_sched_int.h"

/* 0 if requests 0..n-1 agree on the shared tagging resources; else -1 and
 * a message naming the two requests. */
int nbs_check_global(struct nbs_st *s, int *key, int *nkeys, char *why, size_t len)
{
	const struct nb_sched_cpu *cpu = s->cpu;
	char a[NB_NAME_MAX], b[NB_NAME_MAX];
	int fe = -1, rp = -1, ex = -1, pre = -1;
	unsigned types = 0;

	*nkeys = 0;
	if (nbs_check_user_tags(s, why, len) < 0)
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
