/*
 * nb_stat_print.c - what nb_stat prints: the counts of each event from its
 * run's counters (cascades folded, preset coefficients applied), summed
 * over the processes counted; the derived lines (IPC, uops per
 * instruction, misses per 1000 instructions); and the report as a table
 * (perf stat's layout), as SEP-separated values or as one JSON object.
 * See nb_stat.1 for the formats.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "nb_stat_print.h"
#include "nb_encode.h"
#include "nb_util.h"

/* ---- values ----------------------------------------------------------------- */

int64_t st_req_value(const struct st_run *r, int i, const uint64_t *ctr)
{
	const struct nb_plan *p = &r->plan;
	const struct nb_slot *s;
	uint64_t v;
	int h = p->hw_of[i];

	if (h < 0)
		return 0;
	s = &p->assign.slot[h];
	if (s->cascade) {
		struct nb_cascade_state st;

		memset(&st, 0, sizeof(st));
		v = nb_cascade_fold(&st, ctr[s->counter], ctr[s->hi_counter]);
	} else {
		v = ctr[s->counter];
	}
	return (int64_t)v * p->coef[i];
}

static int64_t ev_value(const struct st_event *e, const struct st_run *r, const uint64_t *ctr)
{
	int64_t v = 0;

	for (int i = 0; i < e->nreq; i++)
		v += st_req_value(r, e->req0 + i, ctr);
	return v;
}

/* the event's total over the processes counted */
int64_t st_ev_total(const struct st_event *e, const struct st_run *runs)
{
	const struct st_run *r = &runs[e->run];
	int64_t v = 0;

	for (int p = 0; p < r->nproc; p++)
		v += ev_value(e, r, r->proc[p].total);
	return v;
}

/* ---- output ----------------------------------------------------------------- */

static void thousands(int64_t v, char *buf, size_t len)
{
	char d[32];
	int n, o = 0, neg = v < 0;

	snprintf(d, sizeof(d), "%llu", (unsigned long long)(neg ? -v : v));
	n = (int)strlen(d);
	if (neg && o < (int)len - 1)
		buf[o++] = '-';
	for (int i = 0; i < n && o < (int)len - 2; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o] = 0;
}

int st_role_of(const struct st_event *e, const struct st_config *c)
{
	static const char *const pre[R_N][2] = {
		{ "PAPI_TOT_INS", NULL }, { "PAPI_TOT_CYC", NULL }, { NULL, NULL },
		{ "PAPI_BR_MSP", NULL }, { "PAPI_L1_LDM", "PAPI_L1_DCM" }, { "PAPI_L2_LDM", "PAPI_L2_DCM" },
	};
	static const char *const nat[R_N] = {
		"instr_retired:NBOGUSNTAG:NBOGUSTAG", "global_power_events:RUNNING", "uops_retired:NBOGUS",
		"mispred_branch_retired:NBOGUS", "1stL_cache_load_miss_retired",
		"2ndL_cache_load_miss_retired",
	};
	for (int k = 0; k < R_N; k++) {
		if (e->preset >= 0) {
			for (int j = 0; j < 2; j++)
				if (pre[k][j] && e->preset == nb_preset_lookup(pre[k][j], strlen(pre[k][j])))
					return k;
		} else {
			struct nb_util_opts u;
			struct nb_evsel s;
			char err[256];

			nb_util_defaults(&u);
			u.cpu.model = c->model;
			u.feats = c->feats;
			if (nb_util_request(nat[k], &u, &s, err, sizeof(err)) == 0 &&
			    !memcmp(&s, &e->sel, sizeof(s)))
				return k;
		}
	}
	return -1;
}

struct derived {
	const char *key, *label;
	double v;
};

