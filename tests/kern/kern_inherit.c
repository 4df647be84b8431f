/*
 * kern_inherit.c - attr.inherit in nbsim's emulated perf driver against
 * Linux's semantics (run under nbsim; tests/kern/t_kern_inherit.t).
 * kernel/events/core.c as facts: a thread or process created after the
 * event opens gets its own copy of it (inherit_event: count from 0, the
 * original's enabled state); read(2) of the original gives its own count
 * plus its live copies' plus the exited copies' (perf_event_read_value,
 * sync_child_event); PERF_EVENT_IOC_RESET zeroes the live events, not
 * what exited copies left (child_count); inherit_thread: threads only.
 *
 * Exact by the difference method: a loop of N iterations is 2N
 * instructions, and every other instruction counted is the same in runs
 * of N1 and N2.  Threads: the event belongs to a thread W that creates C
 * and then blocks in read(2); the main thread, which no event counts,
 * reads W's event once W and C are blocked in their read(2) (seen in
 * /proc/self/task/TID/syscall: under valgrind a thread woken from a
 * syscall may wait for the CPU before its next instruction), joins C and
 * reads again (so pthread_join's variable wait is not counted).  A warm-up run first: glibc's thread-stack cache then gives
 * every run the same path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "nbtap.h"

#define RAW(ev, mask) ((uint64_t)(((uint32_t)(ev) << 25) | ((uint32_t)(mask) << 9)) << 32)
#define K_INSTR_RETIRED 38       /* masks NBOGUSNTAG 0, NBOGUSTAG 1 */
#define N1 20000L
#define N2 50000L

