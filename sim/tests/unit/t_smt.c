/*
 * t_smt.c - native unit test of nb_smt.c (TAP): two logical processors'
 * clocks (nb_timing.c) run in alternate segments, as nbsim runs them
 * under valgrind, each given its share of the package by nb_smt_share
 * from the other's last segment (README.md "Timing model",
 * "Hyper-Threading").  Hand-built blocks of Sprunt's two kernels (seed
 * 000): fp_add_latency (32 dependent x87 adds + dec/jnz) and l1_miss (8
 * independent load-op adds whose loads miss the L1D and hit the L2, 7
 * cycles, + dec/jnz); checks:
 *  - one LP active: nb_smt_share gives the clock nothing (the same cycles
 *    as a clock never touched, exactly);
 *  - the patterns of the other LP's unit use;
 *  - the L1D's data conflicts between the LPs (nb_smt.c): a hand-worked
 *    profile's occupancies and shares;
 *  - two LPs: the combined uops per cycle (uops of both per cycle of the
 *    package over the segments both run) against Sprunt's 0.41 and 0.65
 *    (15%, the tolerance of the paper's checks in t_timing), l1_miss as
 *    two instances (the same linear addresses, so the same L1D alias
 *    classes); with LP1's data 4 KB further (no class shared) exactly the
 *    port-bound 0.75.
 */
#include <stdio.h>
#include <string.h>
#include "tap.h"
#include "timing/nb_tmmemo.h"
#include "timing/nb_smt.h"

#define MAXU 512
struct kern {
	struct nb_tm_uop u[MAXU];
	uint16_t s[MAXU * 4];
	unsigned nu, ns, nld;
};

static void uop(struct kern *k, unsigned c, int src, int dst, unsigned ld)
{
	struct nb_tm_uop *u = &k->u[k->nu++];
	u->cls = (uint8_t)c;
	u->ld = (uint8_t)ld;
	u->slot = k->ns;
	u->nsrc = src >= 0;
	u->ndst = dst >= 0;
	if (src >= 0)
		k->s[k->ns++] = (uint16_t)src;
	if (dst >= 0)
		k->s[k->ns++] = (uint16_t)dst;
}

/* the loop's dec/jnz: 2 ALU uops through the counter (slot 9) */
static void loop_end(struct kern *k)
{
	uop(k, NB_TM_ALU, 9, 9, 0);
	uop(k, NB_TM_ALU, 9, -1, 0);
}

static void k_fadd(struct kern *k)
{
	memset(k, 0, sizeof *k);
	for (int i = 0; i < 32; i++)
		uop(k, NB_TM_FADD, 0, 0, 0);
	loop_end(k);
}

static void k_l1miss(struct kern *k)
{
	memset(k, 0, sizeof *k);
	for (unsigned i = 0; i < 8; i++) {
		uop(k, NB_TM_LOAD, 1, 20 + (int)i, i + 1);     /* from the base pointer */
		/* add: reads the load's value and a (slot 2), writes a */
		struct nb_tm_uop *u = &k->u[k->nu++];
		u->cls = NB_TM_ALU;
		u->ld = 0;
		u->nsrc = 2;
		u->ndst = 1;
		u->slot = k->ns;
		k->s[k->ns++] = (uint16_t)(20 + i);
		k->s[k->ns++] = 2;
		k->s[k->ns++] = 2;
	}
	k->nld = 8;
	loop_end(k);
}

/* one iteration; the loads' lines at base, base + 8 KB, ... (their L1D
 * alias classes) */
/* n missing loads of alias class c in t's segment, as the walk counts
 * them (nb_timing.c) */
static void alias_add(struct nb_tm *t, unsigned c, uint32_t n)
{
	t->smt.alias_n[c] += n;
	t->smt.alias_seen[c / 64] |= UINT64_C(1) << (c % 64);
}

static void run(struct nb_tm *t, const struct kern *k, uint64_t base)
{
	struct nb_tm_block b = { k->nu, k->ns, (struct nb_tm_uop *)k->u, (uint16_t *)k->s, NULL, NULL, 0 };
	for (unsigned i = 0; i < k->nld; i++) {
		nb_tm_load_miss(t, i, 7);
		nb_tm_load_alias(t, i, base + (uint64_t)i * 8192);
	}
	nb_tm_run(t, &b, 0, b.n, 0);
}

