/*
 * nb_encode.c - register images [SDM Fig. 18-43..18-45; seed 003 sec. 5-6,
 * 9] and the Linux perf raw config [kernel_p4.txt; DESIGN.md].
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "nb_encode.h"

static void privilege(unsigned mods, unsigned dom, int *usr, int *os)
{
	*usr = (dom & NB_DOM_USER) != 0;
	*os = (dom & NB_DOM_KERNEL) != 0;
	if (mods & NB_MOD_USET)
		*usr = !!(mods & NB_MOD_U);
	if (mods & NB_MOD_KSET)
		*os = !!(mods & NB_MOD_K);
}

uint64_t nb_escr_value(unsigned event, unsigned masks, unsigned tag,
		       unsigned mods, unsigned dom, unsigned thread)
{
	uint64_t escr = ((uint64_t)nb_events[event].event_select << NB_ESCR_EVSEL_SHIFT) |
			(((uint64_t)masks << NB_ESCR_EMASK_SHIFT) & NB_ESCR_EMASK_MASK);
	int usr, os;

	privilege(mods, dom, &usr, &os);
	if (usr)
		escr |= thread ? NB_ESCR_T1_USR : NB_ESCR_T0_USR;
	if (os)
		escr |= thread ? NB_ESCR_T1_OS : NB_ESCR_T0_OS;
	/* TagValue is a 4-bit field; a metric owns one bit of it. */
	if (tag != NB_NO_TAG)
		escr |= NB_ESCR_TAG_ENABLE | ((uint64_t)(1u << tag) << NB_ESCR_TAG_SHIFT);
	return escr;
}

/* CCCR bits other than Enable/ESCRSelect that a selection asks for. */
static uint64_t cccr_mods(const struct nb_evsel *sel)
{
	uint64_t v = 0;
	unsigned active = (sel->cccr & NB_CCCR_MOD_ACTIVE) ? sel->active : NB_ACTIVE_ANY;

	v |= ((uint64_t)(active & 3) << NB_CCCR_ACTIVE_SHIFT);
	if (sel->cccr & NB_CCCR_MOD_CMP)
		v |= NB_CCCR_COMPARE | ((uint64_t)(sel->thr & 0xf) << NB_CCCR_THR_SHIFT);
	if (sel->cccr & NB_CCCR_MOD_CMPL)
		v |= NB_CCCR_COMPLEMENT;
	if (sel->cccr & NB_CCCR_MOD_EDGE)
		v |= NB_CCCR_EDGE;
	return v;
}

void nb_encode_ex(const struct nb_evsel *sel, const struct nb_slot *slot,
		  unsigned dom, unsigned thread, unsigned flags, struct nb_regs *out)
{
	const struct nb_escr *x = &nb_escrs[slot->escr];

	out->escr = nb_escr_value(slot->event, slot->masks, slot->tag, sel->mods, dom, thread);
	/* a TagValue the request gives (libpfm4's TAGn), as given [SDM 18.15
	 * ESCR TagEnable bit 4, TagValue bits 5-8] */
	if (slot->tag_value)
		out->escr |= NB_ESCR_TAG_ENABLE |
			     (((uint64_t)slot->tag_value << NB_ESCR_TAG_SHIFT) & NB_ESCR_TAG_MASK);
	out->escr_msr = x->msr;
	out->counter = slot->counter;
	out->perf = nb_perf_raw(sel, dom);
	out->cccr_msr = nb_counters[slot->counter].cccr_msr;
	/* ActiveThread 11b unless asked: count whichever logical processor
	 * is active (the value non-HT parts require, seed 003 sec. 9); the
	 * ESCR's T0/T1 bits select the thread. */
	out->cccr = NB_CCCR_ENABLE | ((uint64_t)x->select << NB_CCCR_ESCRSEL_SHIFT) | cccr_mods(sel);
	out->cascade = 0;
	out->hi_counter = 0;
	out->hi_escr_msr = out->hi_cccr_msr = 0;
	out->hi_escr = out->hi_cccr = 0;
	if (slot->cascade && sel->kind == NB_SEL_EVENT && (sel->cccr & NB_CCCR_MOD_CASCADE)) {
		const struct nb_escr *y = &nb_escrs[slot->hi_escr];

		/* the alternate: its own ESCR with the same configuration;
		 * CCCR Cascade set, Enable clear: it counts while the low
		 * counter's OVF is set [SDM 18.15.5.6; seed 000 ("setting the
		 * cascade bit and clearing the enable bit in counter 2's
		 * CCCR")] */
		out->cascade = 1;
		out->hi_counter = slot->hi_counter;
		out->hi_escr_msr = y->msr;
		out->hi_escr = out->escr;
		out->hi_cccr_msr = nb_counters[slot->hi_counter].cccr_msr;
		out->hi_cccr = NB_CCCR_CASCADE | ((uint64_t)y->select << NB_CCCR_ESCRSEL_SHIFT) |
			       cccr_mods(sel);
		if (flags & NB_ENC_PMI)
			out->hi_cccr |= thread ? NB_CCCR_OVF_PMI_T1 : NB_CCCR_OVF_PMI_T0;
		return;
	}
	if (flags & NB_ENC_PMI)
		out->cccr |= thread ? NB_CCCR_OVF_PMI_T1 : NB_CCCR_OVF_PMI_T0;
}

