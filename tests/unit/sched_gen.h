/*
 * sched_gen.h - random request sets for the scheduler tests and bench:
 * events with default, single or random masks, privilege modifiers,
 * libpfm4 TAGn values on the upstream FP/SIMD events, duplicates, tagged
 * metrics mixed in, CPU models, Hyper-Threading with a
 * sibling's reservations.  Deterministic (own xorshift generator).
 */
#ifndef SCHED_GEN_H
#define SCHED_GEN_H

#include <string.h>
#include "nb_sched.h"

static uint64_t gen_state = 88172645463325252ull;

static uint64_t gen_next(void)
{
	gen_state ^= gen_state << 13;
	gen_state ^= gen_state >> 7;
	gen_state ^= gen_state << 17;
	return gen_state;
}

static unsigned gen_below(unsigned n)
{
	return (unsigned)(gen_next() % n);
}

static int gen_chance(unsigned percent)
{
	return gen_below(100) < percent;
}

static uint16_t gen_one_mask(unsigned ev)
{
	const struct nb_event *e = &nb_events[ev];

	return (uint16_t)(1u << e->masks[gen_below(e->nmasks)].bit);
}

static void gen_event(struct nb_evsel *r, unsigned model)
{
	unsigned ev;

	do
		ev = gen_below(nb_num_events);
	while (!((nb_events[ev].models >> model) & 1) || nb_events[ev].nmasks == 0);
	memset(r, 0, sizeof(*r));
	r->event = (uint16_t)ev;
	r->kind = NB_SEL_EVENT;
	if (nb_events[ev].default_masks && gen_chance(50))
		r->masks = nb_events[ev].default_masks;
	else if (gen_chance(75))
		r->masks = gen_one_mask(ev);
	else
		r->masks = (uint16_t)(gen_one_mask(ev) | gen_one_mask(ev));
	/* libpfm4's TAGn on an execution-tagging upstream event: mostly one
	 * bit (so that equal values, PAPI's FP_OPS idiom, are frequent) */
	if (nb_events[ev].role == NB_ROLE_EXEC_UPSTREAM && nb_events[ev].nvmasks && gen_chance(40))
		r->tag = (uint8_t)(gen_chance(70) ? 1u << gen_below(4) : 1 + gen_below(15));
}

static void gen_metric(struct nb_evsel *r, unsigned model)
{
	unsigned m;

	do
		m = gen_below(nb_num_metrics);
	while (!((nb_metrics[m].models >> model) & 1));
	memset(r, 0, sizeof(*r));
	r->event = (uint16_t)m;
	r->kind = NB_SEL_METRIC;
}

/* Request I of a set (may duplicate an earlier one). */
static void gen_one(struct nb_evsel *req, int i, const struct nb_sched_cpu *cpu)
{
	if (i > 0 && gen_chance(12))
		req[i] = req[gen_below((unsigned)i)];
	else if (gen_chance(15))
		gen_metric(&req[i], cpu->model);
	else
		gen_event(&req[i], cpu->model);
	if (gen_chance(15))
		req[i].mods = gen_chance(50) ? (NB_MOD_U | NB_MOD_USET) : (NB_MOD_K | NB_MOD_KSET);
	if (gen_chance(5)) {
		req[i].cccr |= NB_CCCR_MOD_CMP;
		req[i].thr = (uint8_t)gen_below(16);
	}
	if (gen_chance(2))
		req[i].cccr |= NB_CCCR_MOD_PRECISE;
}

/* Fill N requests and the CPU. HT: 0 off, 1 on, -1 random. */
static void gen_set(struct nb_evsel *req, int n, struct nb_sched_cpu *cpu, int ht)
{
	static const unsigned models[] = { 0, 1, 2, 3, 4, 6 };

	memset(cpu, 0, sizeof(*cpu));
	cpu->model = models[gen_below(6)];
	if (gen_chance(20))
		cpu->flags |= NB_SCHED_ALLOW_CTR1;
	if (ht < 0)
		ht = gen_chance(50);
	if (ht) {
		cpu->thread = gen_below(2);
		for (unsigned i = 0; i < nb_num_escrs; i++)
			if (gen_chance(8))
				cpu->busy_escrs |= UINT64_C(1) << i;
		for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
			if (gen_chance(8))
				cpu->busy_counters |= 1u << c;
		if (gen_chance(15)) {
			unsigned m;

			do
				m = gen_below(nb_num_metrics);
			while (nb_metrics[m].type != NB_TAG_REPLAY);
			cpu->busy_pebs_enable = nb_metrics[m].pebs_enable;
			cpu->busy_matrix_vert = nb_metrics[m].matrix_vert;
		}
	}
	for (int i = 0; i < n; i++)
		gen_one(req, i, cpu);
}

#endif