static unsigned real_uops(const struct kern *k)
{
	return k->nu;
}

/* Two LPs, kernels ka (LP0) and kb (LP1), in alternate segments of `seg`
 * iterations each, `nseg` segments each after `warm`; the combined uops
 * per cycle: each LP's uops over its clock's cycles in its measured
 * segments (each LP's clock is the package's time while it runs), summed.
 * LP0's data at linear address 0x10000000, LP1's at the same plus
 * lp1_off: 0, two instances of one program (the same linear addresses). */
static uint64_t lp1_off;

static double combined(const struct kern *ka, const struct kern *kb, unsigned seg, unsigned warm,
		       unsigned nseg, double *upc0, double *upc1)
{
	static struct nb_tm t[2];
	const struct kern *k[2] = { ka, kb };
	static struct nb_smt_prof prof[2];
	int have[2] = { 0, 0 };
	uint64_t cyc[2] = { 0, 0 }, uops[2] = { 0, 0 };

	memset(prof, 0, sizeof prof);
	for (unsigned lp = 0; lp < 2; lp++)
		nb_tm_init(&t[lp], nb_tm_params_for(2), 20);
	for (unsigned s = 0; s < 2 * (warm + nseg); s++) {
		unsigned lp = s & 1;
		struct nb_smt_mark m;
		uint64_t c0;
		nb_smt_share(&t[lp], lp, 1, have[lp ^ 1] ? &prof[lp ^ 1] : NULL, have[lp] ? &prof[lp] : NULL);
		nb_smt_mark(&t[lp], &m);
		c0 = t[lp].ret;
		for (unsigned i = 0; i < seg; i++)
			run(&t[lp], k[lp], 0x10000000 + (lp ? lp1_off : 0));
		nb_smt_learn(&t[lp], &m, &prof[lp]);
		have[lp] = 1;
		if (s >= 2 * warm) {
			cyc[lp] += t[lp].ret - c0;
			uops[lp] += (uint64_t)seg * real_uops(k[lp]);
		}
	}
	*upc0 = (double)uops[0] / (double)cyc[0];
	*upc1 = (double)uops[1] / (double)cyc[1];
	return *upc0 + *upc1;
}

static double alone(const struct kern *k, unsigned n, int shared_call)
{
	static struct nb_tm t;
	uint64_t c0;
	nb_tm_init(&t, nb_tm_params_for(2), 20);
	if (shared_call)
		nb_smt_share(&t, 0, 0, NULL, NULL);
	for (unsigned i = 0; i < 100; i++)
		run(&t, k, 0x10000000);
	c0 = t.ret;
	for (unsigned i = 0; i < n; i++)
		run(&t, k, 0x10000000);
	return (double)n * real_uops(k) / (double)(t.ret - c0);
}

