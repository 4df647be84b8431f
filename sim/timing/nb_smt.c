/*
 * nb_smt.c - Hyper-Threading in the timing model: each logical
 * processor's share of the package while both are active, from the other
 * LP's use in its last segment.  See nb_smt.h and README.md "Timing
 * model".
 *
 * Sources:
 *  [MARR02] Marr et al., "Hyper-Threading Technology Architecture and
 *           Microarchitecture", Intel Technology Journal Q1 2002: the
 *           uop queue, reorder buffer (126 entries), load and store
 *           buffers are partitioned (each LP at most half) while both
 *           LPs are active; the allocator and the retirement logic
 *           alternate between the LPs cycle by cycle while both have
 *           uops (one alone gets every cycle); the schedulers and
 *           execution units and the caches are shared; with one LP
 *           active it has all of them (single-task mode).
 *  [SDM18]  Intel SDM Vol. 3B 18.x (seed 001), "Replay": uops are
 *           reissued when a condition for their execution was not met,
 *           among the causes "cache misses ... and unforeseen resource
 *           constraints".
 *  [HIN01]  Hinton et al., ITJ Q1 2001: the scheduler dispatches a load's
 *           dependents for an L1D hit; when it misses they are replayed.
 *  [ORM-A]  IA-32 Intel Architecture Optimization Reference Manual
 *           (248966): p. 2-45, "Aliasing Cases in the Pentium 4 and Intel
 *           Xeon Processors"; p. 7-43, "Preventing Excessive Evictions in
 *           First-Level Data Cache" (nb_tmparams.c).
 *  [CPUID]  Intel SDM Vol. 2A, CPUID leaf 2: L1D 8 KB 4-way (0x66), 16 KB
 *           8-way (0x60), 64 B lines.
 *
 * NB_SMT_REPLAY (7 cycles), the time round the replay loop, is a model
 * parameter: Intel does not publish it; 7 is the L2 hit latency of
 * Northwood [DLI, Table 1], the time for which a load that missed the L1D
 * is replayed when its data comes from the L2 (a replay that finds the
 * data).  The same value on Prescott (not checked against a published
 * figure).
 *
 * The L1D's data conflicts between the LPs [ORM-A] (nb_tmparams.c): the L1D
 * holds one line per alias class, and a reference whose class matches a
 * reference under way cannot begin until the first one is kicked out of
 * the cache; the L1D is indexed by linear address, and two instances of
 * one program on the two LPs at the same linear addresses "cause repeated
 * evictions and allocations" (p. 7-43).  Sprunt's two copies of l1_miss
 * (seed 000) are two such instances.  What the manual does not give, the
 * model estimates from the other LP's last segment:
 *  - how often a missing load meets a miss of its class under way: the
 *    share of that segment in which the other LP had one (its missing
 *    loads of the class times its mean miss under way, its slot ticks per
 *    missing load), spread evenly over this LP's loads of the class;
 *  - how long the load then waits, going round the replay loop: until the
 *    other LP's miss is done, half of one on average (it meets it at a
 *    point spread evenly over it), and until its line is kicked out:
 *    `ways` fills later into its set [CPUID] at the rate both LPs fill
 *    that set (the other's last segment and this LP's own), as if the
 *    replacement were least recently used;
 *  - NB_SMT_EVICT_MAX (8 replay loops), the longest that stay lasts: a
 *    bound of the model (the manual does not say what evicts a line of a
 *    set that nothing fills; without a bound a load would wait for most
 *    of a segment, the estimate of a rarely filled set).
 * On l1_miss the stay is about 14 cycles, below the bound; without it (the
 * wait only until the other LP's miss is done) the conflicts overlap the
 * wait for a miss slot and cost nothing (0.750); with it, 0.652.
 * Within one LP the conflict exists too [ORM-A] but is not modelled (the
 * one-LP model keeps its figures).
 */
#include "nb_smt.h"

