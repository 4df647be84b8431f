/*
 * mem_mob.c - the store buffer events through the public PAPI API under
 * nbsim (default model Prescott: 32 store buffers, data conflicts on
 * address bits 21:6; sim/README.md "Store buffer"), by the difference
 * method (N1 and N2 iterations, after warm-up runs):
 *  - MOB_load_replay_retired (replay metric: IA32_PEBS_ENABLE bit 9, its
 *    helper ESCR MOB_load_replay PARTIAL_DATA|UNALGN_ADDR placed by the
 *    component) over a loop of an 8-byte store and a 4-byte load at +2:
 *    one blocked load per iteration;
 *  - MOB_load_replay:UNALGN_ADDR and memory_cancel:64K_CONF in one event
 *    set: the same loop, then a store and a load 4 MB apart (aliasing);
 *  - the forwarded case (load at the store's address): 0 for all three.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "papi.h"
#include "nbtap.h"
#include "../sim/nbsim_client.h"

#define N1 4000
#define N2 12000

static char *area;

static __attribute__((noinline)) void unalgn(uint64_t n)
{
	uint64_t v;
	__asm__ volatile("1:\n\t"
			 "mov %[n], (%[p])\n\t"
			 "movl 2(%[p]), %k[v]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [v] "=&r"(v) : [p] "r"(area) : "memory", "cc");
}

static __attribute__((noinline)) void alias4m(uint64_t n)
{
	uint64_t v;
	__asm__ volatile("1:\n\t"
			 "mov %[n], (%[p])\n\t"
			 "mov (%[p], %[d]), %[v]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [v] "=&r"(v) : [p] "r"(area), [d] "r"((uint64_t)4 << 20)
			 : "memory", "cc");
}

static __attribute__((noinline)) void forward(uint64_t n)
{
	uint64_t v;
	__asm__ volatile("1:\n\t"
			 "mov %[n], (%[p])\n\t"
			 "movl (%[p]), %k[v]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [n] "+r"(n), [v] "=&r"(v) : [p] "r"(area) : "memory", "cc");
}

static void run(int es, void (*k)(uint64_t), uint64_t n, long long *c)
{
	int r;
	if ((r = PAPI_start(es)) != PAPI_OK)
		tap_bail("PAPI_start: %s", PAPI_strerror(r));
	k(n);
	if ((r = PAPI_stop(es, c)) != PAPI_OK)
		tap_bail("PAPI_stop: %s", PAPI_strerror(r));
}

/* differences of the counts of es (n events) between N2 and N1 runs */
static void diff(int es, int n, void (*k)(uint64_t), long long *d)
{
	long long a[4], b[4];
	for (int w = 0; w < 2; w++)
		run(es, k, N1, a);
	run(es, k, N1, a);
	run(es, k, N2, b);
	for (int i = 0; i < n; i++)
		d[i] = b[i] - a[i];
}

static int set(const char *e1, const char *e2)
{
	int es = PAPI_NULL, r;
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK || (r = PAPI_add_named_event(es, e1)) != PAPI_OK ||
	    (e2 && (r = PAPI_add_named_event(es, e2)) != PAPI_OK))
		tap_bail("event set %s %s: %s", e1, e2 ? e2 : "", PAPI_strerror(r));
	return es;
}

int main(void)
{
	int es, r;
	long long d[2];

	tap_plan(8);
	if (!nbsim_present())
		tap_bail("not running under nbsim");
	area = aligned_alloc(4096, (4 << 20) + 4096);
	if (!area)
		tap_bail("out of memory");
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(r));

	es = set("p4netburst:::MOB_load_replay_retired", NULL);
	diff(es, 1, unalgn, d);
	tap_is(d[0], N2 - N1, "MOB_load_replay_retired: one per store 8 / load 4 at +2 (%lld)", d[0]);
	diff(es, 1, forward, d);
	tap_is(d[0], 0, "MOB_load_replay_retired: forwarded loads, 0");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	es = set("p4netburst:::MOB_load_replay:UNALGN_ADDR", "p4netburst:::memory_cancel:64K_CONF");
	diff(es, 2, unalgn, d);
	tap_is(d[0], N2 - N1, "MOB_load_replay:UNALGN_ADDR: one per iteration (%lld)", d[0]);
	tap_is(d[1], 0, "memory_cancel:64K_CONF: none on the same line");
	diff(es, 2, alias4m, d);
	tap_is(d[0], 0, "store / load 4 MB apart: no UNALGN_ADDR");
	tap_is(d[1], N2 - N1, "store / load 4 MB apart: one 64K_CONF per iteration (%lld)", d[1]);
	diff(es, 2, forward, d);
	tap_is(d[0], 0, "forwarded: no UNALGN_ADDR");
	tap_is(d[1], 0, "forwarded: no 64K_CONF");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	return tap_exit();
}
