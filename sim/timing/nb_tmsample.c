/*
 * nb_tmsample.c - the sampled clock (--nbsim-clock=sampled, README.md
 * "Timing model", "The sampled clock"): the timing model's walk
 * (nb_tm_run, nb_tmmemo.c) on a sample of the superblock runs, a learned
 * cost on the others.  Pure module (no libc, no valgrind).
 *
 * Sampling as in SMARTS (Wunderlich et al., "SMARTS: Accelerating
 * Microarchitecture Simulation via Rigorous Statistical Sampling", ISCA
 * 2003): the clock alternates between
 *  - skip: a run of uops [0, to) of block b advances the clock by the
 *    cost learned for (b, to) and the run's variant (below), in 1/256
 *    cycles, carrying the fraction; the pipeline is taken as drained
 *    after it (fe = ret);
 *  - warm: the walk, not measured (NB_TMS_WARM runs): it refills the
 *    window, the units' reservations and the miss slots that the skipped
 *    runs left empty;
 *  - measure: the walk (NB_TMS_MEAS runs), and each run's advance of the
 *    clock (its retirement point ret + ret_n / width after the run minus
 *    before) goes into the cost of its (b, to) and variant: the mean over
 *    its measured runs (over the last 2048 to 4096 of them: the older
 *    runs weigh half at each halving).
 * What a run is charged depends on what it has: a run without an
 * L1D-missing load, the mean advance of such runs of its (b, to), one
 * mean after a mispredicted branch (the penalty lands in the next run's
 * advance, as in the walk), one after a predicted one; a run with
 * missing loads, that base plus its loads' latencies (cycles, from the
 * cache model) times the factor learned for its (b, to): the mean
 * advance beyond the base per cycle of latency (about 1 for a dependent
 * chase, less where misses overlap; one factor for L2 hits and memory
 * misses: a factor for each changed no figure measured, bench, t_timing
 * and t_tmsample alike).  So a skipped run is charged the
 * penalty and the misses it has, not their means over every run: with
 * one mean per (b, to), a region of 4000 iterations of t_timing's mixed
 * kernel (a branch mispredicted half the time, L2-hit loads) read up to
 * 5% off the walk, from the binomial spread of its mispredictions; and
 * the same code on other data (t_timing's chase through the L2, then
 * through memory) is charged its new latencies at once.  Plain means,
 * not weighted ones: with a mean weighted 1/8 to the newest run that
 * region read 20% off.
 * Skip phases are t->smp.skip runs long on average (--nbsim-sample),
 * drawn from a xorshift generator with a fixed seed (deterministic: the
 * same program gets the same cycles), evenly in [SKIP/2, 3 SKIP/2], so
 * that the sample does not lock onto a loop's period.  A block keeps
 * costs for NB_TMS_EXITS values of `to` (its exits); a run to another is
 * walked.
 *
 * Two corrections:
 *  - refill: the first walked runs after a skip phase start from an
 *    empty pipeline and cost more than their learned cost (an
 *    instruction stream that overlapped its neighbours is charged its
 *    latency); what the warm phase's runs cost beyond their learned
 *    costs is taken back from the charges of the skipped runs that
 *    follow (the clock never goes back), until the next serializing
 *    point (nb_tms_serialize, where the program read the cycles, clears
 *    it: what it read stays);
 *  - a run in a skip phase without a learned cost (a new block, a new
 *    exit, the first misses of a block)
 *    starts a warm phase; the run is walked, and its advance, from an
 *    emptier pipeline, is its first cost when the measure phase does not
 *    see one.
 * What a skipped run does not model: the variation of its own timing
 * around the mean (which of its loads missed, beyond their latencies),
 * and the overlap with its neighbours beyond what the means hold.  The counts (uops, instructions, loads,
 * misses...) do not depend on the clock.
 */
#include "nb_tmsample.h"

/* The model's entry points (nb_timing.h) on a clock made current first:
 * this clock's streak charged, the replay's pending writes made (the
 * model knows neither) */
static inline void tm_walk(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to)
{
	nb_tms_sync(t);
	nb_tm_memo_current(t);
	nb_tm_walk(t, b, from, to);
}

static inline void tm_misp(struct nb_tm *t, uint64_t misp)
{
	nb_tms_sync(t);
	nb_tm_misp(t, misp, 0);
}

static inline void tm_run(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
			  uint64_t misp)
{
	nb_tms_sync(t);
	nb_tm_run(t, b, from, to, misp);
}

