/*
 * sim_timers.c - interval timers on the wall clock (ITIMER_REAL, alarm,
 * ualarm), run under nbsim by tests/sim/t_sim_timers.t.  Each figure is
 * printed as "name value":
 *   real_ns     a 2 ms one-shot ITIMER_REAL over a compute loop: the
 *               MONOTONIC ns from arming to the signal handler;
 *   pause_ns    a 30 ms ITIMER_REAL, then pause(): the MONOTONIC ns the
 *               wait took;
 *   sleep_armed_ns
 *               a 1 ms nanosleep while a 50 ms ITIMER_REAL runs: the
 *               MONOTONIC ns it took;
 *   to_poll_ns, to_select_ns, to_epoll_ns, to_sigwait_ns, to_abs_ns
 *               waits that run out their time: poll 5 ms, select 3 ms,
 *               epoll_wait 2 ms, sigtimedwait 1 ms, clock_nanosleep to
 *               MONOTONIC + 4 ms (TIMER_ABSTIME): the MONOTONIC ns each
 *               took;
 *   fx_cond_real_ns, fx_cond_mono_ns, fx_sem_ns, fx_mutex_ns
 *               futex waits that run out their time:
 *               pthread_cond_timedwait to REALTIME + 5 ms, the same with a
 *               CLOCK_MONOTONIC condattr, sem_timedwait to REALTIME + 5 ms,
 *               pthread_mutex_timedlock of a held mutex to REALTIME + 2 ms:
 *               a FUTEX_WAIT (relative) of 3 ms as a system call: the
 *               ns each took on its clock (fx_*_rc: what it returned, the
 *               errno for the system call);
 *   fx_signalled_rc, fx_signalled_ns, fx_signaller_ns
 *               pthread_cond_timedwait to REALTIME + 60 s for a condition
 *               another thread sets and signals first, after a loop: what
 *               it returned, the REALTIME ns it took, and the loop's
 *               REALTIME ns;
 *   deadline_waits
 *               poll() with the time left until a deadline 10 ms ahead,
 *               until the clock reaches it (as an event loop waits): how
 *               many polls it took (-1: over 1,000);
 *   ticks, ticks_wall_ns
 *               a 0.25 ms periodic ITIMER_REAL over a fixed loop: the
 *               signals and the loop's MONOTONIC ns;
 *   alarm_*     what alarm(5), alarm(3), alarm(0) return, and getitimer's
 *               ITIMER_REAL after alarm(0);
 *   ualarm_*    what ualarm(200000, 0) and ualarm(0, 0) return;
 *   child_real_us
 *               in a fork's child, getitimer(ITIMER_REAL) while the parent
 *               had one armed (POSIX: not inherited, so 0);
 *   pt_*        POSIX timers (timer_create): a 1 ms MONOTONIC one-shot
 *               with SIGUSR1 over a loop (ns to the handler, the siginfo's
 *               si_code, sigev_value and timer id), the same armed with
 *               TIMER_ABSTIME, a 20 ms REALTIME one waited for in
 *               sigsuspend, a 0.2 ms periodic PROCESS_CPUTIME_ID one over a
 *               fixed loop (ticks and CPU ns), a SIGEV_NONE
 *               THREAD_CPUTIME_ID one read by timer_gettime before and
 *               after a loop (against the thread's CPU clock), the errors
 *               of a bad value and a bad signal, and a SIGEV_THREAD one
 *               (the host's) whose function runs.
 * With the argument "wait" only: a parent forks a child that execs this
 * program as "child" (under nbsim with --trace-children=yes, its own nbsim),
 * which runs a fixed loop and prints child_loop_ns (the loop's MONOTONIC
 * ns), child_end_ns (its MONOTONIC at the end, absolute) and child_cpu_ns
 * (its CPU time); the parent prints wait_t0_ns (its MONOTONIC before the
 * fork, absolute), wait_ns (the ns from there to after waitpid),
 * wait_cutime_us (getrusage RUSAGE_CHILDREN's user time), wait_ru_us (the
 * user time wait4 returned) and wait_tms_cutime (times()' ticks).
 * With "kin" only: a parent arms a 2 ms ITIMER_REAL, forks a child that
 * execs this program as "spin" (its own nbsim), and waits in sigsuspend, as
 * timeout(1) does; at the expiry it sends the child SIGTERM and reaps it.
 * The child loops until SIGTERM (at most about 25 ms) and prints
 * kin_child_ns (its MONOTONIC as it stops, absolute); the parent prints
 * kin_t0_ns (its MONOTONIC before arming, absolute), kin_fire_ns (the ns
 * from there to its SIGALRM handler) and kin_status (the child's exit
 * status: 3 when SIGTERM stopped it).  "kinw": the same, the parent in
 * waitpid (SA_RESTART) and its handler sending the SIGTERM.
 */
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
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

