/*
 * pmu.c - register model of the NetBurst PMU (see pmu.h).
 *
 * Facts (all register data comes from the generated nb_tables.c, i.e.
 * native_events/pmu.txt and events.txt):
 *  - ESCR layout, reserved bits 31-63 [SDM Vol. 3B 18.15.1, Fig. 18-43/44;
 *    seed 003 sec. 9 <escr_config>].
 *  - CCCR layout, reserved bits 0-11, 28-29, 32-63 [SDM 18.15.3, Fig. 18-45;
 *    seed 003 sec. 9 <cccr_config>].  Bits 16-17 (ActiveThread): on a
 *    processor without Hyper-Threading the SDM marks them "reserved, must be
 *    set to 11B" and seed 003 gives them the default "11".  nbsim enforces:
 *    with --ht=no, a CCCR write that sets Enable with ActiveThread != 11b
 *    raises #GP (the SDM leaves the result undefined; we make the mistake
 *    loud).  A write with Enable clear is accepted with any value, so that
 *    clearing a CCCR with 0 works.
 *  - Counters: 40 bits; bits 40-63 reserved [seed 003 sec. 9
 *    <counter_config>, SDM Fig. 18-44 "Reserved"].  "Writing to a
 *    performance counter ... with WRMSR causes all 40 bits of the counter to
 *    be written" [SDM 18.15.2]; WRMSR raises #GP(0) when the value sets bits
 *    reserved in the MSR [SDM Vol. 2, WRMSR, Protected Mode Exceptions].  So
 *    a counter write with any of bits 40-63 set raises #GP here (software
 *    must mask a negative preset to 40 bits, as Linux does with cntval_mask).
 *  - RDPMC: ECX[30:0] counter index 0-17, ECX[31] fast read (low 32 bits)
 *    [SDM 18.15.2, RDPMC]; any other index raises #GP.
 *  - Filtering (Compare/Complement/Threshold/Edge) [SDM 18.15.5.2]: per
 *    clock, the ESCR output (0-15 events) is compared with Threshold:
 *    Complement=0 counts cycles with output > Threshold, Complement=1 cycles
 *    with output <= Threshold; Edge counts false-to-true transitions of that
 *    condition.  nbsim has no per-cycle event trace: it reconstructs the
 *    cycles of each sync interval from the totals, packing the E events at
 *    the event's maximum rate r per cycle (E/r cycles with r, one with E%r,
 *    the rest of the interval's cycles with 0), which is what the timing
 *    model (retire width, then stall cycles) implies.  Exact for
 *    global_power_events; an approximation for the rest (see README).
 */
#include "pmu.h"

#define ESCR_RESERVED (~NB_ESCR_VALID)
#define CCCR_RESERVED (~NB_CCCR_VALID)
#define CTR_RESERVED  (~NB_COUNTER_MASK)

/* ---- tiny string helpers (no libc) ---- */

struct sbuf { char *b; unsigned n, cap; };

static void s_put(struct sbuf *s, const char *t)
{
	while (*t && s->n + 1 < s->cap)
		s->b[s->n++] = *t++;
	s->b[s->n] = '\0';
}

