/*
 * nb_step.c - step mode (a counter that filters per cycle: Compare,
 * Complement, Threshold, Edge, Cascade; README.md "Filtering"): the clock's
 * retirement cycles reported to the PMU one by one, or as runs and
 * histograms of equal outputs where the counts come out the same; under
 * the sampled clock the runs it holds back (a skipped run has no schedule
 * of its own: its uops laid out over its charge), and the take (a held
 * run closed at its end, the next run's first calls skipped).  Below the
 * clock (nb_cycles.c), which resolves a take before its work and hands a
 * PMU access here (nb_step_access); the clock's one service it needs, a
 * run's last segment, comes through a hook the clock registers
 * (nb_step_seg).
 */
#include "nb_tool.h"

/* before any other step-mode work: a take resolved */
static inline void tk_resolve(void)
{
	if (nb_step_tk_armed)
		nb_step_resolve();
}

ULong nb_step_held;               /* uops of a run held back            */
uint64_t nb_step_open;            /* the open cycle (clock)             */
Bool nb_step_tk_armed;            /* a take (below): the next run not opened yet */
void (*nb_step_seg)(const struct nb_tm_block *b, ULong range);
static Bool hold_on;              /* ... and the raw counts at its start: */
static Bool hold_add;             /* (none kept: nb_derive_additive)      */
static ULong hold_raw[RAW_N];
/* the raw counts a held-back run's cycles share (hold_list): those the
 * instrumentation counts for nb_need, but RAW_UOPS (nb_step's) and
 * RAW_MC (replay tagging's conditions, which fall in its first cycle:
 * 128 of them, copied and compared at every held run, made step mode
 * slower than under the model) */
static unsigned hold_ix[RAW_N], hold_nx;
static UInt hold_need = ~0u;

static void hold_list(void)
{
	unsigned n = 0;

	if (nb_need & NEED_MEM) {
		hold_ix[n++] = RAW_LOADS;
		hold_ix[n++] = RAW_STORES;
	}
	if (nb_need & NEED_ROM) {
		hold_ix[n++] = RAW_ROM_UOPS;
		hold_ix[n++] = RAW_MS_XFER;
	}
	if (nb_need & NEED_INSTR)
		for (unsigned i = RAW_IC0; i < RAW_IC_END; i++)
			hold_ix[n++] = i;
	if (nb_need & NEED_BR)
		for (unsigned i = RAW_BR0; i < RAW_SSE_ASSIST; i++)
			hold_ix[n++] = i;
	if (nb_need & NEED_FPA)
		for (unsigned i = RAW_SSE_ASSIST; i < RAW_N; i++)
			hold_ix[n++] = i;
	hold_nx = n;
	hold_need = nb_need;
}

/* Step mode: one cycle of the bus model passes (README "Bus model"): its
 * outputs of this cycle go to the signals before the cycle is reported */
static void bus_tick(void)
{
	if (nb_need & NEED_BUS) {
		(void)nb_bus_advance(&nb_bus_state);
		nb_bus_derive();
	}
}

/*
 * Step mode with the lazy folding (nb_derive_cycle), without the bus model
 * and PMIs: the per-cycle counters read only uops_retired NBOGUS and
 * RUNNING (nb_derive.c, lazy_allowed), so a cycle's outputs are its uops,
 * and consecutive cycles with as many uops go to the PMU as one run
 * (nb_pmu_cycles_const: the same counts, Edge and cascading included, as
 * cycle by cycle; nb_filter.h).  The run is held back until a cycle with
 * another output, or a PMU access (nb_derive and nb_update_cycles, which
 * precede every one, call nb_cycles_flush).
 */
static Bool batching;             /* the cycle just closed was batched */

/* Step mode: n cycles in which signal s (NB_NSIG: none) outputs v and
 * RUNNING 1, added to nb_sig here.  While the bus model has misses queued,
 * cycle by cycle with the bus outputs of each; then at once. */