#ifndef NB_TMS_SEED
#define NB_TMS_SEED   0x9e3779b97f4a7c15ull /* the generator's (fixed) seed    */
#endif
#ifndef NB_TMS_SKIP0
#define NB_TMS_SKIP0  250u        /* the first skip phases' mean length   */
#endif
#ifndef NB_TMS_AMEAS
#define NB_TMS_AMEAS  8192u       /* runs measured after an anchor        */
#endif
#ifndef NB_TMS_WARM
#define NB_TMS_WARM   32u         /* runs walked, not measured (mean)...  */
#endif
#ifndef NB_TMS_WARM_SHORT
#define NB_TMS_WARM_SHORT 64u     /* ... while skip phases are short      */
#endif
#ifndef NB_TMS_WARM_AT
#define NB_TMS_WARM_AT 1000u      /* ... than this mean                   */
#endif
#ifndef NB_TMS_MEAS
#define NB_TMS_MEAS   48u         /* runs walked and measured             */
#endif
#ifndef NB_TMS_REFILL
#define NB_TMS_REFILL 16u         /* a warm phase's runs that refill      */
#endif
#define NB_TMS_N      4096u       /* runs in a cost's mean, at most        */
#ifndef NB_TMS_FMEAS
#define NB_TMS_FMEAS  2048u       /* runs measured after a forgetting     */
#endif
#ifndef NB_TMS_CMEAS
#define NB_TMS_CMEAS  16u         /* ... after a skip phase cut short     */
#endif

enum { PH_SKIP, PH_WARM, PH_MEAS };

/* the retirement point in 1/256 cycles: the last retirement cycle plus
 * the share of its slots taken */
static uint64_t ret_point(const struct nb_tm *t)
{
	/* (no division where the last cycle is whole: every skipped run
	 * leaves ret_n 0, and step mode asks at each held run's start) */
	return (t->ret << 8) + (t->ret_n ? ((uint64_t)t->ret_n << 8) / t->p->width : 0);
}

/* where a run's learned advance starts: the retirement point, or the
 * front end a store held later (waiting for the bus, nb_tms_store_bus:
 * smp.hold).  skip() starts a skipped run there and then charges its
 * cost, so the cost learned from a walked run must not hold that wait
 * too: counted twice, two threads each copying memory under --ht=yes
 * (each store held for its share of the bus) ran 40% slower than the
 * walk.  (A misprediction's restart is in the cost: the base after a
 * mispredicted branch, as skipped runs have no restart of their own.)
 * The hold is the next run's: cleared as a run starts. */
static uint64_t start_point(struct nb_tm *t)
{
	uint64_t r = ret_point(t);

	if (t->smp.hold) {
		t->smp.hold = 0;
		if (t->fe > t->ret && (t->fe << 8) > r)
			return t->fe << 8;
	}
	return r;
}

static uint64_t rng_next(struct nb_tm *t)
{
	uint64_t x = t->smp.rng ? t->smp.rng : (uint64_t)(NB_TMS_SEED);

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	t->smp.rng = x;
	return x;
}

/*
 * Forgetting (smp.forget runs after the last anchor or forgetting, as a
 * skip phase would start): what an anchor does to what was learned,
 * without its serializing point: a new generation frees every entry,
 * and the next NB_TMS_FMEAS runs are measured (from a full pipeline: a
 * measure phase just ended).  Not an anchor's 8192 runs, nor its short
 * skip phases (skip_mean counts from the last anchor, smp.rfrom): the
 * program runs on as before, and each block's first run after it is a
 * warm phase's first cost, measured at the next measure phase; with the
 * anchor's, each forgetting walked about 20,000 runs, a third of sort's
 * walks; with these, the seven third-party programs read as near the
 * model's cycles, python3 nearer (docs/bench-log.md).  A cost
 * is the mean of a block's runs over the program's whole life since it
 * was learned, and what a block costs moves with the program's phases:
 * python3 building and parsing a JSON document, its anchors only at
 * the reads of its imports, read 2.4% over the model's cycles with costs
 * learned while it imported, 1.0% with them forgotten every 4 M runs
 * (docs/timing-model.md: how often, and what it costs).  The other LP's clock takes the generation too
 * (the two learn into one set of entries: nb_cycles.c nb_tm_anchor).
 */
