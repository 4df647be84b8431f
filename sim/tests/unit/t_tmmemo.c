/*
 * t_tmmemo.c - differential test of the replay of recorded schedules
 * (nb_tmmemo.c, TAP): two clocks get the same calls, one replaying
 * (memo on), the other walking every uop (the reference, nb_tm_walk);
 * after every run the two must have the same cycles and the same state:
 * allocation and retirement cycles and counts, the window ring, the
 * units' reservations, the divider, the miss slots, the last result, and
 * every slot's ready time up to the equivalence nb_tmmemo.c states (a
 * value before twice the allocation cycle is as good as that tick).
 * Random blocks (every class, renaming copies and pseudo-uops, shared
 * registers), run as loops of random lengths with side-exit ranges,
 * loads that miss the L1D with L2 or memory latencies, mispredictions
 * and serializing points, on Northwood and Prescott parameters; then
 * steady loops, which must be replayed most of the time (else the test
 * proves nothing about the replay).
 */
#include <stdio.h>
#include <string.h>
#include "tap.h"
#include "timing/nb_tmmemo.h"

#define NB 6u                   /* blocks of a scenario */
#define MAXU 96u

struct blk {
	struct nb_tm_uop u[MAXU];
	uint16_t s[MAXU * 8];
	struct nb_tm_block b;
	unsigned nld;
};

static struct blk blks[NB], loopb;     /* random blocks; a loop body */
static uint64_t rng = 0x2545f4914f6cdd1dull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)((rng >> 11) % n);
}

/* a slot: a few guest registers (so blocks depend on each other) or a
 * scratch slot */
static uint16_t slot(void)
{
	return (uint16_t)(rnd(3) ? rnd(12) : NB_TM_SCR + rnd(16));
}

static void gen_block(struct blk *k, unsigned n, int heavy)
{
	static const uint8_t real[] = {
		NB_TM_ALU, NB_TM_ALU, NB_TM_ALU, NB_TM_ALU, NB_TM_SHIFT, NB_TM_IMUL, NB_TM_FADD,
		NB_TM_FMUL, NB_TM_SADD, NB_TM_SMUL, NB_TM_FPOTHER, NB_TM_LOAD, NB_TM_LOAD,
		NB_TM_FLOAD, NB_TM_STA, NB_TM_STD,
	};
	unsigned ns = 0;

	k->nld = 0;
	for (unsigned i = 0; i < n; i++) {
		struct nb_tm_uop *u = &k->u[i];
		unsigned r = rnd(10);
		u->ld = 0;
		if (r == 0)
			u->cls = NB_TM_COPY;
		else if (r == 1) {
			u->cls = NB_TM_LAT;
			u->ld = real[rnd(sizeof real)]; /* the latency's class */
		} else {
			u->cls = heavy && rnd(8) == 0 ? (rnd(2) ? NB_TM_SDIV : NB_TM_IDIV)
				: real[rnd(sizeof real)];
			if ((u->cls == NB_TM_LOAD || u->cls == NB_TM_FLOAD) && k->nld < NB_TM_MAXLD)
				u->ld = (uint8_t)(++k->nld);
		}
		u->nsrc = (uint8_t)rnd(4);
		u->ndst = (uint8_t)rnd(3);
		u->slot = ns;
		for (unsigned j = 0; j < (unsigned)u->nsrc + u->ndst; j++)
			k->s[ns++] = slot();
	}
	k->b.n = n;
	k->b.nslots = ns;
	k->b.u = k->u;
	k->b.slots = k->s;
	k->b.real = NULL;
}

/* a queue for the load port: n uops, loads of an early source (slot 1)
 * into scratch slots, every fourth an add of two loaded values; so the
 * loads wait for the port behind the last runs' (a search of more than 64
 * ticks, which the replay checks by making the walk's choice again) */
static void gen_queue(struct blk *k, unsigned n)
{
	unsigned ns = 0;

	k->nld = 0;
	for (unsigned i = 0; i < n; i++) {
		struct nb_tm_uop *u = &k->u[i];
		u->slot = ns;
		if (i % 4 == 3) {
			u->cls = NB_TM_ALU;
			u->ld = 0;
			u->nsrc = 2;
			u->ndst = 1;
			k->s[ns++] = (uint16_t)(NB_TM_SCR + i - 1);
			k->s[ns++] = (uint16_t)(NB_TM_SCR + i - 2);
			k->s[ns++] = (uint16_t)(3 + rnd(2));
		} else {
			u->cls = rnd(4) ? NB_TM_LOAD : NB_TM_FLOAD;
			/* (an index of its own for the first NB_TM_MAXLD, as
			 * nb_tmbuild.c gives them) */
			u->ld = k->nld < NB_TM_MAXLD ? (uint8_t)(++k->nld) : 0;
			u->nsrc = 1;
			u->ndst = 1;
			k->s[ns++] = (uint16_t)(1 + rnd(2));
			k->s[ns++] = (uint16_t)(NB_TM_SCR + i);
		}
	}
	k->b.n = n;
	k->b.nslots = ns;
	k->b.u = k->u;
	k->b.slots = k->s;
	k->b.real = NULL;
}