static void step_cycles(ULong n, unsigned s, ULong v)
{
	for (; n && (nb_need & NEED_BUS) && nb_bus_state.qn; n--) {
		bus_tick();
		if (s < NB_NSIG)
			nb_sig[s] += v;
		nb_pmu_cycle(&nb_pmu_state, nb_sig);
	}
	if (!n)
		return;
	nb_bus_state.now += n;          /* an idle bus: time passes */
	if (s < NB_NSIG)
		nb_sig[s] += n * v;
	if (batching && s == NB_NSIG)
		nb_pmu_run_add(&nb_pmu_state, &nb_step_run, n, SIG_UOPS, 0);
	else {
		nb_cycles_flush();
		nb_pmu_cycles_const(&nb_pmu_state, n, s, v);
	}
}

/* a held-back run's cycles counted by output (held_bulk, nb_pmu_hist:
 * while no per-cycle counter has Edge or Cascade, nor a PMI or the bus
 * model is on, held_bulk's own conditions), reported before the next
 * PMU access (nb_cycles_flush) */
static uint32_t hist_gen;         /* nb_pmu_state.cfg_gen hist_ok is of */
static Bool hist_ok;

static Bool hist_allowed(void)
{
	const struct nb_pmu *p = &nb_pmu_state;

	if (hist_gen != p->cfg_gen || !hist_gen) {
		hist_ok = !p->cyc_cascade;
		for (unsigned i = 0; i < p->ncyc; i++)
			if (p->cfg[p->cyc_list[i]].edge || p->cfg[p->cyc_list[i]].cascade)
				hist_ok = False;
		hist_gen = p->cfg_gen;
	}
	return hist_ok;
}

static inline void hist_add(unsigned v, uint64_t n)
{
	nb_pmu_hist_add(&nb_pmu_state, &nb_step_hist, SIG_UOPS, v, n);
}

/* A held run's laid-out cycles into the histogram (held_bulk, tk_layout):
 * the cycles batched before them first (their baseline moves as they go
 * in), the open cycle's output v0, a busy cycles of q + 1 uops and b of q
 * (0 when uops are not counted), the empty gaps; `last` the last cycle's
 * output (an empty one, or the close), which the next close reads */
static inline void hist_lay(ULong v0, uint64_t q, Bool uo, uint64_t a, uint64_t b, uint64_t gaps,
			    unsigned last)
{
	if (nb_step_run.n) {
		hist_add((unsigned)nb_step_run.v, nb_step_run.n);
		nb_step_run.n = 0;
	}
	hist_add((unsigned)v0, 1);
	if (a)
		hist_add(uo ? (unsigned)q + 1 : 0, a);
	if (b)
		hist_add(uo ? (unsigned)q : 0, b);
	if (gaps)
		hist_add(0, gaps);
	nb_step_hist.last = last;
}

/* Step mode: end the open cycle (its events derived and reported) */
static void close_open(void)
{
	nb_cyc++;
	bus_tick();
	batching = nb_derive_cycle() && !(nb_need & (NEED_BUS | NEED_PMI));
	if (batching) {
		/* this cycle's uops as nb_pmu_cycle would see them (0 when
		 * no per-cycle counter reads them: then any value will do) */
		const struct nb_pmu *p = &nb_pmu_state;
		ULong v = 0;
		if (p->cused[SIG_UOPS / 64] & (UINT64_C(1) << (SIG_UOPS % 64)))
			v = nb_sig[SIG_UOPS] - p->cbase[SIG_UOPS] - nb_step_run.n * nb_step_run.v;
		nb_pmu_run_add(&nb_pmu_state, &nb_step_run, 1, SIG_UOPS, v);
	} else {
		nb_cycles_flush();
		nb_pmu_cycle(&nb_pmu_state, nb_sig);
	}
	nb_fill = 0;
	nb_step_open++;
}

