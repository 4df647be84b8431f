/*
 * nb_tmsample.h - the sampled clock (nb_tmsample.c, --nbsim-clock=sampled,
 * the default): the timing model's walk on a sample of the superblock
 * runs, a learned cost on the others.  The top of the clock: it calls the
 * replay (nb_tmmemo.h) and the model (nb_timing.h), which know nothing of
 * it.  Its state is t->smp; what it learned per block is b->cost.
 */
#ifndef NB_TMSAMPLE_H
#define NB_TMSAMPLE_H

#include "nb_tmmemo.h"

/* what the sampled clock learned of the runs [0, to) of a block
 * (nb_tmsample.c), kept for NB_TMS_EXITS values of `to` (its exits):
 * base[mp]: the mean advance of the clock, in 1/256 cycles plus 1 (0:
 * none), of its runs without an L1D-missing load, mp: whether the run
 * before ended in a mispredicted branch, with the sum and count it is the
 * mean of; miss: of its runs with L1D-missing loads, the advance beyond
 * the base per cycle of the missing loads' latencies (f, 1/256; none
 * while n is 0), from the sums of their advances and latencies, n of
 * them, n1 after a misprediction; prov: which of them
 * (bit 0, 1: base[0], base[1]; bit 2: miss) hold a first value from a
 * run not measured (nb_tmsample.c), which the first measured run
 * replaces */
#define NB_TMS_EXITS 4u
struct nb_tms_site;
struct nb_tm_cost {
	uint32_t to;             /* + 1; 0: a free entry                      */
	uint32_t prov;
	uint64_t gen;            /* the clock's smp.gen it was learned in (an
				  * older one: a free entry, nb_tms_anchor) */
	struct {
		uint32_t c, n;
		uint64_t sum;
	} base[2];
	struct {
		int32_t f;
		uint32_t n, n1;
		uint64_t sum, lat;
	} miss;
	struct nb_tms_site *site; /* the call site that keeps copies of the
				   * bases' c (NULL: none; below) */
};

/* The program accessed the PMU (a serializing point, after
 * nb_tms_serialize): the sampled clock starts again from here as from
 * the program's start: what it learned forgotten, its generator
 * reseeded, a warm phase (nb_tmsample.c).  What it charges from here on
 * then depends on the code run from here, not on what ran before (the
 * event set's programming): the same region gets the same cycles. */
void nb_tms_anchor(struct nb_tm *t);

/* The streak's runs into the clock's fields (nb_tmsample.c); every
 * reader of the clock's state but nb_tms_skip calls it first
 * (nb_tms_sync). */
void nb_tms_flush(struct nb_tm *t);

static inline void nb_tms_sync(struct nb_tm *t)
{
	if (t->smp.lazy | t->smp.pend)
		nb_tms_flush(t);
}
/* nb_tms_sync for a reader that changes nothing of the clock's state
 * (step mode's held runs: nb_step.c step_held reads the retirement
 * point, nb_tm_seg_sampled opens a run it holds back): the streak's
 * charges into the fields, and the next runs may still join it (a flush
 * leaves the fields as skip() leaves them, lazy then as skip() sets it).
 * Without it each held run flushed the streak, and the next run's close
 * took whole()'s full path (the entry claimed, skip()) */
static inline void nb_tms_sync_keep(struct nb_tm *t)
{
	if (t->smp.pend) {
		uint32_t lz = t->smp.lazy;
		nb_tms_flush(t);
		t->smp.lazy = lz;
	}
}
/* The retirement cycle a flush would leave (in a streak: its point
 * and pipeline drained, ret_n 0), without the flush, where its charges
 * take no refill back (skew <= 0: nb_tms_flush's arithmetic is then
 * this sum) and no other LP reads ret as it stands (--ht=yes: the
 * lockstep, nb_lockstep.c).  0: not so, sync first. */
static inline int nb_tms_ret_lazy(const struct nb_tm *t, uint64_t *r)
{
	if (t->smp.pend && (t->smp.skew > 0 || t->smp.peer))
		return 0;
	*r = t->ret + ((t->smp.frac + t->smp.acc) >> 8);
	return 1;
}