void nb_smt_mark(struct nb_tm *t, struct nb_smt_mark *m)
{
	m->ret = t->ret;
	for (unsigned u = 0; u < NB_TMU_N; u++)
		m->unit[u] = t->smt.unit_ticks[u];
	m->miss = t->smt.miss_ticks;
	m->replays = t->smt.replays;
	m->seq = t->seq;
	m->skip = t->smt.skip_cyc;
	m->bus = t->smt.bus_ticks;
	m->bus_n = t->smt.bus_n;
	m->bus_waits = t->smt.bus_waits;
	for (unsigned w = 0; w < NB_TM_NALIAS / 64; w++) {
		for (uint64_t b = t->smt.alias_seen[w]; b; b &= b - 1)
			t->smt.alias_n[w * 64 + (unsigned)__builtin_ctzll(b)] = 0;
		t->smt.alias_seen[w] = 0;
	}
}

/* x * num / den, rounded (num >= den: the walked share of a segment).
 * (In 64 bits when the product fits, the same quotient: a lockstep turn
 * learns a profile of 1,024 alias classes, most of them 0.) */
static uint64_t scale(uint64_t x, uint64_t num, uint64_t den)
{
	uint64_t y;

	if (num == den || !x)
		return x;
	if (!__builtin_mul_overflow(x, num, &y) && !__builtin_add_overflow(y, den / 2, &y))
		return y / den;
	return (uint64_t)(((unsigned __int128)x * num + den / 2) / den);
}

void nb_smt_learn(const struct nb_tm *t, const struct nb_smt_mark *m, struct nb_smt_prof *out)
{
	uint64_t all = t->ret - m->ret, skipped = t->smt.skip_cyc - m->skip, walked;

	if (t->ret <= m->ret)
		return;
	/* The sampled clock's skipped runs advanced the clock by their
	 * learned costs, not through the units: the use its walked runs
	 * made, at their rate over the whole segment (a segment it skipped
	 * whole leaves the last profile) */
	walked = skipped < all ? all - skipped : 0;
	if (!walked)
		return;
	out->ticks = 2 * all;
	for (unsigned u = 0; u < NB_TMU_N; u++)
		out->unit[u] = scale(t->smt.unit_ticks[u] - m->unit[u], all, walked);
	out->miss = scale(t->smt.miss_ticks - m->miss, all, walked);
	out->uops = t->seq - m->seq;
	/* (the skipped runs' transfers are moved too, nb_tms_bus: no
	 * scaling) */
	out->bus = t->smt.bus_ticks - m->bus;
	out->short_of_bus = 4 * (t->smt.bus_waits - m->bus_waits) >= t->smt.bus_n - m->bus_n &&
		t->smt.bus_n != m->bus_n;
	out->short_of_slots = t->smt.replays != m->replays;
	/* the last profile's classes 0, then this segment's (alias_n
	 * counts from the mark; 0 where alias_seen is clear) */
	for (unsigned w = 0; w < NB_TM_NALIAS / 64; w++) {
		if (!out->masked)
			for (unsigned i = 0; i < 64; i++)
				out->alias[w * 64 + i] = 0;
		for (uint64_t b = out->masked ? out->amask[w] : 0; b; b &= b - 1)
			out->alias[w * 64 + (unsigned)__builtin_ctzll(b)] = 0;
		out->amask[w] = 0;
		for (uint64_t b = t->smt.alias_seen[w]; b; b &= b - 1) {
			unsigned c = w * 64 + (unsigned)__builtin_ctzll(b);
			uint32_t d = t->smt.alias_n[c];
			out->alias[c] = d ? (uint32_t)scale(d, all, walked) : 0;
			if (out->alias[c])
				out->amask[w] |= UINT64_C(1) << (c % 64);
		}
	}
	out->masked = 1;
}

/* the pattern of k busy runs of g of the 64 / g (a table: each lockstep
 * turn under --ht=yes shares the package anew, a dozen patterns) */
static uint64_t pattern_of(uint64_t k, unsigned g)
{
	static uint64_t tab[2][65];
	static int made;
	unsigned gi = g == 1 ? 0 : 1;

	if (!made) {
		for (unsigned i = 0; i < 2; i++) {
			const unsigned gg = i ? 2 : 1, runs = 64 / gg;
			for (uint64_t kk = 0; kk <= runs; kk++) {
				uint64_t pat = 0;
				/* run j is busy when floor((j + 1) k / runs) >
				 * floor(j k / runs): k of the runs, evenly
				 * spread */
				for (unsigned j = 0; j < runs; j++)
					if (((j + 1) * kk) / runs > (j * kk) / runs)
						pat |= (gg == 1 ? UINT64_C(1) : UINT64_C(3)) << (j * gg);
				tab[i][kk] = pat;
			}
		}
		made = 1;
	}
	return tab[gi][k];
}


