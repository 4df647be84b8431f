/*
 * nb_cpu.c - the modelled NetBurst parts (see nb_cpu.h and README.md).
 *
 * Sources:
 *  [HIN01] G. Hinton et al., "The Microarchitecture of the Pentium 4
 *          Processor", Intel Technology Journal Q1 2001: 20-stage
 *          misprediction pipeline, 4K-entry BTB, 16-entry return stack,
 *          3 uops retired per cycle, 8 KB L1 data cache, 12K-uop trace cache.
 *  [PRE04] Intel, "Intel Pentium 4 Processor on 90 nm Process" datasheet and
 *          IA-32 Optimization Reference Manual (2004), sec. 1: Prescott has a
 *          31-stage pipeline, 16 KB L1D, 1 MB L2; Cedar Mill (65 nm) 2 MB L2.
 *  [SDM2]  Intel SDM Vol. 2A, CPUID: leaf 1 feature bits, leaf 2 cache
 *          descriptor values, brand string leaves, extended leaves; leaf 4
 *          "Deterministic Cache Parameters" (EAX type/level/self-init,
 *          threads sharing - 1 in 25:14, cores - 1 in 31:26; EBX line - 1,
 *          partitions - 1, ways - 1; ECX sets - 1; type 0 ends the list);
 *          "If a value entered for CPUID.EAX is higher than the maximum
 *          input value for basic or extended function for that processor
 *          then the data for the highest basic information leaf is
 *          returned" (so leaf 0Bh on a part whose maximum is 5 answers
 *          leaf 5, EBX = 64: leaf 0Bh is absent on every NetBurst part).
 *  [DUMP]  CPUID dumps of real parts: Willamette F12, maximum leaf 2 and
 *          extended 80000004h (Bochs cpudb p4_willamette.cc); Pentium 4
 *          F43 (Prescott 2 MB), maximum leaf 5, leaf 4 = 00004121/
 *          01C0003F/0000001F and 00004143/01C0103F/000007FF then type 0,
 *          leaf 5 = 40/40/0/0, 80000001h EDX 20100800, 80000006h ECX
 *          08006040, 80000008h EAX 3024 (VirtualBox cpus/
 *          Intel_Pentium_4_3_00GHz.h, VBoxCpuReport 2013); F65 (65 nm,
 *          the Cedar Mill core), maximum leaf 6, leaf 6 = 0, the same
 *          leaf 4 with the L2 of 2048 sets, 80000001h ECX bit 0 (LAHF in
 *          64-bit mode) (CPU-Z report of a Pentium D 3.00 GHz, F.6.5).
 *  Values marked "model parameter" are our choices, not published facts.
 */
#include "nb_cpu.h"

/* leaf-2 descriptor bytes [SDM2 Table "Encoding of CPUID Leaf 2 Descriptors"]:
 *  0x01 (count), 0x50 ITLB 64 entries, 0x5b DTLB 64 entries,
 *  0x66 L1D 8 KB 4-way 64 B, 0x60 L1D 16 KB 8-way 64 B,
 *  0x70 trace cache 12K uops 8-way, 0x7a/0x7b/0x7c/0x7d L2 256 KB/512 KB/
 *  1 MB/2 MB 8-way 64 B sectored, 0x25 L3 2 MB 8-way 64 B sectored,
 *  0x40 no L3. */
