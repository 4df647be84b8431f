/*
 * nb_tmmemo.c - replay of recorded schedules: the timing model's walk
 * (nb_tm_walk, nb_timing.c) at the cost of a comparison when a block runs
 * again from the same relative state.  See README.md "Timing model"
 * (Speed).  Pure module (no libc, no valgrind).
 *
 * The walk's result depends on the clock's state only relative to its
 * allocation cycle F (ticks relative to 2F): shift every time by D cycles
 * and the walk's results shift by D.  So a run of uops [from, to) of a
 * block whose relative state (the key) equals one recorded for that range
 * and parameter set gives the recorded result (the effect) plus F.
 *
 * The key, everything of the state the walk reads:
 *  - fe_n, ret - F, ret_n, whether loads missed;
 *  - max(div_free - 2F, 0) when the range uses the divider;
 *  - max(ready - 2F, 0) of each slot the range reads before it writes it
 *    (nothing dispatches before 2F, a pseudo-uop's result is at least 2F
 *    plus its latency, and a renaming copy passes the maximum on: a value
 *    ready before 2F is as good as 2F now and later, fe never decreasing);
 *  - for the range's k-th uop, max(rob[seq + k - window] - F, 0) (an
 *    entry retired by F never holds allocation);
 *  - the missing loads (mask, latencies) and the miss slots' max(end -
 *    2F, 0), sorted (the walk takes the earliest-free slot; a slot free
 *    before 2F is as good as any other);
 *  - max(bus_free - 2F, 0) when a missing load holds the bus (its
 *    latency word's bus cycles: nb_timing.h nb_tm_lat_bus).
 * The units' reservations are not in the key: the walk logs, for each
 * uop it gives a unit, the bits it examined (from the tick the uop could
 * start to the end of the first free run, on each instance) and the run
 * it took.  A replay checks that the bitmap holds the same bits there,
 * reserving each run as it goes (an earlier uop's run is part of what a
 * later one examines, as in the walk), and walks instead (undoing its
 * reservations) when one differs: the walk's choices depend on no other
 * bit.  A search that examined more than 64 ticks (a queue for a port) is
 * checked by making the walk's choice again on the bitmap (same_choice).
 * The effect: fe, fe_n, ret, ret_n, last_done, the slots written, the
 * window entries, the reservations (the horizon moves as the walk moves
 * it), uhi, div_free, the miss slots' new ends (each given to the
 * earliest-free slot, as the walk does).  All of them are the walk's values bit for bit, except a slot
 * the walk sets to a value before 2F (a copy of an old value), which the
 * replay sets to 2F: an equivalent value (above).  In step mode
 * (t->step.record) a replay and a fast-forwarded run also write each real
 * uop's retirement cycle (rec[], nrec), which is its window entry.
 * tests/unit/t_tmmemo.c runs the walk and the replay side by side on random
 * blocks and compares every cycle and the whole state, with step mode's
 * records and without.
 *
 * Kept per (block, range, parameters): one direct-mapped table of shapes
 * (slots read and written, units used), each with MM_WAYS recorded
 * states.  A range without a steady state (fewer than half its runs
 * fast-forwarded after 512: a plain replay costs about what the walk
 * does) is left to the walk.
 */
#include "nb_tmmemo.h"

#define MM_SETS  256u    /* (block, range) shapes kept, direct-mapped     */
#define MM_WAYS  6u      /* relative states recorded per shape            */
#define MM_NLI   32u     /* slots read before written                     */
#define MM_ND    64u     /* slots written                                 */
#define MM_NR    48u     /* uops (not COPY/LAT)                           */
#define MM_MINR  NB_TM_MEMO_MINR /* fewer: the walk (nb_tm_run looks first) */
#define MM_RL    7u      /* words per logged reservation                  */
#define MM_HOR   (NB_TM_URING - 128u) /* ticks past 2F a replay may reach */
#define MM_NMISS 8u      /* missing loads in one run                      */
#define MM_KMAX  (4u + MM_NLI + MM_NR + 2u + MM_NMISS + NB_TM_MAXMISS)
#define URW      (NB_TM_URING / 64u)