/* Step mode: the clock reached cycle r: the open cycle ends, the cycles
 * before r retire nothing (only RUNNING outputs), r opens. */
static void advance_to(uint64_t r)
{
	close_open();
	if (r > nb_step_open) {
		nb_cyc += r - nb_step_open;
		step_cycles(r - nb_step_open, NB_NSIG, 0);
	}
	nb_step_open = r;
}

/* A PMU access (nb_update_cycles, after the held run's close): the open
 * retirement cycle ends, the cycles batched so far reach the PMU; the
 * clock's serialized cycles, from which the next cycle opens */
uint64_t nb_step_access(struct nb_tm *t)
{
	uint64_t c;

	if (nb_fill || t->ret_n) {
		if (t->ret > nb_step_open)
			advance_to(t->ret);
		close_open();
	}
	nb_cycles_flush();      /* a PMU access follows */
	c = nb_tms_serialize(t);
	nb_step_open = c;
	return c;
}

/* the raw counts whose change makes a piece non-linear (nb_derive.c
 * piece_linear) */
static inline Bool nonlin_raw(unsigned x)
{
	return x == RAW_MISP || x == RAW_CBR0 + 1 || x == RAW_CBR0 + 3 || x == RAW_ROM_UOPS;
}

/*
 * step_held's busy cycles i0..busy-1 at once, where each close would be
 * batched (the lazy folding, no bus model, no PMI) and each piece linear:
 * the closes' folds are then each "the piece deferred, the next started",
 * which the last alone leaves as all of them (nb_derive_cycle once, with
 * the raw counts and uops of the last close), and their PMU runs known
 * outputs: the open cycle's, the busy cycles' (the run's uops spread, two
 * values) and the empty cycles' 0.  The same state and counts as the loop
 * (closing cycle i at iteration i+1); False: not the case, nothing done.
 * Pieces stay linear inside the run when none of its mispredictions and
 * MS ROM uops falls before its last busy cycle (a run's mispredicted
 * branch ends it: most held runs).
 */
static Bool held_bulk(uint64_t i0, uint64_t busy, uint64_t base, uint64_t k, ULong u, ULong cu,
		      const ULong *full, const ULong *d, const unsigned *ix, unsigned nx)
{
	struct nb_pmu *p = &nb_pmu_state;
	const uint64_t last = busy - 1, q = u / busy, r = u % busy;
	const uint64_t cl = base + last * k / busy;     /* the last busy cycle */
	const uint64_t cp = last > i0 ? base + (last - 1) * k / busy : nb_step_open;
	const ULong vl = q + (last < r), cu2 = u - vl;   /* its uops; those before */
	Bool uo = (p->cused[SIG_UOPS / 64] >> (SIG_UOPS % 64)) & 1, hist;
	ULong v0;
	unsigned lin;

	if (nb_need & (NEED_BUS | NEED_PMI))
		return False;
	/* the first close's piece linear (the raw counts as they stand),
	 * and the later ones (none of the non-linear counts moves before
	 * the last close's); with an additive fold (lin 2) no close folds */
	if (!(lin = nb_derive_linear_now()))
		return False;
	if (last > i0 && lin == 1)
		for (unsigned j = 0; j < nx; j++)
			if (nonlin_raw(ix[j]) && hold_raw[ix[j]] + d[ix[j]] * cu2 / u != nb_raw[ix[j]])
				return False;
	/* the open cycle's output, as close_open reads it */
	v0 = uo ? nb_sig[SIG_UOPS] - p->cbase[SIG_UOPS] - nb_step_run.n * nb_step_run.v : 0;
	hist = hist_allowed() && v0 < NB_PMU_HIST_N && q + 1 < NB_PMU_HIST_N &&
		(!nb_step_run.n || nb_step_run.v < NB_PMU_HIST_N);
	if (hist) {
		const uint64_t a = r > i0 ? (r < last ? r : last) - i0 : 0, b = last - i0 - a;
		const uint64_t gaps = (cl - nb_step_open) - (busy - i0);
		hist_lay(v0, q, uo, a, b, gaps, cl - cp > 1 ? 0 :
			 last > i0 ? (uo ? (unsigned)(q + (last - 1 < r)) : 0) : (unsigned)v0);
	} else {
		uint64_t prev = nb_step_open;
		nb_pmu_run_add(p, &nb_step_run, 1, SIG_UOPS, v0);
		for (uint64_t j = i0; j <= last; j++) {
			uint64_t c = base + j * k / busy;
			if (j > i0)
				nb_pmu_run_add(p, &nb_step_run, 1, SIG_UOPS, uo ? q + (j - 1 < r) : 0);
			if (c > prev + 1)
				nb_pmu_run_add(p, &nb_step_run, c - prev - 1, SIG_UOPS, 0);
			prev = c;
		}
	}
	nb_cyc += cl - nb_step_open;
	nb_bus_state.now += (cl - nb_step_open) - (busy - i0);
	/* the last close: its raw counts and uops, its fold */
	nb_sig[SIG_UOPS] += cu2 - cu;
	if (last > i0)
		for (unsigned j = 0; j < nx; j++)
			nb_raw[ix[j]] = hold_raw[ix[j]] + d[ix[j]] * cu2 / u;
	if (lin == 1)
		(void)nb_derive_cycle();        /* (lin 2: it would do nothing) */
	batching = True;
	/* the last busy cycle opens with its uops and the run's events */
	nb_step_open = cl;
	nb_sig[SIG_UOPS] += vl;
	nb_fill = (UInt)vl;
	for (unsigned j = 0; j < nx; j++)
		nb_raw[ix[j]] = full[ix[j]];
	return True;
}

