/*
 * matmul.c - the main job: count PAPI presets for a real program (a naive
 * double-precision matrix multiply) on the simulated NetBurst.
 *
 *     nbsim -- matmul [N [PRESET...]]
 *
 * The presets named (default: every preset the component offers) are
 * counted; presets that cannot share
 * the PMU are measured in further runs of the same multiply, and each line
 * says which run it came from.  A first, uncounted multiply warms the
 * caches, TLBs and branch predictor, so every counted run sees the same
 * (warm) machine.  Counts are printed with their units, then IPC and miss
 * rates from them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "papi.h"

/* The unit of a preset's count (presets.txt's notes say what it counts). */
static const char *unit(const char *p)
{
	static const char *const u[][2] = {
		{ "PAPI_TOT_INS", "instructions" }, { "PAPI_TOT_IIS", "instructions" },
		{ "PAPI_TOT_CYC", "cycles" }, { "PAPI_BR_", "branches" },
		{ "PAPI_LD_INS", "load uops" }, { "PAPI_SR_INS", "store uops" },
		{ "PAPI_LST_INS", "load+store uops" }, { "PAPI_FP_", "FP operations" },
		{ "PAPI_VEC_INS", "packed FP uops" }, { "PAPI_L1_DCM", "load misses" },
		{ "PAPI_L1_LDM", "load misses" }, { "PAPI_L2_DCM", "load misses" },
		{ "PAPI_L2_LDM", "load misses" }, { "PAPI_L1_ICM", "TC-miss fetches" },
		{ "PAPI_TLB_DM", "missing uops" }, { "PAPI_TLB_", "page walks" },
		{ "PAPI_RES_STL", "stall cycles" }, { "PAPI_L2_TCM", "misses" },
		{ "PAPI_L3_TCM", "misses" }, { "PAPI_L2_", "accesses" }, { "PAPI_L3_", "accesses" },
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (strncmp(p, u[i][0], strlen(u[i][0])) == 0)
			return u[i][1];
	return "events";
}

static long long val[PAPI_MAX_PRESET_EVENTS + 64];
static char names[PAPI_MAX_PRESET_EVENTS + 64][PAPI_MAX_STR_LEN];
static int nnames;

static long long get(const char *p)
{
	for (int i = 0; i < nnames; i++)
		if (strcmp(names[i], p) == 0)
			return val[i];
	return -1;
}

/* "what: A/B as a percentage" when both were counted. */
static void rate(const char *what, const char *a, const char *b, double scale, const char *u)
{
	long long x = get(a), y = get(b);

	if (x >= 0 && y > 0)
		printf("  %-28s %10.3f %s  (%s / %s)\n", what, scale * (double)x / (double)y, u, a, b);
}

/* PAPI_add_event on a full set is expected to fail here (the program finds
 * the runs by trying): the component's message for it would be noise. */
static int try_add(int es, int code)
{
	int saved, r, null = open("/dev/null", O_WRONLY);

	fflush(stderr);
	saved = dup(2);
	if (null >= 0)
		dup2(null, 2);
	r = PAPI_add_event(es, code);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (null >= 0)
		close(null);
	return r;
}

static double *a, *b, *c;

static void multiply(int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double s = 0;

			for (int k = 0; k < n; k++)
				s += a[i * n + k] * b[k * n + j];
			c[i * n + j] = s;
		}
}

