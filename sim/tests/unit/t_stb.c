/*
 * t_stb.c - native unit test of the store buffer model (nb_stb.c) and its
 * per-model parameters (nb_tlb.c) (TAP).  Every expectation is worked out
 * by hand from the rules in nb_stb.c.
 */
#include <stdio.h>
#include "cpu/nb_stb.h"
#include "cpu/nb_tlb.h"
#include "cpu/nb_cpu.h"
#include "tap.h"

static struct nb_stb b;

/* reference: the rules of nb_stb.c on a plain list of the last n stores,
 * newest first, without the bucket filter */
static uint64_t ref_a[64];
static uint32_t ref_s[64];
static unsigned ref_n;

static void ref_store(unsigned entries, uint64_t a, uint32_t s)
{
	for (unsigned i = entries - 1; i > 0; i--) {
		ref_a[i] = ref_a[i - 1];
		ref_s[i] = ref_s[i - 1];
	}
	ref_a[0] = a;
	ref_s[0] = s;
	if (ref_n < entries)
		ref_n++;
}

static enum nb_stb_result ref_load(unsigned alias_bits, uint64_t a, uint32_t s)
{
	uint64_t m = ((UINT64_C(1) << alias_bits) - 1) & ~UINT64_C(63);
	for (unsigned i = 0; i < ref_n; i++) {
		if (ref_a[i] < a + s && a < ref_a[i] + ref_s[i])
			return ref_a[i] != a ? NB_STB_UNALIGNED
				: a + s <= ref_a[i] + ref_s[i] ? NB_STB_FORWARD : NB_STB_PARTIAL;
		if ((ref_a[i] >> 6) != (a >> 6) && !((ref_a[i] ^ a) & m))
			return NB_STB_ALIAS;
	}
	return NB_STB_NONE;
}

/* a fresh 24-entry buffer, 64 KB aliasing, holding one store */
static void one(uint64_t a, uint32_t size)
{
	nb_stb_init(&b, 24, 16);
	nb_stb_store(&b, a, size);
}