const struct nb_cpu_model nb_cpu_models[] = {
	{ "willamette", "Pentium 4 (Willamette, 180 nm)", 1, 2, 2000,
	  "Intel(R) Pentium(R) 4 CPU 2.00GHz", 0, 0, 2, 0x80000004u,
	  { 0x665b5001u, 0, 0, 0x007a7040u }, 8, 256, 0,
	  3, 20, 8, 4096, 16 },
	{ "northwood", "Pentium 4 (Northwood, 130 nm)", 2, 9, 2800,
	  "Intel(R) Pentium(R) 4 CPU 2.80GHz", 0, 0, 2, 0x80000004u,
	  { 0x665b5001u, 0, 0, 0x007b7040u }, 8, 512, 0,
	  3, 20, 8, 4096, 16 },
	{ "prescott", "Pentium 4 (Prescott, 90 nm, EM64T)", 3, 4, 3400,
	  "Intel(R) Pentium(R) 4 CPU 3.40GHz", 1, 1, 5, 0x80000008u,
	  { 0x605b5001u, 0, 0, 0x007c7040u }, 16, 1024, 0,
	  3, 31, 8, 4096, 16 },
	{ "cedarmill", "Pentium 4 (Cedar Mill, 65 nm, EM64T)", 6, 5, 3600,
	  "Intel(R) Pentium(R) 4 CPU 3.60GHz", 1, 1, 6, 0x80000008u,
	  { 0x605b5001u, 0, 0, 0x007d7040u }, 16, 2048, 0,
	  3, 31, 8, 4096, 16 },
	{ "xeonmp", "Xeon MP (Gallatin, 130 nm, 2 MB L3)", 2, 6, 2800,
	  "Intel(R) Xeon(TM) MP CPU 2.80GHz", 0, 0, 2, 0x80000004u,
	  { 0x665b5001u, 0, 0, 0x007b7025u }, 8, 512, 2048,
	  3, 20, 8, 4096, 16 },
};
const unsigned nb_num_cpu_models = sizeof nb_cpu_models / sizeof nb_cpu_models[0];

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

const struct nb_cpu_model *nb_cpu_find(const char *name)
{
	for (unsigned i = 0; i < nb_num_cpu_models; i++)
		if (streq(nb_cpu_models[i].name, name))
			return &nb_cpu_models[i];
	return 0;
}

static uint32_t pack4(const char *s)
{
	return (uint32_t)(unsigned char)s[0] | (uint32_t)(unsigned char)s[1] << 8 |
	       (uint32_t)(unsigned char)s[2] << 16 | (uint32_t)(unsigned char)s[3] << 24;
}

/* 48-byte brand string, right-justified with leading blanks as NetBurst
 * parts report it, NUL-terminated. */
static void brand48(const struct nb_cpu_model *m, char out[48])
{
	unsigned n = 0, pad;
	while (m->brand[n] && n < 47)
		n++;
	pad = 47 - n;
	for (unsigned i = 0; i < 48; i++)
		out[i] = i < pad ? ' ' : i < 47 ? m->brand[i - pad] : '\0';
}

/* Leaf 4, subleaf sub [SDM2, DUMP]: 0 the L1 data cache (8-way, 64 B
 * lines, one line per tag), 1 the unified L2 (8-way, 64 B lines, two
 * lines per sector: 2 "partitions"), then type 0 (no more caches; the
 * trace cache is not described by leaf 4).  Both are self-initialising
 * (bit 8) and shared by the two logical processors under Hyper-Threading
 * (bits 25:14 = 1), one core per package (bits 31:26 = 0). */
static void leaf4(const struct nb_cpu_model *m, int ht, uint32_t sub, uint32_t o[4])
{
	uint32_t share = (ht ? 1u : 0u) << 14;
	if (sub == 0) {
		o[0] = share | (1u << 8) | (1u << 5) | 1u;             /* L1 data */
		o[1] = (7u << 22) | (0u << 12) | 63u;
		o[2] = m->l1d_kb * 1024u / (8u * 64u) - 1u;
	} else if (sub == 1) {
		o[0] = share | (1u << 8) | (2u << 5) | 3u;             /* L2 unified */
		o[1] = (7u << 22) | (1u << 12) | 63u;
		o[2] = m->l2_kb * 1024u / (8u * 2u * 64u) - 1u;
	}
}