static void s_hex(struct sbuf *s, uint64_t v)
{
	char tmp[19];
	int i = 18;
	tmp[i] = '\0';
	do {
		tmp[--i] = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (v && i > 2);
	tmp[--i] = 'x';
	tmp[--i] = '0';
	s_put(s, tmp + i);
}

static void s_dec(struct sbuf *s, uint64_t v)
{
	char tmp[21];
	int i = 20;
	tmp[i] = '\0';
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	s_put(s, tmp + i);
}

/* fault("WRMSR", msr, "text", value-or-~0) */
static int fault(struct nb_pmu *p, const char *op, uint32_t msr,
		 const char *what, uint64_t bits, const char *tail)
{
	struct sbuf s = { p->fault, 0, sizeof p->fault };
	s_put(&s, op);
	s_put(&s, " ");
	s_hex(&s, msr);
	s_put(&s, " (");
	s_put(&s, nb_pmu_msr_name(msr));
	s_put(&s, "): ");
	s_put(&s, what);
	if (tail) {
		s_hex(&s, bits);
		s_put(&s, tail);
	}
	return NB_PMU_GP;
}

static int fault_absent(struct nb_pmu *p, const char *op, uint32_t msr)
{
	struct sbuf s = { p->fault, 0, sizeof p->fault };
	fault(p, op, msr, "ESCR absent on family 15 model ", 0, 0);
	while (p->fault[s.n])
		s.n++;
	s_dec(&s, p->model);
	return NB_PMU_GP;
}

/* ---- register lookup ---- */

static int counter_by_msr(uint32_t msr)
{
	for (int c = 0; c < NB_NUM_COUNTERS; c++)
		if (nb_counters[c].msr == msr)
			return c;
	return -1;
}

static int cccr_by_msr(uint32_t msr)
{
	for (int c = 0; c < NB_NUM_COUNTERS; c++)
		if (nb_counters[c].cccr_msr == msr)
			return c;
	return -1;
}

static int escr_any_model(uint32_t msr)
{
	for (unsigned e = 0; e < nb_num_escrs; e++)
		if (nb_escrs[e].msr == msr)
			return (int)e;
	return -1;
}

int nb_pmu_escr_index(unsigned model, uint32_t msr)
{
	int e = escr_any_model(msr);
	if (e < 0 || !(nb_escrs[e].models & (1u << model)))
		return -1;
	return e;
}

static int other_by_msr(uint32_t msr)
{
	for (unsigned i = 0; i < nb_num_msrs && i < NB_PMU_MAX_OTHER; i++)
		if (nb_msrs[i].addr == msr)
			return (int)i;
	return -1;
}

const char *nb_pmu_msr_name(uint32_t msr)
{
	int i;
	if ((i = counter_by_msr(msr)) >= 0)
		return nb_counters[i].name;
	if ((i = cccr_by_msr(msr)) >= 0)
		return nb_counters[i].cccr_name;
	if ((i = escr_any_model(msr)) >= 0)
		return nb_escrs[i].name;
	if ((i = other_by_msr(msr)) >= 0)
		return nb_msrs[i].name;
	return "?";
}

/* ---- configuration ---- */

/* The event an ESCR counts with EventSelect sel, or -1. */
static int escr_event(const struct nb_pmu *p, unsigned escr, unsigned sel)
{
	for (unsigned ev = 0; ev < nb_num_events; ev++) {
		const struct nb_event *e = &nb_events[ev];
		if (e->event_select != sel || !(e->models & (1u << p->model)) ||
		    (e->features & ~p->features))
			continue;
		for (unsigned k = 0; k < e->nescrs; k++)
			if (e->escrs[k] == escr)
				return (int)ev;
	}
	return -1;
}

static void recompute(struct nb_pmu *p)
{
	uint64_t used = 0, cused[(NB_NSIG + 63) / 64] = { 0 };
	uint32_t cyc = 0, casc_alt = 0, armed = 0;

	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		struct nb_pmu_cfg *g = &p->cfg[c];
		uint64_t cccr = p->cccr[c];
		unsigned sel, e;
		int ev = -1, escr = -1;
		uint64_t escrv;
		uint16_t mask = 0;

		g->active = 0;
		g->percycle = 0;
		g->enable = (cccr & NB_CCCR_ENABLE) != 0;
		/* Cascade: a counter with Enable clear starts counting when its
		 * alternate overflows [SDM 18.15.5.6, Example 18-1: "Counter Y
		 * ... cascade flag ... set to 1 and its enable flag set to 0"]. */
		g->cascade = (cccr & NB_CCCR_CASCADE) != 0;
		if (!g->enable && !g->cascade)
			continue;
		/* ActiveThread [SDM 18.16.1]: 00 none, 01 single, 10 both,
		 * 11 any; evaluated against the active LPs at counting time. */
		g->at = (uint8_t)((cccr & NB_CCCR_ACTIVE_MASK) >> NB_CCCR_ACTIVE_SHIFT);
		if (g->at == NB_ACTIVE_NONE)
			continue;
		/* ESCRSelect must name an ESCR wired to this counter. */
		sel = (unsigned)((cccr & NB_CCCR_ESCRSEL_MASK) >> NB_CCCR_ESCRSEL_SHIFT);
		for (e = 0; e < nb_num_escrs; e++)
			if (nb_escrs[e].select == sel &&
			    (nb_escrs[e].counters & (1u << c)) &&
			    (nb_escrs[e].models & (1u << p->model))) {
				escr = (int)e;
				break;
			}
		if (escr < 0)
			continue;
		escrv = p->escr[escr];
		/* Guest code is user mode: T0_USR qualifies LP0's events,
		 * T1_USR LP1's (only with --ht=yes does LP1 run code); the OS
		 * bits count nothing (no kernel). */
		g->lpmask = (uint8_t)(((escrv & NB_ESCR_T0_USR) ? 1 : 0) |
				      ((p->ht && (escrv & NB_ESCR_T1_USR)) ? 2 : 0));
		if (!g->lpmask)
			continue;
		ev = escr_event(p, (unsigned)escr,
				(unsigned)((escrv & NB_ESCR_EVSEL_MASK) >> NB_ESCR_EVSEL_SHIFT));
		if (ev < 0)
			continue;
		/* Mask bits the event defines on this part; undefined bits,
		 * and masks of another model or needing an absent feature
		 * (e.g. an L3), count nothing. */
		for (unsigned k = 0; k < nb_events[ev].nmasks; k++) {
			const struct nb_mask *mk = &nb_events[ev].masks[k];
			if (!(mk->models & (1u << p->model)) ||
			    (mk->features & ~p->features))
				continue;
			if (escrv & (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + mk->bit)))
				mask |= (uint16_t)(1u << mk->bit);
		}
		g->ev = (uint8_t)ev;
		g->escr = (uint8_t)escr;
		g->mask = mask;
		g->f = nb_filter_from_cccr(cccr);
		g->compare = g->f.compare;
		g->complement = g->f.complement;
		g->edge = g->f.edge;
		g->force_ovf = g->f.force_ovf;
		g->threshold = g->f.threshold;
		/* With Compare+Complement a counter counts cycles even when no
		 * mask bit is selected (output 0 <= threshold); otherwise an
		 * empty mask counts nothing. */
		g->active = mask != 0 || (g->compare && g->complement);
		if (g->active) {
			if ((cccr & NB_CCCR_OVF_PMI_T0) || (p->ht && (cccr & NB_CCCR_OVF_PMI_T1)))
				armed |= 1u << c;
			used |= UINT64_C(1) << ev;
			if (g->compare)
				used |= UINT64_C(1) << NB_EV_GLOBAL_POWER_EVENTS;
			/* per cycle: the filters whose condition depends on
			 * the output; a constant one counts every cycle or
			 * none (nb_filter_const, filtered()) */
			if ((g->compare && nb_filter_const(&g->f) < 0) || g->cascade)
				g->percycle = 1;
			if (g->cascade && nb_cascade_alternate(c) >= 0)
				casc_alt |= 1u << nb_cascade_alternate(c);
		}
	}
	/* the alternate of a cascaded counter is counted per cycle too, so
	 * that the cascaded one starts in the right cycle */
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		struct nb_pmu_cfg *g = &p->cfg[c];
		if (g->active && (casc_alt & (1u << c)))
			g->percycle = 1;
		if (!g->active || !g->percycle)
			continue;
		cyc |= 1u << c;
		for (unsigned b = 0; b < NB_MAX_MASKS; b++)
			if (g->mask & (1u << b)) {
				unsigned s = NB_SIG(g->ev, b);
				cused[s / 64] |= UINT64_C(1) << (s % 64);
			}
	}
	/* the signals a sync reads; one newly read starts from the last
	 * sync (the others' last[] is left as it was: copying all NB_NSIG
	 * at every sync was most of a PMI check's cost) */
	{
		uint64_t was[(NB_NSIG + 63) / 64] = { 0 }, now[(NB_NSIG + 63) / 64] = { 0 };
		unsigned n = 0;
		for (unsigned i = 0; i < p->nsync; i++)
			was[p->sync_list[i] / 64] |= UINT64_C(1) << (p->sync_list[i] % 64);
		now[NB_SIG_CYCLES / 64] |= UINT64_C(1) << (NB_SIG_CYCLES % 64);
		for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
			if (p->cfg[c].active)
				for (unsigned b = 0; b < NB_MAX_MASKS; b++)
					if (p->cfg[c].mask & (1u << b)) {
						unsigned s = NB_SIG(p->cfg[c].ev, b);
						now[s / 64] |= UINT64_C(1) << (s % 64);
					}
		for (unsigned s = 0; s < NB_NSIG; s++) {
			uint64_t bit = UINT64_C(1) << (s % 64);
			if (!(now[s / 64] & bit))
				continue;
			if (!(was[s / 64] & bit) && p->sigsrc)
				p->last[s] = p->sigsrc[s];
			p->sync_list[n++] = (uint16_t)s;
		}
		p->nsync = (uint16_t)n;
	}
	/* signals newly read per cycle start from the last sync */
	p->ncused = 0;
	for (unsigned s = 0; s < NB_NSIG; s++) {
		if ((cused[s / 64] & ~p->cused[s / 64]) & (UINT64_C(1) << (s % 64)))
			p->cbase[s] = p->last[s];
		if (cused[s / 64] & (UINT64_C(1) << (s % 64)))
			p->cused_list[p->ncused++] = (uint16_t)s;
	}
	p->ncyc = 0;
	p->cyc_cascade = 0;
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		const struct nb_pmu_cfg *g = &p->cfg[c];
		if (!(cyc & (1u << c)))
			continue;
		p->cyc_list[p->ncyc++] = (uint8_t)c;
		if (!g->enable)
			p->cyc_cascade = 1;
		p->ncsig[c] = 0;
		for (unsigned b = 0; b < NB_MAX_MASKS; b++)
			if (g->mask & (1u << b))
				p->csig[c][p->ncsig[c]++] = (uint16_t)NB_SIG(g->ev, b);
	}
	for (unsigned i = 0; i < (NB_NSIG + 63) / 64; i++)
		p->cused[i] = cused[i];
	p->cycle_counters = cyc;
	p->pmi_armed = armed;
	p->cfg_gen++;
	if (used != p->events_in_use) {
		p->events_in_use = used;
		p->generation++;
	}
}