/*
 * A unit's pattern for the other LP's use (nb_smt_share): its busy runs
 * of g ticks (g = 1 or 2) grouped into runs of at most G runs, with at
 * least G runs free between two of them.  A uop holds its unit for its
 * issue interval (nb_tmparams.c: 2 cycles for an SSE2 add on the FP
 * adder), so it needs that many free ticks in a row; spread evenly, run
 * by run, a use of half the unit left free runs of one cycle only, and a
 * uop of a longer interval never found one in the pattern: it waited
 * for the end of the reservation ring, 4096 cycles, each time, and the
 * other LP took nearly all of the unit (a thread spinning on a flag
 * beside a loop of SSE2 adds: t_sim_spin.t).  G is the unit's longest
 * interval in runs
 * (nb_smt_share), so that every uop fits in a free run of the other
 * LP's pattern and this LP keeps at least its half of the unit.  The
 * busy runs: b (at most half of the 64 / g) in ceil(b / G) groups,
 * evenly spread and sized; each group's start and the next are at least
 * 2 G apart (b <= (64 / g) / 2), so at least G runs free after each.
 * G = 1 is the plain pattern (pattern_of).  G is a power of two (64 / g
 * a multiple of it), at most 16 runs, 32 ticks on the units by the cycle:
 * the few rows of longer intervals (the integer unit's rotates through
 * carry by a count, 38 to 62 ticks) fit only where the other LP leaves
 * that many ticks free.  The price: the other LP's use comes in groups
 * instead of tick by tick (a uop of this LP that meets a group waits for
 * its end), more so on the integer unit (one group of up to 32 ticks).
 */
static uint64_t pattern_grouped(uint64_t b, unsigned g, unsigned G)
{
	static uint64_t tab[2][5][33];
	static uint8_t made[2][5][33];
	const unsigned runs = 64 / g, gi = g == 1 ? 0 : 1;
	unsigned Gi = 0, n;
	uint64_t pat = 0, one = g == 1 ? UINT64_C(1) : UINT64_C(3);

	if (G <= 1 || !b || b > runs / 2)
		return pattern_of(b, g);
	while ((1u << Gi) < G && Gi < 4)
		Gi++;
	G = 1u << Gi;                   /* (at most 16: runs / 2 or less) */
	if (made[gi][Gi][b])
		return tab[gi][Gi][b];
	n = (unsigned)((b + G - 1) / G);                /* groups */
	for (unsigned j = 0; j < n; j++) {
		unsigned at = j * runs / n;
		unsigned len = (unsigned)((j + 1) * b / n - j * b / n);
		for (unsigned i = 0; i < len; i++)
			pat |= one << ((at + i) * g);
	}
	tab[gi][Gi][b] = pat;
	made[gi][Gi][b] = 1;
	return pat;
}

uint64_t nb_smt_pattern_grouped(uint64_t num, uint64_t den, unsigned g, unsigned G)
{
	const unsigned runs = 64 / g;
	uint64_t k;

	if (!den || !num)
		return 0;
	if (num >= den)
		return ~UINT64_C(0);
	k = (num * runs + den / 2) / den;       /* busy runs, rounded */
	return pattern_grouped(k, g, G);
}

uint64_t nb_smt_pattern(uint64_t num, uint64_t den, unsigned g)
{
	return nb_smt_pattern_grouped(num, den, g, 1);  /* (G = 1: pattern_of) */
}

/* the longest issue interval of the rows on each unit (ticks) of
 * parameters p: the run of free ticks a uop of the unit needs */
