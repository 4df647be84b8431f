/*
 * sim_timers.c - interval timers on the wall clock (ITIMER_REAL, alarm,
 * ualarm), run under nbsim by tests/t_sim_timers.t.  Each figure is
 * printed as "name value":
 *   real_ns     a 2 ms one-shot ITIMER_REAL over a compute loop: the
 *               MONOTONIC ns from arming to the signal handler;
 *   pause_ns    a 30 ms ITIMER_REAL, then pause(): the MONOTONIC ns the
 *               wait took;
 *   ticks, ticks_wall_ns
 *               a 0.25 ms periodic ITIMER_REAL over a fixed loop: the
 *               signals and the loop's MONOTONIC ns;
 *   alarm_*     what alarm(5), alarm(3), alarm(0) return, and getitimer's
 *               ITIMER_REAL after alarm(0);
 *   ualarm_*    what ualarm(200000, 0) and ualarm(0, 0) return;
 *   child_real_us
 *               in a fork's child, getitimer(ITIMER_REAL) while the parent
 *               had one armed (POSIX: not inherited, so 0).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;
static volatile long ticks;
static volatile long long fired_ns;

static long long mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void on_alarm(int sig)
{
	(void)sig;
	if (!fired_ns)
		fired_ns = mono();
	ticks++;
}

static void work(long n)
{
	double a = 1.0;

	for (long i = 0; i < n; i++)
		a = a * 1.0000001 + 0.5;
	sink = a;
}

static void arm(long value_us, long interval_us)
{
	struct itimerval it = { { interval_us / 1000000, interval_us % 1000000 },
				{ value_us / 1000000, value_us % 1000000 } };

	if (setitimer(ITIMER_REAL, &it, NULL)) {
		perror("setitimer");
		exit(2);
	}
}

int main(void)
{
	struct sigaction sa;
	struct itimerval cur;
	long long t0;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);

	/* a one-shot timer over a loop that runs until it fires */
	fired_ns = 0;
	t0 = mono();
	arm(2000, 0);
	while (!fired_ns)
		work(1000);
	printf("real_ns %lld\n", fired_ns - t0);

	/* a wait: nothing runs to advance the simulated clock */
	fired_ns = 0;
	t0 = mono();
	arm(30000, 0);
	while (!fired_ns)
		pause();
	printf("pause_ns %lld\n", mono() - t0);

	/* a periodic timer over a fixed loop */
	ticks = 0;
	t0 = mono();
	arm(250, 250);
	work(2000000);
	arm(0, 0);
	printf("ticks_wall_ns %lld\n", mono() - t0);
	printf("ticks %ld\n", ticks);

	/* alarm's and ualarm's bookkeeping (none of them fires here) */
	printf("alarm_first %u\n", alarm(5));
	printf("alarm_second %u\n", alarm(3));
	printf("alarm_cancel %u\n", alarm(0));
	getitimer(ITIMER_REAL, &cur);
	printf("alarm_after_cancel_us %ld\n", (long)(cur.it_value.tv_sec * 1000000 + cur.it_value.tv_usec));
	printf("ualarm_first %lu\n", (unsigned long)ualarm(200000, 0));
	printf("ualarm_cancel %lu\n", (unsigned long)ualarm(0, 0));

	/* a fork's child inherits no interval timer */
	arm(5000000, 0);
	fflush(stdout);
	{
		pid_t p = fork();
		int st;

		if (p == 0) {
			getitimer(ITIMER_REAL, &cur);
			printf("child_real_us %ld\n",
			       (long)(cur.it_value.tv_sec * 1000000 + cur.it_value.tv_usec));
			fflush(stdout);
			_exit(0);
		}
		waitpid(p, &st, 0);
	}
	arm(0, 0);
	return 0;
}
