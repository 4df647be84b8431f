/*
 * nb_kern_topo.c - the CPU topology the simulated program sees in sysfs:
 * /sys/devices/system/cpu (the cpuN directories, their topology/, cache/,
 * online and node links) and /sys/devices/system/node, as Linux 6.1
 * (Debian's kernel) shows the simulated part: one logical processor
 * (LP), or with --ht=yes two LPs of one core of one package; never the
 * host's CPUs, caches or NUMA nodes.
 *
 * Who reads them, and how: libgomp's places (OMP_PLACES=cores, sockets,
 * ll_caches, numa_domains: config/linux/affinity.c, fopen of
 * cpuN/topology/thread_siblings_list, core_siblings_list,
 * cache/indexK/level and shared_cpu_list, node/online, nodeN/cpulist);
 * hwloc (openat of absolute paths, faccessat, and the cpu directory
 * walked with readdir to find the cpuN); PAPI's sysdetect and
 * linux-common (access of cpuN and nodeN in turn until one is missing,
 * fopen of topology/thread_siblings and core_siblings, opendir and
 * readdir of cpu0/cache).  All call libc through its exported functions,
 * which the preload library wraps.
 *
 * Mechanism: these files are part of the tree nb_kern_sysfs.c writes
 * (DIR/system/cpu, DIR/system/node), and the preload library rewrites
 * every path under /sys/devices/system/cpu and /sys/devices/system/node
 * to it (vg_preload_sysfs.c: open, openat, fopen, opendir, access,
 * faccessat, stat).  Why a tree and not a descriptor replaced after the
 * host's open (nb_cpulist.c's memfd): a cpuN the simulated machine lacks
 * must not exist (ENOENT, as on a machine with that many CPUs) while the
 * host has it, a file the host lacks must exist (cpu1 under --ht=yes on a
 * one-CPU host; cache/ on a host whose kernel shows none), and the cpu
 * directory is listed with readdir; a tool can neither change a system
 * call's path nor its result, and a memfd lists nothing.  What the
 * simulated kernel does not model is the host's: every other entry of
 * /sys/devices/system/cpu, cpuN and node0 (cpufreq, cpuidle,
 * vulnerabilities, meminfo, ...) is a symbolic link to the host's (cpuN
 * to the host's cpuN, or cpu0 where the host has no cpuN), but node0's
 * memory blocks (memoryN).  glibc's own
 * opens of these paths bypass the wrappers: it opens only online,
 * possible and present (get_nprocs, get_nprocs_conf), which nb_cpulist.c
 * serves.
 *
 * Content, after Linux 6.1 on a Pentium 4 (a Hyper-Threading Pentium 4 is
 * two logical processors of one core in one package, sharing its ESCRs
 * and CCCRs: DESIGN.md "Hyper-Threading"; every LP's initial APIC ID is
 * its number, CPUID.1:EBX[31:24], sim/cpu/nb_cpu.c):
 * - topology/ (drivers/base/topology.c; x86 defines the die and cluster
 *   ids, so TOPOLOGY_DIE_SYSFS and TOPOLOGY_CLUSTER_SYSFS show die_* and
 *   cluster_*; ppin is hidden for a CPU without PPIN): physical_package_id
 *   and core_id 0 for both LPs.  arch/x86/kernel/cpu/common.c detect_ht:
 *   with HTT set, smp_num_siblings = CPUID.1:EBX[23:16] = 2, the package
 *   id is the APIC ID >> get_count_order(2) = 0; siblings per core 2 / 1
 *   core (x86_max_cores, CPUID.4:EAX[31:26] + 1, or 1 without leaf 4),
 *   the core id (APIC ID >> 1) & 0 = 0.  Without HT (no HTT) detect_ht
 *   returns early and the package id stays the initial APIC ID, 0.  die_id
 *   0 (cpu_die_id without leaf 1Fh).  cluster_id is the L2's id
 *   (cpu_l2c_id, set by init_intel_cacheinfo from leaf 4: APIC ID with
 *   the bits of the L2's sharing threads cleared, 0) or BAD_APICID 65535
 *   on a part without leaf 4 (Willamette, Northwood, Gallatin: maximum
 *   leaf 2).  Every mask is all the LPs: arch/x86/kernel/smpboot.c
 *   set_cpu_sibling_map links two LPs in the sibling mask when match_smt
 *   (the same package and core id), and in the cluster (match_l2c: the
 *   same L2 id, or match_smt without one), llc and core (package) masks;
 *   thread_siblings = core_cpus, core_siblings = package_cpus = die_cpus.
 *   The masks print as bitmaps of nr_cpu_ids bits ("1", "3"), the _list
 *   files as lists ("0", "0-1").
 * - cache/indexK (arch/x86/kernel/cpu/cacheinfo.c, drivers/base/cacheinfo.c):
 *   one index per CPUID leaf 4 subleaf until type 0, on the parts whose
 *   maximum leaf reaches 4 (Prescott, Cedar Mill); init_cache_level finds
 *   no leaves on the others and the kernel makes no cache/ directory.
 *   level, type (Data, Instruction, Unified), coherency_line_size,
 *   ways_of_associativity, physical_line_partition, number_of_sets
 *   (leaf 4 fields + 1), size ("%uK" of their product), id (APIC ID >>
 *   get_count_order(threads sharing), get_cache_id), shared_cpu_map and
 *   _list (the LPs whose APIC IDs agree above those bits: both under HT,
 *   leaf 4's EAX[25:14] = 1).
 * - online: "1" in cpu1 only; cpu0 has none (arch/x86/kernel/topology.c
 *   arch_register_cpu makes CPU 0 hotpluggable only with
 *   BOOTPARAM_HOTPLUG_CPU0, which Debian's config lacks, and the driver
 *   core adds "online" to hotpluggable devices only).
 * - smt/control "on" and smt/active 1 with HT, "notsupported" and 0
 *   without (kernel/cpu.c: cpu_smt_control is CPU_SMT_NOT_SUPPORTED
 *   when the CPU has no siblings);
 * - node0 in each cpuN and node/node0 (CONFIG_NUMA: one node on a
 *   machine without SRAT): node/online, possible, has_cpu, has_memory,
 *   has_normal_memory "0"; node0/cpulist, cpumap the LPs, distance "10",
 *   cpuN links to ../../cpu/cpuN.
 */
