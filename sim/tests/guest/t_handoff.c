/*
 * t_handoff.c - what a process started under the lockstep's hand-offs
 * inherits of the host's placement (tests/sim/t_sim_handoff.t; nbsim's
 * sim/tool/nb_lshand.c).  Two threads released by a barrier work long
 * enough for many lockstep turns under --ht=yes; while the worker still
 * works, the main thread forks a child that prints the host CPUs it may
 * run on (/proc/self/status Cpus_allowed_list, the host kernel's own
 * line, which nbsim does not emulate), and one that execs `grep` to
 * print them.  The hand-offs pin the next thread to the waker's host
 * CPU; a fork or an exec must not hand that one CPU on.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_barrier_t start;
static volatile int stop;
static volatile double sink;

static void *worker(void *arg)
{
	double s = 0;

	(void)arg;
	pthread_barrier_wait(&start);
	for (long i = 0; !stop; i++)
		s += (double)(i & 1023) * 0.5;
	sink = s;
	return NULL;
}

static void print_allowed(const char *who)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "Cpus_allowed_list:", 18))
			printf("%s %s", who, line);
	if (f)
		fclose(f);
	fflush(stdout);
}

int main(void)
{
	pthread_t t;
	double s = 0;
	pid_t p;
	int st;

	pthread_barrier_init(&start, NULL, 2);
	if (pthread_create(&t, NULL, worker, NULL))
		return 2;
	pthread_barrier_wait(&start);
	for (long i = 0; i < 1000000; i++)
		s += (double)(i & 511) * 0.25;
	sink = s;
	fflush(stdout);
	p = fork();
	if (p == 0) {
		print_allowed("fork");
		_exit(0);
	}
	waitpid(p, &st, 0);
	p = fork();
	if (p == 0) {
		execl("/bin/grep", "grep", "Cpus_allowed_list", "/proc/self/status", (char *)NULL);
		_exit(127);
	}
	waitpid(p, &st, 0);
	stop = 1;
	pthread_join(t, NULL);
	return 0;
}