void nb_pmu_set_features(struct nb_pmu *p, unsigned features)
{
	p->features = features;
	recompute(p);
}

void nb_pmu_init(struct nb_pmu *p, unsigned model, int ht,
		 const uint8_t *rate, const uint64_t *sig)
{
	unsigned char *z = (unsigned char *)p;
	for (unsigned long i = 0; i < sizeof *p; i++)
		z[i] = 0;
	p->model = model;
	p->ht = ht;
	p->lp = 0;
	p->lp_active = 1;
	for (unsigned ev = 0; ev < nb_num_events && ev < NB_NUM_EVENTS_MAX; ev++)
		p->rate[ev] = rate ? rate[ev]
			: (nb_events[ev].flags & NB_EV_RETIREMENT) ? 3 : 1;
	if (sig)
		for (unsigned i = 0; i < NB_NSIG; i++)
			p->last[i] = sig[i];
	p->sigsrc = sig;
	recompute(p);
}

void nb_pmu_cycle_input(struct nb_pmu *p, int on)
{
	p->cycle_input = on;
}

/* ---- counting ---- */

/* Does counter c count events of the running LP now (before cascade)? */
static int lp_counts(const struct nb_pmu *p, const struct nb_pmu_cfg *g)
{
	unsigned n = (p->lp_active & 1) + ((p->lp_active >> 1) & 1);

	if (!(g->lpmask & (1u << p->lp)) || ((p->cpl0 >> p->lp) & 1))
		return 0;
	/* ActiveThread [SDM 18.16.1]: 01 single: exactly one LP active;
	 * 10 both: both active; 11 any: at least one (00 never: recompute). */
	switch (g->at) {
	case NB_ACTIVE_SINGLE: return n == 1;
	case NB_ACTIVE_BOTH:   return n == 2;
	case NB_ACTIVE_ANY:    return n >= 1;
	default:               return 0;
	}
}

