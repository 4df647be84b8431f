/*
 * kern_task.c - perf_event_open on another task and the refusals Linux
 * gives an unprivileged user, against nbsim's emulated perf driver (run
 * under nbsim as an unprivileged user at perf_event_paranoid 2;
 * tests/kern/t_perf_tool_refuse.t).  kernel/events/core.c perf_event_open as
 * facts, in its order: perf_allow_kernel (EACCES for kernel counting),
 * find_lively_task_by_vpid (ESRCH), perf_event_alloc (EINVAL for no task
 * and no CPU), the PMU's event_init (x86_setup_perfctr, set_ext_hw_attr:
 * EINVAL, ENOENT), perf_check_permission (EACCES: another user's task),
 * find_get_context without a task (perf_allow_cpu: EACCES below paranoid
 * 1); a same-user task that is not dumpable EACCES, one that is neither
 * a child nor traced opens; a group_fd that is no perf event EBADF; a
 * group member with another inherit, on another task, on another CPU,
 * with another clock, pinned, or whose leader is a member EINVAL, and
 * one the P4 scheduler cannot place beside its leader EINVAL
 * (validate_group).
 *
 * A forked child counted from the parent, perf stat's pattern: the child
 * waits on a pipe, then execs a static program of known count
 * (tests/stat/k_loop.S); the parent opens INSTR_RETIRED on the child's
 * pid, disabled, with enable_on_exec and inherit, lets it go, waits and
 * reads: the count from the exec, exactly; and a group of two on it,
 * read with PERF_FORMAT_GROUP and the enabled and running times.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/prctl.h>
#include <time.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "nbtap.h"

#define RAW(ev, mask) ((uint64_t)(((uint32_t)(ev) << 25) | ((uint32_t)(mask) << 9)) << 32)
#define K_INSTR_RETIRED 38
static void attr_of(struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
}

static int popen_ev(struct perf_event_attr *a, int pid, int cpu, int group)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, 0);
}

/* errno of a refused open (0: it opened) */
static int err_of(struct perf_event_attr *a, int pid, int cpu, int group)
{
	int fd = popen_ev(a, pid, cpu, group);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

/* INSTR_RETIRED (user mode) of a child that waits on a pipe, then execs
 * PROG: opened on the child's pid disabled, with enable_on_exec, as perf
 * stat does; -1 on failure */
static long long child_count(const char *prog, int *err)
{
	struct perf_event_attr a;
	int p[2], fd, st;
	pid_t pid;
	uint64_t v[3] = { 0, 0, 0 };
	char c = 0;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		char *av[] = { (char *)prog, NULL };

		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(2);
		execv(prog, av);
		_exit(127);
	}
	close(p[0]);
	attr_of(&a, PERF_TYPE_RAW, RAW(K_INSTR_RETIRED, 1));
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = 1;
	fd = popen_ev(&a, pid, -1, -1);
	*err = fd < 0 ? errno : 0;
	if (write(p[1], &c, 1) != 1)
		return -1;
	close(p[1]);
	waitpid(pid, &st, 0);
	if (fd < 0)
		return -1;
	if (read(fd, v, sizeof(v)) != sizeof(v))
		return -1;
	close(fd);
	if (v[1] != v[2] || !v[1])
		tap_diag("enabled %llu, running %llu", (unsigned long long)v[1], (unsigned long long)v[2]);
	return (long long)v[0];
}

/* The same child counted by a group (INSTR_RETIRED leader, branches
 * member) read with PERF_FORMAT_GROUP and the times: V gets nr, enabled,
 * running, the two counts; -1 on failure */