static volatile long long pt_ns;
static volatile int pt_code, pt_idok;
static volatile long pt_value, pt_ticks;
static timer_t pt_id;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (!pt_ns) {
		pt_ns = mono();
		pt_code = si->si_code;
		pt_value = (long)si->si_value.sival_int;
		pt_idok = si->si_timerid == (int)(long)pt_id;
	}
}

static void on_usr2(int sig)
{
	(void)sig;
	pt_ticks++;
}

static long long cpu_ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static volatile int thread_fn_ran;
static void thread_fn(union sigval v)
{
	thread_fn_ran = v.sival_int;
}

static void work(long n);

static timer_t mk(clockid_t c, int notify, int sig, int value)
{
	struct sigevent ev;
	timer_t t;

	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = notify;
	ev.sigev_signo = sig;
	ev.sigev_value.sival_int = value;
	if (notify == SIGEV_THREAD)
		ev.sigev_notify_function = thread_fn;
	if (timer_create(c, &ev, &t)) {
		perror("timer_create");
		exit(2);
	}
	return t;
}

static void pt_arm(timer_t t, int flags, long long value_ns, long long interval_ns)
{
	struct itimerspec v = { { interval_ns / 1000000000, interval_ns % 1000000000 },
				{ value_ns / 1000000000, value_ns % 1000000000 } };

	if (timer_settime(t, flags, &v, NULL)) {
		perror("timer_settime");
		exit(2);
	}
}

static void posix_timers(void)
{
	struct sigaction sa;
	struct itimerspec cur;
	long long t0, c0, r0, r1;
	sigset_t none;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);

	pt_id = mk(CLOCK_MONOTONIC, SIGEV_SIGNAL, SIGUSR1, 42);
	t0 = mono();
	pt_arm(pt_id, 0, 1000000, 0);
	while (!pt_ns)
		work(1000);
	printf("pt_mono_ns %lld\n", pt_ns - t0);
	printf("pt_code %d\n", pt_code);
	printf("pt_value %ld\n", pt_value);
	printf("pt_id_matches %d\n", pt_idok);

	pt_ns = 0;
	t0 = mono();
	pt_arm(pt_id, TIMER_ABSTIME, t0 + 1000000, 0);
	while (!pt_ns)
		work(1000);
	printf("pt_abs_ns %lld\n", pt_ns - t0);
	timer_delete(pt_id);

	pt_id = mk(CLOCK_REALTIME, SIGEV_SIGNAL, SIGUSR1, 7);
	pt_ns = 0;
	sigemptyset(&none);
	t0 = mono();
	pt_arm(pt_id, 0, 20000000, 0);
	while (!pt_ns)
		sigsuspend(&none);
	printf("pt_wait_ns %lld\n", mono() - t0);
	timer_delete(pt_id);

	pt_id = mk(CLOCK_PROCESS_CPUTIME_ID, SIGEV_SIGNAL, SIGUSR2, 0);
	c0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	pt_arm(pt_id, 0, 200000, 200000);
	work(2000000);
	pt_arm(pt_id, 0, 0, 0);
	printf("pt_cpu_ns %lld\n", cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - c0);
	printf("pt_ticks %ld\n", pt_ticks);
	timer_delete(pt_id);

	pt_id = mk(CLOCK_THREAD_CPUTIME_ID, SIGEV_NONE, 0, 0);
	pt_arm(pt_id, 0, 1000000000, 0);
	timer_gettime(pt_id, &cur);
	r0 = cur.it_value.tv_sec * 1000000000LL + cur.it_value.tv_nsec;
	c0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	work(1000000);
	r1 = cpu_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	timer_gettime(pt_id, &cur);
	printf("pt_none_ran_ns %lld\n", r0 - (cur.it_value.tv_sec * 1000000000LL + cur.it_value.tv_nsec));
	printf("pt_thread_cpu_ns %lld\n", r1);
	{
		struct itimerspec bad = { { 0, 0 }, { 0, 2000000000 } };

		errno = 0;
		printf("pt_bad_value %d\n", timer_settime(pt_id, 0, &bad, NULL) == -1 ? errno : 0);
	}
	timer_delete(pt_id);
	{
		struct sigevent ev;
		timer_t t;

		memset(&ev, 0, sizeof ev);
		ev.sigev_notify = SIGEV_SIGNAL;
		ev.sigev_signo = 0;
		errno = 0;
		printf("pt_bad_signal %d\n", timer_create(CLOCK_MONOTONIC, &ev, &t) == -1 ? errno : 0);
	}

	pt_id = mk(CLOCK_MONOTONIC, SIGEV_THREAD, 0, 5);
	pt_arm(pt_id, 0, 1000000, 0);
	for (int i = 0; i < 2000 && !thread_fn_ran; i++) {
		struct timespec ms = { 0, 1000000 };

		nanosleep(&ms, NULL);
	}
	printf("pt_thread_fn %d\n", thread_fn_ran);
	timer_delete(pt_id);
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

