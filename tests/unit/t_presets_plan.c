/*
 * t_presets_plan.c - nb_plan_run (components/p4netburst/nb_presets.c)
 * against a plain search: for random sets of PAPI presets and events on
 * random models, with and without a sibling's reservations, the plan must
 * succeed exactly when some combination of the presets' alternatives
 * places, and choose the first such combination in order of preference
 * (earlier presets of the set vary slowest), whatever the pruning.
 * Plus known cases: PAPI_BR_MSP beside CRU_ESCR0/1 users, PAPI_FP_OPS
 * beside packed_DP_retired, the front-end presets.
 *
 *   t_presets_plan [SETS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nb_presets.h"
#include "sched_gen.h"

static int tests, failed;

static void ok(int cond, const char *what)
{
	tests++;
	if (!cond)
		failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tests, what);
}

/* The reference: every combination in order, hardware requests deduped
 * in request order, nb_sched_run on each; the first that places. */
static int reference(const struct nb_req *q, int n, const struct nb_sched_cpu *cpu,
		     unsigned feats, int8_t *alt)
{
	int np = 0, pidx[NB_SCHED_MAX], nua[NB_SCHED_MAX], ua[NB_SCHED_MAX][8], ch[NB_SCHED_MAX];

	for (int i = 0; i < n; i++) {
		int j;

		if (q[i].kind != NB_REQ_PRESET)
			continue;
		for (j = 0; j < np && pidx[j] != q[i].preset; j++)
			;
		if (j < np)
			continue;
		pidx[np] = q[i].preset;
		nua[np] = 0;
		for (unsigned a = 0; a < nb_presets[q[i].preset].nalts; a++)
			if (nb_preset_alt_usable(q[i].preset, a, cpu->model, feats))
				ua[np][nua[np]++] = (int)a;
		if (!nua[np])
			return -1;
		ch[np++] = 0;
	}
	for (;;) {
		struct nb_evsel hw[NB_SCHED_MAX];
		int nhw = 0, fits = 1;

		for (int i = 0; i < n && fits; i++) {
			struct nb_evsel t;
			int j, h;

			alt[i] = -1;
			if (q[i].kind == NB_REQ_PRESET) {
				const struct nb_preset_alt *a;

				for (j = 0; pidx[j] != q[i].preset; j++)
					;
				alt[i] = (int8_t)ua[j][ch[j]];
				a = &nb_presets[q[i].preset].alts[alt[i]];
				if (q[i].slot >= a->nterms)
					continue;
				nb_preset_term_sel(&a->terms[q[i].slot], &t);
			} else {
				t = q[i].sel;
			}
			for (h = 0; h < nhw && !nb_evsel_same(&hw[h], &t); h++)
				;
			if (h == nhw) {
				if (nhw == NB_SCHED_MAX)
					fits = 0;
				else
					hw[nhw++] = t;
			}
		}
		if (fits && nb_sched_run(hw, nhw, cpu, NULL, NULL, NULL, 0) == 0)
			return 0;
		{
			int j = np - 1;

			while (j >= 0 && ++ch[j] == nua[j])
				ch[j--] = 0;
			if (j < 0)
				return -1;
		}
	}
}

static int add_preset(struct nb_req *q, int nq, const char *name, unsigned model, unsigned feats)
{
	int p = nb_preset_lookup(name, strlen(name)), s = nb_preset_slots((unsigned)p, model, feats);

	for (int k = 0; k < s && nq < NB_SCHED_MAX; k++) {
		memset(&q[nq], 0, sizeof(q[nq]));
		q[nq].kind = NB_REQ_PRESET;
		q[nq].preset = (uint16_t)p;
		q[nq++].slot = (uint8_t)k;
	}
	return nq;
}

static int add_event(struct nb_req *q, int nq, const char *name, unsigned model)
{
	char err[256];

	memset(&q[nq], 0, sizeof(q[nq]));
	q[nq].kind = NB_REQ_SEL;
	if (nb_evsel_parse(name, model, 0, &q[nq].sel, err, sizeof(err)))
		fprintf(stderr, "%s: %s\n", name, err);
	return nq + 1;
}

/* The alternative the plan chose for preset NAME (1-based), or 0. */
static int alt_of(const struct nb_req *q, int nq, const struct nb_plan *pl, const char *name)
{
	int p = nb_preset_lookup(name, strlen(name));

	for (int i = 0; i < nq; i++)
		if (q[i].kind == NB_REQ_PRESET && q[i].preset == p)
			return pl->alt[i] + 1;
	return 0;
}