static int child_group(const char *prog, uint64_t v[5])
{
	struct perf_event_attr a, b;
	int p[2], fd, m, st;
	pid_t pid;
	char c = 0;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		char *av[] = { (char *)prog, NULL };

		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(2);
		execv(prog, av);
		_exit(127);
	}
	close(p[0]);
	attr_of(&a, PERF_TYPE_RAW, RAW(K_INSTR_RETIRED, 1));
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = 1;
	a.read_format |= PERF_FORMAT_GROUP;
	fd = popen_ev(&a, pid, -1, -1);
	attr_of(&b, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	b.inherit = 1;
	m = fd >= 0 ? popen_ev(&b, pid, -1, fd) : -1;
	if (write(p[1], &c, 1) != 1)
		return -1;
	close(p[1]);
	waitpid(pid, &st, 0);
	if (fd < 0 || m < 0 || read(fd, v, 5 * sizeof(v[0])) != 5 * sizeof(v[0]))
		return -1;
	close(m);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct perf_event_attr a, b;
	long long c1, c2;
	int e1 = 0, e2 = 0, lead;

	if (argc != 3)
		tap_bail("usage: kern_task K_LOOP K_LOOP_2X");
	tap_plan(26);
	attr_of(&a, PERF_TYPE_RAW, RAW(K_INSTR_RETIRED, 1));
	tap_is(err_of(&a, -1, 0, -1), EACCES, "CPU-wide (pid -1, cpu 0) unprivileged at paranoid 2: EACCES (perf_allow_cpu)");
	tap_is(err_of(&a, -1, -1, -1), EINVAL, "no task and no CPU: EINVAL (perf_event_alloc)");
	tap_is(err_of(&a, 1, -1, -1), EACCES, "pid 1, another user's task: EACCES (ptrace_may_access)");
	tap_is(err_of(&a, 0x3ffffff0, -1, -1), ESRCH, "a pid no task has: ESRCH");
	a.exclude_kernel = 0;
	tap_is(err_of(&a, 0, -1, -1), EACCES, "kernel-mode counting at paranoid 2: EACCES (perf_allow_kernel)");
	a.sample_period = 100003;
	a.sample_type = PERF_SAMPLE_IP;
	tap_is(err_of(&a, 0, -1, -1), EACCES, "kernel-mode sampling at paranoid 2: EACCES");
	attr_of(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX);
	tap_is(err_of(&a, 0, -1, -1), EINVAL, "PERF_TYPE_HARDWARE beyond p4_general_events: EINVAL");
	attr_of(&a, PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D);  /* read, access: 0 in the table */
	tap_is(err_of(&a, 0, -1, -1), ENOENT, "L1D read access (0 in p4_hw_cache_event_ids): ENOENT");
	attr_of(&a, PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_NODE);
	tap_is(err_of(&a, 0, -1, -1), EINVAL, "NODE (-1 in p4_hw_cache_event_ids): EINVAL");

	/* groups: across tasks, or with another inherit */
	attr_of(&a, PERF_TYPE_RAW, RAW(K_INSTR_RETIRED, 1));
	lead = popen_ev(&a, 0, -1, -1);
	attr_of(&b, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	b.inherit = 1;
	tap_is(lead >= 0 ? err_of(&b, 0, -1, lead) : -1, EINVAL, "a group member with another inherit than its leader: EINVAL");
	{
		/* another process of ours (the same user): not the leader's task */
		int p[2], st;
		char c = 0;
		pid_t other;

		if (pipe(p))
			tap_bail("pipe");
		other = fork();
		if (other == 0) {
			close(p[1]);
			_exit(read(p[0], &c, 1) == 1 ? 0 : 2);
		}
		close(p[0]);
		b.inherit = 0;
		tap_is(lead >= 0 ? err_of(&b, other, -1, lead) : -1, EINVAL,
		       "a group member on another task than its leader: EINVAL");
		if (write(p[1], &c, 1) != 1)
			tap_diag("write");
		close(p[1]);
		waitpid(other, &st, 0);
	}
	b.inherit = 0;
	b.pinned = 1;
	tap_is(lead >= 0 ? err_of(&b, 0, -1, lead) : -1, EINVAL, "a pinned group member: EINVAL");
	b.pinned = 0;
	tap_is(lead >= 0 ? err_of(&b, 0, 0, lead) : -1, EINVAL,
	       "a group member on CPU 0, its leader on any CPU: EINVAL");
	b.use_clockid = 1;
	b.clockid = CLOCK_MONOTONIC;
	tap_is(lead >= 0 ? err_of(&b, 0, -1, lead) : -1, EINVAL,
	       "a group member with another clock than its leader: EINVAL");
	b.use_clockid = 0;
	{
		int m = lead >= 0 ? popen_ev(&b, 0, -1, lead) : -1;

		tap_ok(m >= 0, "branches beside instructions in one group: opened");
		tap_is(m >= 0 ? err_of(&b, 0, -1, m) : -1, EINVAL,
		       "a member as group_fd (not a leader): EINVAL");
		if (m >= 0)
			close(m);
	}
	attr_of(&b, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES);
	tap_is(lead >= 0 ? err_of(&b, 0, -1, lead) : -1, EINVAL,
	       "branch-misses beside instructions (both need CRU_ESCR0 on thread 0): EINVAL");
	tap_is(err_of(&b, 0, -1, 0), EBADF, "group_fd 0, not a perf event: EBADF");
	/* software events are the host kernel's: Linux groups them with
	 * hardware ones, the emulation cannot (EOPNOTSUPP, not EBADF) */
	attr_of(&b, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	tap_is(lead >= 0 ? err_of(&b, 0, -1, lead) : -1, EOPNOTSUPP,
	       "a software member in an emulated hardware group: EOPNOTSUPP (not emulated)");
	{
		int sw = popen_ev(&b, 0, -1, -1);

		attr_of(&b, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		if (sw >= 0)
			tap_is(err_of(&b, 0, -1, sw), EOPNOTSUPP,
			       "a hardware member in a software (host) group: EOPNOTSUPP (not emulated)");
		else
			printf("ok %d # SKIP the host kernel refuses this user its task-clock (errno %d)\n",
			       ++tap_n, errno);
		if (sw >= 0)
			close(sw);
	}
	if (lead >= 0)
		close(lead);

	/* same-user tasks: neither child nor traced opens; not dumpable EACCES */
	attr_of(&a, PERF_TYPE_RAW, RAW(K_INSTR_RETIRED, 1));
	for (int nodump = 0; nodump < 2; nodump++) {
		int p[2], q[2], st;
		char c = 0;
		pid_t target, opener;

		if (pipe(p) || pipe(q))
			tap_bail("pipe");
		target = fork();
		if (target == 0) {
			close(p[1]);
			close(q[0]);
			if (nodump && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
				_exit(3);
			_exit(write(q[1], &c, 1) == 1 && read(p[0], &c, 1) == 1 ? 0 : 2);
		}
		close(p[0]);
		close(q[1]);
		if (read(q[0], &c, 1) != 1)
			tap_diag("read");
		if (nodump) {
			tap_is(err_of(&a, target, -1, -1), EACCES,
			       "a same-user task that is not dumpable (PR_SET_DUMPABLE 0): EACCES");
		} else {
			/* a sibling: the target is not the opener's child */
			opener = fork();
			if (opener == 0)
				_exit(err_of(&a, target, -1, -1));
			waitpid(opener, &st, 0);
			tap_is(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0,
			       "a same-user task neither child nor traced (a sibling): opened");
		}
		if (write(p[1], &c, 1) != 1)
			tap_diag("write");
		close(p[1]);
		close(q[0]);
		waitpid(target, &st, 0);
	}

	/* a forked child counted from the parent: k_loop's 1 + 2N + 3
	 * instructions (N 1000, then 2000), from its exec (enable_on_exec) */
	c1 = child_count(argv[1], &e1);
	c2 = child_count(argv[2], &e2);
	tap_is(e1 | e2, 0, "events opened on a forked child (same user)");
	tap_is(c1, 2004, "the child's count from its exec reaches the parent: k_loop, 2 * 1000 + 4");
	tap_is(c2, 4004, "k_loop_2x: 2 * 2000 + 4");
	{
		uint64_t v[5] = { 0, 0, 0, 0, 0 };
		int r = child_group(argv[1], v);

		tap_ok(r == 0 && v[0] == 2 && v[3] == 2004 && v[4] == 1000 && v[1] && v[1] == v[2],
		       "a group on the child, read with PERF_FORMAT_GROUP: nr 2, instructions 2004, "
		       "branches 1000 (k_loop's jnz), enabled = running (%llu %llu %llu %llu %llu)",
		       (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
		       (unsigned long long)v[3], (unsigned long long)v[4]);
	}
	return tap_exit();
}
