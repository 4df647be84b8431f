/*
 * nb_kern_base.c - what every part of the emulated kernel uses: the kernel
 * objects (msr devices, perf events) and the descriptor table, guest
 * memory checks, the clock of the enabled/running times, the process's
 * capabilities and /proc reads, the CPUs the driver shows.  Below the
 * parts (perf, sched, task, exec, attach, ptrace, sysfs) and the entry
 * points (nb_kern.c), so that no part calls back up for them.
 */
#include "nb_kern_int.h"
#include "nb_simtime.h"

/* The value of "KEY<blanks>value" in a /proc status text, NULL if absent */
const HChar *nbk_proc_field(const HChar *buf, const HChar *key)
{
	const HChar *p = VG_(strstr)(buf, key);

	if (!p)
		return NULL;
	for (p += VG_(strlen)(key); *p == ' ' || *p == '\t'; p++)
		;
	return p;
}

/* Some perf event samples (PMIs go to nb_kern_pmi); declared to the tool
 * with nbk_set_sampling. */
Bool nbk_sampling_on;

struct kobj ko[NOBJ];
int fd_obj[NBSIM_KERN_MAXFD];   /* object index + 1, 0 none */
ULong next_seq = 1, next_id = 1;
int nperf;                      /* open perf events          */
ThreadId on_pmu;                /* thread whose events are on */

/* ---- helpers ---- */

Bool nbk_readable(Addr a, SizeT n)
{
	return a != 0 && VG_(am_is_valid_for_client)(a, n, VKI_PROT_READ);
}

Bool nbk_writable(Addr a, SizeT n)
{
	return a != 0 && VG_(am_is_valid_for_client)(a, n, VKI_PROT_WRITE);
}

/* The enabled/running times and the records' TIME: the program's
 * CLOCK_MONOTONIC, the simulated one under --nbsim-time=simulated
 * (nb_simtime.c: the kernel's times are task-clock times, which a program
 * compares with its own clocks, and the host's ran 20-100 times ahead of
 * the simulated part's, by the host's load); else the host's. */
ULong nbk_now_ns(void)
{
	struct vki_timespec ts;
	SysRes r;
	ULong ns;

	if (nb_time_read(VG_(get_running_tid)(), VKI_CLOCK_MONOTONIC, &ns))
		return ns;
	r = VG_(do_syscall)(__NR_clock_gettime, VKI_CLOCK_MONOTONIC, (UWord)&ts, 0, 0, 0, 0, 0, 0);
	if (sr_isError(r))
		return 0;
	return (ULong)ts.tv_sec * 1000000000ULL + (ULong)ts.tv_nsec;
}

/* CapEff of this process (/proc/self/status). */
static ULong cap_eff(void)
{
	static HChar buf[4096];
	const HChar *p;
	ULong v = 0;

	if (!nb_read_file("/proc/self/status", buf, sizeof buf) ||
	    !(p = nbk_proc_field(buf, "CapEff:")))
		return 0;
	for (; *p; p++) {
		Int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
		if (d < 0)
			break;
		v = v << 4 | (ULong)d;
	}
	return v;
}

#define CAP_SYS_RAWIO 17
#define CAP_SYS_ADMIN 21
#define CAP_PERFMON 38

/* the msr driver's open: capable(CAP_SYS_RAWIO) */
Bool nbk_rawio_capable(void)
{
	return (cap_eff() >> CAP_SYS_RAWIO) & 1;
}

/* nbk_perfmon_capable(): CAP_PERFMON or CAP_SYS_ADMIN */
Bool nbk_perfmon_capable(void)
{
	ULong c = cap_eff();

	return ((c >> CAP_PERFMON) & 1) || ((c >> CAP_SYS_ADMIN) & 1);
}

unsigned nbk_ncpus(void)
{
	return clo_ht ? 2 : 1;
}

int nbk_new_obj(int kind)
{
	/* The guest programs the PMU through the emulated kernel: the msr
	 * driver has no per-thread registers, and the perf driver switches
	 * its events itself (nb_kern_switch).  So nbsim's per-thread contexts
	 * of the sim backend (nb_ctx.c) step aside, as --nbsim-pmu-ctx=cpu. */
	clo_ctx_cpu = True;
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_FREE) {
			VG_(memset)(&ko[i], 0, sizeof ko[i]);
			ko[i].kind = kind;
			ko[i].fd = -1;
			ko[i].parent = -1;
			return i;
		}
	return -1;
}

Bool nbk_ko_any(void)
{
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind != K_FREE)
			return True;
	return False;
}

/* Does thread tid own perf events?  Their ESCR T0/T1 bits are its LP's
 * at their creation (nb_kern_task.c e->thread): the thread may not move
 * to the other LP by its binding while it has any (nb_affinity.c). */
Bool nb_kern_thread_events(ThreadId tid)
{
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_PERF && ko[i].owner == tid)
			return True;
	return False;
}

struct kobj *nbk_obj_of_fd(UWord fd)
{
	if (fd >= NBSIM_KERN_MAXFD || !fd_obj[fd])
		return NULL;
	return &ko[fd_obj[fd] - 1];
}

/* Process PID's start time (0: this one), in clock ticks since boot
 * (proc(5), /proc/PID/stat field 22): the same before and after an
 * execve, and another for another process that gets the pid later.  0 if
 * unreadable. */
ULong nbk_proc_start(Int pid)
{
	HChar buf[1024], path[64];
	const HChar *p;
	Int n, field = 2;
	ULong v = 0;

	if (pid)
		VG_(snprintf)(path, sizeof path, "/proc/%d/stat", pid);
	else
		VG_(strcpy)(path, "/proc/self/stat");
	if (!(n = nb_read_file(path, buf, sizeof buf)))
		return 0;
	/* after "pid (comm)": comm may hold spaces and ')' */
	for (p = buf + n; p > buf && p[-1] != ')'; p--)
		;
	for (; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (ULong)(*p - '0');
	return v;
}