static void forget(struct nb_tm *t)
{
	t->smp.gen += 2;
	t->smp.from = t->smp.skipped + t->smp.walked;
	t->smp.forgot++;
	t->smp.cut = 0;
	t->smp.phase = PH_MEAS;
	t->smp.left = NB_TMS_FMEAS;
	if (t->smp.peer) {
		nb_tms_sync(t->smp.peer);
		t->smp.peer->smp.gen = t->smp.gen;
	}
}

/* the mean of the next skip phase: a 32nd of the runs since the last
 * anchor, from NB_TMS_SKIP0 up to smp.skip (more samples while a short
 * program or region learns its costs, fewer walked runs in a long one) */
static uint64_t skip_mean(const struct nb_tm *t)
{
	uint64_t m = (t->smp.skipped + t->smp.walked - t->smp.rfrom) / 32;

	if (m < NB_TMS_SKIP0)
		m = NB_TMS_SKIP0;
	if (m > t->smp.skip)
		m = t->smp.skip;
	return m;
}

static void phase(struct nb_tm *t, unsigned ph)
{
	t->smp.phase = ph;
	if (ph == PH_SKIP && t->smp.forget &&
	    t->smp.skipped + t->smp.walked - t->smp.from >= t->smp.forget) {
		forget(t);
		return;
	}
	if (ph == PH_SKIP) {
		uint64_t m = skip_mean(t);
		t->smp.left = (uint32_t)(m / 2 + rng_next(t) % (m + 1));
	}
	else if (ph == PH_WARM) {
		/* (of random length too: a warm phase that a rare run began
		 * would otherwise measure the same part of a loop each time.)
		 * Its length: 16-48 runs where skip phases are long (a
		 * quarter fewer runs walked in a long program than with
		 * 32-96, its cycles as near the model's; 8-24 read python3
		 * 3.5% over the model's cycles in one environment of twelve,
		 * 4-12 up to 2.2% in others: docs/bench-log.md);
		 * 32-96 where they are short, where the warm phases are a
		 * larger share of the clock (t_sampled's regions at
		 * --nbsim-sample=100 read over 2% off the walk with 16-48) */
		uint32_t w = skip_mean(t) >= NB_TMS_WARM_AT ? NB_TMS_WARM : NB_TMS_WARM_SHORT;
		t->smp.left = w / 2 + (uint32_t)(rng_next(t) % (w + 1));
	}
	else {
		/* after a skip phase cut by a run without a cost for its
		 * kind, a third of the runs measured: the cut's warm phase
		 * gave that run its first cost, and its measure phase is
		 * for the costs of the runs around it, as any measure phase.
		 * python3, whose new code and forgettings cut about 21,000
		 * skip phases, walked half its runs in them: 13% fewer runs
		 * walked, its cycles as near the model's (none measured read
		 * 13.6% over, the first costs from a refilling pipeline
		 * kept; shorter warm phases after a cut, 1-2% over:
		 * docs/bench-log.md) */
		t->smp.left = t->smp.cut ? NB_TMS_CMEAS : NB_TMS_MEAS;
		t->smp.cut = 0;
	}
}

/* the entry of the runs [0, to) of b: found, or a free one claimed;
 * NULL when b has NB_TMS_EXITS others (its runs are walked) */
static struct nb_tm_cost *entry(const struct nb_tm *t, const struct nb_tm_block *b, unsigned to)
{
	struct nb_tm_cost *k = b->cost + t->smp.coff;

	/* (entries are claimed in order: none of this generation lies
	 * after a free one) */
	for (unsigned i = 0; i < NB_TMS_EXITS; i++, k++) {
		if (k->gen == t->smp.gen && k->to == to + 1)
			return k;
		if (k->gen != t->smp.gen || !k->to) {
			uint8_t *z = (uint8_t *)k;
			for (unsigned j = 0; j < sizeof *k; j++)
				z[j] = 0;
			k->to = to + 1;
			k->gen = t->smp.gen;
			return k;
		}
	}
	return 0;
}

const struct nb_tm_cost *nb_tms_find(const struct nb_tm *t, const struct nb_tm_block *b,
				     unsigned to)
{
	const struct nb_tm_cost *k = b->cost ? b->cost + t->smp.coff : 0;

	for (unsigned i = 0; k && i < NB_TMS_EXITS; i++, k++)
		if (k->gen == t->smp.gen && k->to == to + 1)
			return k;
	return 0;
}