#define NB_TMS_MAX    0xfffffff0u /* a cost's ceiling (1/256 cycles + 1)  */

/* the cycles the running block's L1D-missing loads hold their miss
 * slots (the latency less p->miss_free, nb_tm_walk): what the sampled
 * clock's miss factor scales (independent misses cost in proportion to
 * it, so misses to the L2 and to memory share one factor) */
static inline uint64_t nb_tms_miss_lat(const struct nb_tm *t)
{
	uint64_t s = 0, f = t->p->miss_free;

	for (uint64_t m = t->ld_mask; m; m &= m - 1) {
		uint64_t l = t->ld_lat[__builtin_ctzll(m)] & NB_TM_LAT_MASK;
		s += l > f ? l - f : l;
	}
	return s;
}

/* A skipped run's transfers on the bus (its missing loads' bus cycles,
 * nb_tm_lat_bus), moved one after the other from cycle `at`, the
 * clock's point: a walk after a streak of skipped runs meets the bus as
 * busy as the streak left it, not idle (the skipped runs' cycles are
 * their learned costs, which hold the bus's waits as the walked runs met
 * them) */
static inline void nb_tms_bus(struct nb_tm *t, uint64_t at)
{
	uint64_t s = 0;

	for (uint64_t m = t->ld_mask; m; m &= m - 1)
		s += t->ld_lat[__builtin_ctzll(m)] >> NB_TM_BUS_SHIFT;
	if (s)
		(void)nb_tm_bus_take(t, 2 * at, 2 * s);
}

/* the learned advance (1/256 cycles + 1) of a run of k with missing
 * loads' latencies s (cycles) after mp (a mispredicted branch); 0: none
 * learned (nb_tmsample.c) */
static inline uint32_t nb_tms_cost(const struct nb_tm_cost *k, unsigned mp, uint64_t s)
{
	int64_t c;

	if (!s)
		return k->base[mp].c;
	if (!k->miss.n)
		return 0;
	c = (int64_t)(k->base[mp].c ? k->base[mp].c - 1 : 0) + (int64_t)k->miss.f * (int64_t)s;
	if (c < 0)
		c = 0;
	return (uint32_t)(c < (int64_t)NB_TMS_MAX - 1 ? c : (int64_t)NB_TMS_MAX - 1) + 1;
}

/* The sampled clock's common case without a call (nb_cycles.c): a run
 * [0, n real uops) of the cost entry k, in a skip phase, after a
 * skipped run, with a learned cost (for its L1D-missing loads too),
 * joins the streak: charged as nb_tmsample.c's skip() charges it, its
 * sums into the fields at the next nb_tms_sync.  0: not taken (the
 * caller runs nb_tm_run_sampled). */
static inline __attribute__((always_inline)) int nb_tms_skip(struct nb_tm *t, const struct nb_tm_cost *k, uint32_t n,
			      uint64_t misp)
{
	uint32_t c;

	if (!t->smp.lazy || k->gen != t->smp.gen)
		return 0;
	c = t->ld_mask ? nb_tms_cost(k, t->smp.mp, nb_tms_miss_lat(t)) : k->base[t->smp.mp].c;
	if (!c)
		return 0;
	if (t->ld_mask)
		nb_tms_bus(t, t->ret + ((t->smp.frac + t->smp.acc) >> 8));
	t->ld_mask = 0;
	t->smp.mp = misp != t->misp_seen;
	t->misp_seen = misp;
	t->smp.acc += c - 1;
	t->smp.accu += n;
	t->smp.pend++;
	if (!--t->smp.left)
		t->smp.lazy = 0;
	return 1;
}

/*
 * The bus model's clock (README "Bus model", "Bandwidth"; the tool's
 * cache model asks it before the running block is walked): the cycle
 * from which a load the running block allocates could hold a miss slot,
 * the allocation cycle or the earliest free slot's, whichever is later;
 * in a streak of skipped runs (nb_tms_skip) the clock's point, ret plus
 * the charges not yet in the fields.  An estimate, from the clock's state
 * alone (deterministic), that changes nothing.
 */