#include "nb_kern_int.h"

/* Linux's values (asm-generic/fcntl.h, include/linux/fs_types.h: DT_*) */
#define O_DIRECTORY_ 0200000
#define O_NOFOLLOW_ 0400000
#define DT_DIR_ 4
#define DT_LNK_ 10

#define HOST_CPU "/sys/devices/system/cpu"
#define HOST_NODE "/sys/devices/system/node"

static Int mk(const HChar *p)
{
	SysRes r = VG_(do_syscall)(__NR_mkdir, (UWord)p, 0700, 0, 0, 0, 0, 0, 0);

	return sr_isError(r) ? -1 : 0;
}

static Bool lnk(const HChar *to, const HChar *p)
{
	return !sr_isError(VG_(do_syscall)(__NR_symlink, (UWord)to, (UWord)p, 0, 0, 0, 0, 0, 0));
}

static Bool put(const HChar *dir, const HChar *name, const HChar *text)
{
	HChar p[400];
	SysRes f;

	VG_(snprintf)(p, sizeof p, "%s/%s", dir, name);
	f = VG_(open)(p, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0400);
	if (sr_isError(f))
		return False;
	(void)VG_(write)((Int)sr_Res(f), text, (Int)VG_(strlen)(text));
	VG_(close)((Int)sr_Res(f));
	return True;
}

/* NAME is "PREFIX" followed by decimal digits only */
static Bool numbered(const HChar *name, const HChar *prefix)
{
	SizeT k = VG_(strlen)(prefix);

	if (VG_(strncmp)(name, prefix, k) || !name[k])
		return False;
	for (const HChar *c = name + k; *c; c++)
		if (*c < '0' || *c > '9')
			return False;
	return True;
}

/* Link every entry of the host's directory FROM into DIR (as DIR/name ->
 * FROM/name), except those SKIP refuses: what the simulated kernel does
 * not model stays the host's.  A host without FROM links nothing. */