/*
 * Step mode under the sampled clock: a run it held back (nb_tms_holding)
 * has ended (closed: skipped at its learned cost, or walked whole, after
 * its instructions retired), and its `held` uops get retirement cycles
 * now: from the open cycle to the clock's retirement point, `width` a
 * cycle, the busy cycles spread evenly (a skipped run has no schedule of
 * its own; the walk's runs retire in full groups where they can, with
 * stall cycles between); its other events (its raw counts since it began)
 * go with its uops, each busy cycle its share (with them all in one
 * cycle, a cascaded instr_retired lost the events of the overflow's
 * cycle beyond the overflow: t_sim_cascade, 30 of 140,000).  all: every held uop now (a PMU access, a run
 * walked from its start), more than width a cycle if need be; else what
 * does not fit waits for the next run's cycles.
 */
static void held_layout(ULong u, uint64_t end, int all, const ULong *full, const ULong *d,
			const unsigned *ix, unsigned nx);

void nb_step_close_held(int all)
{
	struct nb_tm *t = nb_tmp;
	ULong u = nb_step_held;
	uint64_t rp;

	ULong full[RAW_N], d[RAW_N];
	unsigned ix[RAW_N], nx = 0;

	nb_step_held = 0;
	nb_tms_close(t);
	/* (only the retirement point read: the streak goes on, its
	 * charges not flushed where they need not be) */
	if (!nb_tms_ret_lazy(t, &rp)) {
		nb_tms_sync_keep(t);
		rp = t->ret;
	}
	/* the run's raw counts (its instructions' events), each busy cycle
	 * its share by uops: nb_raw stands at that cycle's end while it is
	 * open (folded when it closes; the uops' own count, nb_step's, as
	 * they retire) */
	if (hold_on && !hold_add)
		for (unsigned j = 0; j < hold_nx; j++) {
			unsigned x = hold_ix[j];
			if (nb_raw[x] != hold_raw[x]) {
				full[x] = nb_raw[x];
				d[x] = nb_raw[x] - hold_raw[x];
				ix[nx++] = x;
				nb_raw[x] = hold_raw[x];
			}
		}
	hold_on = False;
	held_layout(u, rp + (t->ret_n ? 1 : 0), all, full, d, ix, nx);
}