/* One site at a time holds an entry's copies: a site bound before it to
 * k loses them (its next run binds it again, and the call's rest, which
 * finds the entry itself, charges what the copies would have).  A site
 * of another generation keeps its k, unused until it binds again (its
 * gen tells), and k->site is then another's or NULL (a claimed entry is
 * zeroed): learn() writes only to the site whose k is k. */
void nb_tms_site_bind(const struct nb_tm *t, struct nb_tms_site *c, const struct nb_tm_block *b)
{
	struct nb_tm_cost *k = (struct nb_tm_cost *)nb_tms_find(t, b, c->to);

	c->gen = t->smp.gen;
	c->n = b->real[c->to];
	c->k = k;
	if (!k) {
		c->c[0] = c->c[1] = 0;
		return;
	}
	if (k->site && k->site != c && k->site->k == k) {
		k->site->k = 0;
		k->site->c[0] = k->site->c[1] = 0;
	}
	k->site = c;
	c->c[0] = k->base[0].c;
	c->c[1] = k->base[1].c;
}

void nb_tms_anchor(struct nb_tm *t)
{
	nb_tms_close(t);
	nb_tms_sync(t);
	t->smp.gen += 2;        /* (its parity: nb_tmsample_state.h) */
	t->smp.rng = 0;
	t->smp.frac = 0;
	t->smp.skew = 0;
	t->smp.mp = 0;
	t->smp.refill = 0;
	t->smp.from = t->smp.rfrom = t->smp.skipped + t->smp.walked;
	/* from a drained pipeline, as the walk after the serializing
	 * point: no warm phase; a long measure phase (learned from
	 * NB_TMS_AMEAS runs, the costs of a region are right from its
	 * start: with a warm phase and the usual measure phase, the 16
	 * regions of t_sampled read up to 6.5% off, and 3.3% with the
	 * first skip phases short; with this, within 1.2%) */
	t->smp.cut = 0;
	t->smp.phase = PH_MEAS;
	t->smp.left = NB_TMS_AMEAS;
}

/* the missing latency's factor from the sums and the bases as they are
 * now (a base learned later corrects the runs' shares before it) */
static void factor(struct nb_tm_cost *k)
{
	int64_t b0 = k->base[0].c ? k->base[0].c - 1 : 0, b1 = k->base[1].c ? k->base[1].c - 1 : 0;
	int64_t extra = (int64_t)k->miss.sum - (int64_t)(k->miss.n - k->miss.n1) * b0 -
		(int64_t)k->miss.n1 * b1;

	k->miss.f = k->miss.lat ? (int32_t)(extra / (int64_t)k->miss.lat) : 0;
}

/* A run's advance d (1/256 cycles) into what k learned: the base of
 * mp if its loads' latencies s (cycles) are 0, else the factor; past
 * NB_TMS_N runs the sums halve (the older runs weigh less).  meas: a
 * measured run, which replaces a first value from a run that was not
 * (prov); else the run gives a first value (a warm phase's run). */
static void learn(struct nb_tm_cost *k, unsigned mp, uint64_t s, uint64_t d, int meas)
{
	unsigned bit = s ? 4u : 1u << mp;

	if (meas && (k->prov & bit)) {
		if (s) {
			k->miss.n = k->miss.n1 = 0;
			k->miss.sum = k->miss.lat = 0;
		} else {
			k->base[mp].n = 0;
			k->base[mp].sum = 0;
		}
	}
	if (meas)
		k->prov &= ~bit;
	else
		k->prov |= bit;
	if (!s) {
		if (k->base[mp].n >= NB_TMS_N) {
			k->base[mp].sum /= 2;
			k->base[mp].n /= 2;
		}
		k->base[mp].sum += d;
		k->base[mp].n++;
		d = k->base[mp].sum / k->base[mp].n;
		k->base[mp].c = (uint32_t)(d < NB_TMS_MAX - 1 ? d : NB_TMS_MAX - 1) + 1;
		/* (the copy at the site bound to k, if it still is:
		 * nb_tms_site_bind) */
		if (k->site && k->site->k == k)
			k->site->c[mp] = k->base[mp].c;
	} else {
		if (k->miss.n >= NB_TMS_N) {
			k->miss.sum /= 2;
			k->miss.lat /= 2;
			k->miss.n = (k->miss.n - k->miss.n1) / 2 + k->miss.n1 / 2;
			k->miss.n1 /= 2;
		}
		k->miss.sum += d;
		k->miss.lat += s;
		k->miss.n++;
		k->miss.n1 += mp;
	}
	if (k->miss.n)
		factor(k);
}