static Bool link_host(const HChar *from, const HChar *dir, Bool (*skip)(const HChar *))
{
	SysRes d = VG_(open)(from, VKI_O_RDONLY | O_DIRECTORY_, 0);
	HChar buf[4096] __attribute__((aligned(8)));
	Bool ok = True;
	Int n;

	if (sr_isError(d))
		return True;
	while (ok && (n = VG_(getdents64)((Int)sr_Res(d), (struct vki_dirent64 *)buf, sizeof buf)) > 0) {
		for (Int off = 0; off < n;) {
			struct vki_dirent64 *e = (struct vki_dirent64 *)(buf + off);
			HChar to[300], p[400];

			off += e->d_reclen;
			if (!VG_(strcmp)(e->d_name, ".") || !VG_(strcmp)(e->d_name, "..") || skip(e->d_name))
				continue;
			VG_(snprintf)(to, sizeof to, "%s/%s", from, e->d_name);
			VG_(snprintf)(p, sizeof p, "%s/%s", dir, e->d_name);
			if (!lnk(to, p)) {
				ok = False;
				break;
			}
		}
	}
	VG_(close)((Int)sr_Res(d));
	return ok;
}

static Bool skip_cpu_top(const HChar *n)
{
	return numbered(n, "cpu") || !VG_(strcmp)(n, "online") || !VG_(strcmp)(n, "possible") ||
	       !VG_(strcmp)(n, "present") || !VG_(strcmp)(n, "smt");
}

static Bool skip_cpu_n(const HChar *n)
{
	return !VG_(strcmp)(n, "topology") || !VG_(strcmp)(n, "cache") || !VG_(strcmp)(n, "online") ||
	       numbered(n, "node");
}

static Bool skip_node_top(const HChar *n)
{
	return numbered(n, "node") || !VG_(strcmp)(n, "online") || !VG_(strcmp)(n, "possible") ||
	       !VG_(strcmp)(n, "has_cpu") || !VG_(strcmp)(n, "has_memory") ||
	       !VG_(strcmp)(n, "has_normal_memory");
}

/* (the host's memory blocks, memoryN, are left out: a link each, two
 * hundred on a host with 6 GB, was most of the tree's making) */
static Bool skip_node0(const HChar *n)
{
	return numbered(n, "cpu") || !VG_(strcmp)(n, "cpulist") || !VG_(strcmp)(n, "cpumap") ||
	       !VG_(strcmp)(n, "distance") || numbered(n, "memory");
}

/* The LPs as a bitmap of nr_cpu_ids (the LPs') bits and as a list. */
static const HChar *lp_map(Bool list)
{
	if (nbk_ncpus() > 1)
		return list ? "0-1\n" : "3\n";
	return list ? "0\n" : "1\n";
}

/* Linux's get_count_order: ceil(log2(n)) */
static UInt count_order(UInt n)
{
	UInt o = 0;

	while ((1u << o) < n)
		o++;
	return o;
}