/*
 * Counter increment of one sync interval under Compare without cycle input:
 * E events over C cycles, packed at r per cycle (README "Filtering").
 * Segments in time order: full cycles (r each), one partial cycle (E % r),
 * idle cycles (0).
 */
static uint64_t filtered(const struct nb_pmu_cfg *g, uint64_t E, uint64_t C,
			 unsigned r, uint8_t *prev)
{
	uint64_t seg_n[3], seg_v[3], inc = 0;
	int k = nb_filter_const(&g->f);

	if (k >= 0)
		return k ? C : 0;        /* every cycle of the interval, or none */
	if (r == 0)
		r = 1;
	if (r > NB_FILTER_MAX_OUT)
		r = NB_FILTER_MAX_OUT;   /* an ESCR outputs at most 15 per cycle */
	seg_n[0] = E / r;            seg_v[0] = r;
	seg_n[1] = (E % r) != 0;     seg_v[1] = E % r;
	if (C < seg_n[0] + seg_n[1])
		C = seg_n[0] + seg_n[1];
	seg_n[2] = C - seg_n[0] - seg_n[1]; seg_v[2] = 0;

	for (k = 0; k < 3; k++) {
		uint64_t dummy = 0;
		int o = 0;
		if (seg_n[k])
			inc += nb_filter_count(&g->f, seg_v[k], seg_n[k], prev, &dummy, &o, &dummy);
	}
	return inc;
}

