/*
 * sim_time.c - a program that times itself (run under nbsim by
 * tests/sim/t_sim_time.t): one loop timed at once by RDTSC, clock_gettime
 * (MONOTONIC, REALTIME, THREAD_CPUTIME_ID, PROCESS_CPUTIME_ID),
 * gettimeofday, clock(), getrusage, PAPI's timers and PAPI_TOT_CYC, each
 * printed in cycles at the part's clock (PAPI's cpu_max_mhz); the loop
 * again under a 1 ms ITIMER_PROF (its ticks); a 10 ms sleep; then a
 * STREAM-style triad timed by clock_gettime, printed as bytes per second
 * and its simulated seconds.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/time.h>
#include <time.h>
#include <x86intrin.h>
#include "papi.h"

static volatile double sink;
static volatile long ticks;

static void tick(int sig)
{
	(void)sig;
	ticks++;
}

static void work(long n)
{
	double a = 1.0;

	for (long i = 0; i < n; i++)
		a = a * 1.0000001 + 0.5;
	sink = a;
}

/* ns as an integer: REALTIME's 1.8e18 ns do not fit a double's 53 bits */
static long long ts(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* clock_gettime as a system call, not through the vDSO */
static long long raw(clockid_t id)
{
	struct timespec t;

	syscall(SYS_clock_gettime, id, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long tv_ns(const struct timeval *t)
{
	return t->tv_sec * 1000000000LL + t->tv_usec * 1000LL;
}

static long long ru_ns(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return tv_ns(&r.ru_utime);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, len = argc > 2 ? atol(argv[2]) : 1 << 20;
	int es = PAPI_NULL;
	long long cyc;
	const PAPI_hw_info_t *hw;
	struct timeval g0, g1;

	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT || PAPI_create_eventset(&es) ||
	    PAPI_add_event(es, PAPI_TOT_CYC) || !(hw = PAPI_get_hardware_info()))
		return 2;
	const double ghz = hw->cpu_max_mhz / 1e3;       /* cycles per ns */
	work(1000);
	PAPI_start(es);
	unsigned long long t0 = __rdtsc();
	long long m0 = ts(CLOCK_MONOTONIC), r0 = ts(CLOCK_REALTIME), th0 = ts(CLOCK_THREAD_CPUTIME_ID);
	long long p0 = ts(CLOCK_PROCESS_CPUTIME_ID), u0 = ru_ns(), w0 = raw(CLOCK_MONOTONIC);
	clock_t k0 = clock();
	gettimeofday(&g0, 0);
	long long pc0 = PAPI_get_real_cyc(), pn0 = PAPI_get_real_nsec(), pv0 = PAPI_get_virt_usec();
	work(n);
	long long pc1 = PAPI_get_real_cyc(), pn1 = PAPI_get_real_nsec(), pv1 = PAPI_get_virt_usec();
	gettimeofday(&g1, 0);
	clock_t k1 = clock();
	long long w1 = raw(CLOCK_MONOTONIC), u1 = ru_ns(), p1 = ts(CLOCK_PROCESS_CPUTIME_ID), th1 = ts(CLOCK_THREAD_CPUTIME_ID);
	long long r1 = ts(CLOCK_REALTIME), m1 = ts(CLOCK_MONOTONIC);
	unsigned long long t1 = __rdtsc();
	PAPI_stop(es, &cyc);

	printf("mhz %d\n", hw->cpu_max_mhz);
	/* where in its second each clock read at the loop's start: the
	 * simulated cycles' alone (nb_simtime.c starts each clock at a whole
	 * second), the same every run */
	printf("phase_mono_ns %lld\n", m0 % 1000000000);
	printf("phase_real_ns %lld\n", r0 % 1000000000);
	printf("phase_tsc %llu\n", t0 % 1000000);
	printf("PAPI_TOT_CYC %lld\n", cyc);
	printf("rdtsc %llu\n", t1 - t0);
	printf("monotonic %.0f\n", (m1 - m0) * ghz);
	printf("realtime %.0f\n", (r1 - r0) * ghz);
	printf("thread_cputime %.0f\n", (th1 - th0) * ghz);
	printf("process_cputime %.0f\n", (p1 - p0) * ghz);
	printf("gettimeofday %.0f\n", (tv_ns(&g1) - tv_ns(&g0)) * ghz);
	printf("clock %.0f\n", (double)(k1 - k0) / CLOCKS_PER_SEC * 1e9 * ghz);
	printf("getrusage %.0f\n", (u1 - u0) * ghz);
	printf("syscall_monotonic %.0f\n", (w1 - w0) * ghz);
	printf("PAPI_get_real_cyc %lld\n", pc1 - pc0);
	printf("PAPI_get_real_nsec %.0f\n", (pn1 - pn0) * ghz);
	printf("PAPI_get_virt_usec %.0f\n", (pv1 - pv0) * 1e3 * ghz);

	/* a 1 ms ITIMER_PROF over the loop again: one tick per ms of CPU */
	{
		struct itimerval it = { { 0, 1000 }, { 0, 1000 } }, off = { { 0, 0 }, { 0, 0 } };
		long long c0 = ts(CLOCK_PROCESS_CPUTIME_ID);

		signal(SIGPROF, tick);
		setitimer(ITIMER_PROF, &it, 0);
		work(n);
		setitimer(ITIMER_PROF, &off, 0);
		printf("itimer_ticks %ld\n", ticks);
		printf("itimer_cpu_ns %lld\n", ts(CLOCK_PROCESS_CPUTIME_ID) - c0);
	}

	/* a sleep of 10 ms passes on the wall clock */
	{
		struct timespec d = { 0, 10000000 };
		long long z0 = ts(CLOCK_MONOTONIC);

		nanosleep(&d, 0);
		printf("sleep_ns %lld\n", ts(CLOCK_MONOTONIC) - z0);
	}

	/* the triad: three arrays larger than the L2, bandwidth as STREAM counts it */
	double *a = malloc(len * sizeof *a), *b = malloc(len * sizeof *b), *c = malloc(len * sizeof *c);
	if (!a || !b || !c)
		return 3;
	for (long i = 0; i < len; i++) {
		b[i] = i;
		c[i] = 2.0 * i;
	}
	long long s0 = ts(CLOCK_MONOTONIC);
	for (long i = 0; i < len; i++)
		a[i] = b[i] + 3.0 * c[i];
	long long s1 = ts(CLOCK_MONOTONIC);
	sink = a[len / 2];
	printf("triad_seconds %.9f\n", (s1 - s0) / 1e9);
	printf("triad_bytes_per_second %.0f\n", 3.0 * sizeof(double) * len / ((s1 - s0) / 1e9));
	return 0;
}
