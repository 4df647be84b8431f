/*
 * t_cpuid.c - native unit test of the modelled CPUID (nb_cpu.c), TAP.
 *
 * Expectations are the words real parts answer (the dumps cited in
 * nb_cpu.c [DUMP]) and the SDM's rules [SDM2]:
 *  - the maximum basic leaf per part (Willamette/Northwood/Gallatin 2,
 *    Prescott 5, Cedar Mill 6) and extended leaf (80000004h on the
 *    180/130 nm parts, 80000008h on the EM64T parts);
 *  - every leaf above the maximum (basic or extended), leaf 0Bh included,
 *    answers the highest basic leaf's data;
 *  - leaf 4 on the parts that have it: L1D then L2 then type 0, the words
 *    of the Prescott/Cedar Mill dumps; a walk that stops at type 0;
 *  - the topology walk software does on leaf 0Bh ends (it must be
 *    guarded by the maximum leaf: the data of leaf 5 never ends it).
 */
#include <string.h>
#include "cpu/nb_cpu.h"
#include "tap.h"

static void q(const char *model, int ht, uint32_t leaf, uint32_t sub, uint32_t o[4])
{
	nb_cpuid(nb_cpu_find(model), ht, 0, leaf, sub, o);
}

static int same(const uint32_t a[4], const uint32_t b[4])
{
	return !memcmp(a, b, 4 * sizeof a[0]);
}

static void eq4(const char *model, int ht, uint32_t leaf, uint32_t sub, uint32_t a, uint32_t b,
		uint32_t c, uint32_t d, const char *what)
{
	uint32_t o[4];
	q(model, ht, leaf, sub, o);
	if (!tap_ok(o[0] == a && o[1] == b && o[2] == c && o[3] == d,
		    "%s%s: CPUID %#x.%u %s", model, ht ? " (HT)" : "", leaf, sub, what))
		tap_diag("  got %08x %08x %08x %08x, want %08x %08x %08x %08x",
			 o[0], o[1], o[2], o[3], a, b, c, d);
}

static const struct { const char *model; uint32_t max, max_ext; } maxima[] = {
	{ "willamette", 2, 0x80000004u },  /* Bochs p4_willamette (F12) */
	{ "northwood", 2, 0x80000004u },
	{ "xeonmp", 2, 0x80000004u },
	{ "prescott", 5, 0x80000008u },    /* VirtualBox Pentium 4 F43 */
	{ "cedarmill", 6, 0x80000008u },   /* CPU-Z F65 */
};