/* cpuN/cache: one indexK per leaf 4 subleaf, as cacheinfo.c decodes it */
static Bool build_cache(const HChar *cpu, UInt lp)
{
	static const HChar *types[] = { "", "Data", "Instruction", "Unified" };
	HChar dir[400], t[64];
	uint32_t r[4];

	nb_cpuid(nb_cpu, clo_ht, lp, 0, 0, r);
	if (r[0] < 4)
		return True;    /* no leaf 4: no cache leaves, no cache/ */
	VG_(snprintf)(dir, sizeof dir, "%s/cache", cpu);
	if (mk(dir) < 0)
		return False;
	for (UInt sub = 0; sub < 8; sub++) {
		HChar idx[420];
		UInt type, level, line, parts, ways, sets, share, msb, apic;
		Bool ok = True;

		nb_cpuid(nb_cpu, clo_ht, lp, 4, sub, r);
		type = r[0] & 0x1f;
		if (type == 0 || type > 3)
			break;
		level = (r[0] >> 5) & 7;
		share = ((r[0] >> 14) & 0xfff) + 1;
		line = (r[1] & 0xfff) + 1;
		parts = ((r[1] >> 12) & 0x3ff) + 1;
		ways = ((r[1] >> 22) & 0x3ff) + 1;
		sets = r[2] + 1;
		msb = count_order(share);
		apic = clo_ht ? lp : 0;
		VG_(snprintf)(idx, sizeof idx, "%s/index%u", dir, sub);
		if (mk(idx) < 0)
			return False;
		VG_(snprintf)(t, sizeof t, "%u\n", level);
		ok &= put(idx, "level", t);
		VG_(snprintf)(t, sizeof t, "%s\n", types[type]);
		ok &= put(idx, "type", t);
		VG_(snprintf)(t, sizeof t, "%u\n", line);
		ok &= put(idx, "coherency_line_size", t);
		VG_(snprintf)(t, sizeof t, "%u\n", ways);
		ok &= put(idx, "ways_of_associativity", t);
		VG_(snprintf)(t, sizeof t, "%u\n", parts);
		ok &= put(idx, "physical_line_partition", t);
		VG_(snprintf)(t, sizeof t, "%u\n", sets);
		ok &= put(idx, "number_of_sets", t);
		VG_(snprintf)(t, sizeof t, "%uK\n", line * parts * ways * sets >> 10);
		ok &= put(idx, "size", t);
		VG_(snprintf)(t, sizeof t, "%u\n", apic >> msb);
		ok &= put(idx, "id", t);
		/* the LPs whose APIC IDs agree with this one's above msb */
		if (nbk_ncpus() > 1 && msb >= 1) {
			ok &= put(idx, "shared_cpu_map", "3\n");
			ok &= put(idx, "shared_cpu_list", "0-1\n");
		} else {
			VG_(snprintf)(t, sizeof t, "%x\n", 1u << lp);
			ok &= put(idx, "shared_cpu_map", t);
			VG_(snprintf)(t, sizeof t, "%u\n", lp);
			ok &= put(idx, "shared_cpu_list", t);
		}
		if (!ok)
			return False;
	}
	return True;
}

static Bool build_cpu(const HChar *top, UInt lp, UInt host_cpus)
{
	HChar cpu[300], topo[320], from[64];
	uint32_t r[4];
	Bool ok = True;

	VG_(snprintf)(cpu, sizeof cpu, "%s/system/cpu/cpu%u", top, lp);
	VG_(snprintf)(topo, sizeof topo, "%s/topology", cpu);
	if (mk(cpu) < 0 || mk(topo) < 0)
		return False;
	nb_cpuid(nb_cpu, clo_ht, lp, 0, 0, r);
	ok &= put(topo, "physical_package_id", "0\n");
	ok &= put(topo, "die_id", "0\n");
	ok &= put(topo, "core_id", "0\n");
	ok &= put(topo, "cluster_id", r[0] >= 4 ? "0\n" : "65535\n");
	{
		static const HChar *masks[] = { "thread_siblings", "core_cpus", "cluster_cpus",
						"core_siblings", "die_cpus", "package_cpus" };
		for (UInt i = 0; i < sizeof masks / sizeof masks[0]; i++) {
			HChar l[40];

			VG_(snprintf)(l, sizeof l, "%s_list", masks[i]);
			ok &= put(topo, masks[i], lp_map(False));
			ok &= put(topo, l, lp_map(True));
		}
	}
	if (lp > 0)
		ok &= put(cpu, "online", "1\n");
	VG_(snprintf)(topo, sizeof topo, "%s/node0", cpu);
	ok &= lnk("../../node/node0", topo);
	if (!ok || !build_cache(cpu, lp))
		return False;
	VG_(snprintf)(from, sizeof from, "%s/cpu%u", HOST_CPU, lp < host_cpus ? lp : 0);
	return link_host(from, cpu, skip_cpu_n);
}

static Bool build_node(const HChar *top)
{
	HChar node[300], n0[320], p[340], to[40];
	Bool ok = True;

	VG_(snprintf)(node, sizeof node, "%s/system/node", top);
	VG_(snprintf)(n0, sizeof n0, "%s/node0", node);
	if (mk(node) < 0 || mk(n0) < 0)
		return False;
	ok &= put(node, "online", "0\n");
	ok &= put(node, "possible", "0\n");
	ok &= put(node, "has_cpu", "0\n");
	ok &= put(node, "has_memory", "0\n");
	ok &= put(node, "has_normal_memory", "0\n");
	ok &= put(n0, "cpulist", lp_map(True));
	ok &= put(n0, "cpumap", lp_map(False));
	ok &= put(n0, "distance", "10\n");
	for (UInt lp = 0; lp < nbk_ncpus(); lp++) {
		VG_(snprintf)(p, sizeof p, "%s/cpu%u", n0, lp);
		VG_(snprintf)(to, sizeof to, "../../cpu/cpu%u", lp);
		ok &= lnk(to, p);
	}
	return ok && link_host(HOST_NODE, node, skip_node_top) &&
	       link_host(HOST_NODE "/node0", n0, skip_node0);
}

