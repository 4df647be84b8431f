/* pmu_ctx.c - per-thread PMU contexts (see pmu_ctx.h). */
#include "pmu_ctx.h"

_Static_assert(NB_NUM_ESCRS <= 64, "ESCR masks are 64-bit");

#define COUNTING (NB_CCCR_ENABLE | NB_CCCR_CASCADE)

void nb_pmu_ctx_init(struct nb_pmu_ctx *x)
{
	unsigned char *z = (unsigned char *)x;

	for (unsigned long i = 0; i < sizeof *x; i++)
		z[i] = 0;
}

void nb_pmu_ctx_note(struct nb_pmu *p, struct nb_pmu_ctx *run, struct nb_pmu_ctx *sib)
{
	uint32_t t = p->touched & ~p->cpu_wide;
	uint64_t te = p->touched_escr & ~p->cpu_wide_escr;

	run->used |= t;
	run->live |= t;
	run->used_escr |= te;
	run->live_escr |= te;
	/* written over the sibling's: its saved value is what it was */
	if (sib) {
		sib->live &= ~t;
		sib->live_escr &= ~te;
	}
	p->touched = 0;
	p->touched_escr = 0;
}

int nb_pmu_ctx_holds(const struct nb_pmu *p, const struct nb_pmu_ctx *out,
		     const struct nb_pmu_ctx *in)
{
	return ((out->used | in->used | p->touched) & ~p->cpu_wide) ||
	       ((out->used_escr | in->used_escr | p->touched_escr) & ~p->cpu_wide_escr);
}

/* The ESCR a CCCR value of counter c selects, as a bit (0: none). */
static uint64_t escr_bit(const struct nb_pmu *p, unsigned c, uint64_t cccr)
{
	unsigned sel = (unsigned)((cccr & NB_CCCR_ESCRSEL_MASK) >> NB_CCCR_ESCRSEL_SHIFT);

	for (unsigned e = 0; e < nb_num_escrs && e < 64; e++)
		if (nb_escrs[e].select == sel && (nb_escrs[e].counters & (1u << c)) &&
		    (nb_escrs[e].models & (1u << p->model)))
			return UINT64_C(1) << e;
	return 0;
}

/* The registers context x counts with: its counters with Enable or
 * Cascade, and the ESCRs they select. */
static void counting(const struct nb_pmu *p, const struct nb_pmu_ctx *x,
		     uint32_t *cm, uint64_t *em)
{
	*cm = 0;
	*em = 0;
	for (unsigned c = 0; x->used >> c; c++) {
		uint64_t v;

		if (!((x->used >> c) & 1))
			continue;
		v = ((x->live >> c) & 1) ? p->cccr[c] : x->cccr[c];
		if (v & COUNTING) {
			*cm |= 1u << c;
			*em |= escr_bit(p, c, v);
		}
	}
}

static void save_ctr(struct nb_pmu *p, struct nb_pmu_ctx *x, unsigned c)
{
	uint32_t bit = 1u << c;

	x->ctr[c] = p->ctr[c];
	x->cccr[c] = p->cccr[c];
	x->edge_prev[c] = p->edge_prev[c];
	x->pmi_pending |= p->pmi_pending & bit;
	x->pmi_pending_t1 |= p->pmi_pending_t1 & bit;
	p->pmi_pending &= ~bit;
	p->pmi_pending_t1 &= ~bit;
	x->live &= ~bit;
}

/* Load x's counter c; returns the CCCR value to write. */
static uint64_t load_ctr(struct nb_pmu *p, struct nb_pmu_ctx *x, unsigned c)
{
	uint32_t bit = 1u << c;

	p->ctr[c] = x->ctr[c];
	p->edge_prev[c] = x->edge_prev[c];
	p->pmi_pending |= x->pmi_pending & bit;
	p->pmi_pending_t1 |= x->pmi_pending_t1 & bit;
	x->pmi_pending &= ~bit;
	x->pmi_pending_t1 &= ~bit;
	x->live |= bit;
	return x->cccr[c];
}

void nb_pmu_ctx_claim(struct nb_pmu *p, struct nb_pmu_ctx *sib, uint32_t ctr, uint64_t escr)
{
	for (unsigned c = 0; ctr >> c; c++)
		if ((ctr & sib->live) & (1u << c))
			save_ctr(p, sib, c);
	for (unsigned e = 0; escr >> e; e++)
		if ((escr & sib->live_escr) & (UINT64_C(1) << e)) {
			sib->escr[e] = p->escr[e];
			sib->live_escr &= ~(UINT64_C(1) << e);
		}
}