int main(void)
{
	uint32_t o[4], top[4];

	for (unsigned i = 0; i < sizeof maxima / sizeof maxima[0]; i++) {
		const char *m = maxima[i].model;
		q(m, 0, 0, 0, o);
		TAP_EQ(o[0], maxima[i].max, "%s: maximum basic leaf", m);
		q(m, 0, 0x80000000u, 0, o);
		TAP_EQ(o[0], maxima[i].max_ext, "%s: maximum extended leaf", m);
		q(m, 0, 1, 0, o);
		TAP_EQ((o[0] >> 8) & 0xf, 15, "%s: family 15", m);
		/* every leaf above the maximum answers the highest basic leaf */
		q(m, 0, maxima[i].max, 0, top);
		static const uint32_t above[] = { 3, 4, 5, 6, 7, 0xa, 0xb, 0xd, 0x14, 0x40000000u };
		int all = 1;
		for (unsigned k = 0; k < sizeof above / sizeof above[0]; k++)
			for (uint32_t sub = 0; sub < 3; sub++)
				if (above[k] > maxima[i].max) {
					q(m, 0, above[k], sub, o);
					all &= same(o, top);
				}
		tap_ok(all, "%s: leaves above %u (0Bh among them) answer leaf %u's data", m,
		       maxima[i].max, maxima[i].max);
		q(m, 0, maxima[i].max_ext + 1, 0, o);
		tap_ok(same(o, top), "%s: extended leaf %#x answers leaf %u's data", m,
		       maxima[i].max_ext + 1, maxima[i].max);
		q(m, 0, 0x80000001u, 0, o);
		tap_ok(o[3] & (1u << 29), "%s: 80000001h reports long mode (guests are x86-64)", m);
	}

	/* Leaf 4 [DUMP F43, F65; SDM2] */
	eq4("prescott", 1, 4, 0, 0x00004121u, 0x01c0003fu, 0x1fu, 0, "L1D 16 KB 8-way 64 B, 2 threads");
	eq4("prescott", 1, 4, 1, 0x00004143u, 0x01c0103fu, 0x3ffu, 0, "L2 1 MB 8-way 2 lines/sector");
	eq4("prescott", 1, 4, 2, 0, 0, 0, 0, "type 0: no more caches");
	eq4("prescott", 0, 4, 0, 0x00000121u, 0x01c0003fu, 0x1fu, 0, "L1D, not shared without HT");
	eq4("cedarmill", 1, 4, 1, 0x00004143u, 0x01c0103fu, 0x7ffu, 0, "L2 2 MB (the F43/F65 dumps' words)");
	eq4("cedarmill", 0, 4, 7, 0, 0, 0, 0, "subleaf 7: type 0");
	eq4("prescott", 0, 5, 0, 0x40, 0x40, 0, 0, "MONITOR line 64/64");
	eq4("cedarmill", 0, 6, 0, 0, 0, 0, 0, "leaf 6 all zero");
	eq4("prescott", 0, 0x80000006u, 0, 0, 0, 0x04006040u, 0, "L2 1024 KB 8-way 64 B");
	eq4("cedarmill", 0, 0x80000006u, 0, 0, 0, 0x08006040u, 0, "L2 2048 KB 8-way 64 B");
	eq4("prescott", 0, 0x80000008u, 0, 0x3024u, 0, 0, 0, "36-bit physical, 48-bit linear");
	eq4("prescott", 0, 0x80000005u, 0, 0, 0, 0, 0, "reserved on Intel");
	eq4("prescott", 0, 0x80000007u, 0, 0, 0, 0, 0, "reserved on Intel");

	/* Leaf-4 sizes agree with the leaf-2 descriptors and the model */
	for (unsigned i = 0; i < nb_num_cpu_models; i++) {
		const struct nb_cpu_model *m = &nb_cpu_models[i];
		if (m->max_leaf < 4)
			continue;
		unsigned kb[2] = { 0, 0 };
		for (uint32_t sub = 0; sub < 16; sub++) {
			nb_cpuid(m, 0, 0, 4, sub, o);
			if ((o[0] & 0x1f) == 0)
				break;
			unsigned lvl = (o[0] >> 5) & 7;
			unsigned bytes = ((o[1] >> 22) + 1) * (((o[1] >> 12) & 0x3ff) + 1) *
					 ((o[1] & 0xfff) + 1) * (o[2] + 1);
			if (lvl >= 1 && lvl <= 2)
				kb[lvl - 1] = bytes / 1024;
		}
		TAP_EQ(kb[0], m->l1d_kb, "%s: leaf 4 L1D size = the model's", m->name);
		TAP_EQ(kb[1], m->l2_kb, "%s: leaf 4 L2 size = the model's", m->name);
	}

	/* The leaf-0Bh walk, guarded as the SDM says (leaf 0Bh exists when the
	 * maximum basic leaf is >= 0Bh and its EBX is not 0): it never starts
	 * on these parts; unguarded (PAPI 7.0.0's sysdetect before our patch)
	 * it would not end on Prescott: every subleaf answers EBX = 64. */
	for (unsigned i = 0; i < nb_num_cpu_models; i++) {
		const struct nb_cpu_model *m = &nb_cpu_models[i];
		nb_cpuid(m, 0, 0, 0, 0, o);
		int has_b = 0;
		if (o[0] >= 0xb) {
			nb_cpuid(m, 0, 0, 0xb, 0, o);
			has_b = o[1] != 0;
		}
		tap_ok(!has_b, "%s: leaf 0Bh absent (guarded by the maximum leaf)", m->name);
	}
	unsigned steps = 0;
	for (uint32_t sub = 0; sub < 64; sub++, steps++) {
		q("prescott", 0, 0xb, sub, o);
		if (o[1] == 0)
			break;
	}
	TAP_EQ(steps, 64, "prescott: an unguarded leaf-0Bh walk never sees EBX = 0 (why PAPI hung)");

	return tap_done_plan();
}
