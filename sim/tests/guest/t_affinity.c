/*
 * t_affinity.c - a guest that binds its threads to the simulated CPUs
 * (sched_setaffinity, pthread_setaffinity_np, a thread attribute's
 * affinity) and prints what it reads back; run by tests/sim/
 * t_sim_affinity.t under nbsim (sim/kernel/nb_affinity.c, docs/
 * threads.md "Placement").  Each line: "WHO rc=R errno=E mask=M lp=L
 * apic=A": the call's result and errno, the mask sched_getaffinity gives
 * (CPUs 0-7 as bits), the LP nbsim runs the thread on (NBSIM_REQ_INFO's
 * running_lp) and CPUID leaf 1's initial APIC ID (the LP too).
 *
 *   t_affinity show -       report the main thread as it starts (after
 *                           `taskset -c 1`'s exec: bound by the image
 *                           before)
 *   t_affinity bind CPUS    bind the main thread to CPUS ("1", "0", "01"),
 *                           then print "host=LIST": the host CPUs its host
 *                           thread may run on (host_cpus)
 *   t_affinity child CPUS   bind, then create a thread (inherits the mask)
 *   t_affinity attr CPUS    a thread created with the attribute's affinity
 *   t_affinity other CPUS   bind another, waiting, thread by its id
 *   t_affinity work CPUS N  bind, create a thread, both run N iterations
 *                           (the counts of the determinism check)
 *   t_affinity race CPUS    4 threads bind themselves 300 times each
 *                           through one shared mask, at once: "race
 *                           bad=0" unless a call failed, the shared mask
 *                           changed, or a thread's host CPUs did
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cpuid.h>
#include "nbsim_client.h"

static cpu_set_t want;
static long iters;
static pthread_barrier_t bar;

static void report(const char *who, int rc, int err)
{
	cpu_set_t got;
	struct nbsim_info in;
	unsigned a, b, c, d, m = 0;

	CPU_ZERO(&got);
	if (sched_getaffinity(0, sizeof got, &got) == 0)
		for (int i = 0; i < 8; i++)
			m |= CPU_ISSET(i, &got) ? 1u << i : 0;
	memset(&in, 0, sizeof in);
	if (nbsim_info(&in) != NBSIM_OK)
		in.running_lp = 99;
	__cpuid(1, a, b, c, d);
	printf("%s rc=%d errno=%s mask=%#x lp=%u apic=%u\n", who, rc,
	       err == EINVAL ? "EINVAL" : err ? strerror(err) : "0", m, in.running_lp, b >> 24);
	fflush(stdout);
}

static volatile unsigned long sink;

static void work(void)
{
	unsigned long s = 0;

	for (long i = 0; i < iters; i++)
		s += (unsigned long)i * 7 ^ (s >> 3);
	sink = s;
}

/* the host CPUs the calling thread may run on (/proc/thread-self/status,
 * which nbsim leaves as the host has it) */
static void host_cpus(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/thread-self/status", "r");

	snprintf(buf, len, "unknown\n");
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "Cpus_allowed_list:", 18))
			snprintf(buf, len, "%s", line + 18 + strspn(line + 18, " \t"));
	if (f)
		fclose(f);
}

static char host0[256];
static int bad;

static void *racer(void *arg)
{
	char h[256];

	(void)arg;
	for (int i = 0; i < 300; i++) {
		cpu_set_t copy = want;
		if (sched_setaffinity(0, sizeof want, &want))
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
		if (!CPU_EQUAL(&copy, &want))
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
	}
	host_cpus(h, sizeof h);
	if (strcmp(h, host0))
		__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void *child(void *arg)
{
	(void)arg;
	report("child", 0, 0);
	work();
	return NULL;
}

/* waits until the main thread has bound it, then reports */
static void *waiter(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	report("other", 0, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	pthread_attr_t at;
	int rc, err;

	if (argc < 3) {
		fprintf(stderr, "usage: t_affinity bind|child|attr|other|work CPUS [N]\n");
		return 2;
	}
	CPU_ZERO(&want);
	for (const char *p = argv[2]; *p >= '0' && *p <= '9'; p++)
		CPU_SET(*p - '0', &want);
	iters = argc > 3 ? atol(argv[3]) : 0;
	if (!strcmp(argv[1], "show")) {
		report("main", 0, 0);
		return 0;
	}
	if (!strcmp(argv[1], "attr")) {
		pthread_attr_init(&at);
		rc = pthread_attr_setaffinity_np(&at, sizeof want, &want);
		if (rc || pthread_create(&t, &at, child, NULL))
			return 1;
		pthread_join(t, NULL);
		report("main", 0, 0);
		return 0;
	}
	if (!strcmp(argv[1], "race")) {
		pthread_t r[4];
		host_cpus(host0, sizeof host0);
		for (int i = 0; i < 4; i++)
			if (pthread_create(&r[i], NULL, racer, NULL))
				return 1;
		for (int i = 0; i < 4; i++)
			pthread_join(r[i], NULL);
		printf("race bad=%d\n", bad);
		return 0;
	}
	if (!strcmp(argv[1], "other")) {
		pthread_barrier_init(&bar, NULL, 2);
		if (pthread_create(&t, NULL, waiter, NULL))
			return 1;
		pthread_barrier_wait(&bar);
		rc = pthread_setaffinity_np(t, sizeof want, &want);
		printf("setaffinity(other) rc=%d\n", rc);
		pthread_barrier_wait(&bar);
		pthread_join(t, NULL);
		report("main", 0, 0);
		return 0;
	}
	errno = 0;
	rc = sched_setaffinity(0, sizeof want, &want);
	err = rc ? errno : 0;
	/* the caller's buffer comes back as it wrote it */
	{
		cpu_set_t same;
		CPU_ZERO(&same);
		for (const char *p = argv[2]; *p; p++)
			CPU_SET(*p - '0', &same);
		if (!CPU_EQUAL(&same, &want))
			printf("the mask buffer changed\n");
	}
	report("main", rc, err);
	if (!strcmp(argv[1], "bind")) {
		char h[256];
		host_cpus(h, sizeof h);
		printf("host=%s", h);
	}
	if (!strcmp(argv[1], "child") || !strcmp(argv[1], "work")) {
		if (pthread_create(&t, NULL, child, NULL))
			return 1;
		work();
		pthread_join(t, NULL);
	}
	return 0;
}