/* step_held's cycles of u uops retiring through cycle end - 1 (the
 * retirement point, the last cycle counted if it is partly taken); the
 * run's raw counts moved ix[0..nx) (full: as they stand after it, d: by
 * how much) */
static void held_layout(ULong u, uint64_t end, int all, const ULong *full, const ULong *d,
			const unsigned *ix, unsigned nx)
{
	uint64_t base, k, busy;
	unsigned w = nb_tmp->p->width;
	ULong cu = 0;

	/* (from the cycle after the open one if it retired uops: the
	 * skipped run starts from a drained pipeline, nb_tmsample.c) */
	base = nb_step_open + (nb_fill ? 1 : 0);
	k = end > base ? end - base : 1;
	if (!all && u > k * w) {
		/* a charge below the uops' retirement time (the refill taken
		 * back can leave a run none): what does not fit retires in
		 * the next run's cycles */
		nb_step_held = u - k * w;
		u = k * w;
	}
	busy = (u + w - 1) / w;
	if (busy > k)
		busy = k;       /* (all: more than width a cycle) */
	for (uint64_t i = 0; i < busy; i++) {
		uint64_t c = base + i * k / busy;
		ULong v = u / busy + (i < u % busy);
		if (c > nb_step_open) {
			if (held_bulk(i, busy, base, k, u, cu, full, d, ix, nx))
				break;  /* (the rest of the run at once) */
			advance_to(c);
		}
		nb_sig[SIG_UOPS] += v;
		nb_fill += (UInt)v;
		cu += v;
		for (unsigned j = 0; j < nx; j++)
			nb_raw[ix[j]] = i + 1 == busy ? full[ix[j]] : hold_raw[ix[j]] + d[ix[j]] * cu / u;
	}
	for (unsigned j = 0; j < nx; j++)
		nb_raw[ix[j]] = full[ix[j]];   /* (none busy: all at once) */
	nb_u_seen = nb_sig[SIG_UOPS];
}

/*
 * Step mode: the end of a run whose later instructions' calls were
 * skipped (nb_instr_tm.c, "held runs without a call per instruction"):
 * the sampled clock holds it back (nb_step_fast, set by its first
 * instruction's nb_step).  What the skipped nb_tm_sb and nb_step would
 * have done, at once: the run's last segment (its uops reached, through
 * to; the mispredictions so far; its loads' latencies since the first
 * segment, each load its own index, kept with the run), and the uops up
 * to the last skipped step held: the uops counted so far (nb_raw, which
 * nothing between that step and the call moves), or, at an exit that does
 * not retire an instruction with a Pentium D REP visit (whose helper adds
 * the iteration's uops after the step), nb_step_mark, stored before the
 * visit (arg bit 34).  Only a run with a
 * segment after its first changes the clock's (a later segment comes
 * with uops).  A run that never reaches an exit or its end (a guest
 * fault inside it, a signal delivered there) makes no nb_step_end: its
 * later instructions' uops then retire with the next run (they are not
 * lost: nb_step counts from nb_raw_last) and it closes at its first
 * segment's uops, where the calls one by one closed it at the faulting
 * instruction's.
 */
UInt nb_step_fast;
ULong nb_step_mark;