/* a run skipped at cost c (1/256 cycles + 1) */
static void skip(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
		 uint32_t c, uint64_t misp)
{
	uint64_t n = (uint64_t)b->real[to] - b->real[from], x;

	nb_tm_memo_current(t);          /* (the steady state's writes) */
	t->log.mut++;                       /* (ends a replay streak) */
	nb_tms_bus(t, t->ret);
	/* from a drained pipeline: the cycle after the last retirement */
	if (t->ret_n) {
		t->ret++;
		t->ret_n = 0;
	}
	if (t->fe > t->ret)
		t->ret = t->fe;         /* (a front end restarting later) */
	x = t->smp.frac + (c - 1);
	if (t->smp.skew > 0) {
		/* the refill a warm phase was charged beyond its learned
		 * costs, taken back from the charges of the skipped runs
		 * that follow (until the program reads the cycles,
		 * nb_tms_serialize); never from the clock itself: lowering
		 * ret below what the walk left (the window's retirement
		 * cycles, the units' reservations from twice the allocation
		 * cycle on) made the next walk reserve ticks before the
		 * units' horizon, reservations the horizon never clears */
		uint64_t k = (uint64_t)t->smp.skew < x ? (uint64_t)t->smp.skew : x;
		x -= k;
		t->smp.skew -= (int64_t)k;
	} else
		t->smp.skew = 0;        /* (a warm phase cheaper than its costs:
					 * their means' spread, not a refill) */
	t->ret += x >> 8;
	nb_tm_ls_set(t);
	t->smt.skip_cyc += x >> 8;
	t->smp.frac = (uint32_t)(x & 255);
	t->fe = t->ret;
	t->fe_n = 0;
	t->last_done = 2 * t->ret;
	t->seq += n;
	t->uops += n;
	t->ld_mask = 0;
	t->step.nrec = 0;
	t->smp.hold = 0;
	t->misp_seen = misp;            /* (in the mean) */
	t->smp.skipped++;
	/* the pipeline drained, ret_n 0, fe at ret: the next runs of the
	 * phase can be summed (nb_tms_skip) */
	t->smp.lazy = t->smp.left != 0;
}

/*
 * A streak of runs that nb_tms_skip summed, into the fields as skip()
 * would have left them, run by run: the clock's point in 1/256 cycles
 * (ret * 256 + smp.frac) moves by their charges less what the refill
 * takes back, min(skew, smp.frac + charges), the same total as taking
 * it back run by run; the pipeline drained at the new point.
 */
void nb_tms_flush(struct nb_tm *t)
{
	uint64_t x;

	t->smp.lazy = 0;
	if (!t->smp.pend)
		return;
	x = t->smp.frac + t->smp.acc;
	if (t->smp.skew > 0) {
		uint64_t k = (uint64_t)t->smp.skew < x ? (uint64_t)t->smp.skew : x;
		x -= k;
		t->smp.skew -= (int64_t)k;
	} else
		t->smp.skew = 0;
	t->ret += x >> 8;
	nb_tm_ls_set(t);
	t->smt.skip_cyc += x >> 8;
	t->smp.frac = (uint32_t)(x & 255);
	t->fe = t->ret;
	t->fe_n = 0;
	t->last_done = 2 * t->ret;
	t->seq += t->smp.accu;
	t->uops += t->smp.accu;
	t->smp.skipped += t->smp.pend;
	t->log.mut++;
	t->smp.acc = t->smp.accu = 0;
	t->smp.pend = 0;
}

/* A walked run's advance d (1/256 cycles) into the phase: learned
 * (measure phase, or a first cost), or its refill beyond the learned
 * cost c kept to take back; the phase's runs counted down. */
static void walked(struct nb_tm *t, struct nb_tm_cost *k, unsigned mp, uint64_t s, uint32_t c,
		   uint64_t d)
{
	t->smp.walked++;
	if (t->smp.phase == PH_MEAS || !c) {
		/* (a warm phase's run without a cost: a first one, from a
		 * pipeline refilling) */
		learn(k, mp, s, d, t->smp.phase == PH_MEAS);
		t->smp.measured += t->smp.phase == PH_MEAS;
	} else if (t->smp.refill && !(k->prov & (s ? 4u : 1u << mp)))
		/* (against a measured cost only: a first one from a run not
		 * measured, as refilling as this one, would give it back) */
		t->smp.skew += (int64_t)d - (int64_t)(c - 1);
	if (t->smp.refill)
		t->smp.refill--;
	if (!--t->smp.left)
		phase(t, t->smp.phase == PH_WARM ? PH_MEAS : PH_SKIP);
}