int nb_pmu_ctx_switch(struct nb_pmu *p, struct nb_pmu_ctx *out, struct nb_pmu_ctx *in,
		      struct nb_pmu_ctx *sib, const uint64_t *sig)
{
	uint32_t m, scm = 0, icm;
	uint64_t me, sem = 0, iem;
	int changed = 0;

	if (!nb_pmu_ctx_holds(p, out, in))
		return 0;
	nb_pmu_ctx_note(p, out, sib);
	nb_pmu_sync(p, sig);
	if (sib)
		counting(p, sib, &scm, &sem);
	counting(p, in, &icm, &iem);
	m = (out->used | in->used) & ~p->cpu_wide;
	me = (out->used_escr | in->used_escr) & ~p->cpu_wide_escr;
	for (unsigned c = 0; m >> c; c++) {
		uint32_t bit = 1u << c;
		uint64_t cccr = p->cccr[c];
		int freed = 0;

		if (!(m & bit))
			continue;
		if (out->live & bit) {
			save_ctr(p, out, c);
			/* nothing left to keep: all clear */
			if (!out->ctr[c] && !out->cccr[c] &&
			    !((out->pmi_pending | out->pmi_pending_t1) & bit))
				out->used &= ~bit;
			freed = 1;
		}
		if ((in->used & bit) &&
		    !(sib && (sib->live & bit) && (scm & bit) && !(icm & bit))) {
			/* the sibling's copy, if loaded, goes back to it */
			if (sib && (sib->live & bit))
				save_ctr(p, sib, c);
			cccr = load_ctr(p, in, c);
		} else if (freed) {
			/* free: the sibling's, if it holds it, else clear */
			if (sib && (sib->used & bit)) {
				cccr = load_ctr(p, sib, c);
			} else {
				p->ctr[c] = 0;
				p->edge_prev[c] = 0;
				cccr = 0;
			}
		}
		if (p->cccr[c] != cccr)
			changed = 1;
		p->cccr[c] = cccr;
	}
	for (unsigned e = 0; me >> e; e++) {
		uint64_t bit = UINT64_C(1) << e, v = p->escr[e];
		int freed = 0;

		if (!(me & bit))
			continue;
		if (out->live_escr & bit) {
			out->escr[e] = p->escr[e];
			out->live_escr &= ~bit;
			if (!p->escr[e])
				out->used_escr &= ~bit;
			freed = 1;
		}
		if ((in->used_escr & bit) &&
		    !(sib && (sib->live_escr & bit) && (sem & bit) && !(iem & bit))) {
			if (sib && (sib->live_escr & bit)) {
				sib->escr[e] = p->escr[e];
				sib->live_escr &= ~bit;
			}
			v = in->escr[e];
			in->live_escr |= bit;
		} else if (freed) {
			if (sib && (sib->used_escr & bit)) {
				v = sib->escr[e];
				sib->live_escr |= bit;
			} else {
				v = 0;
			}
		}
		if (p->escr[e] != v)
			changed = 1;
		p->escr[e] = v;
	}
	/* threads running the same event set: only counter values moved */
	if (changed)
		nb_pmu_reconfigure(p);
	return 1;
}

int nb_pmu_ctx_reclaim(struct nb_pmu *p, struct nb_pmu_ctx *x, struct nb_pmu_ctx *sib,
		       const uint64_t *sig)
{
	if (!((x->used & ~x->live) | (x->used_escr & ~x->live_escr)))
		return 0;
	/* a switch from X to X: what X holds stays, what it lost comes
	 * back under the rule a switch applies to the sibling's */
	return nb_pmu_ctx_switch(p, x, x, sib, sig);
}

void nb_pmu_ctx_cpu_wide(struct nb_pmu *p, struct nb_pmu_ctx *run, uint32_t mask, int on)
{
	uint64_t me = 0;

	nb_pmu_ctx_note(p, run, (struct nb_pmu_ctx *)0);
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		if (mask & (1u << c))
			me |= escr_bit(p, c, p->cccr[c]);
	if (on) {
		p->cpu_wide |= mask;
		p->cpu_wide_escr |= me;
		run->used &= ~mask;
		run->live &= ~mask;
		run->used_escr &= ~me;
		run->live_escr &= ~me;
	} else {
		p->cpu_wide &= ~mask;
		p->cpu_wide_escr &= ~me;
		run->used |= mask;
		run->live |= mask;
		run->used_escr |= me;
		run->live_escr |= me;
	}
}

/* ---- the other half (HT migration; see pmu_ctx.h) ---- */

