/*
 * nb_sysinfo.c - what sysinfo(2) tells the program about the machine,
 * made independent of the host's load.  glibc answers
 * sysconf(_SC_AVPHYS_PAGES) from sysinfo's freeram, and programs size
 * their work by it: GNU sort's default buffer is a share of the available
 * memory (gnulib physmem_available), so under the host's figures the same
 * sort ran a different number of instructions from run to run.  The
 * simulated machine is otherwise idle: no load, half of its memory free,
 * its swap unused; its memory and swap sizes are the host's (fixed on one
 * host), and its uptime is the simulated boot time when time is simulated.
 * The number of processes is left to the host (the running program cannot
 * size anything by the other processes of a machine it does not share).
 * Applied whatever --nbsim-time says: counts are deterministic either way.
 *
 * sched_getaffinity(2) likewise: the CPUs a program may run on are the
 * simulated part's logical processors (one, two with --ht=yes), not the
 * host's.  libgomp sizes its default team and its spinning by them, GNU
 * sort its threads (gnulib num_processors): tp_omp counted 115,840,823
 * instructions under --ht=yes on a 2-CPU host and 115,841,141 pinned to
 * one CPU, and sort -n ran two threads on a P4 without Hyper-Threading.
 */
#include "tool/nb_tool.h"
#include "nb_simtime.h"
#include "nb_sysinfo.h"
#include "pub_tool_vkiscnums.h"

#define CLOCK_BOOTTIME_ID 7     /* Linux's CLOCK_BOOTTIME (uapi/linux/time.h) */

/* the mask the kernel copied out (its result: the bytes copied), the
 * modelled LPs' bits only */
static void affinity(UWord *args, SysRes res)
{
	UChar *m = (UChar *)args[2];
	UWord n = sr_Res(res);

	if (sr_isError(res) || n == 0 || n > args[1] ||
	    !VG_(am_is_valid_for_client)((Addr)m, n, VKI_PROT_WRITE))
		return;
	for (UWord i = 0; i < n; i++)
		m[i] = 0;
	m[0] = clo_ht ? 3 : 1;
}

void nb_sysinfo_post_syscall(ThreadId tid, UInt sysno, UWord *args, SysRes res)
{
	struct vki_sysinfo *si = (struct vki_sysinfo *)args[0];
	ULong ns;

	if (sysno == __NR_sched_getaffinity) {
		affinity(args, res);
		return;
	}
	if (sysno != __NR_sysinfo || sr_isError(res) ||
	    !VG_(am_is_valid_for_client)((Addr)si, sizeof *si, VKI_PROT_WRITE))
		return;
	si->loads[0] = si->loads[1] = si->loads[2] = 0;
	si->freeram = si->totalram / 2;
	si->sharedram = 0;
	si->bufferram = 0;
	si->freeswap = si->totalswap;
	si->freehigh = si->totalhigh / 2;
	if (!clo_time_host && nb_time_read(tid, CLOCK_BOOTTIME_ID, &ns))
		si->uptime = (long)(ns / 1000000000ULL);
}
