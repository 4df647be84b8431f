/*
 * nb_partition.c - fewest runs.  First fit gives an upper bound; then a
 * branch and bound puts the requests, most constrained first, into an
 * existing run the scheduler accepts or into one new run (runs are
 * interchangeable, so one new run is enough to try), cutting any branch
 * that cannot beat the best count found.  Exact; a node budget keeps
 * pathological inputs bounded (the result is then reported as not proven).
 */
#include <stdio.h>
#include <string.h>
#include "nb_partition.h"

#define BUDGET 200000L

struct part {
	const struct nb_evsel *req;
	int n;
	const struct nb_sched_cpu *cpu;
	int order[NB_PART_MAX];
	int run[NB_PART_MAX], best_run[NB_PART_MAX];
	int members[NB_PART_MAX][NB_SCHED_MAX];
	int size[NB_PART_MAX];
	int best;
	long nodes;
};

static int fits(struct part *p, int r, int i)
{
	struct nb_evsel set[NB_SCHED_MAX];

	if (p->size[r] == NB_SCHED_MAX)
		return 0;
	for (int k = 0; k < p->size[r]; k++)
		set[k] = p->req[p->members[r][k]];
	set[p->size[r]] = p->req[i];
	return nb_sched_run(set, p->size[r] + 1, p->cpu, NULL, NULL, NULL, 0) == 0;
}

static void bb(struct part *p, int depth, int nruns)
{
	int i;

	if (nruns >= p->best || ++p->nodes > BUDGET)
		return;
	if (depth == p->n) {
		p->best = nruns;
		memcpy(p->best_run, p->run, sizeof(p->run));
		return;
	}
	i = p->order[depth];
	for (int r = 0; r <= nruns && r < NB_PART_MAX; r++) {
		if (r == nruns && nruns + 1 >= p->best)
			break;
		if (r < nruns && !fits(p, r, i))
			continue;
		p->members[r][p->size[r]++] = i;
		p->run[i] = r;
		bb(p, depth + 1, r == nruns ? nruns + 1 : nruns);
		p->size[r]--;
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
	/* each alone, and how constrained: fewer partners = earlier */
	for (int i = 0; i < n; i++) {
		if (nb_sched_run(&req[i], 1, cpu, NULL, NULL, why, whylen))
			return -1;
		alone[i] = 0;
		for (int j = 0; j < n; j++) {
			struct nb_evsel two[2] = { req[i], req[j] };

			alone[i] += j != i && nb_sched_run(two, 2, cpu, NULL, NULL, NULL, 0) == 0;
		}
	}
	for (int i = 0; i < n; i++) {
		int j = i;

		while (j > 0 && alone[p.order[j - 1]] > alone[i]) {
			p.order[j] = p.order[j - 1];
			j--;
		}
		p.order[j] = i;
	}
	/* first fit: the upper bound */
	p.best = 0;
	for (int d = 0; d < n; d++) {
		int i = p.order[d], r;

		for (r = 0; r < p.best && !fits(&p, r, i); r++)
			;
		if (r == p.best)
			p.best++;
		p.members[r][p.size[r]++] = i;
		p.best_run[i] = r;
	}
	if (n <= NB_PART_EXACT_MAX) {
		int ff = p.best;

		memset(p.size, 0, sizeof(p.size));
		p.nodes = 0;
		bb(&p, 0, 0);
		*exact = p.nodes <= BUDGET;
		(void)ff;
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