static void unit_max_intv(const struct nb_tm_params *p, unsigned mx[NB_TMU_N])
{
	static const struct nb_tm_params *seen;
	static unsigned cache[NB_TMU_N];

	if (seen != p) {
		for (unsigned u = 0; u < NB_TMU_N; u++)
			cache[u] = 0;
		for (unsigned c = 0; c < NB_TM_NCLS; c++)
			if (p->row[c].unit < NB_TMU_N && p->row[c].intv > cache[p->row[c].unit])
				cache[p->row[c].unit] = p->row[c].intv;
		seen = p;
	}
	for (unsigned u = 0; u < NB_TMU_N; u++)
		mx[u] = cache[u];
}

/* the classes w * 64 .. w * 64 + 63 of p that are not 0 (bit c % 64) */
static uint64_t amask_of(const struct nb_smt_prof *p, unsigned w)
{
	uint64_t m = 0;

	if (p->masked)
		return p->amask[w];
	for (unsigned i = 0; i < 64; i++)
		m |= (uint64_t)(p->alias[w * 64 + i] != 0) << i;
	return m;
}

/* The L1D's data conflicts [ORM-A]: from the other LP's last segment o
 * (and this LP's own, s, if known), each class's share of o in which the
 * other LP had a miss of it under way, and how long a line of each set
 * stays in the L1D until evicted (see the head of this file). */
static void alias_share(struct nb_tm *t, const struct nb_smt_prof *o, const struct nb_smt_prof *s)
{
	const double cap = 2.0 * NB_SMT_EVICT_MAX * NB_SMT_REPLAY;
	double fills[NB_TM_L1SETS] = { 0 }, held, T = (double)o->ticks;
	uint64_t n = 0, om[NB_TM_NALIAS / 64];

	t->smt.conf_span = 0;
	/* (the classes that are not 0, in order: adding 0.0 changes no sum) */
	for (unsigned w = 0; w < NB_TM_NALIAS / 64; w++)
		om[w] = amask_of(o, w);
	for (unsigned w = 0; w < NB_TM_NALIAS / 64; w++)
		for (uint64_t b = om[w] | (s && s->ticks ? amask_of(s, w) : 0); b; b &= b - 1) {
			unsigned c = w * 64 + (unsigned)__builtin_ctzll(b);
			n += o->alias[c];
			/* fills of each set per tick of o, both LPs */
			fills[c % NB_TM_L1SETS] += (double)o->alias[c];
			if (s && s->ticks)
				fills[c % NB_TM_L1SETS] += (double)s->alias[c] * T / (double)s->ticks;
		}
	if (!n) {
		/* (the classes of the last segment with conflicts stay, as
		 * before; conf_span 0 keeps them unread) */
		return;
	}
	held = (double)o->miss / (double)n;     /* one miss under way */
	if (held > T)
		held = T;
	t->smt.conf_way = (uint64_t)held;
	for (unsigned k = 0; k < NB_TM_L1SETS; k++) {
		/* `ways` fills of the set until evicted, at most the cap */
		double res = fills[k] > 0 ? t->p->l1_ways * T / fills[k] : 0;
		t->smt.conf_res[k] = (uint32_t)(res < cap ? res : cap);
	}
	/* (only the classes set last time are not 0) */
	for (unsigned w = 0; w < NB_TM_NALIAS / 64; w++) {
		for (uint64_t b = t->smt.conf_mask[w]; b; b &= b - 1)
			t->smt.conf_hold[w * 64 + (unsigned)__builtin_ctzll(b)] = 0;
		t->smt.conf_mask[w] = om[w];
	}
	for (unsigned w = 0; w < NB_TM_NALIAS / 64; w++)
		for (uint64_t b = om[w]; b; b &= b - 1) {
			unsigned c = w * 64 + (unsigned)__builtin_ctzll(b);
			/* (at most the whole segment: a class under way all
			 * the time) */
			double h = (double)o->alias[c] * (double)t->smt.conf_way;
			t->smt.conf_hold[c] = (uint32_t)(h < T ? h < 4e9 ? h : 4e9 : T < 4e9 ? T : 4e9);
		}
	t->smt.conf_span = o->ticks;
}

