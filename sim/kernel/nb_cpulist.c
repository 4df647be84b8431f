/*
 * nb_cpulist.c - the kernel's lists of the CPUs, as the simulated machine
 * has them: /sys/devices/system/cpu/online, possible and present read
 * "0" (one logical processor) or "0-1" (--ht=yes), not the host's.
 *
 * glibc answers sysconf(_SC_NPROCESSORS_ONLN) and get_nprocs() from
 * "online" (and _SC_NPROCESSORS_CONF from "possible"), opened by its
 * internal calls, which the preload library's wrappers do not see.
 * Programs then size their work by the host's CPUs while sched_getaffinity
 * (nb_affinity.c) gives the simulated part's: PAPI's sysdetect binds
 * itself to each of the online CPUs in turn to read their APIC IDs
 * (x86_cpu_utils.c cpuid_parse_ids), and on a 2-CPU host bound itself to
 * CPU 1 of a part without Hyper-Threading, which the emulated
 * sched_setaffinity refuses as Linux would: papi_hardware_avail then read
 * an uninitialised NUMA node and crashed.  So after the host's open of one
 * of these files succeeds, the descriptor is made to refer to a memory
 * file (memfd_create) holding the simulated list, with the open's
 * close-on-exec flag; the program reads it as it would the kernel's.
 */
#include "nb_cpulist.h"
#include "pub_tool_vkiscnums.h"

/* valgrind's core (pub_core_syscall.h) */
extern SysRes VG_(do_syscall)(UWord sysno, UWord a1, UWord a2, UWord a3, UWord a4, UWord a5,
			      UWord a6, UWord a7, UWord a8);

#define CPU_DIR "/sys/devices/system/cpu/"
#define O_CLOEXEC_ 02000000        /* Linux's O_CLOEXEC (asm-generic/fcntl.h) */

static Bool cpulist_path(UWord addr)
{
	const HChar *p = (const HChar *)addr;
	const HChar *names[] = { "online", "possible", "present" };
	SizeT n = VG_(strlen)(CPU_DIR);

	if (!addr || !VG_(am_is_valid_for_client)((Addr)addr, n + 1, VKI_PROT_READ) ||
	    VG_(strncmp)(p, CPU_DIR, n))
		return False;
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
		if (VG_(am_is_valid_for_client)((Addr)addr + n, VG_(strlen)(names[i]) + 1,
						VKI_PROT_READ) &&
		    !VG_(strcmp)(p + n, names[i]))
			return True;
	return False;
}

/* fd (the guest's, just opened) refers to the simulated list from here */
static void replace(Int fd, UWord flags)
{
	const HChar *list = clo_ht ? "0-1\n" : "0\n";
	SysRes m = VG_(do_syscall)(__NR_memfd_create, (UWord)"nbsim-cpulist", 0, 0, 0, 0, 0, 0, 0);
	Int mfd;

	if (sr_isError(m))
		return;                 /* (a kernel without memfd: the host's list) */
	mfd = (Int)sr_Res(m);
	if (VG_(write)(mfd, list, (Int)VG_(strlen)(list)) == (Int)VG_(strlen)(list) &&
	    VG_(lseek)(mfd, 0, VKI_SEEK_SET) == 0)
		(void)VG_(do_syscall)(__NR_dup3, (UWord)mfd, (UWord)fd,
				      (flags & O_CLOEXEC_) ? O_CLOEXEC_ : 0, 0, 0, 0, 0, 0);
	VG_(close)(mfd);
}

void nb_cpulist_post_syscall(UInt sysno, UWord *args, SysRes res)
{
	if (sr_isError(res))
		return;
	if (sysno == __NR_openat && cpulist_path(args[1]))
		replace((Int)sr_Res(res), args[2]);
	else if (sysno == __NR_open && cpulist_path(args[0]))
		replace((Int)sr_Res(res), args[1]);
}