unsigned nb_pmu_mirror_ctr(unsigned c)
{
	return c >= 16 ? c ^ 1u : c ^ 2u;
}

int nb_pmu_mirror_escr(unsigned e)
{
	uint32_t want = 0;

	if (e >= nb_num_escrs)
		return -1;
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		if (nb_escrs[e].counters & (1u << c))
			want |= 1u << nb_pmu_mirror_ctr(c);
	for (unsigned m = 0; m < nb_num_escrs; m++)
		if (m != e && nb_escrs[m].group == nb_escrs[e].group &&
		    nb_escrs[m].select == nb_escrs[e].select && nb_escrs[m].counters == want)
			return (int)m;
	return -1;
}

uint64_t nb_pmu_half_escrs(unsigned half)
{
	uint32_t hc = half ? NB_HALF1_COUNTERS : NB_HALF0_COUNTERS;
	uint64_t m = 0;

	for (unsigned e = 0; e < nb_num_escrs && e < 64; e++)
		if (nb_escrs[e].counters & hc)
			m |= UINT64_C(1) << e;
	return m;
}

uint64_t nb_pmu_mirror_escr_val(uint64_t v)
{
	uint64_t t1 = NB_ESCR_T1_USR | NB_ESCR_T1_OS, t0 = NB_ESCR_T0_USR | NB_ESCR_T0_OS;

	return (v & ~(t0 | t1)) | ((v & t1) << 2) | ((v & t0) >> 2);
}

uint64_t nb_pmu_mirror_cccr_val(uint64_t v)
{
	uint64_t both = NB_CCCR_OVF_PMI_T0 | NB_CCCR_OVF_PMI_T1;

	return (v & ~both) | ((v & NB_CCCR_OVF_PMI_T0) ? NB_CCCR_OVF_PMI_T1 : 0) |
	       ((v & NB_CCCR_OVF_PMI_T1) ? NB_CCCR_OVF_PMI_T0 : 0);
}

int nb_pmu_mirror_msr(uint32_t msr, uint32_t *out)
{
	*out = msr;
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		if (nb_counters[c].msr == msr) {
			*out = nb_counters[nb_pmu_mirror_ctr(c)].msr;
			return 0;
		}
		if (nb_counters[c].cccr_msr == msr) {
			*out = nb_counters[nb_pmu_mirror_ctr(c)].cccr_msr;
			return 2;
		}
	}
	for (unsigned e = 0; e < nb_num_escrs; e++)
		if (nb_escrs[e].msr == msr) {
			int m = nb_pmu_mirror_escr(e);

			if (m < 0)
				return -1;
			*out = nb_escrs[m].msr;
			return 1;
		}
	return 0;
}

int nb_pmu_ctx_can_mirror(const struct nb_pmu_ctx *x)
{
	for (unsigned e = 0; e < nb_num_escrs && e < 64; e++)
		if (((x->used_escr >> e) & 1) && nb_pmu_mirror_escr(e) < 0)
			return 0;
	for (unsigned c = 16; c < NB_NUM_COUNTERS; c++)
		if (((x->used >> c) & 1) && (x->cccr[c] & NB_CCCR_CASCADE))
			return 0;
	return 1;
}

int nb_pmu_ctx_mirror(struct nb_pmu_ctx *x)
{
	struct nb_pmu_ctx y;

	if (x->live || x->live_escr || !nb_pmu_ctx_can_mirror(x))
		return -1;
	nb_pmu_ctx_init(&y);
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		unsigned m = nb_pmu_mirror_ctr(c);
		uint32_t b = 1u << c, mb = 1u << m;

		if (x->used & b)
			y.used |= mb;
		if (x->pmi_pending & b)
			y.pmi_pending_t1 |= mb;
		if (x->pmi_pending_t1 & b)
			y.pmi_pending |= mb;
		y.ctr[m] = x->ctr[c];
		y.cccr[m] = nb_pmu_mirror_cccr_val(x->cccr[c]);
		y.edge_prev[m] = x->edge_prev[c];
	}
	for (unsigned e = 0; e < nb_num_escrs && e < 64; e++) {
		int m = nb_pmu_mirror_escr(e);

		if (m < 0)
			continue;
		if ((x->used_escr >> e) & 1)
			y.used_escr |= UINT64_C(1) << m;
		y.escr[m] = nb_pmu_mirror_escr_val(x->escr[e]);
	}
	/* byte copy: the module links into the tool (no libc memcpy) */
	for (unsigned long i = 0; i < sizeof *x; i++)
		((unsigned char *)x)[i] = ((const unsigned char *)&y)[i];
	return 0;
}