static void share(struct nb_tm *t, int both, const struct nb_smt_prof *o,
		  const struct nb_smt_prof *self)
{
	const struct nb_tm_params *p = t->p;

	for (unsigned u = 0; u < NB_TMU_N; u++)
		t->smt.oth[u][0] = t->smt.oth[u][1] = 0;
	t->smt.alt = 0;
	t->smt.bus_oth = 0;
	if (!both) {
		/* single-task mode: the whole package [MARR02] */
		t->smt.win = t->smt.miss_n = t->smt.replay = 0;
		t->smt.conf_span = t->smt.conf_acc = 0;
		return;
	}
	t->smt.win = p->window / 2;                 /* [MARR02] partitioned */
	t->smt.replay = 2 * NB_SMT_REPLAY;          /* [SDM18], [HIN01] */
	t->smt.miss_n = p->miss_slots;
	t->smt.conf_span = 0;
	if (!o || !o->ticks) {
		/* the other LP not seen yet: strict alternation, half the
		 * bus */
		t->smt.alt = nb_smt_pattern(1, 2, 1);
		t->smt.bus_oth = nb_smt_pattern(1, 2, 1);
		return;
	}
	/* allocation and retirement: the cycles the other LP took, its uops
	 * at p->width per cycle, at most half of them [MARR02] */
	{
		uint64_t cyc = o->ticks / 2, need = (o->uops + p->width - 1) / p->width;
		t->smt.alt = nb_smt_pattern(need < cyc / 2 ? need : cyc / 2, cyc, 1);
	}
	/* the miss slots: half when the other LP wanted more than it had
	 * (it replayed loads for want of one); else what it left free on
	 * average, at least half (max-min fair) */
	{
		uint64_t held = (o->miss + o->ticks - 1) / o->ticks, half = (p->miss_slots + 1) / 2;
		uint64_t left = o->short_of_slots || held >= p->miss_slots ? 0 : p->miss_slots - held;
		t->smt.miss_n = (unsigned)(left > half ? left : half);
	}
	alias_share(t, o, self);
	/* the bus: half the slots when the other LP wanted more than it
	 * had, else its transfers' share, at most half (max-min fair) */
	t->smt.bus_oth = o->short_of_bus ? nb_smt_pattern(1, 2, 1) :
		nb_smt_pattern(o->bus < o->ticks / 2 ? o->bus : o->ticks / 2, o->ticks, 1);
	/* the units: the other LP's use, spread over each instance, at
	 * most half of it (max-min fair, as the slots); the double-speed
	 * ALUs by the tick, the others by the cycle; the busy ticks in
	 * groups no longer than the unit's longest issue interval, so that
	 * the free ones come in runs at least that long: every uop of this
	 * LP fits in them (pattern_grouped) */
	{
		unsigned mx[NB_TMU_N];
		unit_max_intv(p, mx);
		for (unsigned u = 0; u < NB_TMU_N; u++) {
			unsigned n = u == NB_TMU_ALU ? 2 : 1, g = u == NB_TMU_ALU ? 1 : 2;
			uint64_t use = o->unit[u] < o->ticks * n / 2 ? o->unit[u] : o->ticks * n / 2;
			uint64_t pat = nb_smt_pattern_grouped(use, o->ticks * n, g, (mx[u] + g - 1) / g);
			for (unsigned i = 0; i < n; i++)
				t->smt.oth[u][i] = pat;
		}
	}
}

void nb_smt_share(struct nb_tm *t, unsigned lp, int both, const struct nb_smt_prof *o,
		  const struct nb_smt_prof *self)
{
	uint64_t was[NB_TMU_N][2];

	(void)lp;
	for (unsigned u = 0; u < NB_TMU_N; u++)
		was[u][0] = t->smt.oth[u][0], was[u][1] = t->smt.oth[u][1];
	share(t, both, o, self);
	/* the words past uhi hold the other LP's old pattern (nb_timing.c
	 * units_forget_words): to be written again only if it changed (a
	 * lockstep turn every 50,000 cycles or so shares the package anew,
	 * mostly with one of a dozen patterns; rewriting the ring's words
	 * after every turn was a tenth of a turn's work in the model) */
	for (unsigned u = 0; u < NB_TMU_N; u++)
		if (was[u][0] != t->smt.oth[u][0] || was[u][1] != t->smt.oth[u][1])
			t->odirty = 1;
}
