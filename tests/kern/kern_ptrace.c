/*
 * kern_ptrace.c - the ptrace stops a parent sees of a child that asks to
 * be traced, as Linux gives them (run natively and under nbsim;
 * tests/kern/t_kern_ptrace.t).  PAPI's attach ctests rely on them (attach2,
 * attach3: PTRACE_TRACEME then exec; attach_validate: PTRACE_TRACEME then
 * raise(SIGSTOP)).  Linux (kernel/ptrace.c, fs/exec.c, kernel/signal.c):
 * - a child that called PTRACE_TRACEME and execs stops once, with SIGTRAP,
 *   before the new image's first instruction; PTRACE_CONT with signal 0
 *   discards it and the new image runs to its exit;
 * - PTRACE_CONT with SIGTRAP delivers it: the default action kills the
 *   child (WTERMSIG SIGTRAP);
 * - raise(SIGSTOP) after PTRACE_TRACEME is a signal-delivery stop
 *   (WSTOPSIG SIGSTOP), PTRACE_CONT with 0 discards it;
 * - a second PTRACE_TRACEME fails with EPERM (already traced).
 * And nbsim's refusal: PTRACE_GETREGS of a tracee under nbsim is EIO (the
 * host's registers there are valgrind's, not the program's); natively it
 * works.
 * Under nbsim the exec is valgrind's two (the launcher, then the tool):
 * the emulated PTRACE_TRACEME must still give exactly one stop.
 *
 * The child's image after the exec is this program with argument "exit"
 * and a status: it returns the status at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/valgrind.h>
#include "nbtap.h"

static const char *self;

/* A child that asks to be traced and then execs (MODE 0) or stops itself
 * (MODE 1; then exits 5) or asks twice (MODE 2: exits 0 if the second
 * request failed with EPERM). */
static pid_t child(int mode)
{
	pid_t p = fork();

	if (p != 0)
		return p;
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0)
		_exit(90);
	if (mode == 0) {
		execl(self, self, "exit", "7", (char *)NULL);
		_exit(91);
	}
	if (mode == 1) {
		raise(SIGSTOP);
		_exit(5);
	}
	errno = 0;
	_exit(ptrace(PTRACE_TRACEME, 0, 0, 0) == -1 && errno == EPERM ? 0 : 92);
}

static const char *show(int st)
{
	static char buf[64];

	if (WIFSTOPPED(st))
		snprintf(buf, sizeof buf, "stopped by %d", WSTOPSIG(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, sizeof buf, "killed by %d", WTERMSIG(st));
	else if (WIFEXITED(st))
		snprintf(buf, sizeof buf, "exit %d", WEXITSTATUS(st));
	else
		snprintf(buf, sizeof buf, "status 0x%x", st);
	return buf;
}

int main(int argc, char **argv)
{
	int st = 0;
	pid_t p, r;

	if (argc == 3 && !strcmp(argv[1], "exit"))
		return atoi(argv[2]);
	self = argv[0];
	tap_plan(9);

	/* TRACEME, exec: one SIGTRAP stop, then the image's exit */
	p = child(0);
	r = waitpid(p, &st, 0);
	tap_ok(r == p && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP,
	   "traced exec: stopped by SIGTRAP (%s)", show(st));
	{
		struct user_regs_struct regs;
		long g;

		errno = 0;
		g = ptrace(PTRACE_GETREGS, p, NULL, &regs);
		if (RUNNING_ON_VALGRIND)
			tap_ok(g == -1 && errno == EIO, "PTRACE_GETREGS of a tracee under nbsim: EIO (%s)",
			       strerror(errno));
		else
			tap_ok(g == 0, "PTRACE_GETREGS (natively: the registers)");
	}
	tap_ok(ptrace(PTRACE_CONT, p, NULL, NULL) == 0, "PTRACE_CONT");
	r = waitpid(p, &st, 0);
	tap_ok(r == p && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	   "then the new image runs to its exit 7, no other stop (%s)", show(st));

	/* the exec's SIGTRAP passed on: it kills the child */
	p = child(0);
	waitpid(p, &st, 0);
	ptrace(PTRACE_CONT, p, NULL, (void *)(long)SIGTRAP);
	r = waitpid(p, &st, 0);
	tap_ok(r == p && WIFSIGNALED(st) && WTERMSIG(st) == SIGTRAP,
	   "PTRACE_CONT with SIGTRAP: killed by SIGTRAP (%s)", show(st));

	/* TRACEME, raise(SIGSTOP): a signal-delivery stop */
	p = child(1);
	r = waitpid(p, &st, 0);
	tap_ok(r == p && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
	   "traced raise(SIGSTOP): stopped by SIGSTOP (%s)", show(st));
	tap_ok(ptrace(PTRACE_CONT, p, NULL, NULL) == 0, "PTRACE_CONT");
	r = waitpid(p, &st, 0);
	tap_ok(r == p && WIFEXITED(st) && WEXITSTATUS(st) == 5,
	   "then exit 5 (%s)", show(st));

	/* TRACEME twice: EPERM */
	p = child(2);
	r = waitpid(p, &st, 0);
	tap_ok(r == p && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "a second PTRACE_TRACEME fails with EPERM (%s)", show(st));
	return tap_done();
}
