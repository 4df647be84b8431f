/*
 * t_sched_partition.c - nb_partition's run count against brute force:
 * every set partition (restricted growth strings) of random request lists
 * of 1..8 events and metrics, the fewest blocks all placeable, with a
 * libpfm4 TAGn event in the block of every execution_event request that
 * counts one of its tag bits (NBOGUSn, BOGUSn: event-mask bits n, n + 4;
 * written out here, not nb_sched_tag_bonds); a list whose TAGn values and
 * execution_event requests are mispaired as a whole gets no partition.
 */
#include <stdio.h>
#include <stdlib.h>
#include "nb_partition.h"
#include "sched_gen.h"

static int placeable(const struct nb_evsel *r, const int *rg, int n, int b, const struct nb_sched_cpu *c)
{
	struct nb_evsel s[NB_SCHED_MAX];
	int k = 0;

	for (int i = 0; i < n; i++)
		if (rg[i] == b)
			s[k++] = r[i];
	return nb_sched_run(s, k, c, NULL, NULL, NULL, 0) == 0;
}

/* Must requests i and j share a run (a TAGn event and an execution_event
 * counting one of its bits)? */
static unsigned tag_counted(const struct nb_evsel *e)
{
	return e->kind == NB_SEL_EVENT && e->event == NB_EV_EXECUTION_EVENT ?
	       (unsigned)(e->masks | e->masks >> 4) & 0xfu : 0;
}

static int bonded(const struct nb_evsel *a, const struct nb_evsel *b)
{
	return (a->kind == NB_SEL_EVENT && (a->tag & tag_counted(b))) ||
	       (b->kind == NB_SEL_EVENT && (b->tag & tag_counted(a)));
}

/* The whole list mispaired: a TAGn value no execution_event counts beside
 * an execution_event counting no TAGn value. */
static int mispaired(const struct nb_evsel *r, int n)
{
	unsigned utags = 0, counted = 0;
	int blind = 0, lost = 0;

	for (int i = 0; i < n; i++) {
		utags |= r[i].kind == NB_SEL_EVENT ? r[i].tag : 0;
		counted |= tag_counted(&r[i]);
	}
	for (int i = 0; i < n; i++) {
		blind |= r[i].kind == NB_SEL_EVENT && r[i].event == NB_EV_EXECUTION_EVENT &&
			 !(tag_counted(&r[i]) & utags);
		lost |= r[i].kind == NB_SEL_EVENT && r[i].tag && !(r[i].tag & counted);
	}
	return blind && lost;
}

/* fewest blocks over all restricted growth strings */
static int brute(const struct nb_evsel *r, int n, const struct nb_sched_cpu *c)
{
	int rg[16] = { 0 }, best = n + 1;

	for (;;) {
		int blocks = 0, ok = 1;

		for (int i = 0; i < n; i++)
			if (rg[i] + 1 > blocks)
				blocks = rg[i] + 1;
		for (int i = 0; i < n && ok; i++)
			for (int j = 0; j < i && ok; j++)
				ok = rg[i] == rg[j] || !bonded(&r[i], &r[j]);
		for (int b = 0; b < blocks && ok && blocks < best; b++)
			ok = placeable(r, rg, n, b, c);
		if (ok && blocks < best)
			best = blocks;
		/* next restricted growth string */
		int i = n - 1;

		for (; i > 0; i--) {
			int mx = 0;

			for (int j = 0; j < i; j++)
				if (rg[j] > mx)
					mx = rg[j];
			if (rg[i] <= mx) {
				rg[i]++;
				break;
			}
			rg[i] = 0;
		}
		if (i == 0)
			return best;
	}
}

static int has_bond(const struct nb_evsel *r, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (bonded(&r[i], &r[j]))
				return 1;
	return 0;
}

int main(int argc, char **argv)
{
	long sets = argc > 1 ? atol(argv[1]) : 3000, bad = 0, badruns = 0, inexact = 0, tagged = 0;

	for (long k = 0; k < sets; k++) {
		struct nb_evsel r[8];
		struct nb_sched_cpu c;
		int n = 1 + (int)gen_below(8), run[8], exact, got, want;
		char why[512];

		gen_set(r, n, &c, 0);
		got = nb_partition(r, n, &c, run, &exact, why, sizeof(why));
		want = mispaired(r, n) ? n + 1 : brute(r, n, &c);
		if (want > n)
			want = -1;     /* some request (or bonded group) cannot be placed, or mispaired */
		tagged += got > 1 && has_bond(r, n);
		inexact += !exact && got > 0;
		if (got != want && bad++ < 5)
			printf("# set %ld n=%d: partition %d, brute force %d (%s)\n", k, n, got, want, why);
		for (int b = 0; b < got; b++)
			if (!placeable(r, run, n, b, &c))
				badruns++;
		for (int i = 0; i < n && got > 0; i++)
			for (int j = 0; j < i; j++)
				badruns += run[i] != run[j] && bonded(&r[i], &r[j]);
	}
	printf("%sok 1 - %ld random lists of 1..8 requests (%ld split into runs with a TAGn event "
	       "bonded to its execution_event): fewest runs equal brute force\n", bad ? "not " : "",
	       sets, tagged);
	printf("%sok 2 - every run is placeable, bonded requests in one run\n", badruns ? "not " : "");
	printf("%sok 3 - every answer proven minimal\n", inexact ? "not " : "");
	printf("1..3\n");
	return 0;
}