static unsigned nfail;

/* step mode (record on): the retirement cycles of the last run's real
 * uops, which the replay and the steady state write too (the clocks'
 * fields: always current) */
static int same_rec(const struct nb_tm *a, const struct nb_tm *b)
{
	return a->step.record == b->step.record && a->step.nrec == b->step.nrec &&
		!memcmp(a->step.rec, b->step.rec, a->step.nrec * sizeof a->step.rec[0]);
}

/* the two clocks' states equal (ready up to max(., 2 fe)) */
static int same(const struct nb_tm *a, const struct nb_tm *b, const char *when, unsigned run)
{
	const char *what = NULL;

	if (a->ret != b->ret || a->ret_n != b->ret_n)
		what = "retirement";
	else if (a->fe != b->fe || a->fe_n != b->fe_n)
		what = "allocation";
	else if (a->seq != b->seq || a->uops != b->uops)
		what = "uop counts";
	else if (a->last_done != b->last_done)
		what = "last result";
	else if (a->lo != b->lo)
		what = "units' horizon";
	else if (a->uhi != b->uhi)
		what = "latest reservation";
	else if (memcmp(a->busy, b->busy, sizeof a->busy))
		what = "unit reservations";
	else if (a->div_free != b->div_free)
		what = "divider";
	else if (a->bus_free != b->bus_free)
		what = "bus";
	else if (memcmp(a->miss, b->miss, sizeof a->miss))
		what = "miss slots";
	else if (memcmp(a->rob, b->rob, sizeof a->rob))
		what = "window";
	else if (a->ld_mask != b->ld_mask)
		what = "load misses";
	else if (!same_rec(a, b))
		what = "recorded retirement cycles";
	else
		for (unsigned i = 0; i < NB_TM_NSLOT && !what; i++) {
			uint64_t x = a->ready[i], y = b->ready[i], m = 2 * a->fe;
			if ((x > m ? x : m) != (y > m ? y : m))
				what = "ready times";
		}
#ifdef DBG
	if (what && nfail < 2 && !strcmp(what, "unit reservations"))
		for (unsigned u = 0; u < NB_TMU_N; u++) for (unsigned i = 0; i < 2; i++) for (unsigned w = 0; w < NB_TM_URING/64; w++)
			if (a->busy[u][i][w] != b->busy[u][i][w])
				tap_diag("u%u i%u word %u (tick %% 8192 = %u): %016llx vs %016llx; fe %llu lo %llu uhi %llu", u, i, w, w*64,
					(unsigned long long)a->busy[u][i][w], (unsigned long long)b->busy[u][i][w], (unsigned long long)a->fe, (unsigned long long)a->lo, (unsigned long long)a->uhi);
#endif
	if (what && nfail++ < 5)
		tap_diag("%s, run %u: %s differ (ret %llu / %llu)", when, run, what,
			 (unsigned long long)a->ret, (unsigned long long)b->ret);
	return !what;
}

static struct nb_tm ta, tb;
static unsigned recmode;        /* step mode: both clocks record (rec[]) */
static uint64_t nrecs;          /* uops whose retirement cycles ta recorded */
static uint64_t uops;           /* uops ta ran (the tests since nrecs was 0) */
static uint64_t ffs;            /* runs ta fast-forwarded (the last test) */

/* After a run: the clocks' fields always (the steady state keeps them
 * current), the whole state after ta's fast-forwarded writes are made
 * (nb_tm_memo_sync) at one run in `every` (so that a sync writes the
 * runs of a long fast-forward, not only the last one) */
static int check(const char *when, unsigned run, unsigned every)
{
	nrecs += ta.step.nrec;
	if (rnd(every) == 0) {
		nb_tm_memo_sync(&ta);
		return same(&ta, &tb, when, run);
	}
	if (ta.ret != tb.ret || ta.ret_n != tb.ret_n || ta.fe != tb.fe || ta.fe_n != tb.fe_n ||
	    ta.seq != tb.seq || ta.last_done != tb.last_done || ta.div_free != tb.div_free ||
	    ta.bus_free != tb.bus_free ||
	    memcmp(ta.miss, tb.miss, sizeof ta.miss) || !same_rec(&ta, &tb)) {
		if (nfail++ < 5)
			tap_diag("%s, run %u: the clocks' fields or step records differ (ret %llu / %llu)", when, run,
				 (unsigned long long)ta.ret, (unsigned long long)tb.ret);
		return 0;
	}
	return 1;
}

