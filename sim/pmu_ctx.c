/* pmu_ctx.c - per-thread PMU contexts (see pmu_ctx.h). */
#include "pmu_ctx.h"

_Static_assert(NB_NUM_ESCRS <= 64, "ESCR masks are 64-bit");

void nb_pmu_ctx_init(struct nb_pmu_ctx *x)
{
	unsigned char *z = (unsigned char *)x;

	for (unsigned long i = 0; i < sizeof *x; i++)
		z[i] = 0;
}

void nb_pmu_ctx_note(struct nb_pmu *p, struct nb_pmu_ctx *run)
{
	run->used |= p->touched & ~p->cpu_wide;
	run->used_escr |= p->touched_escr & ~p->cpu_wide_escr;
	p->touched = 0;
	p->touched_escr = 0;
}

int nb_pmu_ctx_holds(const struct nb_pmu *p, const struct nb_pmu_ctx *out,
		     const struct nb_pmu_ctx *in)
{
	return ((out->used | in->used | p->touched) & ~p->cpu_wide) ||
	       ((out->used_escr | in->used_escr | p->touched_escr) & ~p->cpu_wide_escr);
}

int nb_pmu_ctx_switch(struct nb_pmu *p, struct nb_pmu_ctx *out, struct nb_pmu_ctx *in,
		      const uint64_t *sig)
{
	uint32_t m;
	uint64_t me;
	int changed = 0;

	if (!nb_pmu_ctx_holds(p, out, in))
		return 0;
	nb_pmu_ctx_note(p, out);
	m = (out->used | in->used) & ~p->cpu_wide;
	me = (out->used_escr | in->used_escr) & ~p->cpu_wide_escr;
	nb_pmu_sync(p, sig);
	for (unsigned c = 0; m >> c; c++) {
		uint32_t bit = 1u << c;
		uint64_t cccr;

		if (!(m & bit))
			continue;
		if (out->used & bit) {
			out->ctr[c] = p->ctr[c];
			out->cccr[c] = p->cccr[c];
			out->edge_prev[c] = p->edge_prev[c];
			out->pmi_pending |= p->pmi_pending & bit;
			out->pmi_pending_t1 |= p->pmi_pending_t1 & bit;
			/* nothing left to keep: all clear */
			if (!p->ctr[c] && !p->cccr[c] &&
			    !((out->pmi_pending | out->pmi_pending_t1) & bit))
				out->used &= ~bit;
		}
		p->pmi_pending &= ~bit;
		p->pmi_pending_t1 &= ~bit;
		if (in->used & bit) {
			p->ctr[c] = in->ctr[c];
			cccr = in->cccr[c];
			p->edge_prev[c] = in->edge_prev[c];
			p->pmi_pending |= in->pmi_pending & bit;
			p->pmi_pending_t1 |= in->pmi_pending_t1 & bit;
			in->pmi_pending &= ~bit;
			in->pmi_pending_t1 &= ~bit;
		} else {
			p->ctr[c] = 0;
			cccr = 0;
			p->edge_prev[c] = 0;
		}
		if (p->cccr[c] != cccr)
			changed = 1;
		p->cccr[c] = cccr;
	}
	for (unsigned e = 0; me >> e; e++) {
		uint64_t bit = UINT64_C(1) << e, v;

		if (!(me & bit))
			continue;
		if (out->used_escr & bit) {
			out->escr[e] = p->escr[e];
			if (!p->escr[e])
				out->used_escr &= ~bit;
		}
		v = (in->used_escr & bit) ? in->escr[e] : 0;
		if (p->escr[e] != v)
			changed = 1;
		p->escr[e] = v;
	}
	/* threads running the same event set: only counter values moved */
	if (changed)
		nb_pmu_reconfigure(p);
	return 1;
}

/* The ESCR counter c's CCCR selects, as a bit (0: none). */
static uint64_t escr_of(const struct nb_pmu *p, unsigned c)
{
	unsigned sel = (unsigned)((p->cccr[c] & NB_CCCR_ESCRSEL_MASK) >> NB_CCCR_ESCRSEL_SHIFT);

	for (unsigned e = 0; e < nb_num_escrs && e < 64; e++)
		if (nb_escrs[e].select == sel && (nb_escrs[e].counters & (1u << c)) &&
		    (nb_escrs[e].models & (1u << p->model)))
			return UINT64_C(1) << e;
	return 0;
}

void nb_pmu_ctx_cpu_wide(struct nb_pmu *p, struct nb_pmu_ctx *run, uint32_t mask, int on)
{
	uint64_t me = 0;

	nb_pmu_ctx_note(p, run);
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		if (mask & (1u << c))
			me |= escr_of(p, c);
	if (on) {
		p->cpu_wide |= mask;
		p->cpu_wide_escr |= me;
		run->used &= ~mask;
		run->used_escr &= ~me;
	} else {
		p->cpu_wide &= ~mask;
		p->cpu_wide_escr &= ~me;
		run->used |= mask;
		run->used_escr |= me;
	}
}
