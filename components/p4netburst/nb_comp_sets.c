/*
 * nb_comp_sets.c - the p4netburst component's event sets: PAPI's natives
 * placed on the PMU (nb_plan_run, nb_sched), programmed and started through
 * the backend, read into 64-bit totals, stopped and reset.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_comp.h"

/* Informational messages (the alternative a preset uses), printed when
 * PAPI's error messages are on, like report(). */
static void notice(const char *msg)
{
	if (_papi_hwi_error_level != PAPI_QUIET || secure_getenv("PAPI_VERBOSE"))
		fprintf(stderr, "PAPI p4netburst: %s", msg);
}

/* A running set counts on the counters of the thread that started it
 * (nbsim's per-thread context, the perf backend's descriptors opened on it,
 * the msr backend's CPU binding), and PAPI lets any thread name any set:
 * a stop, read or reset from another thread acted on the caller's own
 * counters (stopping its own running set on them), returned its counts as
 * the set's, and left the owner's counters running with the set marked
 * stopped.  Refused (ctests/foreign_stop.c). */
static int foreign(const nb_control_t *c, const char *what)
{
	if (!c->running || pthread_equal(c->owner, pthread_self()))
		return 0;
	p4nb_report(what, "the event set runs in another thread, on that thread's counters: "
		    "stop, read or reset it in the thread that started it");
	return 1;
}

/* A set the PMU or the backend cannot count: PAPI_ECNFLCT, and the reason
 * said also without PAPI_VERBOSE (a bare PAPI_ECNFLCT names nothing the
 * user can act on), under WHAT ("add event", "start"). */
static int conflict(const char *what, const char *why)
{
	if (_papi_hwi_error_level == PAPI_QUIET && !secure_getenv("PAPI_VERBOSE"))
		fprintf(stderr, "PAPI p4netburst: %s: %s\n", what, why);
	p4nb_report(what, why);
	return PAPI_ECNFLCT;
}

/* What would count a set the scheduler refused (WHY, of LEN, gets it
 * appended): the requests apart, in separate runs, when there are
 * several; one alone is refused only for what the sibling logical
 * processor holds, or on a model without it. */
static void add_cure(char *why, size_t len, int count, const struct nb_sched_cpu *sc)
{
	size_t k = strlen(why);

	if (count > 1)
		snprintf(why + k, len - k, "; count them in separate runs (nb_schedule --partition "
			 "splits a set into runs that each place)");
	else if (sc->busy_escrs || sc->busy_counters || sc->busy_pebs_enable)
		snprintf(why + k, len - k, "; the other logical processor's running event set holds "
			 "what it needs: count it once that set stops, or in separate runs");
	else
		snprintf(why + k, len - k, "; count it on another model (nbsim --model)");
}