/* the same call on both clocks */
static void run2(const struct nb_tm_block *b, unsigned to, uint64_t misp)
{
	nb_tm_run(&ta, b, 0, to, misp);
	nb_tm_run(&tb, b, 0, to, misp);
}

static void miss2(unsigned ix, uint32_t lat)
{
	nb_tm_load_miss(&ta, ix, lat);
	nb_tm_load_miss(&tb, ix, lat);
}

/* a memory miss's latency word: an odd latency holds the bus for 56
 * cycles (a sector on Northwood's bus, nb_tm_lat_bus), so that the
 * replay meets loads that wait for the bus (without another draw of the
 * generator: the scenarios are those of the tests before the bus) */
static uint32_t mem_lat(uint32_t lat)
{
	return nb_tm_lat_bus(lat, lat & 1 ? 56 : 0);
}

/* Random scenarios on parameters p: returns the runs that differed */
static unsigned random_runs(const struct nb_tm_params *p, unsigned pen, unsigned scen,
			    unsigned *runs, uint64_t *replayed, const char *name, int queues)
{
	unsigned bad = 0, nrun = 0;

	*replayed = 0;
	ffs = 0;

	for (unsigned sc = 0; sc < scen; sc++) {
		uint64_t misp = 0;
		nb_tm_memo_flush();     /* the blocks' storage is reused */
		for (unsigned i = 0; i < NB; i++)
			if (queues && i >= 2)
				gen_queue(&blks[i], 12 + rnd(MAXU - 12));
			else
				gen_block(&blks[i], 1 + rnd(i < 2 ? 12 : i < 5 ? 48 : MAXU), sc % 4 == 3);
		nb_tm_init(&ta, p, pen);
		nb_tm_init(&tb, p, pen);
		ta.memo.on = 1;
		ta.step.record = tb.step.record = recmode;
		for (unsigned l = 0; l < 60; l++) {
			struct blk *k = &blks[rnd(NB)];
			unsigned reps = 1 + rnd(rnd(4) ? 150 : 3), n = k->b.n;
			unsigned to = rnd(3) ? n : 1 + rnd(n);
			unsigned mode = rnd(6);         /* 0: L2 misses, 1: mixed */
			for (unsigned r = 0; r < reps; r++) {
				if (mode <= 1 && k->nld)
					for (unsigned j = 0; j < k->nld; j++)
						if (mode == 0 ? j % 2 == 0 : rnd(4) == 0)
							miss2(j, mode == 0 ? 7 : (rnd(2) ? 18 : mem_lat(180 + rnd(200))));
				if (rnd(50) == 0)
					misp += 1 + rnd(2);
				run2(&k->b, to, misp);
				if (rnd(400) == 0 && nb_tm_serialize(&ta) != nb_tm_serialize(&tb))
					bad++;
				bad += !check(name, nrun, 3);
				nrun++;
			}
		}
		*replayed += ta.memo.hits;
		ffs += ta.memo.ffs;
		uops += ta.uops;
	}
	*runs = nrun;
	return bad;
}

/* a steady loop: block k run `reps` times, misses from miss() */
static unsigned steady(const struct nb_tm_params *p, const struct nb_tm_block *b, unsigned reps,
		       void (*miss)(void), uint64_t *hits, uint64_t *cyc)
{
	unsigned bad = 0;

	nb_tm_memo_flush();
	nb_tm_init(&ta, p, 20);
	nb_tm_init(&tb, p, 20);
	ta.memo.on = 1;
	ta.step.record = tb.step.record = recmode;
	for (unsigned r = 0; r < reps; r++) {
		if (miss)
			miss();
		run2(b, b->n, 0);
		bad += !check("steady", r, 1 + r % 50);
	}
	nb_tm_memo_sync(&ta);
	bad += !same(&ta, &tb, "steady, at the end", reps);
	*hits = ta.memo.hits;
	ffs = ta.memo.ffs;
	uops += ta.uops;
	*cyc = nb_tm_serialize(&ta);
	bad += *cyc != nb_tm_serialize(&tb);
	return bad;
}

static void miss_l2(void)
{
	miss2(0, 7);
	miss2(2, 7);
}