/* a parent's wall clock while it waits for a child (the child's nbsim
 * tells the parent's its end) */
static int wait_child(const char *self)
{
	struct rusage ru, kids;
	struct tms tm;
	long long t0 = mono();
	pid_t p;
	int st;

	fflush(stdout);
	p = fork();
	if (p == 0) {
		execl(self, self, "child", (char *)NULL);
		perror("execl");
		_exit(2);
	}
	if (p < 0 || wait4(p, &st, 0, &ru) != p || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "the child failed\n");
		return 2;
	}
	printf("wait_ns %lld\n", mono() - t0);
	printf("wait_t0_ns %lld\n", t0);
	getrusage(RUSAGE_CHILDREN, &kids);
	printf("wait_cutime_us %lld\n", (long long)kids.ru_utime.tv_sec * 1000000 + kids.ru_utime.tv_usec);
	printf("wait_ru_us %lld\n", (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec);
	times(&tm);
	printf("wait_tms_cutime %lld\n", (long long)tm.tms_cutime);
	printf("clk_tck %ld\n", sysconf(_SC_CLK_TCK));
	return 0;
}

/* a parent's timer while its child works (nb_simkin.c) */
static volatile sig_atomic_t kin_term, kin_chld;
static volatile pid_t kin_pid;

static void on_alarm_kill(int sig)
{
	on_alarm(sig);
	if (kin_pid > 0)
		kill(kin_pid, SIGTERM);
}

static void on_term(int sig)
{
	(void)sig;
	kin_term = 1;
}

static void on_chld(int sig)
{
	(void)sig;
	kin_chld = 1;
}

static int kin_spin(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	for (int i = 0; i < 300 && !kin_term; i++)
		work(20000);
	printf("kin_child_ns %lld\n", mono());
	return kin_term ? 3 : 0;
}