int p4nb_update_control_state(hwd_control_state_t *ctl, NativeInfo_t *native,
				   int count, hwd_context_t *ctx)
{
	nb_control_t *c = (nb_control_t *)ctl;
	struct nb_req req[NB_NUM_COUNTERS];
	static struct nb_plan plan;         /* large; guarded by the lock below */
	static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;
	struct nb_sched_cpu sc;
	char why[1024];
	int8_t palt[NB_NUM_PRESETS_MAX];
	(void)ctx;

	if (c->running && count > 0)
		return PAPI_EISRUN;
	if (c->running) {
		/* PAPI frees a running set: a thread that unregisters (or a
		 * PAPI_shutdown that frees another thread's sets) without
		 * PAPI_stop first; PAPI_cleanup_eventset itself refuses a
		 * running set.  Before, this returned PAPI_EISRUN, which PAPI
		 * ignores there: the set's registers stayed held in lp_busy
		 * (under HT its sibling LP's sets could not be placed, even
		 * after PAPI_shutdown and PAPI_library_init) and its PMI
		 * stayed acquired.  The thread that started it stops it (its
		 * counters are that thread's: nbsim's context, the perf
		 * backend's descriptors); another only gives the registers
		 * back. */
		if (pthread_equal(c->owner, pthread_self()))
			(void)p4nb_stop(ctx, ctl);
		else {
			c->running = 0;
			p4nb_release_lp(c);
			if (p4nb_backend->release)
				p4nb_backend->release(c->regs, c->n);
		}
	}
	memset(req, 0, sizeof(req));
	if (count > NB_NUM_COUNTERS) {
		p4nb_report("add event", "more events than the 18 NetBurst counters");
		return PAPI_ECNFLCT;
	}
	for (int i = 0; i < count; i++) {
		struct ntv_entry e;

		if (p4nb_lookup((unsigned)native[i].ni_event, &e) != PAPI_OK)
			return PAPI_ENOEVNT;
		if (e.kind == ENT_QUAL) {
			char nm[NB_NAME_MAX];

			(void)p4nb_ntv_code_to_name((unsigned)native[i].ni_event, nm, (int)sizeof(nm));
			snprintf(why, sizeof(why), "%.300s is a qualifier template (papi_native_avail "
				 "lists it), not an event: give a value, e.g. :u=1", nm);
			p4nb_report("add event", why);
			return PAPI_EINVAL;
		}
		if (e.kind == ENT_PRESET) {
			req[i].kind = NB_REQ_PRESET;
			req[i].preset = e.preset;
			req[i].slot = e.slot;
			continue;
		}
		if (e.sel.kind == NB_SEL_EVENT && nb_evsel_check(&e.sel, why, sizeof(why))) {
			p4nb_report("add event", why);
			return PAPI_EINVAL;
		}
		req[i].kind = NB_REQ_SEL;
		req[i].sel = e.sel;
	}
	/* Around what the sibling LP holds now (HT); nb_start checks again. */
	c->lp = p4nb_this_lp();
	p4nb_sched_input(c->lp, c->grn_sys, &sc);
	pthread_mutex_lock(&plan_lock);
	if (nb_plan_run(req, count, &sc, p4nb_cpu_feats, c->palt, &plan, why, sizeof(why))) {
		pthread_mutex_unlock(&plan_lock);
		/* Say why even without PAPI_VERBOSE, once: a preset (mapped to
		 * its terms or to its alternatives) none of whose equivalent
		 * mappings fits would otherwise be a bare PAPI_ECNFLCT
		 * (docs/PRESETS.md). */
		add_cure(why, sizeof(why), count, &sc);
		return conflict("add event", why);
	}
	/* What the backend cannot count (the perf backend: no raw config,
	 * a helper ESCR, the kernel's placement, first fit on the thread-0
	 * half) may be what ours placed.  Refused here, not at PAPI_start:
	 * PAPI's software multiplexing adds each event beside PAPI_TOT_CYC
	 * to learn whether the pair can be counted, and asserts that
	 * starting the pair succeeds (sw_multiplex.c MPX_start):
	 * papi_multiplex_cost aborted on BPU_fetch_request beside
	 * global_power_events, both on counter 0 of the kernel's thread-0
	 * half.  PAPI's perf_event component opens its events here too. */
	if (p4nb_backend_refusal(c, c->domain, plan.hw, plan.nhw, &plan.assign, why, sizeof(why))) {
		pthread_mutex_unlock(&plan_lock);
		return conflict("add event", why);
	}
	/* Say which presets use another than their preferred alternative,
	 * when that changes. */
	memset(palt, 0, sizeof(palt));
	for (int i = 0; i < count; i++)
		if (req[i].kind == NB_REQ_PRESET)
			palt[req[i].preset] = (int8_t)(plan.alt[i] + 1);
	if (memcmp(palt, c->palt, sizeof(palt)) &&
	    nb_plan_note(req, count, &plan, &sc, p4nb_cpu_feats, why, sizeof(why)) > 0)
		notice(why);
	memcpy(c->palt, palt, sizeof(palt));
	c->n = plan.nhw;
	c->assign = plan.assign;
	for (int h = 0; h < plan.nhw; h++)
		c->sel[h] = plan.hw[h];
	c->nnat = count;
	for (int i = 0; i < count; i++) {
		c->hw_of[i] = plan.hw_of[i];
		c->coef[i] = plan.coef[i];
		native[i].ni_position = i;
	}
	pthread_mutex_unlock(&plan_lock);
	/* PAPI calls set_overflow again after this, for the events that
	 * overflow (the positions may have changed).  An empty set with
	 * overflow on is one PAPI frees at a thread's end
	 * (PAPI_unregister_thread, PAPI_shutdown of another thread's sets:
	 * _papi_hwi_thread_free_eventsets), with its INTERNAL_LOCK held,
	 * which _papi_hwi_stop_signal takes: calling it spun forever.
	 * PAPI_cleanup_eventset turns overflow off before (PAPI_overflow with
	 * threshold 0), so only that path comes here.  Then the PMI is
	 * released (nbsim sends no more) and PAPI's count of the signal's
	 * users is left as it is, as PAPI's perf_event component leaves it
	 * for a set freed with overflow on. */
	if (c->ovf) {
		if (count > 0)
			_papi_hwi_stop_signal(p4nb_info->hardware_intr_sig);
		p4nb_pmi_release();
	}
	c->ovf = c->hw_ovf = 0;
	c->pebs_h = -1;
	memset(c->threshold, 0, sizeof(c->threshold));
	return PAPI_OK;
}