/* A whole run [0, to) of b (its loads' misses in t->ld_mask): skipped,
 * or walked and learned, as the phase says; walked, and nothing learned,
 * if b keeps no cost for it.  step: the walk's step records are not for
 * this run (a run in segments, closing: its instructions have been
 * reported). */
static void whole(struct nb_tm *t, const struct nb_tm_block *b, unsigned to, uint64_t misp,
		  int step)
{
	struct nb_tm_cost *k;
	uint64_t before, s = 0;
	unsigned mp;
	uint32_t c;

	if (t->smp.lazy && b->real) {
		const struct nb_tm_cost *f = nb_tms_find(t, b, to);
		if (f && nb_tms_skip(t, f, b->real[to], misp))
			return;
	}
	nb_tms_sync(t);
	mp = t->smp.mp;
	t->smp.mp = misp != t->misp_seen;
	if (!b->cost || !b->real || !(k = entry(t, b, to))) {
		tm_run(t, b, 0, to, misp);
		t->smp.walked++;
		return;
	}
	if (t->ld_mask)
		s = nb_tms_miss_lat(t);
	c = nb_tms_cost(k, mp, s);
	if (t->smp.phase == PH_SKIP) {
		if (c && t->smp.left) {
			t->smp.left--;
			skip(t, b, 0, to, c, misp);
			return;
		}
		t->smp.cold += !c;
		t->smp.cut = !c;
		phase(t, PH_WARM);
		t->smp.refill = NB_TMS_REFILL;
	}
	before = start_point(t);
	/* (the walk itself, not the replay of recorded schedules: after a
	 * skip phase the states seldom repeat, and recording them made the
	 * walked runs 60% dearer on bench loops) */
	tm_walk(t, b, 0, to);
	tm_misp(t, misp);
	if (step)
		t->step.nrec = 0;
	walked(t, k, mp, s, c, ret_point(t) - before);
}

void nb_tm_run_sampled(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
		       uint64_t misp)
{
	if (from || t->step.record) {
		nb_tms_sync(t);
		t->smp.mp = misp != t->misp_seen;
		tm_run(t, b, from, to, misp);
		t->smp.walked++;
		return;
	}
	whole(t, b, to, misp, 0);
}


void nb_tms_close(struct nb_tm *t)
{
	const struct nb_tm_block *b = t->smp.ob;
	struct nb_tm_cost *k;
	uint64_t misp = t->smp.omisp;
	unsigned open = t->smp.open, to = t->smp.oto, mp;
	uint32_t c;

	if (open == NB_SEG_NONE)
		return;
	t->smp.open = NB_SEG_NONE;
	if (open == NB_SEG_DEFER) {
		/* its misses in place of the next run's so far */
		uint64_t m = t->ld_mask;
		uint32_t lat[NB_TM_MAXLD];
		for (uint64_t x = m; x; x &= x - 1)
			lat[__builtin_ctzll(x)] = t->ld_lat[__builtin_ctzll(x)];
		t->ld_mask = t->smp.omask;
		for (uint64_t x = t->smp.omask; x; x &= x - 1)
			t->ld_lat[__builtin_ctzll(x)] = t->smp.olat[__builtin_ctzll(x)];
		whole(t, b, to, misp, 1);
		t->ld_mask = m;
		for (uint64_t x = m; x; x &= x - 1)
			t->ld_lat[__builtin_ctzll(x)] = lat[__builtin_ctzll(x)];
		return;
	}
	/* NB_SEG_WALK: the walk done, what whole() does after it */
	mp = t->smp.mp;
	t->smp.mp = misp != t->misp_seen;
	tm_misp(t, misp);
	if (open == NB_SEG_EXACT) {
		/* (a run of the skip phase: counted down, nothing learned) */
		t->smp.walked++;
		if (t->smp.left)
			t->smp.left--;
		return;
	}
	if (!b->cost || !b->real || !(k = entry(t, b, to))) {
		t->smp.walked++;
		return;
	}
	c = nb_tms_cost(k, mp, t->smp.os);
	walked(t, k, mp, t->smp.os, c, ret_point(t) - t->smp.obefore);
}