static int kin_parent(const char *self, int in_waitpid)
{
	struct sigaction sa;
	sigset_t block, wait_mask;
	long long t0;
	pid_t p;
	int st;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = in_waitpid ? on_alarm_kill : on_alarm;
	sa.sa_flags = in_waitpid ? SA_RESTART : 0;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_chld;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	fflush(stdout);
	fired_ns = 0;
	t0 = mono();
	arm(2000, 0);
	p = fork();
	if (p == 0) {
		sigprocmask(SIG_SETMASK, &wait_mask, NULL);
		execl(self, self, "spin", (char *)NULL);
		perror("execl");
		_exit(2);
	}
	if (p < 0)
		return 2;
	kin_pid = p;
	if (in_waitpid) {
		sigprocmask(SIG_SETMASK, &wait_mask, NULL);
	} else {
		while (!fired_ns && !kin_chld)
			sigsuspend(&wait_mask);
		kill(p, SIGTERM);
	}
	if (waitpid(p, &st, 0) != p)
		return 2;
	printf("kin_t0_ns %lld\n", t0);
	printf("kin_fire_ns %lld\n", fired_ns ? fired_ns - t0 : -1);
	printf("kin_status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st));
	return 0;
}

/* what sysinfo(2) and sysconf say of the machine's memory and load:
 * figures a program sizes its work by (nb_sysinfo.c) */
static void machine(void)
{
	struct sysinfo si;

	if (sysinfo(&si))
		return;
	printf("si_totalram %lu\n", si.totalram);
	printf("si_freeram %lu\n", si.freeram);
	printf("si_totalswap %lu\n", si.totalswap);
	printf("si_freeswap %lu\n", si.freeswap);
	printf("si_bufferram %lu\n", si.bufferram);
	printf("si_loads %lu,%lu,%lu\n", si.loads[0], si.loads[1], si.loads[2]);
	printf("si_mem_unit %u\n", si.mem_unit);
	printf("si_uptime %ld\n", si.uptime);
	printf("avphys_pages %ld\n", sysconf(_SC_AVPHYS_PAGES));
	printf("page_size %ld\n", sysconf(_SC_PAGESIZE));
	printf("boottime_s %lld\n", (long long)cpu_ns(CLOCK_BOOTTIME) / 1000000000);
}

static long long clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct timespec ns_ts(long long ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	return ts;
}

static pthread_mutex_t fx_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fx_cond = PTHREAD_COND_INITIALIZER;
static int fx_flag;
static long long fx_loop_ns;

static void *fx_signaller(void *arg)
{
	long long t0 = clock_ns(CLOCK_REALTIME);

	(void)arg;
	work(100000);
	fx_loop_ns = clock_ns(CLOCK_REALTIME) - t0;
	pthread_mutex_lock(&fx_lock);
	fx_flag = 1;
	pthread_cond_signal(&fx_cond);
	pthread_mutex_unlock(&fx_lock);
	return NULL;
}

/* a timed wait on CLOCK for NS that nothing ends: "fx_NAME_rc" and
 * "fx_NAME_ns", the ns it took on CLOCK */
static void fx_cond_wait(const char *name, clockid_t clock, long long ns)
{
	pthread_condattr_t ca;
	pthread_cond_t cv;
	struct timespec dl;
	long long t0;
	int rc;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, clock);
	pthread_cond_init(&cv, &ca);
	pthread_mutex_lock(&fx_lock);
	t0 = clock_ns(clock);
	dl = ns_ts(t0 + ns);
	do
		rc = pthread_cond_timedwait(&cv, &fx_lock, &dl);
	while (rc == 0);        /* (a spurious wake-up) */
	printf("fx_%s_ns %lld\nfx_%s_rc %d\n", name, clock_ns(clock) - t0, name, rc);
	pthread_mutex_unlock(&fx_lock);
	pthread_cond_destroy(&cv);
}

/* futex waits with a timeout: glibc's condition variables, semaphores and
 * mutexes wait with an absolute deadline (FUTEX_WAIT_BITSET) */
static void futex_waits(void)
{
	pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
	struct timespec dl;
	long long t0;
	sem_t sem;
	int rc, word = 0;
	struct timespec rel = { 0, 3000000 };

	fx_cond_wait("cond_real", CLOCK_REALTIME, 5000000);
	fx_cond_wait("cond_mono", CLOCK_MONOTONIC, 5000000);

	sem_init(&sem, 0, 0);
	t0 = clock_ns(CLOCK_REALTIME);
	dl = ns_ts(t0 + 5000000);
	while ((rc = sem_timedwait(&sem, &dl) ? errno : 0) == EINTR)
		;
	printf("fx_sem_ns %lld\nfx_sem_rc %d\n", clock_ns(CLOCK_REALTIME) - t0, rc);
	sem_destroy(&sem);

	pthread_mutex_lock(&held);
	t0 = clock_ns(CLOCK_REALTIME);
	dl = ns_ts(t0 + 2000000);
	rc = pthread_mutex_timedlock(&held, &dl);
	printf("fx_mutex_ns %lld\nfx_mutex_rc %d\n", clock_ns(CLOCK_REALTIME) - t0, rc);
	pthread_mutex_unlock(&held);

	t0 = clock_ns(CLOCK_MONOTONIC);
	rc = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &rel, NULL, 0) ? errno : 0;
	printf("fx_rel_ns %lld\nfx_rel_rc %d\n", clock_ns(CLOCK_MONOTONIC) - t0, rc);
}