static inline uint64_t nb_tms_now(const struct nb_tm *t)
{
	const unsigned nmiss = t->smt.miss_n ? t->smt.miss_n : t->p->miss_slots;
	uint64_t m = t->miss[0], c;

	if (t->smp.pend)
		return t->ret + ((t->smp.frac + t->smp.acc) >> 8);
	for (unsigned j = 1; j < nmiss; j++)
		if (t->miss[j] < m)
			m = t->miss[j];
	c = (m + 1) / 2;
	return c > t->fe ? c : t->fe;
}

/*
 * A store's last-level miss (README "Bus model", "Bandwidth"): its
 * transfers, `bus` cycles on the bus, move after those before them from
 * the clock's point (nb_tms_now), and the store waits for them in the
 * store buffer; the front end goes on, but no further than lat (the
 * miss's latency) ahead of their end: it allocates nothing before then
 * (as a restart after a misprediction moves it, nb_tm_misp; a skipped run
 * starts from it: nb_tmsample.c skip), so that stores alone are held to
 * the bus's rate.  (The store buffer hides one miss's latency, not a
 * queue: our choice.)
 */
static inline void nb_tms_store_bus(struct nb_tm *t, uint64_t lat, uint64_t bus)
{
	uint64_t now = nb_tms_now(t), e = nb_tm_bus_take(t, 2 * now, 2 * bus);

	if (e > 2 * (now + lat)) {
		uint64_t c = e / 2 - lat;
		nb_tms_sync(t);
		if (t->fe < c) {
			t->fe = c;
			t->fe_n = 0;
			t->smp.hold = 1;        /* (nb_tmsample.c start_point) */
			t->log.mut++;   /* (ends a replay streak) */
		}
	}
}

/* The sampled clock with runs in segments (nb_tmsample.c): while a PMI
 * is possible (a check at a boundary inside a run runs the clock up to
 * it) and in step mode (the clock runs one instruction at a time), a
 * run [0, to) arrives as segments [from, to) in order, from 0 first.
 * The clock decides on the run as a whole, as nb_tm_run_sampled does on
 * an unsplit one, with the same result: the same runs skipped, walked
 * and learned, the same cycles, wherever its segments end.  In a walk
 * phase the segments are walked as they come (a check or a step record
 * sees the walk's retirement cycles); in a skip phase the run waits for
 * its end (the next run's first segment, or nb_tms_close), and the
 * clock stands at its start meanwhile (nb_tm_at: an estimate inside it). */
void nb_tm_seg_sampled(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
		       uint64_t misp);
/* the open run ends (a serializing point, a switch of logical processor) */
void nb_tms_close(struct nb_tm *t);
enum { NB_SEG_NONE, NB_SEG_WALK, NB_SEG_DEFER, NB_SEG_EXACT };
/* nb_tm_seg_sampled's common case in step mode, for an inline call: the
 * next segment [from, to) of the open run, which the clock holds back
 * (a skip phase): only its loads' latencies kept with the run (the next
 * run's loads set theirs).  0: not that case */
static inline int nb_tms_seg_held(struct nb_tm *t, const struct nb_tm_block *b, unsigned from,
				  unsigned to, uint64_t misp)
{
	if (!from || t->smp.open != NB_SEG_DEFER || t->smp.ob != b)
		return 0;
	t->smp.oto = to;
	t->smp.omisp = misp;
	for (uint64_t x = t->ld_mask; x; x &= x - 1)
		t->smp.olat[__builtin_ctzll(x)] = t->ld_lat[__builtin_ctzll(x)];
	t->smp.omask |= t->ld_mask;
	t->ld_mask = 0;
	return 1;
}
/* the clock holds the open run back (its uops have no retirement cycles
 * yet: step mode reports them when it ends, nb_step.c) */
static inline int nb_tms_holding(const struct nb_tm *t)
{
	return t->smp.open == NB_SEG_DEFER;
}
/*
 * Step mode's take (nb_step.c tk_take): the held-back run closes at its
 * end instead of at the next run's first segment, where nothing between
 * reads the clock: skipped as nb_tms_close would skip it (its entry k, n
 * real uops), when it joins the streak (lazy), has no L1D-missing load,
 * and neither a refill to take back (skew > 0: the flush is then not the
 * sum) nor another LP reads the point (peer).  *rp: the retirement point
 * after it (nb_tms_ret_lazy); *u: what it changed, for nb_tms_untake.
 * 0: not so, nothing changed.
 */