/* Counter c overflowed: OVF, and the PMI requests of OVF_PMI_T0/T1 (pmu.h). */
static void set_ovf(struct nb_pmu *p, unsigned c)
{
	p->cccr[c] |= NB_CCCR_OVF;
	if (p->cccr[c] & NB_CCCR_OVF_PMI_T0)
		p->pmi_pending |= 1u << c;
	if (p->ht && (p->cccr[c] & NB_CCCR_OVF_PMI_T1))
		p->pmi_pending_t1 |= 1u << c;
}

/* Add inc to counter c; OVF on wrap past 2^40 - 1 [SDM 18.15.3, OVF flag]
 * or, with FORCE_OVF, on every increment [SDM 18.15.3].  Returns the
 * increments consumed up to the overflow (0: none). */
static uint64_t add(struct nb_pmu *p, unsigned c, uint64_t inc)
{
	uint64_t need = NB_COUNTER_MASK - p->ctr[c] + 1;

	if (!inc)
		return 0;
	nb_counter_add(&p->ctr[c], inc);
	if (p->cfg[c].force_ovf) {
		set_ovf(p, c);
		return 1;
	}
	if (inc >= need) {
		set_ovf(p, c);
		return need;
	}
	return 0;
}

void nb_pmu_sync(struct nb_pmu *p, const uint64_t *sig)
{
	uint64_t cycles = sig[NB_SIG_CYCLES] - p->last[NB_SIG_CYCLES];

	if (cycles >> 63)        /* see the negative sums below */
		cycles = 0;
	uint64_t incs[NB_NUM_COUNTERS], pos[NB_NUM_COUNTERS];
	uint32_t was_ovf = 0;

	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		incs[c] = pos[c] = 0;
		if (p->cccr[c] & NB_CCCR_OVF)
			was_ovf |= 1u << c;
	}
	/* A cascaded counter (Cascade set, Enable clear) counts while its
	 * alternate has OVF set [SDM 18.15.6.5: clearing the alternate's OVF
	 * halts it].  Two passes: counters that count on their own, then cascaded ones
	 * that depend on their alternate's overflow */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
			const struct nb_pmu_cfg *g = &p->cfg[c];
			uint64_t E = 0, inc;
			int a;

			if (!g->active || (g->percycle && p->cycle_input) || !lp_counts(p, g))
				continue;
			if ((pass == 0) != (g->enable != 0))
				continue;
			for (unsigned b = 0; b < NB_MAX_MASKS; b++)
				if (g->mask & (1u << b)) {
					unsigned s = NB_SIG(g->ev, b);
					E += sig[s] - p->last[s];
				}
			/* A negative sum is the correction of events whose
			 * count was dropped at CPL 0 (an event classified in the
			 * PMI handler, corrected after it): nothing to count */
			if (E >> 63)
				E = 0;
			inc = g->compare ? filtered(g, E, cycles, p->rate[g->ev], &p->edge_prev[c]) : E;
			if (pass == 1) {
				/* cascaded: all of it if the alternate had
				 * overflowed before; if it overflowed in this
				 * interval, the share after its overflow
				 * (exact when both count the same events) */
				a = nb_cascade_alternate(c);
				if (a < 0 || !(p->cccr[a] & NB_CCCR_OVF))
					continue;
				if (!(was_ovf & (1u << a))) {
					uint64_t ia = incs[a], after = ia - pos[a];
					if (!ia)
						continue;
					inc = inc == ia ? after
						: (uint64_t)(((unsigned __int128)inc * after) / ia);
				}
			}
			incs[c] = inc;
			pos[c] = add(p, c, inc);
		}
	for (unsigned i = 0; i < p->nsync; i++)
		p->last[p->sync_list[i]] = sig[p->sync_list[i]];
	p->sigsrc = sig;
}

