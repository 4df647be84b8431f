/*
 * nb_kern_sysfs.c - the P4 PMU's sysfs description as the simulated
 * program sees it: /sys/bus/event_source/devices/cpu (and its canonical
 * path /sys/devices/cpu), from which perf learns the PMU's type and the
 * fields of its config (tools/perf/util/pmu.c: type, format/, caps/).
 *
 * The files are a real directory tree that the tool writes once under
 * $TMPDIR (nbsim-sysfs-EUID-p4v3-N: built under a temporary name and
 * renamed, so a reader sees all of it or none; the content is constant),
 * and the preload library rewrites the paths under those two prefixes to
 * it in the libc calls perf makes on them (open, openat, fopen, opendir,
 * access, stat: vg_preload_nbsim.c).  Why a tree and rewriting: perf lists
 * format/ with opendir/readdir, which an emulated descriptor (a memfd)
 * cannot serve, and a valgrind tool cannot change a system call's path.
 *
 * Content, after the kernel on a NetBurst:
 * - type: PERF_TYPE_RAW (4): the x86 core PMU registers as the raw type
 *   (arch/x86/events/core.c init_hw_perf_events: perf_pmu_register(&pmu,
 *   "cpu", PERF_TYPE_RAW));
 * - format/: p4.c intel_p4_formats_attr: cccr config:0-31, escr
 *   config:32-62, ht config:63;
 * - caps/max_precise: 0 (x86_pmu_max_precise: the P4 driver sets no PEBS
 *   for perf's precise_ip);
 * - events/: empty.  The x86 core's events group (x86_pmu_events_group,
 *   the generic-event aliases) is emptied by init_hw_perf_events for a
 *   driver without events_sysfs_show (its attrs = empty_attrs), and
 *   p4.c's p4_pmu sets none: on a NetBurst the directory is there and
 *   lists nothing, so `perf list` shows no cpu/.../ Kernel PMU events
 *   (and would not parse P4 configs in the architectural event=/umask=
 *   syntax those aliases use);
 * - rdpmc: 1 (x86_pmu_attr_group; attr_rdpmc's default), and
 *   perf_event_mux_interval_ms: 4 (kernel/events/core.c pmu_dev_attrs,
 *   PERF_CPU_HRTIMER's default);
 * - /sys/devices/system/cpu/online, possible, present: the simulated
 *   machine's logical processors, "0" (or "0-1" with --ht=yes), from
 *   which perf takes the CPUs it opens per-CPU events on; and the rest
 *   of /sys/devices/system/cpu and /sys/devices/system/node, the
 *   simulated part's topology (nb_kern_topo.c); a tree per count of
 *   LPs and model (its caches): nbsim-sysfs-EUID-p4v4-N-MODEL.
 * - /sys/bus/event_source/devices itself: the PMUs Linux 6.1 (Debian's
 *   kernel) registers on a NetBurst, and no other of the host's, so that
 *   perf's scan of the directory (tools/perf/util/pmu.c pmu_read_sysfs)
 *   finds no PMU a Pentium 4 lacks (a host's uncore, power or intel_pt
 *   PMUs: ENOENT under it): cpu (above); msr (arch/x86/events/msr.c
 *   msr_init registers it on any CPU with a TSC; of its events only tsc
 *   passes its probe on a P4: APERF/MPERF, PPERF, the SMI count and the
 *   thermal status need CPUID bits or family 6 models a P4 lacks), here
 *   a directory of its own with format/event config:0-63, events/tsc
 *   event=0x00, and the host's msr type, since its events are the host
 *   kernel's; and the software context's PMUs of kernel/events/core.c
 *   and hw_breakpoint.c: software, tracepoint, breakpoint, kprobe and
 *   uprobe (Debian's config has KPROBE_EVENTS and UPROBE_EVENTS), each a
 *   symbolic link to the host's, whose kernel serves their events.  A PMU
 *   the host lacks is left out (nothing would serve it).
 * - /proc/cpuinfo (DIR/proc/cpuinfo): the modelled part (nb_kern_cpuinfo.c).
 * The tree's name carries its content's version (p4v3: devices/, msr;
 * p4v4: the topology; p4v5: /proc/cpuinfo), so that an older nbsim's
 * tree in $TMPDIR is not taken for this one's.
 */
#include "nb_kern_int.h"