int main(void)
{
	tap_ok(!nb_stb_init(&b, 0, 16) && !nb_stb_init(&b, NB_STB_MAX + 1, 16) &&
	       !nb_stb_init(&b, 24, 6) && !nb_stb_init(&b, 24, 64),
	       "0 or too many entries, alias bits outside 7..63: refused");
	tap_ok(nb_stb_init(&b, 24, 16) && nb_stb_load(&b, 0x1000, 8) == NB_STB_NONE,
	       "empty buffer: nothing to forward");

	one(0x1000, 8);
	TAP_EQ(nb_stb_load(&b, 0x1000, 4), NB_STB_FORWARD, "store 8 / load 4 at the same address: forwarded");
	TAP_EQ(nb_stb_load(&b, 0x1000, 8), NB_STB_FORWARD, "store 8 / load 8 at the same address: forwarded");
	TAP_EQ(nb_stb_load(&b, 0x1002, 4), NB_STB_UNALIGNED, "store 8 / load 4 at +2: UNALGN_ADDR");
	TAP_EQ(nb_stb_load(&b, 0x1007, 1), NB_STB_UNALIGNED, "store 8 / load 1 at +7 (contained): UNALGN_ADDR");
	TAP_EQ(nb_stb_load(&b, 0x0ffc, 8), NB_STB_UNALIGNED, "load 8 at -4 (overlaps the first half): UNALGN_ADDR");
	TAP_EQ(nb_stb_load(&b, 0x1008, 8), NB_STB_NONE, "load right after the store's bytes, same line: none");
	TAP_EQ(nb_stb_load(&b, 0x0ff8, 8), NB_STB_NONE, "load right before, previous line: none");
	one(0x1000, 4);
	TAP_EQ(nb_stb_load(&b, 0x1000, 8), NB_STB_PARTIAL, "store 4 / load 8 at the same address: PARTIAL_DATA");
	TAP_EQ(nb_stb_load(&b, 0x1000, 4), NB_STB_FORWARD, "store 4 / load 4: forwarded");
	one(0x1003, 1);
	TAP_EQ(nb_stb_load(&b, 0x1000, 4), NB_STB_UNALIGNED, "store 1 at +3 / load 4: UNALGN_ADDR");

	/* 64 KB aliasing: same bits 15:6, another line */
	one(0x1000, 8);
	TAP_EQ(nb_stb_load(&b, 0x11000, 8), NB_STB_ALIAS, "load 64 KB after the store: 64K_CONF");
	TAP_EQ(nb_stb_load(&b, 0x31008, 4), NB_STB_ALIAS, "192 KB + 8 after (same line index): 64K_CONF");
	TAP_EQ(nb_stb_load(&b, 0x11040, 8), NB_STB_NONE, "64 KB + 64 after (next line index): none");
	TAP_EQ(nb_stb_load(&b, 0x9000, 8), NB_STB_NONE, "32 KB after: none");
	nb_stb_init(&b, 32, 22);
	nb_stb_store(&b, 0x1000, 8);
	TAP_EQ(nb_stb_load(&b, 0x11000, 8), NB_STB_NONE, "bits 21:6 (model 3): 64 KB apart does not alias");
	TAP_EQ(nb_stb_load(&b, 0x401000, 8), NB_STB_ALIAS, "bits 21:6: 4 MB apart aliases");

	/* the newest store that concerns the load decides */
	nb_stb_init(&b, 24, 16);
	nb_stb_store(&b, 0x1000, 4);
	nb_stb_store(&b, 0x1000, 8);
	TAP_EQ(nb_stb_load(&b, 0x1000, 8), NB_STB_FORWARD, "store 4 then store 8: load 8 forwarded from the newer");
	nb_stb_init(&b, 24, 16);
	nb_stb_store(&b, 0x1000, 8);
	nb_stb_store(&b, 0x1000, 4);
	TAP_EQ(nb_stb_load(&b, 0x1000, 8), NB_STB_PARTIAL, "store 8 then store 4: load 8 PARTIAL_DATA");
	nb_stb_init(&b, 24, 16);
	nb_stb_store(&b, 0x1000, 8);
	nb_stb_store(&b, 0x11000, 8);
	TAP_EQ(nb_stb_load(&b, 0x1000, 8), NB_STB_ALIAS, "an aliasing store newer than the matching one: 64K_CONF");
	nb_stb_init(&b, 24, 16);
	nb_stb_store(&b, 0x11000, 8);
	nb_stb_store(&b, 0x1000, 8);
	TAP_EQ(nb_stb_load(&b, 0x1000, 8), NB_STB_FORWARD, "the matching store newer than an aliasing one: forwarded");

	/* capacity: the store leaves after `entries` newer stores */
	one(0x1000, 8);
	for (unsigned i = 0; i < 23; i++)
		nb_stb_store(&b, 0x2000 + 8 * (uint64_t)i, 8);
	TAP_EQ(nb_stb_load(&b, 0x1002, 4), NB_STB_UNALIGNED, "24 entries: still there after 23 newer stores");
	nb_stb_store(&b, 0x3000, 8);
	TAP_EQ(nb_stb_load(&b, 0x1002, 4), NB_STB_NONE, "... gone after the 24th");
	TAP_EQ(nb_stb_load(&b, 0x2000, 8), NB_STB_FORWARD, "... the next oldest is now the oldest");
	nb_stb_store(&b, 0x3008, 8);
	TAP_EQ(nb_stb_load(&b, 0x2000, 8), NB_STB_NONE, "... and leaves with the next store");

	/* the bucket filter changes no answer: random stores and loads
	 * (sizes 1-16, addresses within 16 lines of 3 spots 64 KB / 4 MB
	 * apart, so that every case occurs, and of spots 4 KB apart, which
	 * share the buckets of bits 6..11 but not those of bits 6..15)
	 * against the reference; also with fewer aliasing bits than the
	 * filter's (9, 12: the bucket mask narrows) */
	{
		static const uint32_t sz[] = { 1, 2, 4, 8, 16 };
		static const unsigned cfgs[4][2] = { { 24, 16 }, { 32, 22 }, { 24, 9 }, { 32, 12 } };
		unsigned bad = 0, seen[5] = { 0 };
		uint64_t x = 7;
		for (unsigned cfg = 0; cfg < 4; cfg++) {
			unsigned e = cfgs[cfg][0], al = cfgs[cfg][1];
			nb_stb_init(&b, e, al);
			ref_n = 0;
			for (unsigned i = 0; i < 200000; i++) {
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				unsigned spot = (x >> 20) & 7;
				uint64_t a = 0x7f0000000000ULL + (spot < 5 ? 0 : spot - 4) *
					(UINT64_C(1) << al) + ((x >> 30) % 1024) +
					((x >> 60) & 1) * 4096 * (1 + ((x >> 61) & 3));
				uint32_t s = sz[(x >> 40) % 5];
				if ((x >> 50) & 1) {
					nb_stb_store(&b, a, s);
					ref_store(e, a, s);
				} else {
					enum nb_stb_result r = nb_stb_load(&b, a, s);
					bad += r != ref_load(al, a, s);
					seen[r]++;
				}
			}
		}
		tap_ok(!bad && seen[0] && seen[1] && seen[2] && seen[3] && seen[4],
		       "800000 random stores/loads: the filtered model agrees with the reference "
		       "(none %u, forwarded %u, partial %u, unaligned %u, alias %u)",
		       seen[0], seen[1], seen[2], seen[3], seen[4]);
	}

	/* per-model parameters [OPT06 p. 1-24, 2-45; XT04] */
	for (unsigned i = 0; i < nb_num_cpu_models; i++) {
		const struct nb_cpu_model *m = &nb_cpu_models[i];
		const struct nb_mem_params *p = nb_mem_params_find(m->model, m->l3_kb != 0);
		unsigned e = m->model >= 3 ? 32 : 24, al = m->model >= 3 ? 22 : 16;
		tap_ok(p && p->stb_entries == e && p->alias_bits == al && nb_stb_init(&b, e, al),
		       "%s (model %u): %u store buffers, conflicts on bits %u:6", m->name, m->model, e, al - 1);
	}
	return tap_done_plan();
}
