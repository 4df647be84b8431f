/*
 * threads.c - the thread-switch cost of per-thread PMU contexts (make
 * bench, sim/bench/threads.sh).  Not a test.
 *
 *   threads NCOUNTERS [SWITCHES]
 *
 * 4 threads run the same branchy integer loop, each yielding the CPU
 * SWITCHES times (default 2000), so valgrind switches threads about
 * 4 x SWITCHES times.  Under nbsim each thread programs NCOUNTERS (0, 2
 * or 4) counters of its own before its loop (the context a switch saves
 * and restores); prints the sum of the counts to keep the work.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "nbsim_client.h"
#include "nb_events.h"

#define NT 4
#define ITER 3000000L

struct cfg { unsigned escr, ev, mask, ctr; };
static const struct cfg cfgs[4] = {
	{ NB_ESCR_CRU_ESCR0, NB_EV_INSTR_RETIRED, 1, 12 },
	{ NB_ESCR_CRU_ESCR2, NB_EV_BRANCH_RETIRED, 0xc, 13 },
	{ NB_ESCR_FSB_ESCR0, NB_EV_GLOBAL_POWER_EVENTS, 1, 0 },
	{ NB_ESCR_CRU_ESCR1, NB_EV_UOPS_RETIRED, 1, 14 },
};
static unsigned nc;
static long switches = 2000;
static uint64_t total[NT];

static void *thread(void *arg)
{
	int t = (int)(intptr_t)arg;
	uint64_t x = 42 + (uint64_t)t, sum = 0, v;
	long chunk = ITER / switches;

	for (unsigned i = 0; i < nc && nbsim_present(); i++) {
		const struct cfg *c = &cfgs[i];
		nbsim_wrmsr(nb_escrs[c->escr].msr,
			    ((uint64_t)nb_events[c->ev].event_select << NB_ESCR_EVSEL_SHIFT) |
			    ((uint64_t)c->mask << NB_ESCR_EMASK_SHIFT) | NB_ESCR_T0_USR);
		nbsim_wrmsr(nb_counters[c->ctr].msr, 0);
		nbsim_wrmsr(nb_counters[c->ctr].cccr_msr, NB_CCCR_ENABLE |
			    ((uint64_t)nb_escrs[c->escr].select << NB_CCCR_ESCRSEL_SHIFT) |
			    ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT));
	}
	for (long k = 0; k < switches; k++) {
		for (long i = 0; i < chunk; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			if (x & 0x100)
				sum += x >> 7;
			else
				sum ^= x;
		}
		sched_yield();
	}
	for (unsigned i = 0; i < nc && nbsim_present(); i++) {
		v = 0;
		nbsim_rdpmc(cfgs[i].ctr, &v);
		sum += v;
	}
	total[t] = sum;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[NT];
	uint64_t s = 0;

	nc = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
	if (argc > 2)
		switches = atol(argv[2]);
	if (nc > 4 || switches < 1) {
		fprintf(stderr, "usage: threads NCOUNTERS(0-4) [SWITCHES]\n");
		return 2;
	}
	for (int t = 1; t < NT; t++)
		pthread_create(&th[t], NULL, thread, (void *)(intptr_t)t);
	thread((void *)0);
	for (int t = 1; t < NT; t++)
		pthread_join(th[t], NULL);
	for (int t = 0; t < NT; t++)
		s += total[t];
	printf("threads %llu\n", (unsigned long long)s);
	return 0;
}