/* two loads from memory, each moving its sector on the bus for 100
 * cycles (nb_tm_lat_bus; a slower bus than Northwood's 56, so that it,
 * not the 4 miss slots' 300 / 4 a load, bounds the loop) */
static void miss_mem(void)
{
	miss2(0, nb_tm_lat_bus(311, 100));
	miss2(1, nb_tm_lat_bus(311, 100));
}

/* the same, but every seventh run's sectors hold the bus 300 cycles: the
 * runs after it start with a longer queue on the bus than the same runs
 * in the steady state (the replay's key holds the bus's state) */
static void miss_mem7(void)
{
	static unsigned n;
	uint32_t bus = n++ % 7 ? 100 : 300;

	miss2(0, nb_tm_lat_bus(311, bus));
	miss2(1, nb_tm_lat_bus(311, bus));
}

/* random_runs as one check: identical after every run, a tenth replayed,
 * a twentieth fast-forwarded */
static void random_case(const struct nb_tm_params *p, unsigned pen, unsigned scen, const char *name,
			int queues, const char *label)
{
	uint64_t hits;
	unsigned runs, bad = random_runs(p, pen, scen, &runs, &hits, name, queues);

	tap_ok(bad == 0 && hits > runs / 10 && ffs > runs / 20, "%s: %u random runs, replay and walk "
	       "identical after each (%u differ); %llu replayed, %llu fast-forwarded", label, runs, bad,
	       (unsigned long long)hits, (unsigned long long)ffs);
}

