/*
 * nb_timing.c - the NetBurst timing model: the schedule of a superblock's
 * uops on a logical processor's clock (the walk), with each class's
 * latency and unit from the model's table (nb_tmparams.c; the classes of
 * instructions: nb_tmclass.c).  See nb_timing.h and README.md "Timing
 * model".  The figures' sources are nb_tmparams.c's.
 */
#include "nb_timing.h"

void nb_tm_init(struct nb_tm *t, const struct nb_tm_params *p, unsigned penalty)
{
	uint8_t *b = (uint8_t *)t;

	for (unsigned long i = 0; i < sizeof *t; i++)
		b[i] = 0;
	t->p = p;
	t->penalty = penalty;
	t->ls_lim = ~(uint64_t)0;
	nb_tm_ls_set(t);
}

static inline uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* ---- the units' reservations: a bitmap per unit instance over the
 * ticks [t->lo, t->lo + NB_TM_URING) (nb_timing.h) ---- */

#define URW (NB_TM_URING / 64u)

static inline uint64_t ones(uint64_t n)          /* n < 64 or 64 */
{
	return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

/* Nothing dispatches before tick `tick` any more: forget the words of
 * ticks below it (t->lo stays a multiple of 64): each starts again as the
 * other LP's pattern.  Only words of ticks below uhi hold reservations, so
 * while every other word holds the pattern already (odirty clear: the
 * pattern has not changed since every word was last reset) only those are
 * written: a long miss moves the horizon far, and rewriting the whole
 * ring cost 10% of bench chase. */
static void units_forget_words(struct nb_tm *t, uint64_t lo)
{
	uint64_t *bm = &t->busy[0][0][0];
	const uint64_t *oth = &t->smt.oth[0][0];    /* 0 unless HT (nb_smt.c) */
	const unsigned nw = NB_TMU_N * 2 * URW;
	uint64_t n = (lo - t->lo) / 64;

	if (!t->odirty) {
		uint64_t hi = (t->uhi + 63) & ~UINT64_C(63);
		n = hi <= t->lo ? 0 : ((hi < lo ? hi : lo) - t->lo) / 64;
		if (n > URW)
			n = URW;
	} else if (n >= URW) {
		for (unsigned w = 0; w < nw; w++)
			bm[w] = oth[w / URW];
		t->odirty = 0;
		n = 0;
	}
	for (uint64_t k = t->lo / 64; n--; k++)
		for (unsigned w = (unsigned)(k % URW); w < nw; w += URW)
			bm[w] = oth[w / URW];
	t->lo = lo;
}

static inline void units_forget(struct nb_tm *t, uint64_t tick)
{
	if ((tick & ~UINT64_C(63)) > t->lo)
		units_forget_words(t, tick & ~UINT64_C(63));
}

void nb_tm_units_forget(struct nb_tm *t, uint64_t tick)
{
	units_forget(t, tick);
}

/* The first tick in [k, e) whose bit in bm is `busy` (1) or clear (0),
 * or e. */
static uint64_t next_bit(const uint64_t *bm, uint64_t k, uint64_t e, int busy)
{
	while (k < e) {
		unsigned p = (unsigned)(k % NB_TM_URING), off = p % 64;
		uint64_t word = (busy ? bm[p / 64] : ~bm[p / 64]) >> off;
		if (word) {
			uint64_t b = k + (uint64_t)__builtin_ctzll(word);
			return b < e ? b : e;
		}
		k += 64 - off;
	}
	return e;
}

/* the starts of the runs of intv (<= 4) free ticks of word w from bit
 * off that end inside it: bit j set for a run from off + j */
static inline uint64_t runs_in(uint64_t w, unsigned off, unsigned intv)
{
	uint64_t f = ~w >> off, g = f;

	for (unsigned j = 1; j < intv; j++)
		g &= f >> j;
	return g;
}

/* the bits of bm at the 64 ticks from k (the ring wraps) */
static inline uint64_t bits64(const uint64_t *bm, uint64_t k)
{
	unsigned p = (unsigned)(k % NB_TM_URING), i = p / 64, off = p % 64;
	uint64_t w = bm[i] >> off;

	if (off)
		w |= bm[(i + 1) % URW] << (64 - off);
	return w;
}

/* The first tick from k at which bm is free for intv ticks (the ticks past
 * the horizon lo + NB_TM_URING count as free).  Intervals up to 4 ticks
 * (all but the divider's and the slow multiplies'): 64 ticks at a time,
 * the runs that end inside them; the next look starts where a run could
 * still begin (intv - 1 ticks before the end).  A queue of uops waiting
 * for one port (12 loads at once) is crossed 61 ticks a step. */
static uint64_t first_run(const uint64_t *bm, uint64_t lo, uint64_t k, unsigned intv)
{
	const uint64_t end = lo + NB_TM_URING;

	if (intv <= 4) {
		/* (the usual case first: a run ending in k's word) */
		if (k < end) {
			uint64_t g = runs_in(bm[(k % NB_TM_URING) / 64], (unsigned)(k % 64), intv);
			if (g)
				return k + (uint64_t)__builtin_ctzll(g);
		}
		for (;;) {
			uint64_t busy, g;
			if (k >= end)
				return k;
			busy = bits64(bm, k);
			if (end - k < 64)
				busy &= ones(end - k);
			g = runs_in(busy, 0, intv);
			if (g)
				return k + (uint64_t)__builtin_ctzll(g);
			k += 64 - intv + 1;
		}
	}
	if (k < end && k % 64 + intv <= 64 && k + intv <= end &&
	    !(bm[(k % NB_TM_URING) / 64] >> (k % 64) & ones(intv)))
		return k;       /* free at once */
	for (;;) {
		uint64_t e, b;
		if (k >= end)
			return k;
		e = k + intv < end ? k + intv : end;
		b = next_bit(bm, k, e, 1);
		if (b == e)
			return k;
		k = next_bit(bm, b + 1, end, 0);
	}
}

uint64_t nb_tm_first_free(const uint64_t *bm, uint64_t lo, uint64_t k, unsigned intv)
{
	return first_run(bm, lo, k, intv);
}

/* The first tick from `from` (>= t->lo) at which an instance of unit u (n
 * instances, the first preferred) is free for intv ticks; taken. */
/* the bits of bm at ticks [k, k + len) (len <= 64) */
static uint64_t bits_at(const uint64_t *bm, uint64_t k, unsigned len)
{
	unsigned p = (unsigned)(k % NB_TM_URING), i = p / 64, off = p % 64;
	uint64_t w = bm[i] >> off;

	if (off)
		w |= bm[(i + 1) % URW] << (64 - off);
	return w & ones(len);
}

/* log a reservation that looked from `from` (k0, k1: the first free runs
 * of the two instances) for the replay (nb_tmmemo.c) */
static void rlog(struct nb_tm *t, unsigned u, unsigned n, uint64_t from, unsigned intv,
		 uint64_t k0, uint64_t k1, unsigned best)
{
	struct nb_tm_rl *e = &t->log.rl[t->log.nrl++];
	uint64_t l0 = k0 + intv - from, l1 = k1 + intv - from;

	e->x0 = (uint8_t)(2 * u);
	e->n = (uint8_t)n;
	e->best = (uint8_t)best;
	e->intv = (uint8_t)intv;
	e->from = from;
	e->k = best ? k1 : k0;
	e->len0 = l0 > 64 ? 0xff : (uint8_t)l0;
	e->len1 = n < 2 ? 0 : l1 > 64 ? 0xff : (uint8_t)l1;
	e->bits0 = l0 > 64 ? 0 : bits_at(t->busy[u][0], from, (unsigned)l0);
	e->bits1 = n < 2 || l1 > 64 ? 0 : bits_at(t->busy[u][1], from, (unsigned)l1);
}

static uint64_t reserve(struct nb_tm *t, unsigned u, unsigned n, uint64_t from, unsigned intv)
{
	unsigned best = 0;
	uint64_t k = first_run(t->busy[u][0], t->lo, from, intv), end = t->lo + NB_TM_URING;
	uint64_t k0 = k, k1 = from - intv;

	/* (instance 0 free at once: instance 1 cannot start earlier, and is
	 * not looked at; the log says so with len1 0) */
	if (n > 1 && k != from) {
		k1 = first_run(t->busy[u][1], t->lo, from, intv);
		if (k1 < k) {
			k = k1;
			best = 1;
		}
	}
	if (t->log.rlog && t->log.nrl < NB_TM_MAXRL)
		rlog(t, u, n, from, intv, k0, k1, best);
	uint64_t e = k + intv < end ? k + intv : end;
	if (e > k && e > t->uhi)
		t->uhi = e;     /* (the replay's bound, nb_tmmemo.c) */
	for (uint64_t j = k; j < e;) {
		unsigned off = (unsigned)(j % 64);
		uint64_t n = 64 - off < e - j ? 64 - off : e - j;
		t->busy[u][best][(j % NB_TM_URING) / 64] |= ones(n) << off;
		j += n;
	}
	return k;
}

/* A uop of row r whose sources are ready at `start`: reserve's choice
 * made here without a call when it lies in start's bitmap word (the
 * usual case): the first run of free ticks of the first instance, or of
 * the second (the double-speed ALU) when it starts strictly earlier.  A
 * run that ends inside the word starts before any that crosses its end,
 * so the first such run of an instance is its first run when there is
 * one; the second instance is looked at only when the first is not free
 * at once, as reserve does.  Else (runs across words, intervals over 4
 * ticks, the replay's log) reserve. */
static inline uint64_t take(struct nb_tm *t, const struct nb_tm_row *r, uint64_t start)
{
	const unsigned off = (unsigned)(start % 64), intv = r->intv, u = r->unit;
	const unsigned i = (unsigned)((start % NB_TM_URING) / 64);

	if (!t->log.rlog && intv <= 4 && start < t->lo + NB_TM_URING) {
		uint64_t g = runs_in(t->busy[u][0][i], off, intv), g1;
		unsigned k, best = 0;
		if (g & 1)
			k = 0;
		else if (u != NB_TMU_ALU) {
			if (!g)
				goto slow;
			k = (unsigned)__builtin_ctzll(g);
		} else {
			g1 = runs_in(t->busy[u][1][i], off, intv);
			if (!g)
				goto slow;
			k = (unsigned)__builtin_ctzll(g);
			if (g1 && (unsigned)__builtin_ctzll(g1) < k) {
				k = (unsigned)__builtin_ctzll(g1);
				best = 1;
			}
		}
		t->busy[u][best][i] |= ones(intv) << (off + k);
		if (start + k + intv > t->uhi)
			t->uhi = start + k + intv;
		return start + k;
	}
slow:
	return reserve(t, u, u == NB_TMU_ALU ? 2 : 1, start, intv);
}

/* HT (nb_smt.c): a missing load whose alias class matches a miss of the
 * other LP under way cannot begin until that line is kicked out of the
 * L1D [ORM-A]: it goes round the replay loop, taking its port at each
 * pass, until the other LP's miss is done (half of one under way on
 * average: it meets it at a point spread evenly over it) and its line has
 * been evicted (conf_res of its set).  Loads meet a class under way at the
 * rate the other LP had it under way in its last segment: conf_hold[c]
 * ticks of conf_span, summed in conf_acc, one conflict each time the sum
 * passes conf_span. */
static uint64_t alias_wait(struct nb_tm *t, const struct nb_tm_row *r, unsigned ix, uint64_t start)
{
	unsigned c = t->smt.ld_alias[ix];
	uint64_t until;

	if (!t->smt.conf_hold[c])
		return start;
	t->smt.conf_acc += t->smt.conf_hold[c];
	if (t->smt.conf_acc < t->smt.conf_span)
		return start;
	t->smt.conf_acc -= t->smt.conf_span;    /* (conf_hold[c] <= conf_span) */
	t->smt.conflicts++;
	until = start + t->smt.conf_way / 2 + t->smt.conf_res[c % NB_TM_L1SETS];
	do {
		start = reserve(t, r->unit, 1, start + t->smt.replay, r->intv);
		t->smt.unit_ticks[r->unit] += r->intv;
		t->smt.replays++;
	} while (start < until);
	return start;
}

/* A missing load starting at tick `start`, its data lat ticks later on
 * an idle bus: the ticks to its data with the wait for the bus (its
 * latency word's bus cycles, nb_tm_lat_bus; none for an L2
 * or L3 hit) */
static inline uint64_t bus_wait(struct nb_tm *t, unsigned ix, uint64_t start, uint64_t lat)
{
	uint64_t bus = 2 * (uint64_t)(t->ld_lat[ix] >> NB_TM_BUS_SHIFT), e;

	if (!bus)
		return lat;
	/* (its transfers end at start + lat on an idle bus) */
	e = nb_tm_bus_take(t, start + lat > bus ? start + lat - bus : 0, bus);
	return e - start;
}

/* HT (nb_smt.c): this LP allocates and retires only in the cycles the
 * other LP does not take (Marr et al. 2002: the allocator and retirement
 * alternate between the logical processors that have uops) */
static inline uint64_t own_cycle(const struct nb_tm *t, uint64_t c)
{
	while (t->smt.alt >> (c & 63) & 1)
		c++;
	return c;
}

void nb_tm_walk(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to)
{
	const struct nb_tm_params *p = t->p;
	const unsigned w = p->width, win = t->smt.win ? t->smt.win : p->window;
	const unsigned nmiss = t->smt.miss_n ? t->smt.miss_n : p->miss_slots;
	uint64_t fe = t->fe, ret = t->ret, seq = t->seq, done = t->last_done;
	unsigned fe_n = t->fe_n, ret_n = t->ret_n;

	t->log.mut++;
	t->step.nrec = 0;
	t->log.nmlog = 0;
	t->log.nrl = 0;
	for (unsigned i = from; i < to; i++) {
		const struct nb_tm_uop *u = &b->u[i];
		const uint16_t *s = &b->slots[u->slot];
		const struct nb_tm_row *r;
		uint64_t start, lat, rc;
		unsigned k;

		if (u->cls == NB_TM_COPY) {
			uint64_t m = 0;
			for (k = 0; k < u->nsrc; k++)
				m = max64(m, t->ready[s[k]]);
			for (; k < (unsigned)u->nsrc + u->ndst; k++)
				t->ready[s[k]] = m;
			continue;
		}
		if (u->cls == NB_TM_MST) {
			unsigned m = s[2] - NB_TM_MEM;
			t->ready[s[2]] = t->ready[s[0]];
			t->mtag[m] = t->ready[s[1]];
			t->mchk[m] = u->ld;
			continue;
		}
		if (u->cls == NB_TM_REPB && t->str_block) {
			/* a block-mode element: issued after the one before,
			 * at the engine's rate; its load's miss (movs)
			 * delays retirement, not the issue of the next (up
			 * to the miss slots' lines in flight) */
			/* (a front end the engine holds is at its tick
			 * rounded up to a cycle: not later than that) */
			uint64_t s0 = 2 * fe > t->str_at + 1 ? 2 * fe : t->str_at, s, c, e;
			unsigned sz = u->slot & 15, kind = (u->slot >> 4) & 1;
			t->str_acc += sz * p->str_tpb[kind];
			s = s0 + (t->str_acc >> 8);
			t->str_acc &= 255;
			t->str_at = s;
			e = s;
			if (u->ld && (t->ld_mask & (UINT64_C(1) << (u->ld - 1)))) {
				unsigned ix = u->ld - 1, m = 0;
				uint64_t st, lat = 2 * (uint64_t)(t->ld_lat[ix] & NB_TM_LAT_MASK);
				uint64_t f = 2 * (uint64_t)p->miss_free;
				t->ld_mask &= ~(UINT64_C(1) << ix);
				for (unsigned j = 1; j < nmiss; j++)
					if (t->miss[j] < t->miss[m])
						m = j;
				st = max64(s0, t->miss[m]);
				lat = bus_wait(t, ix, st, lat);
				t->miss[m] = st + (lat > f ? lat - f : lat);
				e = max64(e, st + lat);
			}
			c = (s + 1) / 2;
			if (c > fe) {
				fe = c;
				fe_n = 0;
			}
			c = (e + 1) / 2;
			if (c > ret) {
				ret = c;
				ret_n = 0;
			}
			if (t->step.record && t->step.nrec < NB_TM_STEPREC)
				t->step.rec[t->step.nrec++] = ret;
			i += u->slot >> 8;      /* (the iteration's uops) */
			continue;
		}
		if (u->cls == NB_TM_REPB)
			continue;
		if (u->cls == NB_TM_MLD) {
			unsigned m = s[1] - NB_TM_MEM;
			t->ready[s[2]] = t->mchk[m] == u->ld && t->mtag[m] == t->ready[s[0]]
				? t->ready[s[1]] : 0;
			continue;
		}
		if (u->cls == NB_TM_LAT) {
			uint64_t m = 2 * fe;
			for (k = 0; k < u->nsrc; k++)
				m = max64(m, t->ready[s[k]]);
			m += p->row[u->ld].lat;
			for (; k < (unsigned)u->nsrc + u->ndst; k++)
				t->ready[s[k]] = m;
			continue;
		}
		/* allocation: in order, w per cycle, a window of p->window */
		if (fe_n == w) {
			fe = own_cycle(t, fe + 1);
			fe_n = 0;
		}
		if (seq >= win) {
			uint64_t free_at = t->rob[(seq - win) % NB_TM_ROB];
			if (fe < free_at) {
				fe = own_cycle(t, free_at);
				fe_n = 0;
			}
		}
		fe_n++;
		/* dispatch: when the sources are ready and the unit is free */
		start = 2 * fe;
		units_forget(t, start);
		for (k = 0; k < u->nsrc; k++)
			start = max64(start, t->ready[s[k]]);
		r = &p->row[u->cls];
		if (r->unit == NB_TMU_FPDIV) {
			start = max64(start, t->div_free);
			t->div_free = start + r->intv;
		} else
			start = take(t, r, start);
		t->smt.unit_ticks[r->unit] += r->intv;
		lat = r->lat;
		if (u->ld && (t->ld_mask & (UINT64_C(1) << (u->ld - 1)))) {
			/* an L1D miss: wait for a miss slot, hold it */
			unsigned ix = u->ld - 1, m = 0;
			t->ld_mask &= ~(UINT64_C(1) << ix);
			if (t->smt.conf_span)       /* HT: the L1D's conflicts */
				start = alias_wait(t, r, ix, start);
			for (unsigned j = 1; j < nmiss; j++)
				if (t->miss[j] < t->miss[m])
					m = j;
			if (t->smt.replay)          /* HT: round the replay loop */
				while (start < t->miss[m]) {
					start = reserve(t, r->unit, 1, start + t->smt.replay, r->intv);
					t->smt.unit_ticks[r->unit] += r->intv;
					t->smt.replays++;
				}
			start = max64(start, t->miss[m]);
			lat = bus_wait(t, ix, start, 2 * (uint64_t)(t->ld_lat[ix] & NB_TM_LAT_MASK));
			if (t->smt.replay) {        /* HT: the pass that finds the data */
				lat = reserve(t, r->unit, 1, start + lat, r->intv) - start;
				t->smt.unit_ticks[r->unit] += r->intv;
				unsigned c = t->smt.ld_alias[ix];
				t->smt.alias_n[c]++;
				t->smt.alias_seen[c / 64] |= UINT64_C(1) << (c % 64);
			}
			{       /* the slot frees p->miss_free cycles early */
				uint64_t f = 2 * (uint64_t)p->miss_free;
				uint64_t hold = lat > f ? lat - f : lat;
				t->miss[m] = start + hold;
				t->smt.miss_ticks += hold;
				if (t->log.nmlog < NB_TM_MAXMISS)
					t->log.mlog[t->log.nmlog++] = start + hold;
			}
		}
		done = start + lat;
		for (; k < (unsigned)u->nsrc + u->ndst; k++)
			t->ready[s[k]] = done;
		/* retirement: in order, w per cycle, after the result */
		rc = (done + 1) / 2;
		if (rc < ret)
			rc = ret;
		rc = own_cycle(t, rc);
		if (rc == ret) {
			if (ret_n == w) {
				rc = own_cycle(t, rc + 1);
				ret_n = 0;
			}
		} else
			ret_n = 0;
		ret = rc;
		ret_n++;
		t->rob[seq % NB_TM_ROB] = rc;
		seq++;
		if (t->step.record && t->step.nrec < NB_TM_STEPREC)
			t->step.rec[t->step.nrec++] = rc;
	}
	t->uops += seq - t->seq;
	t->ld_mask = 0;         /* (misses of loads not run: none left) */
	t->fe = fe;
	t->fe_n = fe_n;
	t->ret = ret;
	t->ret_n = ret_n;
	t->seq = seq;
	t->last_done = done;
	nb_tm_ls_set(t);
}

void nb_tm_misp(struct nb_tm *t, uint64_t misp, int fast)
{
	uint64_t k = misp - t->misp_seen;

	if (misp == t->misp_seen)
		return;
	t->misp_seen = misp;
	if (fast) {
		/* the cheap clock: the penalty is a stall of retirement */
		t->ret += k * t->penalty;
		t->ret_n = 0;
		t->fe = t->ret;
		t->fe_n = 0;
		nb_tm_ls_set(t);
	} else {
		/* a mispredicted branch (the last uop run): the front end
		 * restarts `penalty` cycles after it resolves [HIN01], [BOG04] */
		uint64_t at = (t->last_done + 1) / 2 + k * t->penalty;
		if (t->fe < at) {
			t->fe = at;
			t->fe_n = 0;
		}
	}
}

void nb_tm_run_fast(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
		    uint64_t misp)
{
	const unsigned w = t->p->width;
	uint64_t n = 0, stall = 0;

	t->log.mut++;
	t->step.nrec = 0;
	if (b->real && !t->step.record)
		n = (uint64_t)b->real[to] - b->real[from];
	else for (unsigned i = from; i < to; i++) {
		uint8_t c = b->u[i].cls;
		if (c == NB_TM_COPY || c == NB_TM_LAT || c == NB_TM_MST || c == NB_TM_MLD ||
		    c == NB_TM_REPB)
			continue;
		n++;
		if (t->step.record) {
			/* step mode: each uop's retirement cycle (the clock
			 * advances past the NB_TM_STEPREC recorded too) */
			if (t->ret_n == w) {
				t->ret++;
				t->ret_n = 0;
			}
			t->ret_n++;
			if (t->step.nrec < NB_TM_STEPREC)
				t->step.rec[t->step.nrec++] = t->ret;
		}
	}
	if (!t->step.record && n) {
		/* (every model retires 3 a cycle: a division by the constant,
		 * a multiply; a 64-bit divide was half of this function) */
		uint64_t k = t->ret_n + n - 1, q = w == 3 ? k / 3 : k / w;
		t->ret += q;
		t->ret_n = (unsigned)(k - q * w) + 1;
	}
	for (uint64_t m = t->ld_mask; m; m &= m - 1)
		stall += t->ld_lat[__builtin_ctzll(m)] & NB_TM_LAT_MASK;
	t->ld_mask = 0;
	if (stall) {
		t->ret += stall;
		t->ret_n = 0;
	}
	t->fe = t->ret;
	t->fe_n = 0;
	t->seq += n;
	t->uops += n;
	nb_tm_ls_set(t);
	nb_tm_misp(t, misp, 1);
}

uint64_t nb_tm_serialize(struct nb_tm *t)
{
	uint64_t c = t->ret + (t->ret_n ? 1 : 0);

	/* a front end restarting after a misprediction: the serializing
	 * instruction is fetched no earlier */
	if (t->fe > c)
		c = t->fe;
	t->ret = c;
	t->ret_n = 0;
	nb_tm_ls_set(t);
	if (t->fe < c) {
		t->fe = c;
		t->fe_n = 0;
	}
	return c;
}