/* ---- per-cycle counting (cycle input) ---- */

/* Run n cycles with per-counter outputs out[c] through the per-cycle
 * counters, cascaded ones in a second pass. */
static void count_cycles(struct nb_pmu *p, uint64_t n, const uint64_t *out)
{
	uint64_t oc[NB_NUM_COUNTERS];
	uint32_t ovf_now = 0, was_ovf = 0;

	if (!p->cyc_cascade) {
		/* the common case: no cascading, one pass over the list */
		for (unsigned i = 0; i < p->ncyc; i++) {
			unsigned c = p->cyc_list[i];
			const struct nb_pmu_cfg *g = &p->cfg[c];
			uint64_t dummy;
			int o = 0;
			if (!lp_counts(p, g))
				continue;
			nb_filter_count(&g->f, out[c], n, &p->edge_prev[c], &p->ctr[c], &o, &dummy);
			if (o)
				set_ovf(p, c);
		}
		return;
	}
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		oc[c] = 0;
		if (p->cccr[c] & NB_CCCR_OVF)
			was_ovf |= 1u << c;
	}
	for (int pass = 0; pass < 2; pass++)
		for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
			const struct nb_pmu_cfg *g = &p->cfg[c];
			uint64_t m = n;
			int o = 0;

			if (!(p->cycle_counters & (1u << c)) || (pass == 0) != (g->enable != 0))
				continue;
			if (!lp_counts(p, g))
				continue;
			if (pass == 1) {
				int a = nb_cascade_alternate(c);
				if (a < 0)
					continue;
				if (!(was_ovf & (1u << a))) {
					/* starts the cycle after its alternate
					 * overflowed in this run */
					if (!(ovf_now & (1u << a)) || oc[a] >= n)
						continue;
					m = n - oc[a];
				}
			}
			nb_filter_count(&g->f, out[c], m, &p->edge_prev[c], &p->ctr[c], &o, &oc[c]);
			if (o) {
				set_ovf(p, c);
				ovf_now |= 1u << c;
			}
		}
}

void nb_pmu_cycle(struct nb_pmu *p, const uint64_t *sig)
{
	uint64_t out[NB_NUM_COUNTERS];

	if (!p->ncyc)
		return;
	for (unsigned i = 0; i < p->ncyc; i++) {
		unsigned c = p->cyc_list[i];
		uint64_t o = 0;
		for (unsigned k = 0; k < p->ncsig[c]; k++) {
			unsigned s = p->csig[c][k];
			o += s == NB_SIG_CYCLES ? 1 : sig[s] - p->cbase[s];
		}
		out[c] = (o >> 63) ? 0 : o;   /* negative: see nb_pmu_sync */
	}
	count_cycles(p, 1, out);
	for (unsigned i = 0; i < p->ncused; i++) {
		unsigned s = p->cused_list[i];
		p->cbase[s] = sig[s];
	}
}

void nb_pmu_cycles_const(struct nb_pmu *p, uint64_t n, unsigned s, uint64_t v)
{
	if (s < NB_NSIG)
		p->cbase[s] += n * v;
	nb_pmu_cycles_out(p, n, s, v);
}

void nb_pmu_cycles_out(struct nb_pmu *p, uint64_t n, unsigned s, uint64_t v)
{
	uint64_t out[NB_NUM_COUNTERS];

	if (!p->ncyc || !n)
		return;
	for (unsigned i = 0; i < p->ncyc; i++) {
		unsigned c = p->cyc_list[i];
		uint64_t o = 0;
		for (unsigned k = 0; k < p->ncsig[c]; k++) {
			unsigned t = p->csig[c][k];
			o += t == NB_SIG_CYCLES ? 1 : t == s ? v : 0;
		}
		out[c] = o;
	}
	count_cycles(p, n, out);
}