int main(void)
{
	const struct nb_tm_params *nw = nb_tm_params_for(2), *pr = nb_tm_params_for(3);
	unsigned runs, runs2, bad;
	uint64_t hits, hits2, cyc;

	tap_plan(15);

	/* (a tenth of the runs replayed at least, a twentieth fast-forwarded:
	 * else the comparison says little about the replay) */
	random_case(nw, 20, 60, "northwood", 0, "Northwood");
	random_case(pr, 31, 60, "prescott", 0, "Prescott");
	/* blocks that queue for the load port: their searches examine more
	 * than 64 ticks; before the replay made the walk's choice again for
	 * those, such blocks were not recorded (about 2% of the runs were
	 * replayed, the other blocks') */
	random_case(pr, 31, 40, "prescott, queues", 1, "Prescott, load-port queues");
	random_case(nw, 20, 40, "northwood, queues", 1, "Northwood, load-port queues");

	/* a loop body: an FP add chain fed by loads, pointer bumps, a store,
	 * a compare and branch; every run L2-hit misses on two loads */
	gen_block(&loopb, 1, 0);
	{
		struct blk *k = &loopb;
		unsigned ns = 0, n = 0;
		struct { uint8_t c, ld; int s0, s1, d; } body[] = {
			{ NB_TM_FLOAD, 1, 1, -1, NB_TM_SCR + 0 },
			{ NB_TM_FLOAD, 2, 2, -1, NB_TM_SCR + 1 },
			{ NB_TM_SMUL, 0, NB_TM_SCR + 0, NB_TM_SCR + 1, NB_TM_SCR + 2 },
			{ NB_TM_SADD, 0, 3, NB_TM_SCR + 2, 3 },
			{ NB_TM_LOAD, 3, 4, -1, 5 },
			{ NB_TM_ALU, 0, 1, -1, 1 },
			{ NB_TM_ALU, 0, 2, -1, 2 },
			{ NB_TM_STA, 0, 4, -1, -1 },
			{ NB_TM_STD, 0, 5, -1, -1 },
			{ NB_TM_ALU, 0, 6, -1, 6 },
			{ NB_TM_ALU, 0, 6, 7, 8 },
		};
		for (unsigned i = 0; i < sizeof body / sizeof body[0]; i++, n++) {
			struct nb_tm_uop *u = &k->u[n];
			u->cls = body[i].c;
			u->ld = body[i].ld;
			u->slot = ns;
			u->nsrc = 0;
			k->s[ns++] = (uint16_t)body[i].s0;
			u->nsrc++;
			if (body[i].s1 >= 0) {
				k->s[ns++] = (uint16_t)body[i].s1;
				u->nsrc++;
			}
			u->ndst = body[i].d >= 0;
			if (body[i].d >= 0)
				k->s[ns++] = (uint16_t)body[i].d;
		}
		k->b.n = n;
		k->b.nslots = ns;
	}
	bad = steady(nw, &loopb.b, 20000, NULL, &hits, &cyc);
	tap_ok(bad == 0 && cyc > 20000 * 4, "Northwood: 20000 runs of a dot-product loop body, "
	       "identical (%u differ), %llu cycles", bad, (unsigned long long)cyc);
	tap_ok(hits > 19000 && ffs > 18000, "... of which %llu replayed (steady state: > 19000), "
	       "%llu fast-forwarded (> 18000)", (unsigned long long)hits, (unsigned long long)ffs);
	bad = steady(nw, &loopb.b, 20000, miss_l2, &hits, &cyc);
	tap_ok(bad == 0 && hits > 19000 && ffs > 18000, "Northwood, two loads an L1D miss (L2 hit) "
	       "each run: identical (%u differ), %llu replayed, %llu fast-forwarded, %llu cycles",
	       bad, (unsigned long long)hits, (unsigned long long)ffs, (unsigned long long)cyc);
	/* bound by the bus: 2 x 100 cycles a run, where the miss slots
	 * alone take 150 (2 x 300 / 4) */
	bad = steady(nw, &loopb.b, 20000, miss_mem, &hits, &cyc);
	tap_ok(bad == 0 && cyc >= 20000 * 2 * 100 && cyc < 20000 * 2 * 100 + 1000 && hits > 10000,
	       "Northwood, two loads from memory each run, their sectors on the bus: identical (%u "
	       "differ), %llu cycles (the bus's %u), %llu replayed, %llu fast-forwarded", bad,
	       (unsigned long long)cyc, 20000 * 2 * 100, (unsigned long long)hits, (unsigned long long)ffs);
	bad = steady(nw, &loopb.b, 20000, miss_mem7, &hits, &cyc);
	tap_ok(bad == 0 && cyc >= 20000 / 7 * 2 * 300 + 20000 * 6 / 7 * 2 * 100 && hits > 10000,
	       "Northwood, the same with every seventh run's sectors 300 cycles on the bus: identical "
	       "(%u differ), %llu cycles, %llu replayed", bad, (unsigned long long)cyc,
	       (unsigned long long)hits);
	bad = steady(pr, &loopb.b, 20000, miss_l2, &hits, &cyc);
	tap_ok(bad == 0 && hits > 19000 && ffs > 18000, "Prescott, the same: identical (%u differ), "
	       "%llu replayed, %llu fast-forwarded, %llu cycles", bad, (unsigned long long)hits,
	       (unsigned long long)ffs, (unsigned long long)cyc);

	/* step mode: both clocks record each uop's retirement cycle, which
	 * the replay and the steady state write from the way's window
	 * entries: the same runs again, the records compared too; every uop
	 * run has its record (none is left to the walk's records alone) */
	recmode = 1;
	nrecs = uops = 0;
	bad = random_runs(nw, 20, 60, &runs, &hits, "northwood, step mode", 0);
	bad += random_runs(pr, 31, 60, &runs2, &hits2, "prescott, step mode", 0);
	tap_ok(bad == 0 && hits > runs / 10 && hits2 > runs2 / 10 && ffs > runs2 / 20, "step mode: "
	       "%u + %u random runs (Northwood, Prescott), replay and walk identical after each, "
	       "with the retirement cycles recorded (%u differ); %llu + %llu replayed (%llu of the "
	       "second fast-forwarded)", runs, runs2, bad, (unsigned long long)hits,
	       (unsigned long long)hits2, (unsigned long long)ffs);
	tap_ok(nrecs == uops && uops > 0, "... every uop run recorded on the replaying clock: %llu "
	       "records, %llu uops", (unsigned long long)nrecs, (unsigned long long)uops);
	nrecs = uops = 0;
	bad = steady(nw, &loopb.b, 20000, miss_l2, &hits, &cyc);
	tap_ok(bad == 0 && hits > 19000 && ffs > 18000, "step mode, Northwood, the loop body with "
	       "two L1D misses: identical with the records (%u differ), %llu replayed, %llu "
	       "fast-forwarded, %llu cycles", bad, (unsigned long long)hits,
	       (unsigned long long)ffs, (unsigned long long)cyc);
	bad = steady(pr, &loopb.b, 20000, NULL, &hits, &cyc);
	tap_ok(bad == 0 && hits > 19000 && ffs > 18000 && nrecs == uops, "step mode, Prescott, "
	       "the loop body: identical with the records (%u differ), %llu replayed, %llu "
	       "fast-forwarded; %llu records of %llu uops", bad, (unsigned long long)hits,
	       (unsigned long long)ffs, (unsigned long long)nrecs, (unsigned long long)uops);
	recmode = 0;

	/* the comparison itself sees a difference: one more uop on one clock */
	nfail = 5;              /* (no diagnostics) */
	nb_tm_run(&ta, &loopb.b, 0, 1, 0);
	tap_ok(!same(&ta, &tb, "control", 0), "control: a clock that ran one uop more differs");
	return tap_done();
}
