/*
 * smt_count.h - a thread's own cycles (global_power_events RUNNING) and
 * uops (uops_retired NBOGUS) under --ht=yes, on its logical processor's
 * half of the PMU, as Linux's P4 driver places a task's events
 * (p4_event_bind_map: an ESCR0 and its counters for thread 0, the ESCR1
 * and its counters for thread 1; T0_USR or T1_USR): LP0 counts on
 * counters 0 (FSB_ESCR0) and 14 (CRU_ESCR1), LP1 on their mirrors 2
 * (FSB_ESCR1) and 12 (CRU_ESCR0).  The two LPs share the register file:
 * two threads counting at the same time on the same counter would count
 * each other's events (t_smt_ht.c, t_smt_lock.c).
 */
#ifndef SMT_COUNT_H
#define SMT_COUNT_H

#define _GNU_SOURCE
#include <sched.h>
#include "guest.h"

struct smt_regs {
	unsigned cyc_escr, uop_escr, cyc_ctr, uop_ctr;
	uint64_t usr;
};

static inline struct smt_regs smt_regs_here(void)
{
	struct smt_regs r = { NB_ESCR_FSB_ESCR0, NB_ESCR_CRU_ESCR1, 0, 14, NB_ESCR_T0_USR };

	if (sched_getcpu() == 1) {
		r.cyc_escr = NB_ESCR_FSB_ESCR1;
		r.uop_escr = NB_ESCR_CRU_ESCR0;
		r.cyc_ctr = 2;
		r.uop_ctr = 12;
		r.usr = NB_ESCR_T1_USR;
	}
	return r;
}

static inline int smt_count_start(void)
{
	struct smt_regs r = smt_regs_here();
	uint64_t e_cyc = ((uint64_t)nb_events[NB_EV_GLOBAL_POWER_EVENTS].event_select << NB_ESCR_EVSEL_SHIFT) |
		(UINT64_C(1) << NB_ESCR_EMASK_SHIFT) | r.usr;
	uint64_t e_uop = ((uint64_t)nb_events[NB_EV_UOPS_RETIRED].event_select << NB_ESCR_EVSEL_SHIFT) |
		(UINT64_C(1) << NB_ESCR_EMASK_SHIFT) | r.usr;
	uint64_t cc = NB_CCCR_ENABLE | ((uint64_t)NB_ACTIVE_ANY << NB_CCCR_ACTIVE_SHIFT);

	return guest_wrmsr(nb_escrs[r.cyc_escr].msr, e_cyc) &&
		guest_wrmsr(nb_escrs[r.uop_escr].msr, e_uop) &&
		guest_wrmsr(nb_counters[r.cyc_ctr].msr, 0) && guest_wrmsr(nb_counters[r.uop_ctr].msr, 0) &&
		guest_wrmsr(nb_counters[r.cyc_ctr].cccr_msr,
			    cc | ((uint64_t)nb_escrs[r.cyc_escr].select << NB_CCCR_ESCRSEL_SHIFT)) &&
		guest_wrmsr(nb_counters[r.uop_ctr].cccr_msr,
			    cc | ((uint64_t)nb_escrs[r.uop_escr].select << NB_CCCR_ESCRSEL_SHIFT));
}

static inline int smt_count_stop(uint64_t *cyc, uint64_t *uops)
{
	struct smt_regs r = smt_regs_here();

	return guest_wrmsr(nb_counters[r.cyc_ctr].cccr_msr, 0) &&
		guest_wrmsr(nb_counters[r.uop_ctr].cccr_msr, 0) &&
		nbsim_rdmsr(nb_counters[r.cyc_ctr].msr, cyc) == NBSIM_OK &&
		nbsim_rdmsr(nb_counters[r.uop_ctr].msr, uops) == NBSIM_OK;
}

#endif