static int derive(const struct st_event *ev, int n, const struct st_run *runs,
		  const struct st_config *c, struct derived *d)
{
	double v[R_N];
	int have[R_N] = { 0 }, nd = 0;

	for (int i = 0; i < n; i++) {
		int k = st_role_of(&ev[i], c);

		if (k >= 0 && !have[k]) {
			have[k] = 1;
			v[k] = (double)st_ev_total(&ev[i], runs);
		}
	}
	if (!have[R_INS] || v[R_INS] == 0)
		return 0;
	if (have[R_CYC] && v[R_CYC] > 0)
		d[nd++] = (struct derived){ "ipc", "instructions per cycle (IPC)", v[R_INS] / v[R_CYC] };
	if (have[R_UOPS])
		d[nd++] = (struct derived){ "uops_per_instruction", "uops per instruction",
					    v[R_UOPS] / v[R_INS] };
	if (have[R_MSP])
		d[nd++] = (struct derived){ "mispredictions_per_1000_instructions",
					    "branch mispredictions per 1000 instructions",
					    1000 * v[R_MSP] / v[R_INS] };
	if (have[R_L1])
		d[nd++] = (struct derived){ "l1d_load_misses_per_1000_instructions",
					    "L1D load misses per 1000 instructions",
					    1000 * v[R_L1] / v[R_INS] };
	if (have[R_L2])
		d[nd++] = (struct derived){ "l2_load_misses_per_1000_instructions",
					    "L2 load misses per 1000 instructions",
					    1000 * v[R_L2] / v[R_INS] };
	return nd;
}



/* The length of the well-formed UTF-8 sequence at S (RFC 3629: no
 * overlong forms, no surrogates, at most U+10FFFF), or 0. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	unsigned cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	cp = s[0] & (0x7f >> n);
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* a JSON string; JSON is UTF-8, so a byte that is not part of a UTF-8
 * sequence (an argument in Latin-1) is written as U+FFFD */
static void json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		unsigned char ch = *s;
		int k;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else if (ch < 0x80)
			fputc(ch, f);
		else if ((k = utf8_len(s)) > 0) {
			fwrite(s, 1, (size_t)k, f);
			s += k;
			continue;
		} else
			fputs("\\ufffd", f);
		s++;
	}
	fputc('"', f);
}

static const char *os_note = "user-mode counts only: the kernel is not simulated, so OS-mode "
			     "counts are zero and page faults, context switches and interrupts "
			     "are absent (real counts include them)";

static void out_runs_note(FILE *f, const struct report *R)
{
	if (R->nruns == 1)
		return;
	fprintf(f, "\n %d runs (the events do not fit in the PMU at once; %s): PROGRAM ran once per "
		"run; every count is exact, from one run, none scaled\n", R->nruns,
		R->minimal ? "the fewest runs" : "first fit, not proven the fewest");
	if (R->diverged)
		fprintf(f, " WARNING: the runs diverged (%s): the program is not deterministic, counts "
			"from different runs do not describe one execution\n", R->divergence);
	else if (R->divergence[0])
		fprintf(f, " %s\n", R->divergence);
}

