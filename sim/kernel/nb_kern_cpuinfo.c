/*
 * nb_kern_cpuinfo.c - /proc/cpuinfo as the simulated program sees it: the
 * modelled part, as Linux 6.1 (Debian's kernel, x86-64) prints it, never
 * the host's CPUs.  lscpu, hwloc, CPython's platform, BLAS libraries'
 * dispatch and build scripts read it for the vendor, the model and the
 * flags; on the host they found an AMD or a recent Intel part with more
 * CPUs than the simulated machine has, while CPUID said Pentium 4.
 *
 * Mechanism: a file of the tree nb_kern_sysfs.c writes (DIR/proc/cpuinfo),
 * to which the preload library rewrites the path /proc/cpuinfo in the libc
 * calls (vg_preload_sysfs.c), as it does the topology's (nb_kern_topo.c).
 * Every value comes from the model's CPUID (sim/cpu/nb_cpu.c nb_cpuid), so
 * that what a program reads here and what the CPUID instruction answers
 * it never disagree.
 *
 * The layout is arch/x86/kernel/cpu/proc.c show_cpuinfo, one block per
 * logical processor (LP), a blank line after each:
 * - processor, vendor_id (leaf 0), cpu family 15, model, stepping (leaf 1
 *   EAX), model name (the brand string, leaves 80000002h-4h, its leading
 *   blanks removed: common.c get_model_name); no microcode line (printed
 *   only when the revision is not 0, and the model's IA32_BIOS_SIGN_ID
 *   reads 0);
 * - cpu MHz: cpu_khz, the model's nominal clock ("%u.%03u");
 * - cache size: intel.c/cacheinfo.c init_intel_cacheinfo: the L3 if any,
 *   else the L2, from leaf 4 where the maximum leaf reaches it, else from
 *   leaf 2's descriptors (80000006h ECX[31:16] holds the same L2 size);
 * - physical id 0, siblings (the LPs of the package: 2 under --ht=yes),
 *   core id 0, cpu cores 1, apicid and initial apicid the LP's initial
 *   APIC ID (leaf 1 EBX[31:24]) (nb_kern_topo.c explains these ids);
 * - fpu, fpu_exception, wp "yes" and cpuid level (leaf 0 EAX): the 64-bit
 *   show_cpuinfo_misc;
 * - flags: the names of arch/x86/include/asm/cpufeatures.h (the tables
 *   below) for the CPUID bits the part sets, word by word as the kernel
 *   walks its capability words, then the kernel's own (word 3, 7):
 *   constant_tsc (intel.c early_init_intel: family 15 from model 3),
 *   pebs and bts (init_intel: DS present and IA32_MISC_ENABLE's bits 11
 *   and 12, BTS/PEBS unavailable, clear: sim/pmu/pmu.h), nopl (common.c
 *   detect_nopl: always on x86-64), cpuid, and pti (the page-table
 *   isolation that Meltdown, below, turns on);
 * - bugs: common.c cpu_set_bug_bits.  No family-15 part is in
 *   cpu_vuln_whitelist, and a NetBurst has no IA32_ARCH_CAPABILITIES, so
 *   cpu_meltdown, spectre_v1, spectre_v2, spec_store_bypass, l1tf, mds,
 *   swapgs, itlb_multihit and mmio_unknown are set; the bugs that need a
 *   listed model (srbds, mmio_stale_data, retbleed, gds), TSX (taa),
 *   eIBRS (eibrs_pbrsb, bhi) or another vendor are not;
 * - bogomips: loops_per_jiffy from the TSC's rate, twice the MHz;
 * - clflush size (leaf 1 EBX[15:8] x 8), cache_alignment (intel.c
 *   init_intel on x86-64: twice the clflush size on family 15), address
 *   sizes (80000008h EAX; 36 and 48 bits, the x86-64 defaults, where the
 *   leaf is absent), power management (80000007h EDX: none).
 */
#include "nb_kern_int.h"

/* cpufeatures.h names of the CPUID words' bits (NULL: reserved, or shown
 * by no name); only the low bits any family-15 part can set are listed */
