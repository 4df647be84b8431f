/*
 * nb_partition.c - fewest runs.  First fit gives an upper bound; then a
 * branch and bound puts the requests, most constrained first, into an
 * existing run the scheduler accepts or into one new run (runs are
 * interchangeable, so one new run is enough to try), cutting any branch
 * that cannot beat the best count found.  Exact; a node budget keeps
 * pathological inputs bounded (the result is then reported as not proven).
 *
 * The units placed are groups of requests that must share a run
 * (nb_sched_tag_bonds: a TAGn upstream event and the execution_event
 * requests counting its tag); most are single requests.
 */
#include <stdio.h>
#include <string.h>
#include "nb_partition.h"

#define BUDGET 200000L

struct part {
	const struct nb_evsel *req;
	int n;
	const struct nb_sched_cpu *cpu;
	int order[NB_PART_MAX];  /* units (group leads), most constrained first */
	int nunits;
	int lead[NB_PART_MAX];   /* request -> its unit's lead */
	int run[NB_PART_MAX], best_run[NB_PART_MAX];
	int members[NB_PART_MAX][NB_SCHED_MAX];
	int size[NB_PART_MAX];
	int best;
	long nodes;
};

/* Append unit U's requests to run R's members; returns how many. */
static int push(struct part *p, int r, int u)
{
	int k = 0;

	for (int i = 0; i < p->n; i++)
		if (p->lead[i] == u) {
			p->members[r][p->size[r]++] = i;
			p->run[i] = r;
			k++;
		}
	return k;
}

static int unit_size(const struct part *p, int u)
{
	int k = 0;

	for (int i = 0; i < p->n; i++)
		k += p->lead[i] == u;
	return k;
}

static int fits(struct part *p, int r, int u)
{
	struct nb_evsel set[NB_SCHED_MAX];
	int m = p->size[r];

	if (m + unit_size(p, u) > NB_SCHED_MAX)
		return 0;
	for (int k = 0; k < p->size[r]; k++)
		set[k] = p->req[p->members[r][k]];
	for (int i = 0; i < p->n; i++)
		if (p->lead[i] == u)
			set[m++] = p->req[i];
	return nb_sched_run(set, m, p->cpu, NULL, NULL, NULL, 0) == 0;
}

static void bb(struct part *p, int depth, int nruns)
{
	int i;

	if (nruns >= p->best || ++p->nodes > BUDGET)
		return;
	if (depth == p->nunits) {
		p->best = nruns;
		memcpy(p->best_run, p->run, sizeof(p->run));
		return;
	}
	i = p->order[depth];
	for (int r = 0; r <= nruns && r < NB_PART_MAX; r++) {
		int k;

		if (r == nruns && nruns + 1 >= p->best)
			break;
		if (r < nruns && !fits(p, r, i))
			continue;
		k = push(p, r, i);
		bb(p, depth + 1, r == nruns ? nruns + 1 : nruns);
		p->size[r] -= k;
	}
}

int nb_partition(const struct nb_evsel *req, int n, const struct nb_sched_cpu *cpu,
		 int *run, int *exact, char *why, size_t whylen)
{
	static struct part p;   /* large; not reentrant */
	int alone[NB_PART_MAX];

	if (whylen)
		why[0] = '\0';
	*exact = 0;
	if (n < 0 || n > NB_PART_MAX) {
		snprintf(why, whylen, "%d requests; at most %d", n, NB_PART_MAX);
		return -1;
	}
	memset(&p, 0, sizeof(p));
	p.req = req;
	p.n = n;
	p.cpu = cpu;
	if (nb_sched_tag_pairing(req, n, why, whylen))
		return -1;
	nb_sched_tag_bonds(req, n, p.lead);
	/* each unit alone, and how constrained: fewer partners = earlier */
	for (int u = 0; u < n; u++) {
		if (p.lead[u] != u)
			continue;
		if (!fits(&p, 0, u)) {
			struct nb_evsel set[NB_SCHED_MAX];
			char w[1024];
			int m = 0;

			for (int i = 0; i < n && m < NB_SCHED_MAX; i++)
				if (p.lead[i] == u)
					set[m++] = req[i];
			nb_sched_run(set, m, cpu, NULL, NULL, w, sizeof(w));
			if (m == 1)
				snprintf(why, whylen, "%s", w);
			else
				snprintf(why, whylen, "the TAGn events and the execution_event requests "
					 "counting their tags must be counted in one run, but: %s", w);
			return -1;
		}
		p.order[p.nunits] = u;
		alone[u] = 0;
		for (int j = 0; j < n; j++) {
			if (p.lead[j] != j || j == u)
				continue;
			/* unit u beside unit j (j as run 0's content) */
			p.size[0] = 0;
			push(&p, 0, j);
			alone[u] += fits(&p, 0, u);
			p.size[0] = 0;
		}
		/* insertion by constraint */
		{
			int j = p.nunits;

			while (j > 0 && alone[p.order[j - 1]] > alone[u]) {
				p.order[j] = p.order[j - 1];
				j--;
			}
			p.order[j] = u;
		}
		p.nunits++;
	}
	/* first fit: the upper bound */
	p.best = 0;
	for (int d = 0; d < p.nunits; d++) {
		int u = p.order[d], r;

		for (r = 0; r < p.best && !fits(&p, r, u); r++)
			;
		if (r == p.best)
			p.best++;
		push(&p, r, u);
	}
	memcpy(p.best_run, p.run, sizeof(p.run));
	if (n <= NB_PART_EXACT_MAX) {
		memset(p.size, 0, sizeof(p.size));
		p.nodes = 0;
		bb(&p, 0, 0);
		*exact = p.nodes <= BUDGET;
	}
	/* renumber runs in order of first use */
	{
		int map[NB_PART_MAX], next = 0;

		for (int r = 0; r < NB_PART_MAX; r++)
			map[r] = -1;
		for (int i = 0; i < n; i++) {
			if (map[p.best_run[i]] < 0)
				map[p.best_run[i]] = next++;
			run[i] = map[p.best_run[i]];
		}
	}
	return p.best;
}