void st_out_table(FILE *f, const struct report *R)
{
	const struct st_config *c = R->c;
	struct derived d[8];
	char num[40];
	int nd = derive(R->ev, R->n, R->runs, c, d);

	fprintf(f, "\n Performance counter stats for '");
	for (int i = 0; c->argv[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", c->argv[i]);
	fprintf(f, "'\n on %s NetBurst %s (family 15 model %u%s), backend %s%s%s:\n",
		strcmp(R->backend, "nbsim") ? "a real" : "the simulated", c->model_name, c->model,
		c->ht ? ", Hyper-Threading" : "", R->backend,
		strcmp(R->backend, "nbsim") ? "" : c->sampled ? ", sampled clock" : ", model clock",
		strcmp(R->backend, "nbsim") ? "" : !c->host_time ? ", simulated time"
		: c->time_auto ? ", host time (no event needs the timing model; --time=simulated)"
		: ", host time");
	fprintf(f, " (user-mode counts only: the kernel is not simulated, so\n"
		"  OS-mode counts are zero and page faults, context switches and interrupts are absent)\n\n");
	for (int i = 0; i < R->n; i++) {
		thousands(st_ev_total(&R->ev[i], R->runs), num, sizeof(num));
		fprintf(f, " %18s      %s", num, R->ev[i].name);
		if (R->nruns > 1)
			fprintf(f, "   [run %d]", R->ev[i].run + 1);
		fputc('\n', f);
	}
	if (nd)
		fputc('\n', f);
	for (int k = 0; k < nd; k++)
		fprintf(f, " %18.3f      %s\n", d[k].v, d[k].label);
	if (c->per_thread || R->runs[0].nproc > 1) {
		const struct st_run *r0 = &R->runs[0];

		for (int p = 0; p < r0->nproc; p++) {
			if (r0->nproc > 1) {
				fprintf(f, "\n process %ld (exit %d):\n", r0->proc[p].pid, r0->proc[p].exit);
				for (int i = 0; i < R->n; i++) {
					const struct st_run *r = &R->runs[R->ev[i].run];

					thousands(p < r->nproc ? ev_value(&R->ev[i], r, r->proc[p].total) : 0,
						  num, sizeof(num));
					fprintf(f, " %18s      %s\n", num, R->ev[i].name);
				}
			}
			if (!c->per_thread)
				continue;
			for (int t = 0; t < r0->proc[p].nthr; t++) {
				const struct st_thread *th = &r0->proc[p].thr[t];
				char lp[48] = "";

				if (th->lp_first >= 0 && th->lp_first == th->lp_last)
					snprintf(lp, sizeof(lp), ", LP%d", th->lp_first);
				else if (th->lp_first >= 0)
					snprintf(lp, sizeof(lp), ", LP%d, moved to LP%d", th->lp_first, th->lp_last);
				fprintf(f, "\n process %ld thread %u (lwp %ld%s):\n", r0->proc[p].pid,
					th->tid, th->lwp, lp);
				for (int i = 0; i < R->n; i++) {
					const struct st_run *r = &R->runs[R->ev[i].run];
					int64_t v = 0;

					if (p < r->nproc && t < r->proc[p].nthr)
						v = ev_value(&R->ev[i], r, r->proc[p].thr[t].ctr);
					thousands(v, num, sizeof(num));
					fprintf(f, " %18s      %s\n", num, R->ev[i].name);
				}
			}
		}
	}
	fputc('\n', f);
	if (R->cycles >= 0) {
		thousands(R->cycles, num, sizeof(num));
		fprintf(f, " %18s      %s cycles (all processes)\n", num,
			strcmp(R->backend, "nbsim") ? "elapsed" : "simulated");
	} else {
		fprintf(f, " %18s      simulated cycles: not counted (add -e PAPI_TOT_CYC; the timing\n"
			"                         model runs only when an event needs it)\n", "-");
	}
	fprintf(f, " %18.3f      seconds host time%s\n", R->seconds, R->nruns > 1 ? " (all runs)" : "");
	out_runs_note(f, R);
	fputc('\n', f);
}

void st_out_csv(FILE *f, const struct report *R, const char *sep)
{
	const struct st_run *r0 = &R->runs[0];

	for (int i = 0; i < R->n; i++)
		fprintf(f, "%lld%s%s%s%d%s%s\n", (long long)st_ev_total(&R->ev[i], R->runs), sep,
			R->ev[i].name, sep, R->ev[i].run + 1, sep, sep);
	if (!R->c->per_thread)
		return;
	for (int p = 0; p < r0->nproc; p++)
		for (int t = 0; t < r0->proc[p].nthr; t++)
			for (int i = 0; i < R->n; i++) {
				const struct st_run *r = &R->runs[R->ev[i].run];
				int64_t v = 0;

				if (p < r->nproc && t < r->proc[p].nthr)
					v = ev_value(&R->ev[i], r, r->proc[p].thr[t].ctr);
				fprintf(f, "%lld%s%s%s%d%s%ld%s%ld\n", (long long)v, sep, R->ev[i].name, sep,
					R->ev[i].run + 1, sep, r0->proc[p].pid, sep, r0->proc[p].thr[t].lwp);
			}
}

static void json_counts(FILE *f, const struct report *R, int p, int t)
{
	fprintf(f, "[");
	for (int i = 0; i < R->n; i++) {
		const struct st_run *r = &R->runs[R->ev[i].run];
		int64_t v = 0;

		if (p < 0)
			v = st_ev_total(&R->ev[i], R->runs);
		else if (p < r->nproc && t < 0)
			v = ev_value(&R->ev[i], r, r->proc[p].total);
		else if (p < r->nproc && t < r->proc[p].nthr)
			v = ev_value(&R->ev[i], r, r->proc[p].thr[t].ctr);
		fprintf(f, "%s{\"event\": ", i ? ", " : "");
		json_str(f, R->ev[i].name);
		fprintf(f, ", \"count\": %lld, \"run\": %d}", (long long)v, R->ev[i].run + 1);
	}
	fprintf(f, "]");
}

void st_out_json(FILE *f, const struct report *R)
{
	const struct st_config *c = R->c;
	const struct st_run *r0 = &R->runs[0];
	struct derived d[8];
	int nd = derive(R->ev, R->n, R->runs, c, d);

	fprintf(f, "{\"backend\": \"%s\", \"model\": \"%s\", \"family\": 15, \"model_number\": %u, "
		"\"ht\": %s, \"clock\": \"%s\", \"time\": \"%s\", \"time_chosen\": \"%s\",\n"
		" \"program\": [", R->backend,
		c->model_name, c->model, c->ht ? "true" : "false", c->sampled ? "sampled" : "model",
		strcmp(R->backend, "nbsim") ? "host" : c->host_time ? "host" : "simulated",
		c->time_auto ? "auto" : "given");
	for (int i = 0; c->argv[i]; i++) {
		fputs(i ? ", " : "", f);
		json_str(f, c->argv[i]);
	}
	fprintf(f, "],\n \"exit_status\": %d, \"runs\": %d, \"fewest_runs\": %s, \"diverged\": %s,\n"
		" \"simulated_cycles\": ", R->status, R->nruns, R->minimal ? "true" : "false",
		R->diverged ? "true" : "false");
	if (R->cycles >= 0)
		fprintf(f, "%lld", (long long)R->cycles);
	else
		fprintf(f, "null");
	fprintf(f, ", \"host_seconds\": %.6f,\n \"note\": ", R->seconds);
	json_str(f, os_note);
	fprintf(f, ",\n \"counts\": ");
	json_counts(f, R, -1, -1);
	fprintf(f, ",\n \"derived\": {");
	for (int k = 0; k < nd; k++)
		fprintf(f, "%s\"%s\": %.6f", k ? ", " : "", d[k].key, d[k].v);
	fprintf(f, "},\n \"processes\": [");
	for (int p = 0; p < r0->nproc; p++) {
		fprintf(f, "%s\n  {\"pid\": %ld, \"exit\": %d, \"counts\": ", p ? "," : "",
			r0->proc[p].pid, r0->proc[p].exit);
		json_counts(f, R, p, -1);
		fprintf(f, ",\n   \"threads\": [");
		for (int t = 0; t < r0->proc[p].nthr; t++) {
			fprintf(f, "%s\n    {\"tid\": %u, \"lwp\": %ld, ", t ? "," : "",
				r0->proc[p].thr[t].tid, r0->proc[p].thr[t].lwp);
			if (r0->proc[p].thr[t].lp_first >= 0)
				fprintf(f, "\"lp\": %d, \"lp_last\": %d, ", r0->proc[p].thr[t].lp_first,
					r0->proc[p].thr[t].lp_last);
			fprintf(f, "\"counts\": ");
			json_counts(f, R, p, t);
			fprintf(f, "}");
		}
		fprintf(f, "]}");
	}
	fprintf(f, "]}\n");
}

