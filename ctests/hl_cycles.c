/*
 * hl_cycles.c - a region of the PAPI high-level API (run by
 * tests/api/t_hl_cycles.t under nbsim, which reads the JSON it writes): the
 * loop's PAPI_TOT_CYC, and the same region measured with the low-level API
 * for comparison (printed as "lowlevel PAPI_TOT_CYC N").
 */
#include <stdio.h>
#include "papi.h"

static volatile double sink;

static void work(void)
{
	for (int i = 0; i < 200000; i++)
		sink += i * 0.5;
}

int main(void)
{
	int es = PAPI_NULL;
	long long v = 0;

	if (PAPI_hl_region_begin("work") != PAPI_OK)
		return 1;
	work();
	if (PAPI_hl_region_end("work") != PAPI_OK || PAPI_hl_stop() != PAPI_OK)
		return 1;
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_event(es, PAPI_TOT_CYC) != PAPI_OK ||
	    PAPI_start(es) != PAPI_OK)
		return 2;
	work();
	if (PAPI_stop(es, &v) != PAPI_OK)
		return 2;
	printf("lowlevel PAPI_TOT_CYC %lld\n", v);
	return 0;
}