static const struct {
	const HChar *path, *text;
} sysfs_files[] = {
	{ "cpu/type", "4\n" },
	{ "cpu/format/cccr", "config:0-31\n" },
	{ "cpu/format/escr", "config:32-62\n" },
	{ "cpu/format/ht", "config:63\n" },
	{ "cpu/caps/max_precise", "0\n" },
	{ "cpu/rdpmc", "1\n" },
	{ "cpu/perf_event_mux_interval_ms", "4\n" },
	{ "system/cpu/online", NULL },
	{ "system/cpu/possible", NULL },
	{ "system/cpu/present", NULL },
};
static const HChar *sysfs_dirs[] = { "", "/cpu", "/cpu/format", "/cpu/caps", "/cpu/events", "/system",
				      "/system/cpu", "/devices" };
/* the msr PMU's (arch/x86/events/msr.c: PMU_FORMAT_ATTR event, the tsc
 * event's string), made only if the host has an msr PMU */
static const struct {
	const HChar *path, *text;
} msr_files[] = {
	{ "msr/format/event", "config:0-63\n" },
	{ "msr/events/tsc", "event=0x00\n" },
	{ "msr/type", NULL },
};
static const HChar *msr_dirs[] = { "/msr", "/msr/format", "/msr/events" };
/* the software context's PMUs: links to the host's */
static const HChar *sw_pmus[] = { "breakpoint", "kprobe", "software", "tracepoint", "uprobe" };
#define HOST_PMUS "/sys/bus/event_source/devices"

static Int sys_mkdir(const HChar *p)
{
	SysRes r = VG_(do_syscall)(__NR_mkdir, (UWord)p, 0700, 0, 0, 0, 0, 0, 0);

	return sr_isError(r) ? -(Int)sr_Err(r) : 0;
}

static void sys_rmdir(const HChar *p)
{
	(void)VG_(do_syscall)(__NR_rmdir, (UWord)p, 0, 0, 0, 0, 0, 0, 0);
}

static Bool put(const HChar *p, const HChar *text)
{
	SysRes f = VG_(open)(p, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0400);

	if (sr_isError(f))
		return False;
	(void)VG_(write)((Int)sr_Res(f), text, (Int)VG_(strlen)(text));
	VG_(close)((Int)sr_Res(f));
	return True;
}

/* The host's PMU NAME's type file read into BUF (its text); False if the
 * host has no such PMU. */
static Bool host_type(const HChar *name, HChar *buf, Int len)
{
	HChar p[128];
	SysRes f;
	Int n;

	VG_(snprintf)(p, sizeof p, "%s/%s/type", HOST_PMUS, name);
	f = VG_(open)(p, VKI_O_RDONLY, 0);
	if (sr_isError(f))
		return False;
	n = VG_(read)((Int)sr_Res(f), buf, len - 1);
	VG_(close)((Int)sr_Res(f));
	if (n <= 0)
		return False;
	buf[n] = 0;
	return True;
}

/* devices/: cpu, msr (if the host has one: its type), links to the
 * host's software PMUs it has. */
static Bool build_devices(const HChar *top)
{
	HChar p[300], to[128], type[32];

	VG_(snprintf)(p, sizeof p, "%s/devices/cpu", top);
	if (sr_isError(VG_(do_syscall)(__NR_symlink, (UWord)"../cpu", (UWord)p, 0, 0, 0, 0, 0, 0)))
		return False;
	if (host_type("msr", type, sizeof type)) {
		for (UInt i = 0; i < sizeof msr_dirs / sizeof msr_dirs[0]; i++) {
			VG_(snprintf)(p, sizeof p, "%s%s", top, msr_dirs[i]);
			if (sys_mkdir(p) < 0)
				return False;
		}
		for (UInt i = 0; i < sizeof msr_files / sizeof msr_files[0]; i++) {
			VG_(snprintf)(p, sizeof p, "%s/%s", top, msr_files[i].path);
			if (!put(p, msr_files[i].text ? msr_files[i].text : type))
				return False;
		}
		VG_(snprintf)(p, sizeof p, "%s/devices/msr", top);
		if (sr_isError(VG_(do_syscall)(__NR_symlink, (UWord)"../msr", (UWord)p, 0, 0, 0, 0, 0, 0)))
			return False;
	}
	for (UInt i = 0; i < sizeof sw_pmus / sizeof sw_pmus[0]; i++) {
		if (!host_type(sw_pmus[i], type, sizeof type))
			continue;
		VG_(snprintf)(to, sizeof to, "%s/%s", HOST_PMUS, sw_pmus[i]);
		VG_(snprintf)(p, sizeof p, "%s/devices/%s", top, sw_pmus[i]);
		if (sr_isError(VG_(do_syscall)(__NR_symlink, (UWord)to, (UWord)p, 0, 0, 0, 0, 0, 0)))
			return False;
	}
	return True;
}