void nb_pmu_run_flush(struct nb_pmu *p, struct nb_pmu_run *r)
{
	if (r->n) {
		nb_pmu_cycles_const(p, r->n, r->s, r->v);
		r->n = 0;
	}
}

void nb_pmu_run_add(struct nb_pmu *p, struct nb_pmu_run *r, uint64_t n, unsigned s, uint64_t v)
{
	if (r->n && (v != r->v || s != r->s))
		nb_pmu_run_flush(p, r);
	r->s = s;
	r->v = v;
	r->n += n;
}

void nb_pmu_hist_flush(struct nb_pmu *p, struct nb_pmu_hist *h)
{
	h->on = 0;
	for (unsigned v = 0; v < NB_PMU_HIST_N; v++)
		if (h->n[v] && v != h->last) {
			nb_pmu_cycles_out(p, h->n[v], h->s, v);
			h->n[v] = 0;
		}
	if (h->n[h->last]) {
		nb_pmu_cycles_out(p, h->n[h->last], h->s, h->last);
		h->n[h->last] = 0;
	}
}

void nb_pmu_set_lp(struct nb_pmu *p, unsigned lp, unsigned active, const uint64_t *sig)
{
	nb_pmu_sync(p, sig);
	p->lp = lp & 1;
	p->lp_active = (active & 3) | (1u << p->lp);
}

void nb_pmu_set_cpl0(struct nb_pmu *p, unsigned lp, int on, const uint64_t *sig)
{
	nb_pmu_sync(p, sig);
	if (on)
		p->cpl0 |= (uint8_t)(1u << (lp & 1));
	else
		p->cpl0 &= (uint8_t)~(1u << (lp & 1));
}

/* ---- register access ---- */

int nb_pmu_rdmsr(struct nb_pmu *p, uint32_t msr, uint64_t *val, const uint64_t *sig)
{
	int i;

	nb_pmu_sync(p, sig);
	if ((i = counter_by_msr(msr)) >= 0) {
		*val = p->ctr[i];
	} else if ((i = cccr_by_msr(msr)) >= 0) {
		*val = p->cccr[i];
	} else if ((i = escr_any_model(msr)) >= 0) {
		if (!(nb_escrs[i].models & (1u << p->model)))
			return fault_absent(p, "RDMSR", msr);
		*val = p->escr[i];
	} else if ((i = other_by_msr(msr)) >= 0) {
		*val = msr == NB_MSR_IA32_MISC_ENABLE ? NB_MISC_ENABLE_VALUE : p->other[i];
	} else {
		return fault(p, "RDMSR", msr, "unknown MSR", 0, 0);
	}
	return NB_PMU_OK;
}

int nb_pmu_wrmsr(struct nb_pmu *p, uint32_t msr, uint64_t val, const uint64_t *sig)
{
	int i;

	if ((i = counter_by_msr(msr)) >= 0) {
		if (val & CTR_RESERVED)
			return fault(p, "WRMSR", msr, "reserved bits ", val & CTR_RESERVED,
				     " set (counters are 40 bits)");
		nb_pmu_sync(p, sig);
		p->ctr[i] = val;
		p->touched |= 1u << i;
		return NB_PMU_OK;
	}
	if ((i = cccr_by_msr(msr)) >= 0) {
		unsigned at = (unsigned)((val & NB_CCCR_ACTIVE_MASK) >> NB_CCCR_ACTIVE_SHIFT);
		if (val & CCCR_RESERVED)
			return fault(p, "WRMSR", msr, "reserved bits ", val & CCCR_RESERVED, " set");
		if (!p->ht && (val & NB_CCCR_ENABLE) && at != NB_ACTIVE_ANY)
			return fault(p, "WRMSR", msr,
				     "ActiveThread (bits 16-17) must be 11b on a processor without Hyper-Threading, value ",
				     val, "");
		nb_pmu_sync(p, sig);
		p->cccr[i] = val;
		p->touched |= 1u << i;
		recompute(p);
		return NB_PMU_OK;
	}
	if ((i = escr_any_model(msr)) >= 0) {
		if (!(nb_escrs[i].models & (1u << p->model)))
			return fault_absent(p, "WRMSR", msr);
		if (val & ESCR_RESERVED)
			return fault(p, "WRMSR", msr, "reserved bits ", val & ESCR_RESERVED, " set");
		nb_pmu_sync(p, sig);
		p->escr[i] = val;
		p->touched_escr |= UINT64_C(1) << i;
		recompute(p);
		return NB_PMU_OK;
	}
	if ((i = other_by_msr(msr)) >= 0) {
		uint64_t w = nb_msrs[i].writable;
		if (msr == NB_MSR_IA32_MISC_ENABLE) {
			/* All its modelled bits are read-only: a write must leave them
			 * as read (read-modify-write works; changing them faults). */
			if ((val ^ NB_MISC_ENABLE_VALUE) & ~w)
				return fault(p, "WRMSR", msr, "read-only bits ",
					     (val ^ NB_MISC_ENABLE_VALUE) & ~w, " changed");
			return NB_PMU_OK;
		}
		if (val & ~w)
			return fault(p, "WRMSR", msr, "reserved bits ", val & ~w, " set");
		nb_pmu_sync(p, sig);
		p->other[i] = val;
		p->cfg_gen++;
		return NB_PMU_OK;
	}
	return fault(p, "WRMSR", msr, "unknown MSR", 0, 0);
}