int main(int argc, char **argv)
{
	int sets = argc > 1 ? atoi(argv[1]) : 20000;
	static struct nb_req q[NB_SCHED_MAX];
	static struct nb_plan pl;
	struct nb_sched_cpu cpu;
	char why[1024];
	int nq, bad_ok = 0, bad_alt = 0, placed = 0, pruned_total = 0, plain_total = 0, many = 0;

	memset(&cpu, 0, sizeof(cpu));
	cpu.model = 2;
	nq = add_preset(q, 0, "PAPI_TOT_INS", 2, 0);
	nq = add_event(q, nq, "uops_retired:NBOGUS", 2);
	nq = add_preset(q, nq, "PAPI_BR_MSP", 2, 0);
	ok(nb_plan_run(q, nq, &cpu, 0, NULL, &pl, why, sizeof(why)) == 0 &&
	   alt_of(q, nq, &pl, "PAPI_BR_MSP") == 2,
	   "PAPI_BR_MSP beside PAPI_TOT_INS and uops_retired: alternative 2 (branch_retired)");
	ok(nb_plan_note(q, nq, &pl, &cpu, 0, why, sizeof(why)) == 1 &&
	   strstr(why, "PAPI_BR_MSP: counted as branch_retired:MMNM:MMTM (alternative 2)") &&
	   strstr(why, "CRU_ESCR0"), "the note names the alternative and the contended ESCRs");
	nq = add_event(q, 0, "packed_DP_retired", 2);
	nq = add_preset(q, nq, "PAPI_FP_OPS", 2, 0);
	ok(nb_plan_run(q, nq, &cpu, 0, NULL, &pl, why, sizeof(why)) == -1 &&
	   strstr(why, "PAPI_FP_OPS"),
	   "PAPI_FP_OPS beside packed_DP_retired: refused (no equivalent alternative), naming it");
	printf("# %s\n", why);
	nq = add_preset(q, 0, "PAPI_LST_INS", 2, 0);
	nq = add_preset(q, nq, "PAPI_LD_INS", 2, 0);
	ok(nb_plan_run(q, nq, &cpu, 0, NULL, &pl, why, sizeof(why)) == -1 &&
	   strstr(why, "PAPI_LD_INS"),
	   "PAPI_LD_INS beside PAPI_LST_INS: refused (one front-end tag; uop_type counted at "
	   "allocation, a superset: not an alternative)");
	printf("# %s\n", why);
	nq = add_preset(q, 0, "PAPI_L1_DCM", 2, 0);
	nq = add_preset(q, nq, "PAPI_L2_DCM", 2, 0);
	ok(nb_plan_run(q, nq, &cpu, 0, NULL, &pl, why, sizeof(why)) == -1 &&
	   strstr(why, "IA32_PEBS_ENABLE"), "PAPI_L1_DCM + PAPI_L2_DCM: no alternative, the message says why");

	/* Random sets: presets (70%) and events, growing up to 8 presets. */
	for (int s = 0; s < sets; s++) {
		struct nb_sched_cpu c;
		struct nb_evsel dummy[1];
		int8_t ralt[NB_SCHED_MAX];
		int want, got, npre = 1 + (int)gen_below((s & 1) ? 12 : 8), ninst;

		gen_set(dummy, 0, &c, gen_chance(30));
		nq = 0;
		for (int k = 0; k < npre && nq < NB_SCHED_MAX - 1; k++) {
			if (gen_chance(70)) {
				unsigned p;

				/* half the sets: only presets with alternatives, so
				 * that many combinations (and the pruning) are tried */
				do
					p = gen_below(nb_num_presets);
				while ((s & 1) && nb_presets[p].nalts < 2);

				ninst = nb_preset_slots(p, c.model, 0);
				for (int t = 0; t < ninst && nq < NB_SCHED_MAX; t++) {
					memset(&q[nq], 0, sizeof(q[nq]));
					q[nq].kind = NB_REQ_PRESET;
					q[nq].preset = (uint16_t)p;
					q[nq++].slot = (uint8_t)t;
				}
			} else {
				memset(&q[nq], 0, sizeof(q[nq]));
				q[nq].kind = NB_REQ_SEL;
				gen_one(&q[nq].sel, 0, &c);
				q[nq].sel.cccr &= (uint8_t)~NB_CCCR_MOD_PRECISE;
				nq++;
			}
		}
		want = reference(q, nq, &c, 0, ralt);
		got = nb_plan_run(q, nq, &c, 0, NULL, &pl, why, sizeof(why));
		many += pl.tried > 8;
		if (want != got) {
			bad_ok++;
			continue;
		}
		if (got == 0) {
			placed++;
			for (int i = 0; i < nq; i++)
				if (q[i].kind == NB_REQ_PRESET && pl.alt[i] != ralt[i]) {
					bad_alt++;
					break;
				}
		} else {
			pruned_total += pl.tried;
			plain_total++;
		}
	}
	printf("# %d random sets, %d placed; failing sets: %.1f combinations tried on average; "
	       "%d sets tried more than 8\n", sets, placed,
	       plain_total ? (double)pruned_total / plain_total : 0.0, many);
	ok(bad_ok == 0, "random sets: the plan places exactly when some combination of alternatives does");
	ok(bad_alt == 0, "random sets: the plan takes the first placing combination in order of preference");
	printf("1..%d\n", tests);
	return failed != 0;
}