struct nb_tms_undo {
	unsigned mp;
	uint32_t left, lazy, pend;
	uint64_t misp_seen, acc, accu;
};

static inline int nb_tms_take(struct nb_tm *t, const struct nb_tm_cost *k, uint32_t n,
			      struct nb_tms_undo *u, uint64_t *rp)
{
	if (t->smp.open != NB_SEG_DEFER || t->smp.omask || t->ld_mask || !t->smp.lazy ||
	    t->smp.skew > 0 || t->smp.peer)
		return 0;
	u->mp = t->smp.mp;
	u->left = t->smp.left;
	u->lazy = t->smp.lazy;
	u->pend = t->smp.pend;
	u->misp_seen = t->misp_seen;
	u->acc = t->smp.acc;
	u->accu = t->smp.accu;
	if (!nb_tms_skip(t, k, n, t->smp.omisp))
		return 0;
	t->smp.open = NB_SEG_NONE;
	*rp = t->ret + ((t->smp.frac + t->smp.acc) >> 8);
	return 1;
}

/* the take undone: the run held back again, as before it */
static inline void nb_tms_untake(struct nb_tm *t, const struct nb_tms_undo *u)
{
	t->smp.mp = u->mp;
	t->smp.left = u->left;
	t->smp.lazy = u->lazy;
	t->smp.pend = u->pend;
	t->misp_seen = u->misp_seen;
	t->smp.acc = u->acc;
	t->smp.accu = u->accu;
	t->smp.open = NB_SEG_DEFER;     /* (its block, uops, misses as the take left them) */
}

/* The run after a take, none of whose segments came (nb_step.c tk_open),
 * ends through uop `to` of b: held back as its segments would have left
 * it, [0, to) at once: the streak's runs go on (a skip phase: lazy was
 * set), so its first segment would have opened it from the point rp the
 * take left (nb_tm_seg_sampled: pend, nb_tms_ret_lazy), nothing flushed;
 * the mispredictions so far, its loads' latencies kept with it */
static inline void nb_tms_held_late(struct nb_tm *t, const struct nb_tm_block *b, unsigned to,
				    uint64_t misp, uint64_t rp)
{
	t->smp.ob = b;
	t->smp.open = NB_SEG_DEFER;
	t->smp.obefore = rp << 8;
	t->smp.os = 0;
	t->smp.omask = 0;
	t->smp.oto = to;
	t->smp.omisp = misp;
	for (uint64_t x = t->ld_mask; x; x &= x - 1)
		t->smp.olat[__builtin_ctzll(x)] = t->ld_lat[__builtin_ctzll(x)];
	t->smp.omask = t->ld_mask;
	t->ld_mask = 0;
}

/* While a PMI is in flight (on: nb_pmi.c), the skid's instructions get
 * the walk's retirement cycles: runs in a skip phase, the open one from
 * its start, are walked (NB_SEG_EXACT), and counted down as skipped runs,
 * learning nothing; the phases then go on as they would have.  Their
 * cycles are the walk's, not their learned costs: a program that takes
 * a PMI (and runs its handler) is not the same program. */
void nb_tms_exact(struct nb_tm *t, int on);
/* The retirement cycle of the last uop the clock ran: t->ret, or in a
 * run the sampled clock holds back (NB_SEG_DEFER) its start plus the share
 * of the run's learned cost its uops so far take (an estimate: where a
 * PMI's skid ends; never read as cycles). */
uint64_t nb_tm_at(struct nb_tm *t);

/* the cost entry of the runs [0, to) of b, if it has one (nb_tmsample.c) */
const struct nb_tm_cost *nb_tms_find(const struct nb_tm *t, const struct nb_tm_block *b,
				     unsigned to);

/* The sampled clock (--nbsim-clock=sampled, nb_tmsample.c, README
 * "Timing model"): nb_tm_run on a sample of the runs (those with from 0
 * and b->cost; step mode's runs always), a cost learned per (b, to) on
 * the others.  Deterministic; not exact. */
