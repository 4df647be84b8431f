/*
 * nb_encode.c - register images [SDM Fig. 18-43..18-45; seed 003 sec. 5-6].
 */
#include "nb_encode.h"

void nb_encode(const struct nb_evsel *sel, const struct nb_slot *slot,
	       unsigned dom, struct nb_regs *out)
{
	const struct nb_event *e = &nb_events[slot->event];
	const struct nb_escr *x = &nb_escrs[slot->escr];
	int usr = (dom & NB_DOM_USER) != 0, os = (dom & NB_DOM_KERNEL) != 0;
	uint64_t escr;

	if (sel->mods & NB_MOD_USET)
		usr = !!(sel->mods & NB_MOD_U);
	if (sel->mods & NB_MOD_KSET)
		os = !!(sel->mods & NB_MOD_K);
	escr = ((uint64_t)e->event_select << NB_ESCR_EVSEL_SHIFT) |
	       ((uint64_t)slot->masks << NB_ESCR_EMASK_SHIFT);
	if (usr)
		escr |= NB_ESCR_T0_USR;
	if (os)
		escr |= NB_ESCR_T0_OS;
	out->escr = escr;
	out->escr_msr = x->msr;
	out->counter = slot->counter;
	out->cccr_msr = nb_counters[slot->counter].cccr_msr;
	/* ActiveThread 11b: count whichever logical processor is active
	 * (the value non-HT parts require, seed 003 sec. 9). */
	out->cccr = NB_CCCR_ENABLE |
		    ((uint64_t)x->select << NB_CCCR_ESCRSEL_SHIFT) |
		    ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT);
}