static void die(const char *what, int r)
{
	fprintf(stderr, "matmul: %s: %s\n", what, PAPI_strerror(r));
	exit(1);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 64;
	int codes[PAPI_MAX_PRESET_EVENTS + 64], ncodes = 0, done[PAPI_MAX_PRESET_EVENTS + 64];
	int code = PAPI_PRESET_MASK, r, run = 0;
	double check = 0;

	if (n < 1 || n > 2048) {
		fprintf(stderr, "matmul: N must be 1..2048\n");
		return 2;
	}
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		die("PAPI_library_init", r);
	{
		const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
		const PAPI_component_info_t *ci = PAPI_get_component_info(0);

		printf("CPU: %s (family %d model %d%s), %d MHz\n", hw->model_string,
		       hw->cpuid_family, hw->cpuid_model,
		       hw->cpuid_model == 3 || hw->cpuid_model == 4 ? ", Prescott" :
		       hw->cpuid_model == 6 ? ", Cedar Mill" : hw->cpuid_model == 2 ? ", Northwood or Gallatin" :
		       hw->cpuid_model <= 1 ? ", Willamette" : "", hw->cpu_max_mhz);
		if (ci->disabled) {
			fprintf(stderr, "matmul: component %s disabled: %s\n",
			       ci->name, ci->disabled_reason);
			return 1;
		}
	}
	a = malloc(sizeof(double) * n * n);
	b = malloc(sizeof(double) * n * n);
	c = malloc(sizeof(double) * n * n);
	if (!a || !b || !c)
		return 1;
	for (int i = 0; i < n * n; i++) {
		a[i] = (i % 7) * 0.5;
		b[i] = (i % 5) * 0.25;
	}
	for (int i = 2; i < argc; i++) {
		if ((r = PAPI_event_name_to_code(argv[i], &code)) != PAPI_OK) {
			fprintf(stderr, "matmul: %s: %s\n", argv[i], PAPI_strerror(r));
			return 2;
		}
		codes[ncodes++] = code;
	}
	if (argc <= 2 && PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK) {
		do {
			PAPI_event_info_t info;

			if (PAPI_get_event_info(code, &info) == PAPI_OK && info.count > 0)
				codes[ncodes++] = code;
		} while (PAPI_enum_event(&code, PAPI_PRESET_ENUM_AVAIL) == PAPI_OK);
	}
	memset(done, 0, sizeof(done));
	multiply(n);                  /* warm-up, not counted */
	printf("%dx%d double matrix multiply, %d presets.\n", n, n, ncodes);
	printf("A first multiply (not counted) warms the caches, TLBs and branch predictor;\n"
	       "then each run multiplies again, counting the presets that fit on the PMU together\n"
	       "(presets that cannot share it wait for a later run): every run sees the same warm\n"
	       "machine and does the same work, so counts from different runs compare.\n");
	printf("%-14s %14s %-16s %s\n", "preset", "count", "unit", "run");
	for (int left = ncodes; left > 0; ) {
		int es = PAPI_NULL, idx[PAPI_MAX_PRESET_EVENTS], k = 0;
		long long v[PAPI_MAX_PRESET_EVENTS];

		if ((r = PAPI_create_eventset(&es)) != PAPI_OK)
			die("PAPI_create_eventset", r);
		for (int i = 0; i < ncodes; i++)
			if (!done[i] && try_add(es, codes[i]) == PAPI_OK)
				idx[k++] = i;
		if (k == 0) {
			for (int i = 0; i < ncodes; i++)
				if (!done[i]) {
					char name[PAPI_MAX_STR_LEN];

					PAPI_event_code_to_name(codes[i], name);
					printf("%-14s %14s %-16s cannot be counted\n", name, "-", "");
				}
			break;
		}
		run++;
		if ((r = PAPI_start(es)) != PAPI_OK)
			die("PAPI_start", r);
		multiply(n);
		if ((r = PAPI_stop(es, v)) != PAPI_OK)
			die("PAPI_stop", r);
		check += c[n * n - 1];
		for (int j = 0; j < k; j++) {
			char name[PAPI_MAX_STR_LEN];

			PAPI_event_code_to_name(codes[idx[j]], name);
			printf("%-14s %14lld %-16s %d\n", name, v[j], unit(name), run);
			if (nnames < (int)(sizeof(val) / sizeof(val[0]))) {
				snprintf(names[nnames], sizeof(names[0]), "%s", name);
				val[nnames++] = v[j];
			}
			done[idx[j]] = 1;
			left--;
		}
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
	printf("derived (from the counts above):\n");
	rate("IPC", "PAPI_TOT_INS", "PAPI_TOT_CYC", 1, "instructions/cycle");
	rate("branch misprediction rate", "PAPI_BR_MSP", "PAPI_BR_INS", 100, "% of branches");
	rate("taken branches", "PAPI_BR_TKN", "PAPI_BR_INS", 100, "% of branches");
	rate("L1D load miss rate", "PAPI_L1_DCM", "PAPI_LD_INS", 100, "% of load uops");
	rate("L2 misses", "PAPI_L2_TCM", "PAPI_TOT_INS", 1000, "per 1000 instructions");
	rate("DTLB misses", "PAPI_TLB_DM", "PAPI_TOT_INS", 1000, "per 1000 instructions");
	rate("FP operations per cycle", "PAPI_FP_OPS", "PAPI_TOT_CYC", 1, "FLOP/cycle");
	printf("checksum %g\n", check);
	PAPI_shutdown();
	return 0;
}