/* Build the tree under TOP; False on failure. */
static Bool build(const HChar *top)
{
	HChar p[300];

	for (UInt i = 0; i < sizeof sysfs_dirs / sizeof sysfs_dirs[0]; i++) {
		VG_(snprintf)(p, sizeof p, "%s%s", top, sysfs_dirs[i]);
		if (sys_mkdir(p) < 0)
			return False;
	}
	for (UInt i = 0; i < sizeof sysfs_files / sizeof sysfs_files[0]; i++) {
		const HChar *text = sysfs_files[i].text ? sysfs_files[i].text
					: nbk_ncpus() > 1 ? "0-1\n" : "0\n";

		VG_(snprintf)(p, sizeof p, "%s/%s", top, sysfs_files[i].path);
		if (!put(p, text))
			return False;
	}
	return build_devices(top) && nbk_topo_build(top) && nbk_cpuinfo_build(top);
}

static void unbuild(const HChar *top)
{
	HChar p[300];

	nbk_topo_unbuild(top);
	nbk_cpuinfo_unbuild(top);
	VG_(snprintf)(p, sizeof p, "%s/devices/cpu", top);
	VG_(unlink)(p);
	VG_(snprintf)(p, sizeof p, "%s/devices/msr", top);
	VG_(unlink)(p);
	for (UInt i = 0; i < sizeof sw_pmus / sizeof sw_pmus[0]; i++) {
		VG_(snprintf)(p, sizeof p, "%s/devices/%s", top, sw_pmus[i]);
		VG_(unlink)(p);
	}
	for (UInt i = 0; i < sizeof msr_files / sizeof msr_files[0]; i++) {
		VG_(snprintf)(p, sizeof p, "%s/%s", top, msr_files[i].path);
		VG_(unlink)(p);
	}
	for (Int i = (Int)(sizeof msr_dirs / sizeof msr_dirs[0]) - 1; i >= 0; i--) {
		VG_(snprintf)(p, sizeof p, "%s%s", top, msr_dirs[i]);
		sys_rmdir(p);
	}

	for (UInt i = 0; i < sizeof sysfs_files / sizeof sysfs_files[0]; i++) {
		VG_(snprintf)(p, sizeof p, "%s/%s", top, sysfs_files[i].path);
		VG_(unlink)(p);
	}
	for (Int i = (Int)(sizeof sysfs_dirs / sizeof sysfs_dirs[0]) - 1; i >= 0; i--) {
		VG_(snprintf)(p, sizeof p, "%s%s", top, sysfs_dirs[i]);
		sys_rmdir(p);
	}
}

/* KOP_SYSFS (buf, len): the tree's directory, made if absent; its
 * length.  DIR/cpu stands for /sys/bus/event_source/devices/cpu,
 * DIR/system/cpu/X for /sys/devices/system/cpu/X, DIR/system/node/X for
 * /sys/devices/system/node/X (nb_kern_topo.c), DIR/devices for
 * /sys/bus/event_source/devices. */
Word nbk_sysfs_dir(Addr buf, UWord len)
{
	static HChar dir[256];
	HChar tmp[280], probe[300];
	struct vg_stat st;

	if (!dir[0])
		VG_(snprintf)(dir, sizeof dir, "%s/nbsim-sysfs-%u-p4v5-%u-%s", VG_(tmpdir)(),
			      (UInt)nb_euid(), nbk_ncpus(), nb_cpu->name);
	VG_(snprintf)(probe, sizeof probe, "%s/system/cpu/present", dir);
	if (sr_isError(VG_(stat)(probe, &st))) {
		VG_(snprintf)(tmp, sizeof tmp, "%s.%d", dir, nb_pid());
		unbuild(tmp);
		if (!build(tmp) || VG_(rename)(tmp, dir) != 0)
			unbuild(tmp);           /* another nbsim made it first, or no TMPDIR */
	}
	if (!nbk_writable(buf, len) || len <= VG_(strlen)(dir))
		return -E_FAULT;
	VG_(strcpy)((HChar *)buf, dir);
	return (Word)VG_(strlen)(dir);
}
