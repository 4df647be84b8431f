/*
 * nb_sched_tags.c - requests that tag uops themselves (libpfm4's TAGn,
 * nb_evsel .tag) and the execution_event requests that count them: tag
 * values that clash, TAGn values nobody counts beside counts of tags
 * nobody gives (a mispairing), and the groups that must share a run.
 */
#include <stdio.h>
#include <string.h>
#include "nb_sched_int.h"

/* TagValue bits execution_event MASKS count: NBOGUSn and BOGUSn select
 * uops whose tag has bit n (events.txt execution_event). */
unsigned nbs_exec_count_bits(uint16_t masks)
{
	const struct nb_event *e = &nb_events[NB_EV_EXECUTION_EVENT];
	unsigned b = 0;

	for (unsigned i = 0; i < e->nmasks; i++) {
		const char *nm = e->masks[i].name;
		const char *d = !strncmp(nm, "NBOGUS", 6) ? nm + 6 :
				!strncmp(nm, "BOGUS", 5) ? nm + 5 : NULL;

		if ((masks & (1u << e->masks[i].bit)) && d && d[0] >= '0' && d[0] <= '3' && !d[1])
			b |= 1u << (d[0] - '0');
	}
	return b;
}

void nb_sched_tag_bonds(const struct nb_evsel *req, int n, int *lead)
{
	for (int i = 0; i < n; i++)
		lead[i] = i;
	for (int i = 0; i < n; i++) {
		if (req[i].kind != NB_SEL_EVENT || !req[i].tag)
			continue;
		for (int j = 0; j < n; j++) {
			int a, b;

			if (req[j].kind != NB_SEL_EVENT || req[j].event != NB_EV_EXECUTION_EVENT ||
			    !(nbs_exec_count_bits(req[j].masks) & req[i].tag))
				continue;
			/* union: relabel the larger lead's group with the smaller */
			a = lead[i] < lead[j] ? lead[i] : lead[j];
			b = lead[i] < lead[j] ? lead[j] : lead[i];
			for (int k = 0; k < n; k++)
				if (lead[k] == b)
					lead[k] = a;
		}
	}
}

/* A mispairing: a TAGn request whose value no execution_event request
 * selects, while an execution_event request selects none of the TAGn
 * values (x87_FP_uop:ALL:TAG1 with execution_event:NBOGUS0).  Either alone
 * is a set still being built (upstream events or counting events added
 * first) and is accepted.  0, or -1 and the message. */
static int mispaired(const struct nb_evsel *req, int n, char *why, size_t len)
{
	char a[NB_NAME_MAX], b[NB_NAME_MAX];
	unsigned counted = 0, utags = 0;

	for (int i = 0; i < n; i++) {
		if (req[i].kind != NB_SEL_EVENT)
			continue;
		utags |= req[i].tag;
		if (req[i].event == NB_EV_EXECUTION_EVENT)
			counted |= nbs_exec_count_bits(req[i].masks);
	}
	for (int i = 0; i < n && utags; i++) {
		const struct nb_evsel *r = &req[i];
		int c;

		if (r->kind != NB_SEL_EVENT || !r->tag || (r->tag & counted))
			continue;
		for (c = 0; c < n; c++)
			if (req[c].kind == NB_SEL_EVENT && req[c].event == NB_EV_EXECUTION_EVENT &&
			    !(nbs_exec_count_bits(req[c].masks) & utags))
				break;
		if (c == n)
			return 0;
		nb_sched_name(r, a, sizeof(a));
		nb_sched_name(&req[c], b, sizeof(b));
		snprintf(why, len, "%s tags its uops with TagValue %#x, which no execution_event "
			 "request of the set counts, and %s counts TagValue bits %#x, which no TAGn "
			 "of the set gives: count them with execution_event:NBOGUS%u", a, r->tag, b,
			 nbs_exec_count_bits(req[c].masks), (unsigned)__builtin_ctz(r->tag));
		return -1;
	}
	return 0;
}

int nb_sched_tag_pairing(const struct nb_evsel *req, int n, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	return mispaired(req, n, why, len);
}

/* Requests that tag uops themselves (libpfm4's TAGn): 0, or -1 and a
 * message, if two of them tag different uops with TagValues that overlap
 * but differ (execution_event NBOGUSn would count a mix that neither asked
 * for: equal values are counted together, as PAPI's netburst PAPI_FP_OPS
 * preset does with x87_FP_uop:ALL:TAG1 and scalar_SP_uop:ALL:TAG1, and
 * disjoint ones apart), or if they are mispaired with the set's
 * execution_event requests (below).  Sets utags. */
int nbs_check_user_tags(struct nbs_st *s, char *why, size_t len)
{
	char a[NB_NAME_MAX], b[NB_NAME_MAX];

	s->utags = 0;
	for (int i = 0; i < s->n; i++) {
		const struct nb_evsel *r = &s->req[i];

		if (r->kind != NB_SEL_EVENT || !r->tag)
			continue;
		for (int j = 0; j < i; j++) {
			const struct nb_evsel *q = &s->req[j];

			if (q->kind != NB_SEL_EVENT || !q->tag || !(q->tag & r->tag) ||
			    q->tag == r->tag || (q->event == r->event && q->masks == r->masks))
				continue;
			nb_sched_name(q, b, sizeof(b));
			nb_sched_name(r, a, sizeof(a));
			snprintf(why, len, "%s (TagValue %#x) and %s (TagValue %#x) tag different uops "
				 "with tag values that share bits but differ: execution_event would "
				 "count a mix of both; give them the same TAGn to count them together, "
				 "or TAGn with no bit in common to count them apart",
				 b, q->tag, a, r->tag);
			return -1;
		}
		s->utags |= r->tag;
	}
	return mispaired(s->req, s->n, why, len);
}
