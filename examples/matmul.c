/*
 * matmul.c - the main job: count PAPI presets for a real program (a naive
 * double-precision matrix multiply) on the simulated NetBurst.
 *
 *     nbsim -- matmul [N [PRESET...]]
 *
 * The presets named (default: every preset the component offers) are
 * counted; presets that cannot share
 * the PMU are measured in further runs of the same multiply, and each line
 * says which run it came from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "papi.h"

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

		printf("CPU: %s (family %d model %d)\n", hw->model_string,
		       hw->cpuid_family, hw->cpuid_model);
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
	printf("%dx%d double matrix multiply, %d presets\n", n, n, ncodes);
	printf("%-14s %18s  %s\n", "preset", "count", "run");
	for (int left = ncodes; left > 0; ) {
		int es = PAPI_NULL, idx[PAPI_MAX_PRESET_EVENTS], k = 0;
		long long v[PAPI_MAX_PRESET_EVENTS];

		if ((r = PAPI_create_eventset(&es)) != PAPI_OK)
			die("PAPI_create_eventset", r);
		for (int i = 0; i < ncodes; i++)
			if (!done[i] && PAPI_add_event(es, codes[i]) == PAPI_OK)
				idx[k++] = i;
		if (k == 0) {
			for (int i = 0; i < ncodes; i++)
				if (!done[i]) {
					char name[PAPI_MAX_STR_LEN];

					PAPI_event_code_to_name(codes[i], name);
					printf("%-14s %18s  cannot be counted\n", name, "-");
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
			printf("%-14s %18lld  %d\n", name, v[j], run);
			done[idx[j]] = 1;
			left--;
		}
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
	printf("checksum %g\n", check);
	PAPI_shutdown();
	return 0;
}