/* (a replayed range's real uops are all in the step mode's record) */
_Static_assert(MM_NR <= NB_TM_STEPREC, "MM_NR > NB_TM_STEPREC");

/* a way: its tag (in the set, together), then its key and effect packed
 * in v (a replay reads a few cache lines): the key (nk words), the slots
 * written (nd), the window entries (nr), the miss slots' ends (nm), the
 * logged reservations (nrl x MM_RL words: x0 | n << 5 | best << 6 | intv
 * << 8 | len0 << 16 | len1 << 24, from - 2F, k - from, the bits examined
 * on instance x0 and x0 + 1 as pairs) */
struct mm_tag {
	uint32_t hash, nk, used;        /* a filter of the key (nk 0: empty); replays */
};

struct mm_way {
	int32_t fe, ret;                /* cycles from F                 */
	uint32_t fe_n, ret_n;
	uint32_t done, div, uhi, bus;   /* ticks from 2F                 */
	uint32_t nrl, nm;               /* reservations, misses          */
	uint32_t v[MM_KMAX + MM_ND + MM_NR + MM_NMISS + MM_RL * MM_NR];
};

/* a set's range and whether it is replayed, apart from the set (a
 * range left to the walk costs a look at this small table only) */
struct mm_id {
	const struct nb_tm_block *b;
	const struct nb_tm_params *p;
	uint32_t from, to, ok;
};

struct mm_set {
	uint8_t div, next;
	uint16_t nli, nd, nr;
	uint16_t li[MM_NLI], d[MM_ND];
	uint32_t tries, hits, recs, ffs;
	struct mm_tag tag[MM_WAYS];
	struct mm_way w[MM_WAYS];
};

static struct mm_set mm[MM_SETS];
static struct mm_id mm_id[MM_SETS];

void nb_tm_memo_flush(void)
{
	for (unsigned i = 0; i < MM_SETS; i++)
		mm_id[i].b = 0;
}

/* ---- the shape of a range: slots read before written, slots written,
 * uops, unit instances ---- */

static uint32_t mk_w[NB_TM_NSLOT], mk_l[NB_TM_NSLOT], mk_gen;

static void shape(struct mm_set *s, struct mm_id *id, const struct nb_tm_block *b, unsigned from,
		  unsigned to, const struct nb_tm_params *p)
{
	id->b = b;
	id->p = p;
	id->from = from;
	id->to = to;
	id->ok = s->div = s->next = 0;
	s->nli = s->nd = s->nr = 0;
	s->tries = s->hits = s->recs = s->ffs = 0;
	for (unsigned w = 0; w < MM_WAYS; w++)
		s->tag[w].nk = 0;
	if (++mk_gen == 0) {
		for (unsigned i = 0; i < NB_TM_NSLOT; i++)
			mk_w[i] = mk_l[i] = 0;
		mk_gen = 1;
	}
	for (unsigned i = from; i < to; i++) {
		const struct nb_tm_uop *u = &b->u[i];
		const uint16_t *sl = &b->slots[u->slot];
		unsigned k, x;
		/* forwarding across runs compares absolute ticks (the memory
		 * slots' tags, nb_timing.h NB_TM_MLD; the string engine's
		 * tick, NB_TM_REPB), which no relative key holds: such a
		 * range is left to the walk */
		if (u->cls == NB_TM_MST || u->cls == NB_TM_MLD || u->cls == NB_TM_REPB)
			return;
		for (k = 0; k < u->nsrc; k++) {
			x = sl[k];
			if (mk_w[x] == mk_gen || mk_l[x] == mk_gen)
				continue;
			if (s->nli == MM_NLI)
				return;
			mk_l[x] = mk_gen;
			s->li[s->nli++] = (uint16_t)x;
		}
		for (; k < (unsigned)u->nsrc + u->ndst; k++) {
			x = sl[k];
			if (mk_w[x] == mk_gen)
				continue;
			if (s->nd == MM_ND)
				return;
			mk_w[x] = mk_gen;
			s->d[s->nd++] = (uint16_t)x;
		}
		if (u->cls == NB_TM_COPY || u->cls == NB_TM_LAT)
			continue;
		if (s->nr == MM_NR)
			return;
		s->nr++;
		if (p->row[u->cls].unit == NB_TMU_FPDIV)
			s->div = 1;
	}
	/* (a replay costs about what walking 5-8 uops does: measured,
	 * README "Timing model") */
	id->ok = s->nr >= MM_MINR;
}

