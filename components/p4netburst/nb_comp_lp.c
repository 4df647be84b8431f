/*
 * nb_comp_lp.c - Hyper-Threading: the PMU registers the running event
 * sets of each logical processor hold, so that a set is placed around its
 * sibling's (nb_sched_cpu.busy_*), and IA32_PEBS_ENABLE, which the two
 * logical processors share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_comp.h"

/*
 * Hyper-Threading: the two logical processors (LPs) of a package share the
 * ESCRs, CCCRs and counters.  What the running event sets of each LP hold
 * is recorded here, so that the scheduler places an event set around what
 * its sibling LP already uses (nb_sched_cpu.busy_*).  Per process: under
 * nbsim both LPs run threads of the one guest process.
 */
static pthread_mutex_t lp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	uint64_t escrs;
	uint32_t counters, pebs_enable, matrix_vert;   /* pebs_enable: without bit 25 */
	uint8_t pebs_on;         /* a precise event set runs (PEBS on this LP) */
	/* how many running sets of the LP's threads use replay tagging, and
	 * PEBS: the LP's bits stay in IA32_PEBS_ENABLE until the last stops */
	uint16_t tag_n, pebs_n;
	/* how many running event sets of the LP's threads hold each ESCR and
	 * counter: nbsim runs more threads than LPs (each with its PMU
	 * context, sim/README.md "Per-thread counting"), so several sets of
	 * one LP may hold the same registers at once */
	uint16_t escr_n[64], counter_n[NB_NUM_COUNTERS];
} lp_busy[3];
/* lp_busy[BY_CPU]: the running PAPI_GRN_SYS sets (either LP), whose
 * counters count every thread: the sets of all threads go around them */
#define BY_CPU 2

/* Running set c takes (d = 1) or gives back (d = -1) its registers on its
 * LP.  Call with lp_lock held. */
static void lp_hold(unsigned lp, uint64_t escrs, uint32_t counters, int d)
{
	for (unsigned e = 0; e < 64; e++)
		if ((escrs >> e) & 1) {
			lp_busy[lp].escr_n[e] = (uint16_t)(lp_busy[lp].escr_n[e] + d);
			if (lp_busy[lp].escr_n[e])
				lp_busy[lp].escrs |= UINT64_C(1) << e;
			else
				lp_busy[lp].escrs &= ~(UINT64_C(1) << e);
		}
	for (unsigned k = 0; k < NB_NUM_COUNTERS; k++)
		if ((counters >> k) & 1) {
			lp_busy[lp].counter_n[k] = (uint16_t)(lp_busy[lp].counter_n[k] + d);
			if (lp_busy[lp].counter_n[k])
				lp_busy[lp].counters |= 1u << k;
			else
				lp_busy[lp].counters &= ~(1u << k);
		}
}

/* IA32_PEBS_ENABLE bit 26, ENABLE_PEBS_OTH_THR: PEBS for the other LP;
 * bit 25 (NB_PEBS_ENABLE_PEBS) is the writer's own [SDM 18.16.3] */
#define PEBS_ENABLE_OTH (UINT32_C(1) << 26)

/* The halves of the counters: ESCR0s feed half 0, ESCR1s half 1 [SDM
 * Table 18-63; sim/pmu/pmu_ctx.h] */
#define HT_HALF0_COUNTERS 0x13333u           /* 0,1,4,5,8,9,12,13,16   */
#define HT_HALF1_COUNTERS 0x2ccccu           /* 2,3,6,7,10,11,14,15,17 */

unsigned p4nb_this_lp(void)
{
	return p4nb_cpu.ht && p4nb_backend && p4nb_backend->thread_lp ? p4nb_backend->thread_lp() & 1 : 0;
}

static void sched_cpu(unsigned lp, struct nb_sched_cpu *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->model = p4nb_cpu.model;
	sc->thread = lp;
	if (p4nb_cpu.ht) {
		sc->busy_escrs = lp_busy[lp ^ 1].escrs;
		sc->busy_counters = lp_busy[lp ^ 1].counters;
		sc->busy_pebs_enable = lp_busy[lp ^ 1].pebs_enable;
		sc->busy_matrix_vert = lp_busy[lp ^ 1].matrix_vert;
	}
	/* threads migrate (nbsim --nbsim-ht-place=migrate): an LP's sets use
	 * its half only, as Linux places a task's event on the thread of the
	 * CPU it runs on (p4.c p4_event_bind_map .escr_msr[thread],
	 * .cntr[thread]), so that a moved thread's registers, re-targeted to
	 * the mirror half, never meet the other LP's */
	if (p4nb_cpu.ht && p4nb_cpu.ht_halves) {
		uint32_t other = lp ? HT_HALF0_COUNTERS : HT_HALF1_COUNTERS;

		sc->busy_counters |= other;
		for (unsigned e = 0; e < nb_num_escrs && e < 64; e++)
			if (nb_escrs[e].counters & other)
				sc->busy_escrs |= UINT64_C(1) << e;
	}
	sc->busy_escrs |= lp_busy[BY_CPU].escrs;
	sc->busy_counters |= lp_busy[BY_CPU].counters;
}

/* A PAPI_GRN_SYS set also goes around the running sets of the other
 * threads of its LP (their contexts hold those registers). */
static void sched_cpu_sys(unsigned lp, struct nb_sched_cpu *sc)
{
	sched_cpu(lp, sc);
	sc->busy_escrs |= lp_busy[lp].escrs;
	sc->busy_counters |= lp_busy[lp].counters;
}

/* The scheduler's input for a set of LP lp (SYS: a PAPI_GRN_SYS set). */
void p4nb_sched_input(unsigned lp, int sys, struct nb_sched_cpu *sc)
{
	pthread_mutex_lock(&lp_lock);
	if (sys)
		sched_cpu_sys(lp, sc);
	else
		sched_cpu(lp, sc);
	pthread_mutex_unlock(&lp_lock);
}

