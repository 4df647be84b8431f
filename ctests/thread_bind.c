/*
 * thread_bind.c - per-thread counts of threads bound to a simulated CPU
 * before they count (nbsim --ht=yes; docs/threads.md "Placement": the
 * binding).  The main thread binds itself to CPU ARG (sched_setaffinity;
 * none without an argument) after PAPI_thread_init, then creates a
 * thread, which inherits the mask; both count PAPI_TOT_INS and
 * PAPI_BR_INS around two loops of different lengths, at the same time.
 * Each prints the CPU it runs on (sched_getcpu: the simulated LP) and its
 * counts; tests/api/t_thread_bind.t compares them with the unbound run's:
 * a thread moved by its binding before it counted programs its new LP's
 * registers (nbsim moves its home too), under fixed and migrate
 * placement alike, and counts exactly its own work there, beside the
 * other thread on the same LP.
 *
 *   thread_bind [CPU]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include "papi.h"

static volatile unsigned long sink;

static void loop(long n)
{
	unsigned long s = 0;

	for (long i = 0; i < n; i++)
		s += (unsigned long)i ^ (s >> 3);
	sink = s;
}

/* the counts of two intervals of n and 2n iterations; 0 on failure */
static int count(long n, long long v[4])
{
	int es = PAPI_NULL;

	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, "PAPI_TOT_INS") != PAPI_OK ||
	    PAPI_add_named_event(es, "PAPI_BR_INS") != PAPI_OK)
		return 0;
	if (PAPI_start(es) != PAPI_OK)
		return 0;
	loop(n);
	if (PAPI_stop(es, v) != PAPI_OK)
		return 0;
	loop(1000);
	if (PAPI_start(es) != PAPI_OK)
		return 0;
	loop(2 * n);
	if (PAPI_stop(es, v + 2) != PAPI_OK)
		return 0;
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return 1;
}

static void show(const char *who, long n)
{
	long long v[4];

	if (!count(n, v)) {
		printf("%s: PAPI failed\n", who);
		return;
	}
	printf("%s cpu=%d ins=%lld,%lld br=%lld,%lld\n", who, sched_getcpu(), v[0], v[2], v[1], v[3]);
}

static void *thread(void *arg)
{
	(void)arg;
	show("thread", 30000);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
	    PAPI_thread_init((unsigned long (*)(void))pthread_self) != PAPI_OK) {
		printf("PAPI init failed\n");
		return 1;
	}
	if (argc > 1) {
		cpu_set_t s;
		CPU_ZERO(&s);
		CPU_SET(atoi(argv[1]), &s);
		printf("bind %d\n", sched_setaffinity(0, sizeof s, &s));
	}
	if (pthread_create(&t, NULL, thread, NULL))
		return 1;
	show("main", 20000);
	pthread_join(t, NULL);
	return 0;
}