/*
 * Step mode's held runs closed at their end (the take): where the fold is
 * additive (hold_add: the raw counts get no shares) and the run joins the
 * sampled clock's streak, nb_step_end charges it there (as its close at
 * the next run's first segment would: nb_tms_skip on its entry) and keeps
 * its uops and retirement point for its cycles (tk_u, tk_end), laid out
 * at the next run's end (tk_layout, as step_held at its start would:
 * nothing between reads them); and the next run's first instruction
 * makes no call (its nb_tm_sb and nb_step guarded by nb_step_tk, which it
 * then clears), its segment opened at its end (tk_open) as that
 * instruction's calls would have opened it.  Until that instruction has
 * passed (nb_step_tk set) the close it would have made has not happened:
 * anything else that reads the clock or the held run first undoes the
 * take (tk_untake: a run that makes its first calls, a PMU access; a
 * last-level store miss, whose bus transfer reads the clock, undoes the
 * clock's part from the cache model, nb_step_tk_clock, and the rest
 * waits for the next entry here, nb_step_tk_undone), and the present
 * path goes on.
 * Not with a possible PMI, the bus model, --ht=yes (another LP reads the
 * clock), nor where a charge takes back a refill (skew > 0: its flush is
 * not the sum) or the run has an L1D-missing load (its bus transfers);
 * not at a run that leaves to valgrind (a system call, a client request:
 * they read the clock as it stands).  bench-log, 2026-12-01, seventeenth
 * session.
 */
/* (nb_step_tk, nb_state.c: a take, the next run's first instruction to
 * come; nb_step_tk_armed, above: a take, the next run not opened yet) */
static Bool tk_on;                /* a take's cycles not laid out yet    */
static ULong tk_u;                /* ... its uops (with what was held)   */
static uint64_t tk_end, tk_rp;    /* ... held_layout's end; the point    */
/* the take undone: the clock's part (nb_step_tk_clock, or a store miss
 * made it), then the held run's */
static void tk_untake(void)
{
	nb_step_tk_clock();
	nb_step_tk_undone = False;
	nb_step_held = tk_u;
	hold_on = True;
	hold_add = True;
	tk_on = nb_step_tk_armed = False;
	nb_step_tk = 0;
	nb_step_fast = 0;
}

/*
 * The taken run's cycles, as step_held(0) at the next run's start
 * (held_layout), its common case written out: every uop fits its charge
 * (no carry), the busy cycles from the open one's next (i0 0) or, the
 * open cycle empty, from the one after the first's (i0 1: the first busy
 * cycle is the open one), then held_bulk's histogram with an additive
 * fold (lin 2).  Else, or before any change, held_layout.
 */
static inline __attribute__((always_inline)) void tk_layout_in(void)
{
	const struct nb_pmu *p = &nb_pmu_state;
	const uint64_t w = nb_tmp->p->width, base = nb_step_open + (nb_fill ? 1 : 0);
	const uint64_t k = tk_end > base ? tk_end - base : 1;
	const ULong u = tk_u;
	uint64_t busy, i0, last, q, r, cl, cp, vl, v1 = 0, a, b, gaps;
	ULong v0;
	Bool uo;

	if (!tk_on)
		return;
	tk_on = False;
	if (!u || u > k * w)
		goto slow;
	busy = w == 3 ? (u + 2) / 3 : (u + w - 1) / w;   /* (<= k) */
	i0 = nb_fill ? 0 : 1;
	if (i0 >= busy) {
		/* (one busy cycle, the open one) */
		nb_sig[SIG_UOPS] += u;
		nb_fill += (UInt)u;
		nb_u_seen = nb_sig[SIG_UOPS];
		return;
	}
	if (busy == 1) {
		q = u;
		r = 0;
		cl = base;
	} else if (busy == 2) {
		q = u >> 1;
		r = u & 1;
		cl = base + k / 2;
	} else {
		q = u / busy;
		r = u % busy;
		cl = base + (busy - 1) * k / busy;
	}
	last = busy - 1;
	if (i0)
		v1 = q + (0 < r);       /* (the first busy cycle's uops, in the open one) */
	uo = (p->cused[SIG_UOPS / 64] >> (SIG_UOPS % 64)) & 1;
	v0 = uo ? nb_sig[SIG_UOPS] + v1 - p->cbase[SIG_UOPS] - nb_step_run.n * nb_step_run.v : 0;
	if (nb_derive_linear_now() != 2 || !hist_allowed() || v0 >= NB_PMU_HIST_N ||
	    q + 1 >= NB_PMU_HIST_N || (nb_step_run.n && nb_step_run.v >= NB_PMU_HIST_N))
		goto slow;
	cp = last > i0 ? (busy == 2 ? base : base + (last - 1) * k / busy) : nb_step_open;
	vl = q + (last < r);
	a = r > i0 ? (r < last ? r : last) - i0 : 0;
	b = last - i0 - a;
	gaps = (cl - nb_step_open) - (busy - i0);
	hist_lay(v0, q, uo, a, b, gaps, cl - cp > 1 ? 0 :
		 last > i0 ? (uo ? (unsigned)(q + (last - 1 < r)) : 0) : (unsigned)v0);
	nb_cyc += cl - nb_step_open;
	nb_bus_state.now += gaps;
	batching = True;
	nb_step_open = cl;
	nb_sig[SIG_UOPS] += u;          /* (v1, those before the last, its own) */
	nb_fill = (UInt)vl;
	nb_u_seen = nb_sig[SIG_UOPS];
	return;
slow:
	held_layout(u, tk_end, 0, NULL, NULL, NULL, 0);
}