/* The set's helper ESCRs and replay-tagging MSRs as programmed (ZERO:
 * off, so that the next event set starts clean).  Under HT
 * IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT are the package's: only
 * p4nb_pebs_enable_shared writes them, under the LP lock with both LPs'
 * bits; a 0 or this set's own value written here would leave the other
 * threads' replay tagging off until that write, and the loads they
 * retired meanwhile uncounted. */
static int write_extra(nb_control_t *c, int zero, char *err, size_t len)
{
	struct nb_msr_image w[NB_SCHED_MAX_HELPERS + 2];
	int n = 0;

	for (int i = 0; i < c->nextra; i++) {
		if (p4nb_lp_shared_msr(c->extra[i].msr))
			continue;
		w[n].msr = c->extra[i].msr;
		w[n++].value = zero ? 0 : c->extra[i].value;
	}
	return n ? p4nb_backend->write_msrs(w, n, err, len) : 0;
}

static int teardown(nb_control_t *c, int disable);

int p4nb_start(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;
	unsigned dom = p4nb_papi_dom(c->domain);
	char err[1024];
	int ret;
	(void)ctx;

	/* what the add refused, refused by the same code (no kernel
	 * placement here: program() asks the kernel itself) */
	if (p4nb_backend->refuse &&
	    p4nb_backend->refuse(c->sel, c->n, &c->assign, err, sizeof(err)))
		return conflict("start", err);
	if ((ret = p4nb_claim_lp(c)) != PAPI_OK)
		return ret;
	c->owner = pthread_self();
	/* T0 or T1 ESCR bits for the LP this thread runs on */
	for (int i = 0; i < c->n; i++) {
		nb_encode_ex(&c->sel[i], &c->assign.slot[i], dom, c->lp,
			     ((c->hw_ovf >> i) & 1) && i != c->pebs_h ? NB_ENC_PMI : 0, &c->regs[i]);
		c->last[i] = 0;
		c->hwcount[i] = 0;
		c->read_hw[i] = LLONG_MAX;
		memset(&c->casc[i], 0, sizeof(c->casc[i]));
	}
	c->ovf_carry = 0;
	for (int i = 0; i < c->nnat; i++)
		c->count[i] = 0;
	c->nextra = nb_encode_extra(&c->assign, dom, c->lp, c->extra,
				    (int)(sizeof(c->extra) / sizeof(c->extra[0])));
	if (p4nb_backend->set_inherit)
		p4nb_backend->set_inherit(c->inherit);
	if (p4nb_backend->set_attach)
		p4nb_backend->set_attach(c->attach);
	if ((ret = p4nb_backend->program(c->regs, c->n, err, sizeof(err)))) {
		/* nothing of this set was enabled, and the registers may be
		 * another thread's (the msr backend refuses a CPU where
		 * another thread counts): touch none of them */
		p4nb_release_lp(c);
		if (p4nb_backend->restore)
			p4nb_backend->restore(0);
		/* a conflict (the kernel's placement, perf backend):
		 * said also without PAPI_VERBOSE, as at add time */
		if (ret == NB_BACKEND_CONFLICT)
			return conflict("start", err);
		p4nb_report("start", err);
		return PAPI_ESYS;
	}
	if ((c->grn_sys && p4nb_backend->cpu_wide(c->regs, c->n, 1, err, sizeof(err))) ||
	    write_extra(c, 0, err, sizeof(err)) ||
	    p4nb_pebs_enable_shared(c, 1, err, sizeof(err)) ||
	    (c->hw_ovf && p4nb_preset(c, c->hw_ovf, err, sizeof(err))) ||
	    (c->pebs_h >= 0 && p4nb_pebs_arm(c, err, sizeof(err))) ||
	    /* running once programmed and preset, before the counters
	     * start: with a small threshold the first PMI comes before
	     * this function returns, and its handler must find the set
	     * running to fold and re-arm it */
	    (c->running = 1, p4nb_backend->enable(c->regs, c->n, 1, err, sizeof(err)))) {
		p4nb_report("start", err);
		/* the set's registers are this thread's: stop and give them
		 * back here, since p4nb_stop leaves a set that is not running
		 * alone */
		(void)teardown(c, 1);
		return PAPI_ESYS;
	}
	return PAPI_OK;
}