uint64_t nb_cascade_fold(struct nb_cascade_state *st, uint64_t low, uint64_t high)
{
	low &= NB_COUNTER_MASK;
	high &= NB_COUNTER_MASK;
	if (!st->started && high) {
		st->started = 1;
		st->total = (UINT64_C(1) << 40) + high;
	} else {
		st->total += (low - st->last_low) & NB_COUNTER_MASK;
	}
	st->last_low = low;
	return st->total;
}

void nb_encode(const struct nb_evsel *sel, const struct nb_slot *slot,
	       unsigned dom, struct nb_regs *out)
{
	nb_encode_ex(sel, slot, dom, 0, 0, out);
}

int nb_encode_extra(const struct nb_assign *a, unsigned dom, unsigned thread,
		    struct nb_msr_image *out, int max)
{
	int k = 0;

	for (int i = 0; i < a->nhelpers && k < max; i++) {
		const struct nb_helper_slot *h = &a->helper[i];

		out[k].msr = nb_escrs[h->escr].msr;
		out[k].value = nb_escr_value(h->event, h->masks, h->tag, h->mods, dom, thread);
		k++;
	}
	if (a->pebs_enable && k + 2 <= max) {
		out[k].msr = NB_MSR_PEBS_ENABLE;
		out[k++].value = a->pebs_enable;
		out[k].msr = NB_MSR_MATRIX_VERT;
		out[k++].value = a->matrix_vert;
	}
	return k;
}

/* No raw config: 0, and the reason and the cure in WHY (if not NULL). */
__attribute__((format(printf, 3, 4)))
static uint64_t no_raw(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t k;

	if (!why || !len)
		return 0;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	k = strlen(why);
	snprintf(why + k, len - k, "; %s", NB_PERF_CURE);
	return 0;
}

uint64_t nb_perf_raw(const struct nb_evsel *sel, unsigned dom)
{
	return nb_perf_raw_why(sel, dom, NULL, 0);
}

uint64_t nb_perf_raw_why(const struct nb_evsel *sel, unsigned dom, char *why, size_t len)
{
	unsigned event = sel->event, masks = sel->masks, metric = 0;
	const struct nb_event *e;
	uint64_t escr, cccr;
	int usr, os;

	/* the kernel's P4 config has no CCCR Cascade bit (and one counter per
	 * event) [Linux perf_event_p4.h p4_config_pack_cccr] */
	if (sel->cccr & NB_CCCR_MOD_CASCADE)
		return no_raw(why, len, "%s:cascade: a cascaded counter pair needs the CCCR Cascade "
			      "bit, which Linux's P4 perf driver never sets (its raw config has no "
			      "field for it); drop :cascade to count it on one 40-bit counter here",
			      nb_events[sel->event].name);
	if (sel->kind == NB_SEL_METRIC) {
		const struct nb_metric *m = &nb_metrics[sel->event];

		event = m->count_event;
		masks = m->count_masks;
		metric = m->kernel_idx;
		/* the kernel programs replay tagging from the metric index
		 * only; other metrics' helpers have no raw encoding */
		if (m->type == NB_TAG_FRONTEND)
			return no_raw(why, len, "%s: front-end tagging needs a helper ESCR (%s, "
				      "tagging the uops) that Linux's P4 perf driver does not program",
				      m->name, m->nhelpers ? nb_events[m->helpers[0].event].name : "uop_type");
		if (m->type == NB_TAG_EXECUTION)
			return no_raw(why, len, "%s: execution tagging needs helper ESCRs (%s and the "
				      "other upstream events tagging the uops) that Linux's P4 perf driver "
				      "does not program", m->name,
				      m->nhelpers ? nb_events[m->helpers[0].event].name : "the upstream events");
		if (metric == 0)
			return no_raw(why, len, "%s: Linux's P4 perf driver has no replay metric for "
				      "it (p4_pebs_bind_map lacks it)", m->name);
	}
	e = &nb_events[event];
	if (e->kernel_idx == NB_KERNEL_NONE)
		return no_raw(why, len, "%s: Linux's P4 perf driver does not know this event "
			      "(no P4_EVENT_ entry in its table)", e->name);
	privilege(sel->mods, dom, &usr, &os);
	escr = ((uint64_t)e->kernel_idx << NB_ESCR_EVSEL_SHIFT) |
	       (((uint64_t)masks << NB_ESCR_EMASK_SHIFT) & NB_ESCR_EMASK_MASK);
	if (usr)
		escr |= NB_ESCR_T0_USR | NB_ESCR_T1_USR;
	if (os)
		escr |= NB_ESCR_T0_OS | NB_ESCR_T1_OS;
	if (sel->kind == NB_SEL_EVENT && sel->tag)
		escr |= NB_ESCR_TAG_ENABLE |
			(((uint64_t)sel->tag << NB_ESCR_TAG_SHIFT) & NB_ESCR_TAG_MASK);
	cccr = NB_CCCR_ENABLE | ((uint64_t)e->escr_select << NB_CCCR_ESCRSEL_SHIFT) |
	       cccr_mods(sel) | (metric & 0x7f);
	return (escr << 32) | cccr;
}