/* (written out in tk_open, every held run's path; out of line for the
 * rare readers) */
static void __attribute__((noinline)) tk_layout(void)
{
	tk_layout_in();
}

/* before any other step-mode or clock work: the take undone while the
 * next run's first instruction is to come; else its cycles laid out (a
 * run cut after its first instruction, by a fault or a signal, is not
 * opened: its uops retire with the next run's) */
void nb_step_resolve(void)
{
	if (nb_step_tk || nb_step_tk_undone)
		tk_untake();
	else {
		tk_layout();
		nb_step_tk_armed = False;
	}
}

/* the same where a run may be under way (a reader of the cycles) */
void nb_step_resolve_mid(void)
{
	if (!nb_step_tk_armed)
		return;
	if (nb_step_tk || nb_step_tk_undone)
		tk_untake();
	else
		tk_layout();
}

/* the run after a take, whose first instruction made no call, ends
 * (through uop `to` of b): its segments as those calls and the later
 * ones would have left them (in a skip phase, after a run the streak
 * took: held back, its start the streak's point), its uops held */
static inline __attribute__((always_inline)) void tk_open(const struct nb_tm_block *b, unsigned to,
							   ULong mark)
{
	struct nb_tm *t = nb_tmp;

	nb_step_tk_armed = False;
	tk_layout_in();
	if (clo_mem_timing == MT_NO)
		t->ld_mask = 0;
	nb_tms_held_late(t, b, to, nb_misp_total(), tk_rp);
	/* (as the first instruction's nb_step: the additive fold held, no
	 * PMU access since the take) */
	hold_on = True;
	hold_add = True;
	if (mark > nb_raw_last[RAW_UOPS]) {
		nb_step_held += mark - nb_raw_last[RAW_UOPS];
		nb_raw_last[RAW_UOPS] = mark;
	}
	nb_step_fast = 0;
}

/* the held run ends here: taken if it may be (above) */
static inline __attribute__((always_inline)) void tk_take(void)
{
	struct nb_tm *t = nb_tmp;
	const struct nb_tm_block *b = t->smp.ob;
	const struct nb_tm_cost *k;
	uint64_t rp = 0;

	if (clo_ht || (nb_need & (NEED_PMI | NEED_BUS)) || !hold_on || !hold_add ||
	    t->smp.open != NB_SEG_DEFER || !b->real || !(k = nb_tms_find(t, b, t->smp.oto)) ||
	    !nb_tms_take(t, k, b->real[t->smp.oto], &nb_step_tk_sv, &rp))
		return;
	nb_step_tk_t = t;
	tk_u = nb_step_held;
	nb_step_held = 0;
	hold_on = False;
	tk_rp = rp;
	tk_end = rp + (t->ret_n ? 1 : 0);
	tk_on = nb_step_tk_armed = True;
	nb_step_tk = 1;
	nb_step_fast = 1;
}