static const HChar *const w_1edx[32] = {         /* word 0: CPUID 1 EDX */
	"fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce",
	"cx8", "apic", NULL, "sep", "mtrr", "pge", "mca", "cmov",
	"pat", "pse36", "pn", "clflush", NULL, "dts", "acpi", "mmx",
	"fxsr", "sse", "sse2", "ss", "ht", "tm", "ia64", "pbe",
};
static const HChar *const w_x1edx[32] = {        /* word 1: 80000001h EDX */
	[11] = "syscall", [19] = "mp", [20] = "nx", [22] = "mmxext", [25] = "fxsr_opt",
	[26] = "pdpe1gb", [27] = "rdtscp", [29] = "lm", [30] = "3dnowext", [31] = "3dnow",
};
static const HChar *const w_1ecx[32] = {         /* word 4: CPUID 1 ECX */
	"pni", "pclmulqdq", "dtes64", "monitor", "ds_cpl", "vmx", "smx", "est",
	"tm2", "ssse3", "cid", "sdbg", "fma", "cx16", "xtpr", "pdcm",
	NULL, "pcid", "dca", "sse4_1", "sse4_2", "x2apic", "movbe", "popcnt",
	"tsc_deadline_timer", "aes", "xsave", NULL, "avx", "f16c", "rdrand", "hypervisor",
};
static const HChar *const w_x1ecx[32] = {        /* word 6: 80000001h ECX */
	"lahf_lm", "cmp_legacy", "svm", "extapic", "cr8_legacy", "abm", "sse4a", "misalignsse",
	"3dnowprefetch", "osvw", "ibs", "xop", "skinit", "wdt",
};

static const HChar bugs[] = "cpu_meltdown spectre_v1 spectre_v2 spec_store_bypass l1tf mds swapgs "
			    "itlb_multihit mmio_unknown";

struct buf {
	HChar *p;
	UInt n, cap;
	Bool full;
};

static void add(struct buf *b, const HChar *s)
{
	UInt k = (UInt)VG_(strlen)(s);

	if (b->n + k >= b->cap) {
		b->full = True;
		return;
	}
	VG_(memcpy)(b->p + b->n, s, k);
	b->n += k;
	b->p[b->n] = 0;
}

static void names(struct buf *b, const HChar *const t[32], uint32_t bits)
{
	for (UInt i = 0; i < 32; i++)
		if ((bits >> i & 1) && t[i]) {
			add(b, " ");
			add(b, t[i]);
		}
}

/* leaf 2's L2 and L3 sizes in KB (SDM Vol. 2A, Table "Encoding of CPUID
 * Leaf 2 Descriptors": the descriptors the models use, nb_cpu.c) */
static void leaf2_sizes(const uint32_t r[4], UInt *l2, UInt *l3)
{
	for (UInt i = 0; i < 16; i++) {
		UInt d = r[i / 4] >> (8 * (i % 4)) & 0xff;

		if (i == 0 || (r[i / 4] >> 31))         /* the count byte; a register without descriptors */
			continue;
		switch (d) {
		case 0x7a: *l2 = 256; break;
		case 0x7b: *l2 = 512; break;
		case 0x7c: *l2 = 1024; break;
		case 0x7d: *l2 = 2048; break;
		case 0x25: *l3 = 2048; break;
		default: break;
		}
	}
}

/* the size in KB of the largest cache level CPUID describes */
static UInt cache_kb(UInt lp)
{
	uint32_t r[4];
	UInt l2 = 0, l3 = 0;

	nb_cpuid(nb_cpu, clo_ht, lp, 0, 0, r);
	if (r[0] >= 4) {
		for (uint32_t sub = 0;; sub++) {
			UInt kb;

			nb_cpuid(nb_cpu, clo_ht, lp, 4, sub, r);
			if (!(r[0] & 31))
				break;
			kb = ((r[1] >> 22) + 1) * ((r[1] >> 12 & 0x3ff) + 1) * ((r[1] & 0xfff) + 1) *
			     (r[2] + 1) / 1024;
			if ((r[0] >> 5 & 7) == 2)
				l2 = kb;
			else if ((r[0] >> 5 & 7) == 3)
				l3 = kb;
		}
	} else {
		nb_cpuid(nb_cpu, clo_ht, lp, 2, 0, r);
		leaf2_sizes(r, &l2, &l3);
	}
	return l3 ? l3 : l2;
}