/* ---- relative values ---- */

/* max(v - base, 0); *bad when it does not fit 31 bits */
static inline uint32_t rel(uint64_t v, uint64_t base, int *bad)
{
	if (v <= base)
		return 0;
	if (v - base > 0x7fffffffu) {
		*bad = 1;
		return 0;
	}
	return (uint32_t)(v - base);
}

static inline uint64_t ones(unsigned n)          /* n <= 64 */
{
	return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

/* the reservation bits of bm at ticks [k, k + len) (len <= 64) */
static inline uint64_t bits_at(const uint64_t *bm, uint64_t k, unsigned len)
{
	unsigned p = (unsigned)(k % NB_TM_URING), i = p / 64, off = p % 64;
	uint64_t w = bm[i] >> off;

	if (off)
		w |= bm[(i + 1) % URW] << (64 - off);
	return w & ones(len);
}

/* The miss slots' ends, max(end - B, 0), in increasing order (the walk
 * takes the earliest-free slot: which slot holds which end is not the
 * state) */
static void sorted_ends(const struct nb_tm *t, uint64_t B, uint32_t *ms, int *bad)
{
	for (unsigned j = 0; j < t->p->miss_slots; j++) {
		uint32_t v = rel(t->miss[j], B, bad);
		unsigned i = j;
		for (; i && ms[i - 1] > v; i--)
			ms[i] = ms[i - 1];
		ms[i] = v;
	}
}

/* The key of the clock's state for the range of s into k; its length,
 * or 0 when the state has no key (out of the kept span).  Moves the
 * units' horizon to 2F, as the walk's first uop does. */
static unsigned key(struct nb_tm *t, const struct mm_set *s, uint32_t *k)
{
	const struct nb_tm_params *p = t->p;
	const uint64_t F = t->fe, B = 2 * F;
	int64_t dr = (int64_t)(t->ret - F);
	unsigned n = 0;
	int bad = 0;

	if (dr < -0x7fffffffll || dr > 0x7fffffffll)
		return 0;
	nb_tm_units_forget(t, B);
	/* (retirement before F: no uop of the range retires in its cycle,
	 * whatever it is) */
	k[n++] = t->fe_n | (dr < 0 ? 0 : t->ret_n) << 4 | (t->ld_mask ? 1u : 0u) << 8;
	k[n++] = dr < 0 ? 0xffffffffu : (uint32_t)dr;
	if (s->div)
		k[n++] = rel(t->div_free, B, &bad);
	for (unsigned i = 0; i < s->nli; i++)
		k[n++] = rel(t->ready[s->li[i]], B, &bad);
	for (unsigned j = 0; j < s->nr; j++) {
		uint64_t q = t->seq + j;
		k[n++] = q >= p->window ? rel(t->rob[(q - p->window) % NB_TM_ROB], F, &bad) : 0;
	}
	if (t->ld_mask) {
		uint64_t m = t->ld_mask;
		uint32_t ms[NB_TM_MAXMISS], bus = 0;
		if (__builtin_popcountll(m) > (int)MM_NMISS)
			return 0;
		k[n++] = (uint32_t)m;
		k[n++] = (uint32_t)(m >> 32);
		for (; m; m &= m - 1)
			bus |= k[n++] = t->ld_lat[__builtin_ctzll(m)];
		sorted_ends(t, B, ms, &bad);
		for (unsigned j = 0; j < p->miss_slots; j++)
			k[n++] = ms[j];
		if (bus >> NB_TM_BUS_SHIFT) {
			k[0] |= 1u << 9;
			k[n++] = rel(t->bus_free, B, &bad);
		}
	}
	return bad ? 0 : n;
}

/* The walk from F (sequence number seq0) just ran the range of s from
 * the state of key k: keep its effect in the next way. */
static void record(struct mm_set *s, const struct nb_tm *t, const uint32_t *k, unsigned nk,
		   uint32_t hash, uint64_t F, uint64_t seq0)
{
	const uint64_t B = 2 * F;
	int64_t dfe = (int64_t)(t->fe - F), dret = (int64_t)(t->ret - F);
	unsigned v = s->next, n = nk;
	struct mm_way *w;
	uint32_t *x;
	int bad = 0;

	/* the victim: the way replayed least lately (ties: in turn) */
	for (unsigned i = 1; i < MM_WAYS; i++) {
		unsigned j = (s->next + i) % MM_WAYS;
		if (s->tag[j].used < s->tag[v].used)
			v = j;
	}
	if (++s->recs % 64 == 0)
		for (unsigned i = 0; i < MM_WAYS; i++)
			s->tag[i].used /= 2;
	s->next = (uint8_t)((v + 1) % MM_WAYS);
	w = &s->w[v];
	x = w->v;
	s->tag[v].nk = 0;
	if (t->log.nmlog > MM_NMISS || t->log.nrl > MM_NR || dfe > 0x7fffffffll ||
	    dret < -0x7fffffffll || dret > 0x7fffffffll)
		return;
	w->fe = (int32_t)dfe;
	w->ret = (int32_t)dret;
	w->fe_n = t->fe_n;
	w->ret_n = t->ret_n;
	w->done = rel(t->last_done, B, &bad);
	w->div = rel(t->div_free, B, &bad);
	w->bus = k[0] >> 9 & 1 ? rel(t->bus_free, B, &bad) : 0;
	w->nm = t->log.nmlog;
	for (unsigned j = 0; j < nk; j++)
		x[j] = k[j];
	for (unsigned i = 0; i < s->nd; i++)
		x[n++] = rel(t->ready[s->d[i]], B, &bad);
	for (unsigned j = 0; j < s->nr; j++)
		x[n++] = rel(t->rob[(seq0 + j) % NB_TM_ROB], F, &bad);
	for (unsigned j = 0; j < w->nm; j++)
		x[n++] = rel(t->log.mlog[j], B, &bad);
	w->uhi = 0;
	w->nrl = t->log.nrl;
	for (unsigned j = 0; j < t->log.nrl; j++) {
		const struct nb_tm_rl *e = &t->log.rl[j];
		uint64_t end = e->k + e->intv;
		/* (the examined bits and the run within the horizon of any
		 * replay: the ring's ticks [lo, lo + URING), lo <= 2F) */
		if ((e->len0 > 64 && e->len0 != 0xff) || (e->len1 > 64 && e->len1 != 0xff) ||
		    e->from < B || end - B > MM_HOR ||
		    e->from + 64 - B > MM_HOR)
			return;
		if (end - B > w->uhi)
			w->uhi = (uint32_t)(end - B);
		x[n++] = e->x0 | (uint32_t)(e->n > 1) << 5 | (uint32_t)e->best << 6 | (uint32_t)e->intv << 8 |
			(uint32_t)e->len0 << 16 | (uint32_t)e->len1 << 24;
		x[n++] = (uint32_t)(e->from - B);
		x[n++] = (uint32_t)(e->k - e->from);
		x[n++] = (uint32_t)e->bits0;
		x[n++] = (uint32_t)(e->bits0 >> 32);
		x[n++] = (uint32_t)e->bits1;
		x[n++] = (uint32_t)(e->bits1 >> 32);
	}
	if (bad)
		return;
	s->tag[v].nk = nk;
	s->tag[v].hash = hash;
	s->tag[v].used = 1;
}

/* A reservation whose search examined more than 64 ticks (a queue for a
 * port): the walk's choice made again on the bitmap as it is now, the
 * first run of the first instance, of the second (n 2) when the first is
 * not free at once and it starts strictly earlier (reserve, nb_timing.c);
 * the same choice as recorded (k, instance best)? */
static int same_choice(const struct nb_tm *t, unsigned u, unsigned n, uint64_t from, unsigned intv,
		       uint64_t k, unsigned best)
{
	uint64_t k0 = nb_tm_first_free(t->busy[u][0], t->lo, from, intv), k1;

	if (n < 2 || k0 == from)
		return !best && k0 == k;
	k1 = nb_tm_first_free(t->busy[u][1], t->lo, from, intv);
	return k1 < k0 ? best && k1 == k : !best && k0 == k;
}

/* The reservations of way w from the clock's 2F = B, each after checking
 * the bits its uop examined (x: its log); 0, with the bitmap as it was,
 * when some differ. */
static int reserve_all(struct nb_tm *t, const struct mm_way *w, const uint32_t *x, uint64_t B)
{
	struct { uint64_t *p, old; } undo[2 * MM_NR];
	unsigned nu = 0;

	for (unsigned j = 0; j < w->nrl; j++, x += MM_RL) {
		unsigned x0 = x[0] & 31, n = x[0] >> 5 & 1 ? 2 : 1, best = x[0] >> 6 & 1;
		unsigned intv = x[0] >> 8 & 0xff, len0 = x[0] >> 16 & 0xff, len1 = x[0] >> 24;
		uint64_t from = B + x[1], k = from + x[2];
		uint64_t *bm = t->busy[x0 / 2][best];
		unsigned p, i, off;
		if (len0 == 0xff || len1 == 0xff ? !same_choice(t, x0 / 2, n, from, intv, k, best)
		    : bits_at(t->busy[x0 / 2][0], from, len0) != (x[3] | (uint64_t)x[4] << 32) ||
		    (n > 1 && bits_at(t->busy[x0 / 2][1], from, len1) != (x[5] | (uint64_t)x[6] << 32))) {
			while (nu--)
				*undo[nu].p = undo[nu].old;
			return 0;
		}
		/* the run [k, k + intv), intv <= 64 */
		p = (unsigned)(k % NB_TM_URING);
		i = p / 64;
		off = p % 64;
		undo[nu].p = &bm[i];
		undo[nu++].old = bm[i];
		bm[i] |= ones(intv) << off;
		if (off + intv > 64) {
			undo[nu].p = &bm[(i + 1) % URW];
			undo[nu++].old = bm[(i + 1) % URW];
			bm[(i + 1) % URW] |= ones(intv) >> (64 - off);
		}
	}
	return 1;
}

/* The slots and window entries way w (key nk words) writes from F
 * (sequence seq); the slots only when `slots`. */
static void write_arrays(struct nb_tm *t, const struct mm_set *s, const struct mm_way *w,
			 unsigned nk, uint64_t F, uint64_t seq, int slots)
{
	const uint64_t B = 2 * F;
	const uint32_t *x = w->v + nk;

	if (slots)
		for (unsigned i = 0; i < s->nd; i++)
			t->ready[s->d[i]] = B + x[i];
	x += s->nd;
	for (unsigned j = 0; j < s->nr; j++)
		t->rob[(seq + j) % NB_TM_ROB] = F + x[j];
}

/* The clock's fields after way w's run from F: its misses' ends each to
 * the earliest-free slot (as the walk gives them), the divider, the
 * allocation and retirement cycles, the sequence, the last result. */
static void write_fields(struct nb_tm *t, const struct mm_set *s, const struct mm_way *w,
			 unsigned nk, uint64_t F)
{
	const struct nb_tm_params *p = t->p;
	const uint64_t B = 2 * F;
	const uint32_t *x = w->v + nk + s->nd + s->nr;

	for (unsigned j = 0; j < w->nm; j++) {
		unsigned m = 0;
		for (unsigned i = 1; i < p->miss_slots; i++)
			if (t->miss[i] < t->miss[m])
				m = i;
		t->miss[m] = t->log.mlog[j] = B + *x++;
	}
	if (s->div)
		t->div_free = B + w->div;
	if (w->v[0] >> 9 & 1)
		t->bus_free = B + w->bus;
	t->log.nmlog = w->nm;
	t->log.nrl = 0;
	t->seq += s->nr;
	t->uops += s->nr;
	t->fe = F + (uint64_t)(int64_t)w->fe;
	t->fe_n = w->fe_n;
	t->ret = F + (uint64_t)(int64_t)w->ret;
	t->ret_n = w->ret_n;
	nb_tm_ls_set(t);
	t->last_done = B + w->done;
	t->ld_mask = 0;
	t->step.nrec = 0;
}

/* Step mode (t->step.record): the retirement cycle of each real uop of the
 * run from F, in order, as the walk records them: the window entries the
 * run writes (the walk's rob entry and its rec are the same cycle, rc,
 * never before F; a range replayed has at most MM_NR real uops, all
 * recorded). */
static void write_rec(struct nb_tm *t, const struct mm_set *s, const struct mm_way *w,
		      unsigned nk, uint64_t F)
{
	const uint32_t *x = w->v + nk + s->nd;

	for (unsigned j = 0; j < s->nr; j++)
		t->step.rec[j] = F + x[j];
	t->step.nrec = s->nr;
}

/* The effect of way w (key nk words) from the clock's F (the key
 * matched); 0 (nothing changed) when the units' bits differ. */
static int replay(struct nb_tm *t, const struct mm_set *s, const struct mm_way *w, unsigned nk)
{
	const uint64_t F = t->fe, B = 2 * F;

	if (!reserve_all(t, w, w->v + nk + s->nd + s->nr + w->nm, B))
		return 0;
	write_arrays(t, s, w, nk, F, t->seq, 1);
	if (w->uhi && B + w->uhi > t->uhi)
		t->uhi = B + w->uhi;
	write_fields(t, s, w, nk, F);
	if (t->step.record)
		write_rec(t, s, w, nk, F);
	nb_tm_units_forget(t, 2 * t->fe);
	return 1;
}

/* ---- the steady state: fast-forward ----
 *
 * A range replayed from way w run after run, nothing else touching the
 * clock between, stays on w: with the key equal at runs n - 1 and n, every
 * part of the key at n + 1 is made by the same effect from the same
 * relative state (the live-in slots the range does not write are then
 * before 2F and stay there; the window entries the range's uops wait for
 * were written by runs of the streak, once it is longer than the window
 * in runs; the units' bits the walk would examine are those of the
 * streak's runs, once the reservations made before it have ended and the
 * streak covers the reach of its reservations); the missing loads and the
 * miss slots are checked at each run, they come from the cache model.
 * So such a run needs only its effect on the clock's fields (allocation,
 * retirement, sequence, last result, divider, miss slots); its writes to
 * the arrays (slots, window entries, reservations) are made by
 * nb_tm_memo_sync for the runs whose writes still matter: the last run's
 * slots, the window entries of the last runs that fill the window ring,
 * the reservations of the last runs that reach the units' horizon.
 */

/* the clock as the last replay left it (a next run of the range
 * continues the streak only if nothing changed it) */
static inline void stamp(struct nb_tm *t)
{
	t->memo.ff_fe = t->fe;
	t->memo.ff_fe_n = t->fe_n;
	t->memo.ff_ret = t->ret;
	t->memo.ff_ret_n = t->ret_n;
	t->memo.ff_seqx = t->seq;
	t->memo.ff_mut = t->log.mut;
}

static inline int continues(const struct nb_tm *t, const struct mm_set *s)
{
	return t->memo.ff_set == s && t->memo.ff_mut == t->log.mut && t->memo.ff_seqx == t->seq && t->memo.ff_fe == t->fe &&
		t->memo.ff_fe_n == t->fe_n && t->memo.ff_ret == t->ret && t->memo.ff_ret_n == t->ret_n;
}

/* runs in a row after which the streak's key is its own: the window
 * (its entries' writers and theirs), the reach of its reservations plus
 * the units' word (their examined bits), 2 for the slots */
static uint64_t ff_need(const struct nb_tm *t, const struct mm_set *s, const struct mm_way *w)
{
	uint64_t d = (uint64_t)w->fe, a = (t->p->window + s->nr - 1) / s->nr + 2;
	uint64_t b = (w->uhi + 64 + 2 * d - 1) / (2 * d) + 2;

	return a > b ? a : b;
}

/* The run of way w (key nk words) from the clock's F, the streak holding:
 * 0 (nothing changed) when its missing loads or miss slots differ from
 * the key's. */
static int fast_run(struct nb_tm *t, const struct mm_set *s, const struct mm_way *w, unsigned nk)
{
	const struct nb_tm_params *p = t->p;
	const uint64_t F = t->fe, B = 2 * F;
	const uint32_t *k = w->v;
	uint64_t m = t->ld_mask;
	unsigned o = 2u + s->div + s->nli + s->nr;

	if (!(k[0] >> 8 & 1) != !m)
		return 0;
	if (m) {
		uint32_t ms[NB_TM_MAXMISS];
		int bad = 0;
		if (k[o] != (uint32_t)m || k[o + 1] != (uint32_t)(m >> 32))
			return 0;
		o += 2;
		for (; m; m &= m - 1)
			if (t->ld_lat[__builtin_ctzll(m)] != k[o++])
				return 0;
		sorted_ends(t, B, ms, &bad);
		if (bad || o + p->miss_slots + (k[0] >> 9 & 1) != nk)
			return 0;
		for (unsigned j = 0; j < p->miss_slots; j++)
			if (ms[j] != k[o + j])
				return 0;
		if (k[0] >> 9 & 1 && rel(t->bus_free, B, &bad) != k[o + p->miss_slots])
			return 0;
	}
	t->memo.ff_F = F;
	t->memo.ff_seq = t->seq;
	t->memo.ff_m++;
	write_fields(t, s, w, nk, F);
	if (t->step.record)
		write_rec(t, s, w, nk, F);
	return 1;
}

/* the array writes of way w run from F (sequence seq): as replay()'s,
 * the units' horizon first moved to 2F (as key() does); the slots only
 * when `slots` (the last run's are the ones left) */
static void ff_apply(struct nb_tm *t, const struct mm_set *s, const struct mm_way *w, unsigned nk,
		     uint64_t F, uint64_t seq, int slots)
{
	const uint64_t B = 2 * F;
	const uint32_t *x = w->v + nk;

	nb_tm_units_forget(t, B);
	write_arrays(t, s, w, nk, F, seq, slots);
	x += s->nd + s->nr + w->nm;
	for (unsigned j = 0; j < w->nrl; j++, x += MM_RL) {
		unsigned x0 = x[0] & 31, best = x[0] >> 6 & 1, intv = x[0] >> 8 & 0xff;
		uint64_t kk = B + x[1] + x[2], *bm = t->busy[x0 / 2][best];
		unsigned pp = (unsigned)(kk % NB_TM_URING), i = pp / 64, off = pp % 64;
		bm[i] |= ones(intv) << off;
		if (off + intv > 64)
			bm[(i + 1) % URW] |= ones(intv) >> (64 - off);
	}
	if (w->uhi && B + w->uhi > t->uhi)
		t->uhi = B + w->uhi;
}

void nb_tm_memo_sync(struct nb_tm *t)
{
	const struct mm_set *s = t->memo.ff_set;
	const struct mm_way *w;
	uint64_t m = t->memo.ff_m, d, n, ra, rb;
	unsigned nk;

	if (!m)
		return;
	t->memo.ff_m = 0;
	w = &s->w[t->memo.ff_way];
	nk = s->tag[t->memo.ff_way].nk;
	d = (uint64_t)w->fe;
	/* the runs whose writes matter: the window ring's entries, the
	 * reservations that reach the horizon word of the last run's end */
	ra = (NB_TM_ROB + s->nr - 1) / s->nr + 1;
	rb = (w->uhi + 64 + 2 * d - 1) / (2 * d) + 1;
	n = ra > rb ? ra : rb;
	if (n > m)
		n = m;
	for (uint64_t r = n; r-- > 0;)
		ff_apply(t, s, w, nk, t->memo.ff_F - r * d, t->memo.ff_seq - r * s->nr, r == 0);
	nb_tm_units_forget(t, 2 * (t->memo.ff_F + d));
}

void nb_tm_memo_walk(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to)
{
	/* (not the descriptor's address where the tool gave a key: the
	 * host heap's layout moves with the length of the tool's strings,
	 * e.g. its files' names with the pid in them, and with it which
	 * shapes shared a set, hence which runs were replayed and the
	 * cycles: a host input) */
	uint64_t bk = b->key ? b->key : (uint64_t)(uintptr_t)b;
	uint64_t h = bk * 0x9e3779b97f4a7c15ull ^ (uint64_t)from * 0x85ebca6bu ^ to;
	struct mm_set *s = &mm[(h >> 20) % MM_SETS];
	struct mm_id *id = &mm_id[(h >> 20) % MM_SETS];
	uint32_t k[MM_KMAX];
	uint64_t F, seq0;
	uint32_t hash;
	unsigned nk;
	int cont;

	if (b->real && b->real[to] - b->real[from] < MM_MINR) {
		nb_tm_memo_current(t);
		nb_tm_walk(t, b, from, to);     /* (short: shape() would say so) */
		t->memo.ff_set = 0;
		t->memo.ff_on = 0;
		return;
	}
	if (id->b != b || id->from != from || id->to != to || id->p != t->p) {
		if (t->memo.ff_m)
			nb_tm_memo_sync(t);     /* (before the set changes) */
		t->memo.ff_set = 0;
		shape(s, id, b, from, to, t->p);
	}
	if (!id->ok) {
		nb_tm_memo_current(t);
		nb_tm_walk(t, b, from, to);
		t->memo.ff_set = 0;
		t->memo.ff_on = 0;
		return;
	}
	cont = continues(t, s);
	if (cont && t->memo.ff_on && fast_run(t, s, &s->w[t->memo.ff_way], s->tag[t->memo.ff_way].nk)) {
		t->memo.runs++;
		t->memo.hits++;
		t->memo.ffs++;
		s->tries++;
		s->hits++;
		s->ffs++;
		stamp(t);
		return;
	}
	if (t->memo.ff_m)
		nb_tm_memo_sync(t);
	t->memo.ff_on = 0;
	t->memo.runs++;
	s->tries++;
	nk = key(t, s, k);
	/* (a filter: the key's first words, the most variable) */
	hash = nk ? k[0] ^ k[1] * 0x9e3779b1u ^ nk << 24 : 0;
	for (unsigned i = 0; nk && i < MM_WAYS; i++) {
		struct mm_tag *g = &s->tag[i];
		const uint32_t *x = s->w[i].v;
		uint64_t uhi0 = t->uhi, F0 = t->fe;
		unsigned j = 0;
		if (g->hash != hash || g->nk != nk)
			continue;
		while (j < nk && x[j] == k[j])
			j++;
		if (j == nk && replay(t, s, &s->w[i], nk)) {
			if (g->used < 0xffff)
				g->used++;
			s->hits++;
			t->memo.hits++;
			/* the streak: replays of way i in a row; the next run
			 * is fast-forwarded once it is long enough and the
			 * reservations made before it have ended */
			if (cont && t->memo.ff_way == i)
				t->memo.ff_streak++;
			else {
				t->memo.ff_set = s;
				t->memo.ff_way = i;
				t->memo.ff_streak = 1;
				t->memo.ff_uhi_pre = uhi0;
			}
			t->memo.ff_on = s->w[i].fe > 0 && t->memo.ff_streak > ff_need(t, s, &s->w[i]) &&
				2 * F0 >= t->memo.ff_uhi_pre;
			stamp(t);
			return;
		}
	}
	t->memo.ff_set = 0;
	F = t->fe;
	seq0 = t->seq;
	t->log.rlog = nk != 0;
	nb_tm_walk(t, b, from, to);
	t->log.rlog = 0;
	if (nk)
		record(s, t, k, nk, hash, F, seq0);
	if (s->tries >= 512 && s->ffs < s->tries / 2)
		id->ok = 0;             /* no steady state: the walk */
}

void nb_tm_run(struct nb_tm *t, const struct nb_tm_block *b, unsigned from, unsigned to,
	       uint64_t misp)
{
	/* (a range too short to replay, step mode's usual one instruction:
	 * the walk at once, without the replay's call; the walk changes
	 * t->log.mut, which ends a streak as nb_tm_memo_walk's own look does) */
	if (t->memo.on && (!b->real || b->real[to] - b->real[from] >= NB_TM_MEMO_MINR))
		nb_tm_memo_walk(t, b, from, to);
	else {
		nb_tm_memo_current(t);
		nb_tm_walk(t, b, from, to);
	}
	nb_tm_misp(t, misp, 0);
}