void nb_tm_seg_sampled(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
		       uint64_t misp)
{
	if (!from) {
		nb_tms_close(t);
		t->smp.ob = b;
		/* (a block that keeps no cost is walked whatever the phase) */
		t->smp.open = t->smp.phase == PH_SKIP && b->cost && b->real ?
			(t->smp.exact ? NB_SEG_EXACT : NB_SEG_DEFER) : NB_SEG_WALK;
		/* (a run held back changes nothing of the clock's state
		 * before it closes: the streak may go on through it, its
		 * charges not even flushed; in a streak nothing holds the
		 * front end: start_point is the retirement point) */
		if (t->smp.open == NB_SEG_DEFER) {
			uint64_t r;
			if (t->smp.pend && nb_tms_ret_lazy(t, &r)) {
				t->smp.obefore = r << 8;
				goto opened;
			}
			nb_tms_sync_keep(t);
		} else
			nb_tms_sync(t);
		t->smp.obefore = start_point(t);
	opened:
		t->smp.os = 0;
		t->smp.omask = 0;
	} else if (nb_tms_seg_held(t, b, from, to, misp)) {
		return;
	} else if (t->smp.open == NB_SEG_NONE || t->smp.ob != b) {
		/* (not the open run's next segment: none is expected) */
		nb_tms_close(t);
		nb_tms_sync(t);
		tm_run(t, b, from, to, misp);
		t->smp.walked++;
		return;
	}
	t->smp.oto = to;
	t->smp.omisp = misp;
	if (t->smp.open != NB_SEG_DEFER) {
		if (t->ld_mask)
			t->smp.os += nb_tms_miss_lat(t);
		tm_walk(t, b, from, to);
	} else {
		/* (held back with the run: the next run's loads set theirs) */
		for (uint64_t x = t->ld_mask; x; x &= x - 1)
			t->smp.olat[__builtin_ctzll(x)] = t->ld_lat[__builtin_ctzll(x)];
		t->smp.omask |= t->ld_mask;
		t->ld_mask = 0;
	}
}

void nb_tms_exact(struct nb_tm *t, int on)
{
	t->smp.exact = on != 0;
	if (!on || t->smp.open != NB_SEG_DEFER)
		return;
	/* the open run walked from its start, with its misses so far (not
	 * those of its loads past the uops reached: their walk is to come) */
	uint64_t later = t->ld_mask;

	nb_tms_sync(t);
	t->smp.open = NB_SEG_EXACT;
	t->ld_mask = t->smp.omask;
	for (uint64_t x = t->smp.omask; x; x &= x - 1)
		t->ld_lat[__builtin_ctzll(x)] = t->smp.olat[__builtin_ctzll(x)];
	t->smp.os = t->ld_mask ? nb_tms_miss_lat(t) : 0;
	t->smp.obefore = ret_point(t);
	tm_walk(t, t->smp.ob, 0, t->smp.oto);
	t->ld_mask = later;
	t->step.nrec = 0;            /* (its instructions were reported) */
}

uint64_t nb_tm_at(struct nb_tm *t)
{
	const struct nb_tm_block *b = t->smp.ob;
	const struct nb_tm_cost *k;
	uint64_t c;

	nb_tms_sync(t);
	if (t->smp.open != NB_SEG_DEFER || !b->cost)
		return t->ret;
	/* the share of the learned cost of the first run of b learned
	 * that reaches this far, by real uops (none: the run's start) */
	k = b->cost + t->smp.coff;
	for (unsigned i = 0; i < NB_TMS_EXITS; i++, k++) {
		if (k->gen != t->smp.gen || !k->to)
			break;
		if (k->to - 1 < t->smp.oto || !b->real[k->to - 1] || !k->base[t->smp.mp].c)
			continue;
		c = (uint64_t)(k->base[t->smp.mp].c - 1) * b->real[t->smp.oto] / b->real[k->to - 1];
		return t->ret + (t->ret_n ? 1 : 0) + (c >> 8);
	}
	return t->ret;
}

uint64_t nb_tms_serialize(struct nb_tm *t)
{
	uint64_t c;

	nb_tms_close(t);        /* (a serializing point ends a run) */
	nb_tms_sync(t);
	c = nb_tm_serialize(t);
	/* (a warm phase's refill is not paid back across a point where the
	 * program read the cycles) */
	t->smp.skew = 0;
	return c;
}