/* 2N instructions */
static void __attribute__((noinline)) loop(long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

static int open_ev(int inherit, int inherit_thread, int disabled)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	a.config = RAW(K_INSTR_RETIRED, 3);
	a.disabled = disabled;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.inherit = inherit;
	a.inherit_thread = inherit_thread;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

struct rv {
	uint64_t v, en, run;
};

static struct rv rd(int fd)
{
	struct rv r = { ~0ull, 0, 0 };

	if (read(fd, &r, sizeof(r)) != sizeof(r))
		r.v = ~0ull;
	return r;
}

/* ---- threads ---- */

struct trun {
	int inherit, inherit_thread, disabled;
	long n;
	int fd;
	pthread_t c;
	int go[2], ready[2], cdone[2], cgo[2];
	volatile pid_t wtid, ctid;
	uint64_t live, exited, reset;
};

static void *child(void *p)
{
	struct trun *t = p;
	char b;

	t->ctid = (pid_t)syscall(SYS_gettid);
	loop(t->n);
	/* alive and blocked while the main thread reads: the live copy */
	if (write(t->cdone[1], "c", 1) != 1 || read(t->cgo[0], &b, 1) != 1)
		abort();
	return NULL;
}

static void *worker(void *p)
{
	struct trun *t = p;
	char b;

	t->wtid = (pid_t)syscall(SYS_gettid);
	t->fd = open_ev(t->inherit, t->inherit_thread, t->disabled);
	if (t->fd < 0 || pthread_create(&t->c, NULL, child, t))
		abort();
	if (write(t->ready[1], "w", 1) != 1 || read(t->go[0], &b, 1) != 1)
		abort();
	return NULL;
}

/* Wait until thread TID is blocked in read(2) of FD. */
static void wait_blocked(pid_t tid, int fd)
{
	char path[64], want[32], buf[128];

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	snprintf(want, sizeof(want), "0 0x%x ", fd);
	for (int i = 0; i < 20000; i++) {
		FILE *f = fopen(path, "r");
		int ok = f && fgets(buf, sizeof(buf), f) && !strncmp(buf, want, strlen(want));

		if (f)
			fclose(f);
		if (ok)
			return;
		usleep(500);
	}
	tap_bail("thread %d never blocked in read(%d)", (int)tid, fd);
}

static void thread_run(struct trun *t)
{
	pthread_t w;
	char b;

	if (pipe(t->go) || pipe(t->ready) || pipe(t->cdone) || pipe(t->cgo))
		tap_bail("pipe");
	if (pthread_create(&w, NULL, worker, t))
		tap_bail("pthread_create");
	if (read(t->ready[0], &b, 1) != 1 || read(t->cdone[0], &b, 1) != 1)
		tap_bail("read");
	wait_blocked(t->wtid, t->go[0]);
	wait_blocked(t->ctid, t->cgo[0]);
	t->live = rd(t->fd).v;               /* W blocked, C blocked */
	if (write(t->cgo[1], "g", 1) != 1 || pthread_join(t->c, NULL))
		tap_bail("join");
	t->exited = rd(t->fd).v;             /* C exited */
	ioctl(t->fd, PERF_EVENT_IOC_RESET, 0);
	t->reset = rd(t->fd).v;
	if (write(t->go[1], "g", 1) != 1 || pthread_join(w, NULL))
		tap_bail("join");
	close(t->fd);
	close(t->go[0]); close(t->go[1]); close(t->ready[0]); close(t->ready[1]);
	close(t->cdone[0]); close(t->cdone[1]); close(t->cgo[0]); close(t->cgo[1]);
}

static void threads(int inherit, int inherit_thread, int disabled, struct trun *a, struct trun *b)
{
	struct trun w;

	memset(&w, 0, sizeof(w));
	w.inherit = inherit;
	w.inherit_thread = inherit_thread;
	w.disabled = disabled;
	w.n = N1;
	*a = w;
	*b = w;
	b->n = N2;
	thread_run(&w);                       /* warm-up */
	thread_run(a);
	thread_run(b);
}

/* ---- processes ---- */

/* The count of an event opened before a fork whose child loops N times
 * (and, with GRAND, forks a grandchild that loops N times). */
static uint64_t fork_run(int inherit, int inherit_thread, long n, int grand)
{
	int fd = open_ev(inherit, inherit_thread, 0), st;
	pid_t p;
	uint64_t v;

	if (fd < 0)
		tap_bail("perf_event_open: %s", strerror(errno));
	p = fork();
	if (p < 0)
		tap_bail("fork");
	if (p == 0) {
		if (grand) {
			pid_t g = fork();

			if (g == 0) {
				loop(n);
				_exit(0);
			}
			waitpid(g, &st, 0);
		} else {
			loop(n);
		}
		_exit(0);
	}
	waitpid(p, &st, 0);
	v = rd(fd).v;
	close(fd);
	return v;
}

int main(void)
{
	struct trun a, b;
	uint64_t f1, f2;
	int fd;

	fd = open_ev(1, 0, 0);
	if (fd < 0)
		tap_bail("perf_event_open with inherit: %s (run under nbsim with the emulated kernel)",
			 strerror(errno));
	close(fd);

	/* threads, inherit */
	threads(1, 0, 0, &a, &b);
	tap_is(b.live - a.live, 2 * (N2 - N1), "inherit, a live thread's copy: read includes its "
	       "count (%llu, %llu)", (unsigned long long)a.live, (unsigned long long)b.live);
	tap_is(b.exited - a.exited, 2 * (N2 - N1), "inherit, an exited thread's copy: its count is "
	       "summed into the event (%llu, %llu)", (unsigned long long)a.exited,
	       (unsigned long long)b.exited);
	tap_ok(a.exited > a.live, "the copy counts its thread's exit path (%llu > %llu)",
	       (unsigned long long)a.exited, (unsigned long long)a.live);
	{
		struct trun c, d;

		/* without inherit the same runs count W only */
		threads(0, 0, 0, &c, &d);
		tap_is(d.exited - c.exited, 0, "no inherit: the thread's loop is not counted "
		       "(%llu, %llu)", (unsigned long long)c.exited, (unsigned long long)d.exited);
		tap_is(a.exited - a.reset, c.exited, "PERF_EVENT_IOC_RESET zeroes the event's own "
		       "count, not its exited copies' (exited %llu - after reset %llu = own %llu)",
		       (unsigned long long)a.exited, (unsigned long long)a.reset,
		       (unsigned long long)c.exited);
		threads(1, 1, 0, &c, &d);
		tap_is(d.exited - c.exited, 2 * (N2 - N1), "inherit_thread: threads inherit");
		threads(1, 0, 1, &c, &d);
		tap_is(d.exited, 0, "a copy of a disabled event is disabled: nothing counted");
	}

	/* processes (a warm-up first: the dynamic linker binds fork, waitpid
	 * and _exit at their first calls) */
	(void)fork_run(1, 0, N1, 1);
	f1 = fork_run(1, 0, N1, 0);
	f2 = fork_run(1, 0, N2, 0);
	tap_is(f2 - f1, 2 * (N2 - N1), "inherit, fork: the child process's count is summed into "
	       "the event at its exit (%llu, %llu)", (unsigned long long)f1, (unsigned long long)f2);
	f1 = fork_run(1, 0, N1, 1);
	f2 = fork_run(1, 0, N2, 1);
	tap_is(f2 - f1, 2 * (N2 - N1), "inherit, fork of a fork: the grandchild's count too");
	f1 = fork_run(0, 0, N1, 0);
	f2 = fork_run(0, 0, N2, 0);
	tap_is(f2 - f1, 0, "no inherit, fork: the child's loop is not counted");
	f1 = fork_run(1, 1, N1, 0);
	f2 = fork_run(1, 1, N2, 0);
	tap_is(f2 - f1, 0, "inherit_thread, fork: a process does not inherit");

	/* attributes the kernel refuses (perf_copy_attr) */
	{
		struct perf_event_attr x;

		memset(&x, 0, sizeof(x));
		x.size = sizeof(x);
		x.type = PERF_TYPE_RAW;
		x.config = RAW(K_INSTR_RETIRED, 3);
		x.exclude_kernel = 1;
		x.inherit_thread = 1;
		tap_ok(syscall(SYS_perf_event_open, &x, 0, -1, -1, 0) == -1 && errno == EINVAL,
		       "inherit_thread without inherit: EINVAL");
		x.inherit_thread = 0;
		x.inherit = 1;
		x.sample_period = 1000;
		tap_ok((fd = (int)syscall(SYS_perf_event_open, &x, 0, -1, -1, 0)) >= 0 &&
		       ioctl(fd, PERF_EVENT_IOC_REFRESH, 1) == -1 && errno == EINVAL,
		       "PERF_EVENT_IOC_REFRESH of an inherited event: EINVAL");
		if (fd >= 0)
			close(fd);
	}
	printf("1..%d\n", tap_n);
	return tap_exit();
}