/* The host's CPUs with a cpuN directory (cpu0, cpu1, ... until a gap). */
static UInt host_cpus(void)
{
	struct vg_stat st;
	HChar p[64];
	UInt n = 0;

	for (;; n++) {
		VG_(snprintf)(p, sizeof p, "%s/cpu%u", HOST_CPU, n);
		if (sr_isError(VG_(stat)(p, &st)))
			return n;
	}
}

/* The topology under TOP (whose system/cpu exists); False on failure. */
Bool nbk_topo_build(const HChar *top)
{
	HChar p[300];
	UInt hn = host_cpus();

	for (UInt lp = 0; lp < nbk_ncpus(); lp++)
		if (!build_cpu(top, lp, hn))
			return False;
	/* smt/ (kernel/cpu.c): "on" and active with two siblings; a part
	 * without HT has no SMT to control */
	VG_(snprintf)(p, sizeof p, "%s/system/cpu/smt", top);
	if (mk(p) < 0 || !put(p, "control", clo_ht ? "on\n" : "notsupported\n") ||
	    !put(p, "active", clo_ht ? "1\n" : "0\n"))
		return False;
	VG_(snprintf)(p, sizeof p, "%s/system/cpu", top);
	return build_node(top) && link_host(HOST_CPU, p, skip_cpu_top);
}

/* Remove the entries of directory PATH (only its links if LINKS_ONLY),
 * directories with their content, never following a link. */
static void rm_entries(const HChar *path, Bool links_only)
{
	SysRes d = VG_(open)(path, VKI_O_RDONLY | O_DIRECTORY_ | O_NOFOLLOW_, 0);
	HChar buf[4096] __attribute__((aligned(8)));
	Int n;

	if (sr_isError(d))
		return;
	while ((n = VG_(getdents64)((Int)sr_Res(d), (struct vki_dirent64 *)buf, sizeof buf)) > 0) {
		Bool any = False;

		for (Int off = 0; off < n;) {
			struct vki_dirent64 *e = (struct vki_dirent64 *)(buf + off);
			HChar p[400];

			off += e->d_reclen;
			if (!VG_(strcmp)(e->d_name, ".") || !VG_(strcmp)(e->d_name, "..") ||
			    (links_only && e->d_type != DT_LNK_))
				continue;
			VG_(snprintf)(p, sizeof p, "%s/%s", path, e->d_name);
			if (e->d_type == DT_DIR_) {
				rm_entries(p, False);
				(void)VG_(do_syscall)(__NR_rmdir, (UWord)p, 0, 0, 0, 0, 0, 0, 0);
			} else {
				VG_(unlink)(p);
			}
			any = True;
		}
		if (!any)
			break;
		/* entries removed: read the directory again from its start */
		VG_(lseek)((Int)sr_Res(d), 0, VKI_SEEK_SET);
	}
	VG_(close)((Int)sr_Res(d));
}

static void rm_tree(const HChar *path)
{
	rm_entries(path, False);
	(void)VG_(do_syscall)(__NR_rmdir, (UWord)path, 0, 0, 0, 0, 0, 0, 0);
}

/* Undo nbk_topo_build under TOP (a partly built tree too). */
void nbk_topo_unbuild(const HChar *top)
{
	HChar p[300];

	VG_(snprintf)(p, sizeof p, "%s/system/node", top);
	rm_tree(p);
	VG_(snprintf)(p, sizeof p, "%s/system/cpu/smt", top);
	rm_tree(p);
	for (UInt lp = 0; lp < nbk_ncpus(); lp++) {
		VG_(snprintf)(p, sizeof p, "%s/system/cpu/cpu%u", top, lp);
		rm_tree(p);
	}
	/* the links to the host's entries beside them (not the CPU lists,
	 * which nb_kern_sysfs.c's unbuild removes with its own files) */
	VG_(snprintf)(p, sizeof p, "%s/system/cpu", top);
	rm_entries(p, True);
}