VG_REGPARM(2) void nb_step_end(const struct nb_tm_block *b, ULong arg)
{
	struct nb_tm *t = nb_tmp;
	UInt to = (UInt)arg;
	Bool take = !((arg >> 32) & 1);  /* (not at a run that leaves to valgrind) */
	ULong mark = (arg >> 34) & 1 ? nb_step_mark : nb_raw[RAW_UOPS];

	if (to > b->n)
		to = b->n;
	if (((arg >> 33) & 1) && nb_step_tk_armed && nb_step_tk) {
		/* (the run's first instruction, its calls skipped: it ends here) */
		nb_step_tk = 0;
		tk_open(b, to, mark);
		if (take)
			tk_take();
		return;
	}
	if (nb_step_tk_armed) {
		if (!nb_step_tk && !nb_step_tk_undone) {
			tk_open(b, to, mark);
			if (take)
				tk_take();
			return;
		}
		tk_untake();    /* (the first instruction's calls were made) */
	}
	nb_step_fast = 0;
	if (mark > nb_raw_last[RAW_UOPS]) {
		nb_step_held += mark - nb_raw_last[RAW_UOPS];
		nb_raw_last[RAW_UOPS] = mark;
	}
	if (to > t->smp.oto) {
		if (clo_mem_timing == MT_NO)
			t->ld_mask = 0;
		if (!nb_tms_seg_held(t, b, t->smp.oto, to, nb_misp_total()))
			nb_step_seg(b, ((ULong)to << 32) | t->smp.oto);  /* (not held after all) */
	}
	if (take)
		tk_take();
}

/*
 * Step mode: one instruction retired; the clock has just run its uops
 * (nb_tm_sb, with their retirement cycles recorded).  Each of its uops
 * retires in its cycle: earlier cycles end on the way (their events
 * derived and reported; the cycles in which nothing retires output only
 * RUNNING).  The instruction's other events are raw until the cycle that
 * is open when they happen ends.  See README "Filtering".
 */
VG_REGPARM(0) void nb_step(void)
{
	struct nb_tm *t = nb_tmp;
	ULong u;

	tk_resolve();
	u = nb_raw[RAW_UOPS] - nb_raw_last[RAW_UOPS];
	nb_raw_last[RAW_UOPS] = nb_raw[RAW_UOPS];
	if (nb_tms_holding(t)) {
		if (!hold_on) {
			hold_on = True;
			/* (with an additive fold unobserved between the
			 * accesses the raw counts need no shares: kept as
			 * they stand) */
			hold_add = nb_derive_additive();
			if (!hold_add) {
				if (hold_need != nb_need)
					hold_list();
				for (unsigned j = 0; j < hold_nx; j++)
					hold_raw[hold_ix[j]] = nb_raw[hold_ix[j]];
			}
		}
		nb_step_held += u;      /* (retirement cycles when the run ends) */
		/* (the run's later calls skipped: nb_step_end) */
		nb_step_fast = clo_clock == NB_CLOCK_SAMPLED && !(nb_need & NEED_PMI);
		return;
	}
	nb_step_fast = 0;
	if (nb_step_held)
		nb_step_close_held(1);   /* (walked from its start: nb_tms_exact) */
	for (unsigned i = 0; i < t->step.nrec; i++) {
		if (t->step.rec[i] > nb_step_open)
			advance_to(t->step.rec[i]);
		if (u) {
			nb_sig[SIG_UOPS]++;
			nb_fill++;
			u--;
		}
	}
	t->step.nrec = 0;
	nb_sig[SIG_UOPS] += u;
	nb_fill += (UInt)u;
	nb_u_seen = nb_sig[SIG_UOPS];
}