void nb_tm_run_sampled(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
		       uint64_t misp);


/* The sampled clock's serializing point (nb_tm_serialize): the open run
 * ends, the streak is charged, and a warm phase's refill is not paid back
 * across a point where the program read the cycles.  With another clock
 * (nothing open, no streak) the same as nb_tm_serialize. */
uint64_t nb_tms_serialize(struct nb_tm *t);

/* Whole cycles elapsed without ending the open one (<= a later
 * nb_tms_serialize). */
static inline uint64_t nb_tms_peek(struct nb_tm *t)
{
	nb_tms_sync(t);
	return t->ret;
}

/* A call site's memory of the cost entry of the run it makes (the tool's
 * nb_cond_tm: a superblock's last branch and its clock in one call): the
 * common case, nb_tms_skip, without a search for the entry.  An
 * anchor (nb_tms_anchor) frees every entry: one found before it is not
 * used after it (gen).  The common case reads the entry's base costs
 * from copies here, in the site's host line, not from the entry's
 * (python3's tens of thousands of sites: the entry's line came from
 * beyond the host's L1 on every call); the entry names the site that
 * holds them (k->site), and its learning writes them through, so the
 * copies are the entry's own values whenever the site's entry is of this
 * anchor (nb_tms_site_bind). */
struct nb_tms_site {
	const struct nb_tm_cost *k;     /* the entry, or NULL                 */
	uint64_t gen;                   /* ... found in this smp.gen          */
	uint32_t c[2];                  /* ... its base[mp].c (0 without k)   */
	uint32_t n;                     /* ... its run's real uops            */
	uint32_t to;                    /* the site's run: uops [0, to)       */
};

static inline void nb_tms_site_init(struct nb_tms_site *c, unsigned to)
{
	c->k = 0;
	c->gen = 0;
	c->c[0] = c->c[1] = 0;
	c->n = 0;
	c->to = to;
}

/* c's entry and its copies from the entry of the runs [0, c->to) of b in
 * t's generation (nb_tmsample.c; NULL and none if b has none) */
void nb_tms_site_bind(const struct nb_tm *t, struct nb_tms_site *c, const struct nb_tm_block *b);

/* the site's entry is of this anchor: nb_tms_skip(t, c->k, c->n, misp)
 * may take the run.  (A test apart from that call, which the caller
 * makes only on this path.) */
static inline int nb_tms_site_hit(const struct nb_tm *t, const struct nb_tms_site *c)
{
	return c->k && c->gen == t->smp.gen;
}

/* nb_tms_skip's commonest case at a call site, for the helpers' fast path
 * (nb_cycles.c: without the rest of the helper, whose registers the host
 * saved at every call): the site's entry of this anchor (whose gen is
 * then the clock's: an entry is claimed again only in another
 * generation), a streak to join, no L1D-missing load, a learned cost.  It
 * charges what nb_tms_skip charges (ld_mask is 0 already); 0: not that
 * case, and nothing changed (the caller then runs nb_tms_site_hit and
 * nb_tms_skip as before). */
static inline __attribute__((always_inline)) int nb_tms_site_skip(struct nb_tm *t,
								  const struct nb_tms_site *c,
								  uint64_t misp)
{
	uint32_t k;

	if (c->gen != t->smp.gen || !t->smp.lazy || t->ld_mask)
		return 0;
	k = c->c[t->smp.mp];    /* (0 without an entry) */
	if (!k)
		return 0;
	t->smp.mp = misp != t->misp_seen;
	t->misp_seen = misp;
	t->smp.acc += k - 1;
	t->smp.accu += c->n;
	t->smp.pend++;
	if (!--t->smp.left)
		t->smp.lazy = 0;
	return 1;
}

/* after the clock ran the site's run of b: its entry, if it has none of
 * this anchor's yet (the run made it, or left none: NULL) */
static inline void nb_tms_site_find(const struct nb_tm *t, struct nb_tms_site *c,
				    const struct nb_tm_block *b)
{
	if (c->k && c->gen == t->smp.gen)
		return;
	nb_tms_site_bind(t, c, b);
}

#endif /* NB_TMSAMPLE_H */