void nb_cpuid(const struct nb_cpu_model *m, int ht, unsigned lp, uint32_t leaf, uint32_t sub,
	      uint32_t o[4])
{
	o[0] = o[1] = o[2] = o[3] = 0;

	/* Out-of-range leaves answer like the highest basic leaf [SDM2]. */
	if ((leaf < 0x80000000u && leaf > m->max_leaf) ||
	    (leaf >= 0x80000000u && leaf > m->max_ext_leaf))
		leaf = m->max_leaf;

	switch (leaf) {
	case 0:
		o[0] = m->max_leaf;
		o[1] = pack4("Genu");
		o[3] = pack4("ineI");
		o[2] = pack4("ntel");
		break;
	case 1:
		/* family 15 (ext. family 0), model, stepping */
		o[0] = (15u << 8) | (m->model << 4) | m->stepping;
		/* CLFLUSH line 8*8 = 64 B (bits 8-15); logical processors
		 * per package (16-23); initial APIC ID (24-31): the logical
		 * processor, 0 or 1 [SDM Vol. 2A, CPUID leaf 1 EBX] */
		o[1] = (8u << 8) | ((ht ? 2u : 1u) << 16) | ((ht ? (lp & 1u) : 0u) << 24);
		/* ECX: SSE3 0, DTES64 2, MONITOR 3, DS-CPL 4, CNXT-ID 10,
		 * CMPXCHG16B 13, xTPR 14 on the 90/65 nm parts (0x641d);
		 * Northwood/Gallatin: CNXT-ID only. No SSSE3/SSE4/AVX. */
		if (m->sse3)
			o[2] = 0x641du;
		else if (m->model >= 2)
			o[2] = 1u << 10;
		/* EDX: FPU..SSE2, SS, TM: 0x2febfbff (no PSN 18, no HTT 28);
		 * PBE (31) from Northwood on; HTT (28) only when HT is
		 * modelled (real non-HT parts often set HTT with one logical
		 * processor; we keep it unambiguous).  0xbfebfbff = Northwood
		 * with HT, as reported by real parts. */
		o[3] = 0x2febfbffu;
		if (m->model >= 2)
			o[3] |= 1u << 31;
		if (ht)
			o[3] |= 1u << 28;
		break;
	case 2:
		o[0] = m->leaf2[0];
		o[1] = m->leaf2[1];
		o[2] = m->leaf2[2];
		o[3] = m->leaf2[3];
		break;
	case 4:                  /* deterministic cache parameters (max leaf >= 4) */
		leaf4(m, ht, sub, o);
		break;
	case 5:                  /* MONITOR/MWAIT line size (Prescott) */
		o[0] = 64;
		o[1] = 64;
		break;
	case 0x80000000u:
		o[0] = m->max_ext_leaf;
		break;
	case 0x80000001u:
		/* SYSCALL 11, XD 20 (90/65 nm), LM 29.  LM is set on every
		 * model: guests are x86-64 programs (README, "Models"). */
		o[3] = (1u << 11) | (1u << 29) | (m->em64t ? 1u << 20 : 0);
		/* LAHF/SAHF in 64-bit mode: the 65 nm parts [DUMP F65] */
		if (m->model >= 6)
			o[2] = 1u;
		break;
	case 0x80000002u:
	case 0x80000003u:
	case 0x80000004u: {
		char b[48];
		unsigned k = (leaf - 0x80000002u) * 16;
		brand48(m, b);
		for (unsigned r = 0; r < 4; r++)
			o[r] = pack4(b + k + 4 * r);
		break;
	}
	case 0x80000006u:        /* L2: size KB, 8-way (6), 64 B lines */
		o[2] = (m->l2_kb << 16) | (6u << 12) | 64u;
		break;
	case 0x80000008u:        /* 36-bit physical, 48-bit linear */
		o[0] = 0x3024u;
		break;
	default:                 /* 3 (no PSN), 6 (Cedar Mill: all zero
				  * [DUMP F65]), 0x80000005/7 (reserved) */
		break;
	}
}
