/*
 * nb_lstask.c - what the host says of one of its threads, for the
 * lockstep's settling (nb_lockstep.c settle): the system call it is in
 * (/proc/self/task/LWP/syscall: a futex's word and operation) and its
 * scheduling state (/proc/self/task/LWP/stat).  Host facts only: they
 * decide how long the lockstep waits before it lets the next thread run,
 * never which thread that is.
 */
#include "nb_tool.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_aspacemgr.h"

#define FX_WAIT 0                        /* futex operations (linux/futex.h) */
#define FX_WAIT_BITSET 9

static ULong hex_at(const HChar **p)
{
	ULong a = 0;

	while (**p == ' ')
		(*p)++;
	if ((*p)[0] == '0' && (*p)[1] == 'x')
		*p += 2;
	for (;; (*p)++) {
		HChar c = **p;
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
			c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) : 16;
		if (d == 16)
			return a;
		a = a * 16 + d;
	}
}

/* /proc/self/task/LWP/FILE into BUF (NUL-terminated): its length, 0 if
 * the thread is gone or the file unreadable */
static Int task_file(Int lwp, const HChar *file, HChar *buf, Int len)
{
	HChar path[64];

	VG_(snprintf)(path, sizeof path, "/proc/self/task/%d/%s", lwp, file);
	return nb_read_file(path, buf, len);
}

/* The system call host thread LWP is in, from its syscall file: its
 * number (-1: running, outside one; -2: gone), and for a futex its word
 * and operation */
static Long task_syscall(Int lwp, ULong *word, ULong *op)
{
	HChar buf[128];
	const HChar *p = buf;
	Long no = 0;

	if (!task_file(lwp, "syscall", buf, sizeof buf))
		return -2;
	if (*p < '0' || *p > '9')
		return -1;              /* "running" */
	while (*p >= '0' && *p <= '9')
		no = no * 10 + (*p++ - '0');
	if (no == __NR_futex) {
		*word = hex_at(&p);
		*op = hex_at(&p) & 0x7f;
	}
	return no;
}

/* Is the host thread lwp in a futex wait (on its word, queued; on
 * valgrind's lock's, back and waiting for it) or reading valgrind's lock's
 * pipe (back, its --fair-sched=no lock)?  Not while it wakes another
 * thread (valgrind's lock released) nor outside a system call. */
Bool nb_lst_in_wait(Int lwp)
{
	ULong word = 0, op = 0;
	Long no = task_syscall(lwp, &word, &op);

	if (no == -2 || no == __NR_read)
		return True;    /* gone: nothing to wait for; back: valgrind's pipe lock */
	return no == __NR_futex && (op == FX_WAIT || op == FX_WAIT_BITSET);
}

/*
 * Is host thread LWP on its way to where the lockstep waits for it, so
 * that the host's load, not a wait the model lacks, keeps it: runnable
 * (state R in /proc/self/task/LWP/stat: it has the CPU or waits for one),
 * in an uninterruptible wait (state D: a kernel lock such as the address
 * space's, held by a thread the host has not run yet, or a page fault's
 * I/O; a wait for another thread or the outside sleeps in state S),
 * or back from its system call and waiting for valgrind's lock (a futex
 * wait on a word outside the client's memory: the --fair-sched=yes ticket
 * lock).  The waits below time out only while it is not: on a machine
 * with many more runnable threads than CPUs a thread may wait for a CPU
 * longer than they allow, and a wait that timed out let the next thread
 * run first (the interleaving, and so the counts, as the host had it).
 */
Bool nb_lst_progressing(Int lwp)
{
	HChar buf[512];
	const HChar *p;
	Int n = task_file(lwp, "stat", buf, sizeof buf);
	ULong word = 0, op = 0;
	Long no;

	if (!n)
		return False;           /* (gone) */
	/* the state follows "pid (comm) ", comm may hold ')' */
	for (p = buf + n; p > buf && p[-1] != ')'; p--)
		;
	if (p[0] == ' ' && (p[1] == 'R' || p[1] == 'D'))
		return True;
	no = task_syscall(lwp, &word, &op);
	if (no == -1)
		return True;            /* running */
	return no == __NR_futex && (op == FX_WAIT || op == FX_WAIT_BITSET) &&
		!VG_(am_is_valid_for_client)((Addr)word, 4, VKI_PROT_READ);
}