/* HT: claim the registers of c's assignment for its LP, placing the set
 * again if the sibling took any of them since it was added.  0 or a PAPI
 * error. */
int p4nb_claim_lp(nb_control_t *c)
{
	struct nb_sched_cpu sc;
	char why[512];
	int ret = PAPI_OK;

	pthread_mutex_lock(&lp_lock);
	c->lp = p4nb_this_lp();
	if (c->grn_sys)
		sched_cpu_sys(c->lp, &sc);
	else
		sched_cpu(c->lp, &sc);
	if ((c->assign.escrs_used & sc.busy_escrs) || (c->assign.counters_used & sc.busy_counters) ||
	    (c->assign.pebs_enable && sc.busy_pebs_enable &&
	     (c->assign.pebs_enable & ~NB_PEBS_ENABLE_PEBS) != sc.busy_pebs_enable)) {
		if (nb_sched_run(c->sel, c->n, &sc, &c->assign, NULL, why, sizeof(why))) {
			p4nb_report("start (the sibling logical processor holds registers)", why);
			ret = PAPI_ECNFLCT;
		}
	}
	if (ret == PAPI_OK) {
		lp_hold(c->grn_sys ? BY_CPU : c->lp, c->assign.escrs_used,
			c->assign.counters_used, 1);
		c->held = 1;
		if (c->assign.pebs_enable) {
			lp_busy[c->lp].pebs_enable = c->assign.pebs_enable & ~NB_PEBS_ENABLE_PEBS;
			lp_busy[c->lp].matrix_vert = c->assign.matrix_vert;
			lp_busy[c->lp].tag_n++;
			c->tag_held = 1;
			lp_busy[c->lp].pebs_n = (uint16_t)(lp_busy[c->lp].pebs_n + (c->pebs_h >= 0));
			lp_busy[c->lp].pebs_on = lp_busy[c->lp].pebs_n > 0;
		}
	}
	pthread_mutex_unlock(&lp_lock);
	return ret;
}

/* Is msr one of the package's replay-tagging MSRs, which under HT only
 * p4nb_pebs_enable_shared writes? */
int p4nb_lp_shared_msr(uint32_t msr)
{
	return p4nb_cpu.ht && (msr == NB_MSR_PEBS_ENABLE || msr == NB_MSR_MATRIX_VERT);
}

/*
 * HT: IA32_PEBS_ENABLE is the package's, its PEBS bits relative to the
 * writer (25: my LP, 26: the other) [SDM 18.16.3].  Written here only,
 * under the lock, once the set is programmed (START) or stopped: the
 * value that keeps the replay tagging and PEBS of both LPs' running
 * sets, so that the last writer has seen both LPs' state.  0 or -1 with
 * ERR.
 */
int p4nb_pebs_enable_shared(nb_control_t *c, int start, char *err, size_t len)
{
	struct nb_msr_image w[2];
	unsigned sib = c->lp ^ 1;
	int rc;

	if (!p4nb_cpu.ht || (!c->assign.pebs_enable && !lp_busy[sib].pebs_enable))
		return 0;
	pthread_mutex_lock(&lp_lock);
	w[0].msr = NB_MSR_PEBS_ENABLE;
	w[1].msr = NB_MSR_MATRIX_VERT;
	/* the sibling's, and this LP's while other threads' sets of it use
	 * them (nbsim runs more threads than LPs); a start adds its own */
	w[0].value = lp_busy[sib].pebs_enable | lp_busy[c->lp].pebs_enable;
	w[1].value = lp_busy[sib].matrix_vert | lp_busy[c->lp].matrix_vert;
	if (start) {
		w[0].value |= c->assign.pebs_enable;
		w[1].value |= c->assign.matrix_vert;
	}
	if (lp_busy[c->lp].pebs_on)
		w[0].value |= NB_PEBS_ENABLE_PEBS;
	if (lp_busy[sib].pebs_on)
		w[0].value |= PEBS_ENABLE_OTH;
	rc = p4nb_backend->write_msrs(w, 2, err, len);
	pthread_mutex_unlock(&lp_lock);
	return rc;
}

void p4nb_release_lp(nb_control_t *c)
{
	pthread_mutex_lock(&lp_lock);
	/* only what claim_lp took (PAPI may stop a set whose start failed) */
	if (c->held)
		lp_hold(c->grn_sys ? BY_CPU : c->lp, c->assign.escrs_used,
			c->assign.counters_used, -1);
	c->held = 0;
	if (c->assign.pebs_enable && c->tag_held) {
		lp_busy[c->lp].tag_n--;
		lp_busy[c->lp].pebs_n = (uint16_t)(lp_busy[c->lp].pebs_n - (c->pebs_h >= 0));
		lp_busy[c->lp].pebs_on = lp_busy[c->lp].pebs_n > 0;
		if (!lp_busy[c->lp].tag_n)
			lp_busy[c->lp].pebs_enable = lp_busy[c->lp].matrix_vert = 0;
	}
	c->tag_held = 0;
	pthread_mutex_unlock(&lp_lock);
}

/* PAPI_shutdown: no event set is left, but a thread that exited while its
 * set ran, without PAPI_unregister_thread, never had it freed (PAPI frees
 * the sets of the threads it shuts down by the caller's thread id), and
 * its registers would stay held past PAPI_library_init. */
void p4nb_lp_forget(void)
{
	pthread_mutex_lock(&lp_lock);
	memset(lp_busy, 0, sizeof(lp_busy));
	pthread_mutex_unlock(&lp_lock);
}
