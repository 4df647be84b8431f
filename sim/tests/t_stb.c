/*
 * t_stb.c - native unit test of the store buffer model (nb_stb.c) and its
 * per-model parameters (nb_tlb.c) (TAP).  Every expectation is worked out
 * by hand from the rules in nb_stb.c.
 */
#include <stdio.h>
#include "nb_stb.h"
#include "nb_tlb.h"
#include "nb_cpu.h"
#include "tap.h"

static struct nb_stb b;

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
