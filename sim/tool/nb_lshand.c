/*
 * nb_lshand.c - the host CPU the lockstep's next thread wakes on.
 *
 * At a lockstep turn (nb_lockstep.c park) the thread that has run its
 * bound wakes the one whose turn it is and sleeps.  Woken on another host
 * CPU, the wake is an inter-processor interrupt and, on a virtual machine
 * whose other CPU idles, that CPU's exit from its halt; woken on the
 * waker's CPU, it is a context switch on one CPU.  So the waker allows
 * the next thread its own CPU alone before the wake.  The threads then
 * stay on that CPU, turn after turn, with no system call of ours (the
 * waker knows its CPU once it is alone on it, and the next thread is on
 * it already), until every NB_LSH_SPAN hand-offs a thread takes back the
 * mask the process started with: the host may then move it, and the next
 * hand-off pins the other to wherever it went (two nbsim processes pinned
 * to one CPU for good would run one after the other).  Host placement
 * only: which guest thread runs, and so every count, is the lockstep's
 * decision, whatever CPU runs it.  A thread the guest binds
 * (sched_setaffinity, nb_affinity.c) is given its host thread's current
 * mask: this one's, as the host call's argument, which changes nothing.
 */
#include "nb_tool.h"
#include "pub_tool_vkiscnums.h"

/* valgrind's core (pub_core_syscall.h) */
extern SysRes VG_(do_syscall)(UWord sysno, UWord a1, UWord a2, UWord a3, UWord a4, UWord a5,
			      UWord a6, UWord a7, UWord a8);

#define MASK_BYTES 128                   /* 1024 host CPUs                */
#define NB_LSH_SPAN 256                  /* hand-offs on one CPU at most  */

static UChar start_mask[MASK_BYTES];     /* the process's at the start    */
static UWord start_len;                  /* its bytes; -1: none            */
static Int lwp_of[NB_HT_MAXT];           /* a parked thread's host thread  */
static UInt pinned[NB_HT_MAXT];          /* 1 + the one CPU it may run on, */
					 /* or 0: the start mask           */
static UInt span;                        /* hand-offs since the last release */
ULong nb_lsh_handoffs, nb_lsh_pins;

static SysRes sys3(UWord no, UWord a1, UWord a2, UWord a3)
{
	return VG_(do_syscall)(no, a1, a2, a3, 0, 0, 0, 0, 0);
}

static Bool pin(Int lwp, UInt cpu)
{
	UChar one[MASK_BYTES];

	VG_(memset)(one, 0, start_len);
	one[cpu / 8] = (UChar)(1u << (cpu % 8));
	nb_lsh_pins++;
	return !sr_isError(sys3(__NR_sched_setaffinity, (UWord)lwp, start_len, (UWord)one));
}

/* Thread tid parks: its host thread, for the thread that wakes it. */
void nb_lsh_parking(ThreadId tid)
{
	if (tid >= NB_HT_MAXT)
		return;
	if (!start_len) {
		SysRes r = sys3(__NR_sched_getaffinity, 0, sizeof start_mask, (UWord)start_mask);
		start_len = sr_isError(r) || !sr_Res(r) ? (UWord)-1 : sr_Res(r);
	}
	if (!lwp_of[tid])
		lwp_of[tid] = VG_(gettid)();
}

/* Thread `self` (parking) is about to wake thread next: next wakes on
 * self's CPU. */
void nb_lsh_handoff(ThreadId self, ThreadId next)
{
	UInt cpu;

	if (!next || next >= NB_HT_MAXT || self >= NB_HT_MAXT || !lwp_of[next] ||
	    start_len == (UWord)-1 || !start_len)
		return;
	nb_lsh_handoffs++;
	cpu = pinned[self] - 1;
	if (!pinned[self]) {
		SysRes r = sys3(__NR_getcpu, (UWord)&cpu, 0, 0);
		if (sr_isError(r) || cpu >= 8 * start_len ||
		    !(start_mask[cpu / 8] & (1u << (cpu % 8))))
			return;
	}
	if (pinned[next] == cpu + 1)
		return;
	pinned[next] = pin(lwp_of[next], cpu) ? cpu + 1 : 0;
}

/* Thread tid, running, takes back the mask the process started with. */
void nb_lsh_release(ThreadId tid)
{
	if (tid >= NB_HT_MAXT || !start_len || start_len == (UWord)-1 || !pinned[tid])
		return;
	pinned[tid] = 0;
	(void)sys3(__NR_sched_setaffinity, 0, start_len, (UWord)start_mask);
}

/* Thread tid runs again: every NB_LSH_SPAN hand-offs, the mask the
 * process started with. */
void nb_lsh_running(ThreadId tid)
{
	if (tid >= NB_HT_MAXT || !pinned[tid] || ++span < NB_LSH_SPAN)
		return;
	span = 0;
	nb_lsh_release(tid);
}

/* Thread tid exits (valgrind gives its ThreadId to a later thread) */
void nb_lsh_exit(ThreadId tid)
{
	if (tid < NB_HT_MAXT) {
		lwp_of[tid] = 0;
		pinned[tid] = 0;
	}
}

/* In a forked child: the parent's host threads are not its own */
void nb_lsh_after_fork(void)
{
	for (unsigned t = 0; t < NB_HT_MAXT; t++) {
		lwp_of[t] = 0;
		pinned[t] = 0;
	}
	span = 0;
}