int nb_pmu_rdpmc(struct nb_pmu *p, uint32_t ecx, uint64_t *val, const uint64_t *sig)
{
	uint32_t idx = ecx & 0x7fffffffu;

	if (idx >= NB_NUM_COUNTERS) {
		struct sbuf s = { p->fault, 0, sizeof p->fault };
		s_put(&s, "RDPMC ECX=");
		s_hex(&s, ecx);
		s_put(&s, ": counter index out of range 0-17");
		return NB_PMU_GP;
	}
	nb_pmu_sync(p, sig);
	*val = (ecx & 0x80000000u) ? (p->ctr[idx] & 0xffffffffu) : p->ctr[idx];
	return NB_PMU_OK;
}

void nb_pmu_read_all(struct nb_pmu *p, uint64_t *val, const uint64_t *sig)
{
	nb_pmu_sync(p, sig);
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		val[c] = p->ctr[c];
}

uint32_t nb_pmu_take_pmi_lp(struct nb_pmu *p, unsigned lp)
{
	uint32_t *pend = lp ? &p->pmi_pending_t1 : &p->pmi_pending;
	uint32_t m = *pend;

	*pend = 0;
	return m;
}

uint32_t nb_pmu_take_pmi(struct nb_pmu *p)
{
	return nb_pmu_take_pmi_lp(p, 0);
}

void nb_pmu_reg_of(uint32_t msr, uint32_t *ctr, uint64_t *escr)
{
	int i;

	*ctr = 0;
	*escr = 0;
	if ((i = counter_by_msr(msr)) >= 0 || (i = cccr_by_msr(msr)) >= 0)
		*ctr = 1u << i;
	else if ((i = escr_any_model(msr)) >= 0)
		*escr = UINT64_C(1) << i;
}

void nb_pmu_reconfigure(struct nb_pmu *p)
{
	recompute(p);
}

const char *nb_pmu_fault(const struct nb_pmu *p)
{
	return p->fault;
}

int nb_pmu_escr_selects(const struct nb_pmu *p, unsigned escr, unsigned ev, unsigned bit)
{
	uint64_t e = p->escr[escr];
	return ((e & NB_ESCR_EVSEL_MASK) >> NB_ESCR_EVSEL_SHIFT) == nb_events[ev].event_select &&
		(e & NB_ESCR_T0_USR) && (e & (UINT64_C(1) << (NB_ESCR_EMASK_SHIFT + bit)));
}

unsigned nb_pmu_mob_tags(const struct nb_pmu *p, uint64_t pe)
{
	unsigned s = 0;

	if (!(pe & (UINT64_C(1) << 9)))
		return 0;
	for (unsigned e = 0; e < 2; e++) {
		unsigned escr = e ? NB_ESCR_MOB_ESCR1 : NB_ESCR_MOB_ESCR0;
		if (nb_pmu_escr_selects(p, escr, NB_EV_MOB_LOAD_REPLAY, 4))
			s |= NB_PMU_MOB_PD;
		if (nb_pmu_escr_selects(p, escr, NB_EV_MOB_LOAD_REPLAY, 5))
			s |= NB_PMU_MOB_UA;
	}
	return s;
}
