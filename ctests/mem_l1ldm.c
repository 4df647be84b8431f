/*
 * mem_l1ldm.c - the replay metric 1stL_cache_load_miss_retired (what
 * PAPI_L1_LDM maps to; the component does not offer metric-based presets
 * yet, so the test names the metric native event)
 * through the public PAPI API under nbsim equals the number of retired loads
 * that missed the L1D in nbsim's cache model (NBSIM_REQ_MEMSTATS), on a
 * strided and a random-access kernel, by the difference method (N1 and N2
 * iterations; the model's count is read right before PAPI_start and right
 * after PAPI_stop).
 *  - strided: one load per iteration at a 192-byte stride over 256 KB (the
 *    default Prescott model's L1D is 16 KB): every load misses, so the
 *    difference is also N2 - N1 exactly;
 *  - random: loads at LCG-random indices of a 4 MB array.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "papi.h"
#include "nbtap.h"
#include "../sim/nbsim_client.h"

#define K  1365                 /* strided: slots (256 KB / 192)          */
#define N1 (4 * K)
#define N2 (12 * K)

static char *area;
static uint32_t *arr;
static volatile uint32_t sink;

static __attribute__((noinline)) void strided(uint64_t n)
{
	uint64_t off = 0, end = 192 * K, zero = 0, v, s = 192;
	__asm__ volatile("1:\n\t"
			 "mov (%[b], %[o]), %[v]\n\t"
			 "add %[s], %[o]\n\t"
			 "cmp %[e], %[o]\n\t"
			 "cmovae %[z], %[o]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [o] "+&r"(off), [n] "+&r"(n), [v] "=&r"(v)
			 : [b] "r"(area), [s] "r"(s), [e] "r"(end), [z] "r"(zero)
			 : "memory", "cc");
}

static __attribute__((noinline)) void randomk(uint64_t n)
{
	uint64_t x = 99;
	uint32_t v = 0;
	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		v += arr[(x >> 24) & ((1u << 20) - 1)];
	}
	sink = v;
}

/* PAPI count and model L1D load misses of one run */
static void measure(int es, void (*k)(uint64_t), uint64_t n, long long *c, uint64_t *m)
{
	struct nbsim_memstats m0, m1;
	int r;

	nbsim_memstats(&m0);
	if ((r = PAPI_start(es)) != PAPI_OK)
		tap_bail("PAPI_start: %s", PAPI_strerror(r));
	k(n);
	if ((r = PAPI_stop(es, c)) != PAPI_OK)
		tap_bail("PAPI_stop: %s", PAPI_strerror(r));
	nbsim_memstats(&m1);
	*m = m1.l1_load_miss - m0.l1_load_miss;
}

static void check(int es, const char *name, void (*k)(uint64_t), int all_miss)
{
	long long a, b;
	uint64_t ma, mb;

	for (int w = 0; w < 3; w++) {          /* warm-up, as exact_counts */
		measure(es, k, N1, &a, &ma);
		measure(es, k, N2, &b, &mb);
	}
	measure(es, k, N1, &a, &ma);
	measure(es, k, N2, &b, &mb);
	tap_is(b - a, (long long)(mb - ma),
	       "%s: 1stL_cache_load_miss_retired difference = the model's L1D load misses (%lld)", name, b - a);
	if (all_miss)
		tap_is(b - a, N2 - N1, "%s: every load misses the L1D", name);
	else
		tap_ok(b - a > (N2 - N1) * 9 / 10, "%s: most loads miss the L1D (%lld of %d)",
		       name, b - a, N2 - N1);
}

int main(void)
{
	int es = PAPI_NULL, r;

	tap_plan(4);
	if (!nbsim_present())
		tap_bail("not running under nbsim");
	area = aligned_alloc(4096, 192 * K + 4096);
	arr = aligned_alloc(4096, 4 << 20);
	if (!area || !arr)
		tap_bail("out of memory");
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(r));
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK ||
	    (r = PAPI_add_named_event(es, "p4netburst:::1stL_cache_load_miss_retired")) != PAPI_OK)
		tap_bail("PAPI_L1_LDM: %s", PAPI_strerror(r));
	check(es, "strided", strided, 1);
	check(es, "random", randomk, 0);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	return tap_exit();
}
