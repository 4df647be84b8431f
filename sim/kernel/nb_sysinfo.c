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
 * (sched_getaffinity's CPUs: nb_affinity.c.)
 */
#include "tool/nb_tool.h"
#include "nb_simtime.h"
#include "nb_sysinfo.h"
#include "pub_tool_vkiscnums.h"

#define CLOCK_BOOTTIME_ID 7     /* Linux's CLOCK_BOOTTIME (uapi/linux/time.h) */

void nb_sysinfo_post_syscall(ThreadId tid, UInt sysno, UWord *args, SysRes res)
{
	struct vki_sysinfo *si = (struct vki_sysinfo *)args[0];
	ULong ns;

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