/* a timed wait signalled by another thread before its deadline */
static void futex_signalled(void)
{
	pthread_t th;
	struct timespec dl;
	long long t0;
	int rc;

	/* signalled before its deadline: the signaller can take the mutex
	 * only once the waiter is in its wait */
	pthread_mutex_lock(&fx_lock);
	fx_flag = 0;
	pthread_create(&th, NULL, fx_signaller, NULL);
	t0 = clock_ns(CLOCK_REALTIME);
	dl = ns_ts(t0 + 60000000000LL);
	rc = 0;
	while (!fx_flag && rc == 0)
		rc = pthread_cond_timedwait(&fx_cond, &fx_lock, &dl);
	printf("fx_signalled_ns %lld\n", clock_ns(CLOCK_REALTIME) - t0);
	pthread_mutex_unlock(&fx_lock);
	pthread_join(th, NULL);
	printf("fx_signalled_rc %d\nfx_signaller_ns %lld\n", rc, fx_loop_ns);
}

/* waits that run out their time, and an event loop's wait for a deadline */
static void timeouts(void)
{
	long long t0, deadline;
	struct timeval tv = { 0, 3000 };
	struct timespec ts = { 0, 1000000 }, abs_ts;
	sigset_t set;
	int ep = epoll_create1(0), n;
	struct epoll_event ev;

	t0 = mono();
	poll(NULL, 0, 5);
	printf("to_poll_ns %lld\n", mono() - t0);
	t0 = mono();
	select(0, NULL, NULL, NULL, &tv);
	printf("to_select_ns %lld\n", mono() - t0);
	t0 = mono();
	epoll_wait(ep, &ev, 1, 2);
	printf("to_epoll_ns %lld\n", mono() - t0);
	close(ep);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	t0 = mono();
	sigtimedwait(&set, NULL, &ts);
	printf("to_sigwait_ns %lld\n", mono() - t0);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	t0 = mono();
	abs_ts.tv_sec = (t0 + 4000000) / 1000000000;
	abs_ts.tv_nsec = (t0 + 4000000) % 1000000000;
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &abs_ts, NULL);
	printf("to_abs_ns %lld\n", mono() - t0);

	deadline = mono() + 10000000;
	for (n = 0; n < 1000; n++) {
		long long left = deadline - mono();

		if (left <= 0)
			break;
		poll(NULL, 0, (int)((left + 999999) / 1000000));
	}
	printf("deadline_waits %d\n", n < 1000 ? n : -1);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct itimerval cur;
	long long t0;

	if (argc > 1 && !strcmp(argv[1], "child")) {
		t0 = mono();
		work(2000000);
		printf("child_loop_ns %lld\n", mono() - t0);
		printf("child_cpu_ns %lld\n", cpu_ns(CLOCK_PROCESS_CPUTIME_ID));
		printf("child_end_ns %lld\n", mono());
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "wait"))
		return wait_child(argv[0]);
	if (argc > 1 && !strcmp(argv[1], "spin"))
		return kin_spin();
	if (argc > 1 && !strcmp(argv[1], "kin"))
		return kin_parent(argv[0], 0);
	if (argc > 1 && !strcmp(argv[1], "kinw"))
		return kin_parent(argv[0], 1);

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

	/* a 1 ms sleep while a 50 ms timer runs: the sleep's own time */
	t0 = mono();
	arm(50000, 0);
	{
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	printf("sleep_armed_ns %lld\n", mono() - t0);
	arm(0, 0);

	timeouts();
	futex_waits();

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
	posix_timers();
	machine();
	futex_signalled();      /* (last: its thread starts the lockstep) */
	return 0;
}