int p4nb_stop(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;
	char err[256];
	int ret;
	(void)ctx;

	if (foreign(c, "stop"))
		return PAPI_EINVAL;
	/* PAPI calls stop after a failed start too (papi.c, PAPI_start):
	 * the set holds no registers then (p4nb_start gave back what it
	 * took), and those of c->regs may be another thread's (the msr
	 * backend refuses a CPU where another thread counts): disabling
	 * them stopped that thread's counting, and reading them made
	 * counts of nothing. */
	if (!c->running)
		return PAPI_OK;
	/* not running from here on: a PMI taken inside this function (a
	 * small threshold overflows in its first instructions) must not
	 * re-arm and re-enable the counters being stopped */
	c->running = 0;
	if (p4nb_backend->enable(c->regs, c->n, 0, err, sizeof(err))) {
		c->running = 1;
		p4nb_report("stop", err);
		return PAPI_ESYS;
	}
	ret = p4nb_accumulate(c);
	if (teardown(c, 0) != PAPI_OK)
		ret = PAPI_ESYS;
	return ret;
}

/* The rest of a stop once the counters are disabled, or (DISABLE) the
 * undoing of a start that programmed them and then failed: the helper
 * ESCRs, PEBS and the registers given back. */
static int teardown(nb_control_t *c, int disable)
{
	char err[256];
	int ret = PAPI_OK;

	c->running = 0;
	if (disable)
		(void)p4nb_backend->enable(c->regs, c->n, 0, err, sizeof(err));
	/* the counters are the thread's again (nbsim: its context) */
	if (c->grn_sys && p4nb_backend->cpu_wide(c->regs, c->n, 0, err, sizeof(err))) {
		p4nb_report("stop", err);
		ret = PAPI_ESYS;
	}
	if (write_extra(c, 1, err, sizeof(err))) {
		p4nb_report("stop", err);
		ret = PAPI_ESYS;
	}
	if (c->pebs_h >= 0) {
		struct nb_msr_image w = { NB_MSR_DS_AREA, 0 };

		(void)p4nb_backend->write_msrs(&w, 1, err, sizeof(err));
	}
	p4nb_release_lp(c);
	/* the replay tagging and PEBS bits the LPs' other running sets use */
	if (p4nb_pebs_enable_shared(c, 0, err, sizeof(err))) {
		p4nb_report("stop", err);
		ret = PAPI_ESYS;
	}
	if (p4nb_backend->restore)
		p4nb_backend->restore(0);
	/* the set's own (perf: its descriptors, counts read above) */
	if (p4nb_backend->release)
		p4nb_backend->release(c->regs, c->n);
	return ret;
}

int p4nb_read(hwd_context_t *ctx, hwd_control_state_t *ctl,
		   long long **events, int flags)
{
	nb_control_t *c = (nb_control_t *)ctl;
	int ret = PAPI_OK;
	(void)ctx;
	(void)flags;

	if (!c->running) {
		*events = c->count;
		return PAPI_OK;
	}
	if (foreign(c, "read"))
		return PAPI_EINVAL;
	p4nb_acc_begin(c);
	ret = p4nb_accumulate(c);
	/* the values at the read: a PMI deferred meanwhile, served by
	 * acc_end, reads the counters again later */
	memcpy(c->rcount, c->count, sizeof(c->rcount));
	memcpy(c->read_hw, c->hwcount, sizeof(c->read_hw));
	p4nb_acc_end(c);
	*events = c->rcount;
	return ret;
}

int p4nb_reset(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;
	char err[256];
	int ret = PAPI_OK;
	(void)ctx;

	if (foreign(c, "reset"))
		return PAPI_EINVAL;
	p4nb_acc_begin(c);
	/* zero stops cascaded pairs (backend_regs.c): start them again */
	if (c->running && (p4nb_backend->zero(c->regs, c->n, err, sizeof(err)) ||
			   p4nb_backend->enable(c->regs, c->n, 1, err, sizeof(err)))) {
		p4nb_report("reset", err);
		p4nb_acc_end(c);
		return PAPI_ESYS;
	}
	for (int i = 0; i < c->n; i++) {
		c->last[i] = 0;
		c->hwcount[i] = 0;
		c->read_hw[i] = LLONG_MAX;   /* a deferred PMI: dispatched */
		memset(&c->casc[i], 0, sizeof(c->casc[i]));
	}
	for (int i = 0; i < c->nnat; i++)
		c->count[i] = 0;
	if (c->running && p4nb_preset(c, c->hw_ovf, err, sizeof(err))) {
		p4nb_report("reset", err);
		ret = PAPI_ESYS;
	}
	p4nb_acc_end(c);
	return ret;
}