int main(void)
{
	static struct kern fa, lm;
	double a0, a1, c, u0, u1;

	k_fadd(&fa);
	k_l1miss(&lm);
	tap_plan(23);

	TAP_EQ(nb_smt_pattern(0, 10, 2), 0, "pattern: unused unit, no busy tick");
	TAP_EQ(nb_smt_pattern(10, 10, 2), ~UINT64_C(0), "pattern: a unit taken all the time");
	TAP_EQ(nb_smt_pattern(1, 2, 2), UINT64_C(0xcccccccccccccccc),
	       "pattern: half the cycles, every other cycle (runs of 2 ticks)");
	TAP_EQ((uint64_t)__builtin_popcountll(nb_smt_pattern(1, 4, 1)), 16, "pattern: a quarter of 64 ticks");
	TAP_EQ(nb_smt_pattern_grouped(1, 2, 2, 2), UINT64_C(0x0f0f0f0f0f0f0f0f),
	       "pattern grouped: half the cycles in pairs (free runs of 2 cycles: an SSE2 add's interval)");

	/* nb_smt_share's rules, worked out by hand on Northwood (126-uop
	 * window, width 3, 4 miss slots) */
	{
		static struct nb_tm t;
		static struct nb_smt_prof o, self;
		nb_tm_init(&t, nb_tm_params_for(2), 20);
		nb_smt_share(&t, 1, 1, NULL, NULL);
		tap_ok(t.smt.win == 63 && t.smt.miss_n == 4 && t.smt.replay == 14 &&
		       t.smt.alt == UINT64_C(0xaaaaaaaaaaaaaaaa),
		       "both LPs, the other not seen yet: window 63, 4 slots, replay loop 14 ticks, "
		       "strict alternation: the other LP takes the odd cycles (win %u, slots %u, replay %u, alt %#llx)", t.smt.win, t.smt.miss_n,
		       t.smt.replay, (unsigned long long)t.smt.alt);
		/* the other LP: 6400 cycles, 2133 uops (711 cycles' worth at 3
		 * per cycle: 7 of 64), 1 slot held on average, never short;
		 * the load port taken a quarter of the time */
		o.ticks = 12800;
		o.uops = 2133;
		o.miss = 12800;
		o.unit[NB_TMU_LOAD] = 3200;
		nb_smt_share(&t, 1, 1, &o, NULL);
		TAP_EQ(__builtin_popcountll(t.smt.alt), 7, "allocation/retirement: the other LP takes 7 of 64 cycles (its uops / 3)");
		TAP_EQ(t.smt.miss_n, 3, "miss slots: the 3 the other LP left free (it held 1 on average)");
		TAP_EQ(__builtin_popcountll(t.smt.oth[NB_TMU_LOAD][0]), 16, "load port: a quarter of the ticks busy (8 of 32 cycles)");
		o.short_of_slots = 1;
		o.uops = 100000;
		o.unit[NB_TMU_LOAD] = 12800;
		nb_smt_share(&t, 1, 1, &o, NULL);
		tap_ok(t.smt.miss_n == 2 && __builtin_popcountll(t.smt.alt) == 32 &&
		       __builtin_popcountll(t.smt.oth[NB_TMU_LOAD][0]) == 32,
		       "the other LP short of slots and flooding: half the slots, every other cycle, half "
		       "the load port (slots %u)", t.smt.miss_n);
		TAP_EQ(t.smt.conf_span, 0, "no missing loads in the other LP's profile: no L1D conflicts");
		/* the L1D's conflicts: the other LP missed 100 times on each
		 * of 8 classes of set 5 (5, 37, ..., 229: 800 fills of the
		 * set) and once on class 6 (set 6), each miss under way 16
		 * ticks on average (12816 slot ticks in all): each class of
		 * set 5 under way 100 x 16 ticks of the 12800, class 6 16; a
		 * line of set 5 evicted 4 fills of 800 per 12800 ticks later,
		 * 64 ticks; one of set 6 after 51200, beyond the cap of 8
		 * replay loops, 112 */
		o.miss = 12816;
		for (unsigned j = 0; j < 8; j++)
			o.alias[5 + 32 * j] = 100;
		o.alias[6] = 1;
		nb_smt_share(&t, 1, 1, &o, NULL);
		tap_ok(t.smt.conf_span == 12800 && t.smt.conf_way == 16 && t.smt.conf_hold[5] == 1600 &&
		       t.smt.conf_hold[229] == 1600 && t.smt.conf_hold[6] == 16 && t.smt.conf_hold[4] == 0 &&
		       t.smt.conf_res[5] == 64 && t.smt.conf_res[6] == 2 * NB_SMT_EVICT_MAX * NB_SMT_REPLAY,
		       "L1D conflicts: each class of set 5 under way 1600 of 12800 ticks, class 6 16; a "
		       "line of set 5 evicted after 64 ticks, of set 6 after the cap (way %llu, hold %u %u "
		       "%u %u, res %u %u, span %llu)", (unsigned long long)t.smt.conf_way, t.smt.conf_hold[5],
		       t.smt.conf_hold[229], t.smt.conf_hold[6], t.smt.conf_hold[4], t.smt.conf_res[5], t.smt.conf_res[6],
		       (unsigned long long)t.smt.conf_span);
		/* this LP's own fills of set 5 evict lines too: 200 in 6400
		 * ticks, 400 per 12800: 1200 fills, 4 of them 42.7 ticks */
		self.ticks = 6400;
		self.alias[5] = 200;
		nb_smt_share(&t, 1, 1, &o, &self);
		tap_ok(t.smt.conf_res[5] == 42 && t.smt.conf_hold[37] == 1600,
		       "L1D conflicts with this LP's own fills of the set: evicted after 42.7 ticks (res %u, "
		       "hold %u)", t.smt.conf_res[5], t.smt.conf_hold[37]);
		nb_smt_share(&t, 1, 0, &o, &self);
		tap_ok(!t.smt.win && !t.smt.miss_n && !t.smt.replay && !t.smt.conf_span && !t.smt.alt && !t.smt.oth[NB_TMU_LOAD][0] &&
		       !t.smt.bus_oth,
		       "one LP running: nothing taken from the model");
	}

	/* the front-side bus, the package's: 100 sectors (2 lines of 56
	 * ticks, Northwood's 2 bus clocks) asked for at tick 0 end at 100 x
	 * 112 ticks on a bus of the LP's own; beside an LP that used a tenth
	 * of the bus and was not short of it (6 of 64 slots its, rounded),
	 * in at most 64/58 of that; beside one short of it, in twice the
	 * time less the last slot (every other slot) */
	{
		static struct nb_tm t;
		static struct nb_smt_prof o;
		uint64_t e[3];
		nb_tm_init(&t, nb_tm_params_for(2), 20);
		t.bus_line = 56;
		o.ticks = 12800;
		o.bus = 1280;
		for (unsigned k = 0; k < 3; k++) {
			o.short_of_bus = k == 2;
			nb_smt_share(&t, 1, k != 0, &o, NULL);
			t.bus_free = 0;
			for (unsigned i = 0; i < 100; i++)
				e[k] = nb_tm_bus_take(&t, 0, 112);
		}
		tap_ok(e[0] == 11200 && e[1] > 11200 && e[1] <= 11200 * 64 / 58 + 56 && e[2] == 22400 - 56,
		       "bus: 100 sectors alone end at tick %llu (11200), beside a light user %llu (64/58 "
		       "of it), beside one short of the bus %llu (every other slot: 22344)",
		       (unsigned long long)e[0], (unsigned long long)e[1], (unsigned long long)e[2]);
	}

	a0 = alone(&fa, 1000, 0);
	a1 = alone(&fa, 1000, 1);
	tap_ok(a0 == a1, "one LP active: fp_add_latency the same with nb_smt_share (%.4f, %.4f)", a0, a1);
	a0 = alone(&lm, 1000, 0);
	a1 = alone(&lm, 1000, 1);
	tap_ok(a0 == a1, "one LP active: l1_miss the same with nb_smt_share (%.4f, %.4f)", a0, a1);

	c = combined(&fa, &fa, 2000, 2, 6, &u0, &u1);
	tap_ok(c >= 0.41 * 0.85 && c <= 0.41 * 1.15,
	       "two LPs, fp_add_latency on each: combined %.3f uops/cycle (LP0 %.3f, LP1 %.3f), "
	       "Sprunt 0.41 (15%%)", c, u0, u1);
	{
		static struct kern ad;
		memset(&ad, 0, sizeof ad);
		for (int i = 0; i < 30; i++)
			uop(&ad, NB_TM_ALU, -1, 10 + i % 8, 0);
		loop_end(&ad);
		c = combined(&ad, &ad, 2000, 2, 6, &u0, &u1);
		tap_ok(c >= 2.95 && c <= 3.0, "two LPs, independent adds on each: combined %.3f uops/cycle "
		       "(LP0 %.3f, LP1 %.3f): the package's 3 per cycle, alternating", c, u0, u1);
	}
	/* a chain of SSE2 adds (4 cycles each, one every 2 cycles on the FP
	 * adder) beside an LP flooding the adder with independent ones: the
	 * other LP's use is capped at half the adder and its pattern leaves
	 * free runs as long as an add's interval, so the chain keeps at
	 * least half its pace alone (spread cycle by cycle, the free runs
	 * were of one cycle: no add fitted, each waited for the end of the
	 * reservation ring, t_sim_spin.t) */
	{
		static struct kern ch, fl;
		double al, af;
		memset(&ch, 0, sizeof ch);
		memset(&fl, 0, sizeof fl);
		for (int i = 0; i < 16; i++) {
			uop(&ch, NB_TM_SADD, 0, 0, 0);
			uop(&fl, NB_TM_SADD, -1, 10 + i % 8, 0);
		}
		loop_end(&ch);
		loop_end(&fl);
		al = alone(&ch, 1000, 1);
		af = alone(&fl, 1000, 1);
		c = combined(&ch, &fl, 2000, 2, 6, &u0, &u1);
		tap_ok(u0 >= 0.5 * al && u1 >= 0.45 * af,
		       "a chain of SSE2 adds beside an LP flooding the FP adder: each about half its "
		       "pace alone or more (chain %.4f of %.4f, flood %.4f of %.4f uops/cycle)",
		       u0, al, u1, af);
	}
	/* two instances of l1_miss (Sprunt's two copies: the same linear
	 * addresses, so the same L1D alias classes) */
	lp1_off = 0;
	c = combined(&lm, &lm, 2000, 2, 6, &u0, &u1);
	tap_ok(c >= 0.65 * 0.85 && c <= 0.65 * 1.15,
	       "two LPs, two instances of l1_miss: combined %.3f uops/cycle (LP0 %.3f, LP1 %.3f), "
	       "Sprunt 0.65 (15%%)", c, u0, u1);
	/* LP1's lines 4 KB further: bit 12 differs, no class shared (the
	 * manual's per-instance offset): no conflict, what the slots and
	 * the port alone give (each LP on its half of the load port at 3
	 * passes per missing load: 16 loads in 48 cycles, 36 uops),
	 * exactly */
	lp1_off = 4096;
	c = combined(&lm, &lm, 2000, 2, 6, &u0, &u1);
	lp1_off = 0;
	tap_ok(c == 0.75, "two LPs, l1_miss with LP1's data 4 KB further (no alias class shared): "
	       "combined %.4f uops/cycle, port-bound at 36 uops per 48 cycles (0.75 exactly)", c);
	/* a profile nb_smt_learn made marks its alias classes that are not 0,
	 * and nb_smt_share reads only those (a lockstep turn every 40,000
	 * cycles or so); the same profile unmarked, every class: the same
	 * share, to the bit */
	{
		static struct nb_tm t, u, v;
		static struct nb_smt_mark m;
		static struct nb_smt_prof pm, pu;

		nb_tm_init(&t, nb_tm_params_for(2), 20);
		nb_smt_mark(&t, &m);
		t.ret += 6400;
		t.smt.skip_cyc += 2100;         /* (the walked share scaled) */
		t.smt.miss_ticks += 5000;
		t.seq += 9000;
		for (unsigned j = 0; j < 8; j++)
			alias_add(&t, 5 + 32 * j, 50 + j);
		alias_add(&t, 6, 1);
		alias_add(&t, NB_TM_NALIAS - 1, 3);
		nb_smt_learn(&t, &m, &pm);
		pu = pm;
		pu.masked = 0;
		nb_tm_init(&u, nb_tm_params_for(2), 20);
		nb_tm_init(&v, nb_tm_params_for(2), 20);
		nb_smt_share(&u, 1, 1, &pm, &pm);
		nb_smt_share(&v, 1, 1, &pu, &pu);
		tap_ok(pm.masked && u.smt.conf_span && u.smt.conf_hold[5] && u.smt.conf_hold[NB_TM_NALIAS - 1] &&
		       !u.smt.conf_hold[4] && !memcmp(&u.smt, &v.smt, sizeof u.smt),
		       "a learned profile's share from its classes that are not 0 (masked) is the share "
		       "from every class (hold %u %u %u, span %llu)", u.smt.conf_hold[5],
		       u.smt.conf_hold[NB_TM_NALIAS - 1], u.smt.conf_hold[4],
		       (unsigned long long)u.smt.conf_span);
	}
	return tap_done();
}