static void block(struct buf *b, UInt lp)
{
	uint32_t r0[4], r1[4], x0[4], x1[4], x8[4] = { 0 }, br[12];
	HChar line[400], brand[49];
	const HChar *model;
	UInt k;

	nb_cpuid(nb_cpu, clo_ht, lp, 0, 0, r0);
	nb_cpuid(nb_cpu, clo_ht, lp, 1, 0, r1);
	nb_cpuid(nb_cpu, clo_ht, lp, 0x80000000u, 0, x0);
	nb_cpuid(nb_cpu, clo_ht, lp, 0x80000001u, 0, x1);
	if (x0[0] >= 0x80000008u)
		nb_cpuid(nb_cpu, clo_ht, lp, 0x80000008u, 0, x8);
	for (k = 0; k < 3; k++)
		nb_cpuid(nb_cpu, clo_ht, lp, 0x80000002u + k, 0, br + 4 * k);
	VG_(memcpy)(brand, br, 48);
	brand[48] = 0;
	for (model = brand; *model == ' '; model++)
		;
	{
		HChar vendor[13];

		VG_(memcpy)(vendor, &r0[1], 4);
		VG_(memcpy)(vendor + 4, &r0[3], 4);
		VG_(memcpy)(vendor + 8, &r0[2], 4);
		vendor[12] = 0;
		VG_(snprintf)(line, sizeof line,
			      "processor\t: %u\nvendor_id\t: %s\ncpu family\t: %u\nmodel\t\t: %u\n"
			      "model name\t: %s\nstepping\t: %u\n",
			      lp, vendor, r1[0] >> 8 & 15, r1[0] >> 4 & 15, model, r1[0] & 15);
	}
	add(b, line);
	VG_(snprintf)(line, sizeof line,
		      "cpu MHz\t\t: %u.000\ncache size\t: %u KB\nphysical id\t: 0\nsiblings\t: %u\n"
		      "core id\t\t: 0\ncpu cores\t: 1\napicid\t\t: %u\ninitial apicid\t: %u\n"
		      "fpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: %u\nwp\t\t: yes\nflags\t\t:",
		      nb_cpu->mhz, cache_kb(lp), nbk_ncpus(), r1[1] >> 24, r1[1] >> 24, r0[0]);
	add(b, line);
	names(b, w_1edx, r1[3]);
	names(b, w_x1edx, x1[3]);
	/* word 3, the kernel's: constant_tsc, pebs, bts, nopl, cpuid */
	if ((r1[0] >> 4 & 15) >= 3)
		add(b, " constant_tsc");
	if (r1[3] >> 21 & 1)
		add(b, " pebs bts");
	add(b, " nopl cpuid");
	names(b, w_1ecx, r1[2]);
	names(b, w_x1ecx, x1[2]);
	add(b, " pti");                 /* word 7: Meltdown's page-table isolation */
	add(b, "\nbugs\t\t: ");
	add(b, bugs);
	VG_(snprintf)(line, sizeof line,
		      "\nbogomips\t: %u.00\nclflush size\t: %u\ncache_alignment\t: %u\n"
		      "address sizes\t: %u bits physical, %u bits virtual\npower management:\n\n",
		      2 * nb_cpu->mhz, (r1[1] >> 8 & 0xff) * 8, (r1[1] >> 8 & 0xff) * 16,
		      x8[0] ? x8[0] & 0xff : 36, x8[0] ? x8[0] >> 8 & 0xff : 48);
	add(b, line);
}

/* TOP/proc/cpuinfo; False on failure */
Bool nbk_cpuinfo_build(const HChar *top)
{
	HChar p[300], text[4096];
	struct buf b = { text, 0, sizeof text, False };
	SysRes f;

	text[0] = 0;
	for (UInt lp = 0; lp < nbk_ncpus(); lp++)
		block(&b, lp);
	if (b.full)
		return False;
	VG_(snprintf)(p, sizeof p, "%s/proc", top);
	if (sr_isError(VG_(do_syscall)(__NR_mkdir, (UWord)p, 0700, 0, 0, 0, 0, 0, 0)))
		return False;
	VG_(snprintf)(p, sizeof p, "%s/proc/cpuinfo", top);
	f = VG_(open)(p, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0444);
	if (sr_isError(f))
		return False;
	(void)VG_(write)((Int)sr_Res(f), text, (Int)b.n);
	VG_(close)((Int)sr_Res(f));
	return True;
}

void nbk_cpuinfo_unbuild(const HChar *top)
{
	HChar p[300];

	VG_(snprintf)(p, sizeof p, "%s/proc/cpuinfo", top);
	VG_(unlink)(p);
	VG_(snprintf)(p, sizeof p, "%s/proc", top);
	(void)VG_(do_syscall)(__NR_rmdir, (UWord)p, 0, 0, 0, 0, 0, 0, 0);
}
