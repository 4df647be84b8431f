/*
 * nb_comp_ovf.c - overflow in the p4netburst component: the counters'
 * presets (2^40 - threshold), the PMI's service (the signal handler, and a
 * PMI deferred out of a read's bookkeeping), PEBS records and PAPI's
 * overflow dispatch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_comp.h"

/* Counters of the hardware requests in MASK that interrupt on overflow:
 * preset to 2^40 - threshold, so that the counter overflows after
 * threshold events [SDM 18.15.3 OVF, 40-bit counters]; ovf_at is the
 * count at which it will.  REARM (in the overflow handler, after
 * accumulate): the events counted since the overflow (skid) are
 * hwcount - ovf_at, so preset it for the next overflow to come threshold
 * events after the last one. */
int p4nb_preset_ex(nb_control_t *c, uint32_t mask, int rearm, char *err, size_t len)
{
	uint64_t raw[NB_NUM_COUNTERS];
	uint32_t set = 0;

	for (int i = 0; i < c->n; i++) {
		uint64_t t = c->threshold[i], past = 0;

		if (!((mask >> i) & 1))
			continue;
		if (rearm)      /* the events since the overflow */
			past = (uint64_t)(c->hwcount[i] - c->ovf_at[i]) % t;
		/* past >= t: more thresholds went by before the PMI was taken
		 * (skid); they coalesce into this one and the next overflow
		 * keeps the phase, at the next multiple */
		raw[i] = (past + NB_COUNTER_MASK + 1 - t) & NB_COUNTER_MASK;
		c->last[i] = raw[i];
		c->ovf_at[i] = c->hwcount[i] + (long long)(t - past);
		set |= 1u << i;
	}
	/* the set's own register array: the backend finds the set by it */
	return set ? p4nb_backend->set_counters(c->regs, c->n, set, raw, err, len) : 0;
}

int p4nb_preset(nb_control_t *c, uint32_t mask, char *err, size_t len)
{
	return p4nb_preset_ex(c, mask, 0, err, len);
}

/* The DS save area for PEBS (c->pebs_h), written to IA32_DS_AREA; 0 if
 * no PEBS.  Fields: PEBS base 4, index 5, absolute maximum 6, interrupt
 * threshold 7 (one record), counter reset 8 = 2^40 - threshold. */
int p4nb_pebs_arm(nb_control_t *c, char *err, size_t len)
{
	struct nb_msr_image w;
	uint64_t *buf;

	if (c->pebs_h < 0)
		return 0;
	if (!c->ds && !(c->ds = calloc(PEBS_DS_WORDS, sizeof(uint64_t)))) {
		snprintf(err, len, "no memory for the PEBS buffer");
		return -1;
	}
	buf = c->ds + 10;
	memset(c->ds, 0, 10 * sizeof(uint64_t));
	c->ds[4] = c->ds[5] = (uint64_t)(uintptr_t)buf;
	c->ds[6] = (uint64_t)(uintptr_t)(buf + PEBS_NREC * PEBS_REC_WORDS);
	c->ds[7] = (uint64_t)(uintptr_t)(buf + PEBS_REC_WORDS);
	c->ds[8] = (NB_COUNTER_MASK + 1 - c->threshold[c->pebs_h]) & NB_COUNTER_MASK;
	w.msr = NB_MSR_DS_AREA;
	w.value = (uint64_t)(uintptr_t)c->ds;
	return p4nb_backend->write_msrs(&w, 1, err, len);
}

/*
 * The PMI handler (p4nb_dispatch_timer) reads, re-arms and accounts the
 * counters of a running set.  A PMI taken while code outside it does the
 * same (PAPI_read, PAPI_stop's read, PAPI_reset) is deferred, as a kernel
 * masks interrupts around its counter updates: the handler notes it and
 * returns, and p4nb_acc_end serves it (pmi_service) once the bookkeeping is
 * done, at the interrupted PC.
 * Without it, a PMI between the read of a counter and its bookkeeping
 * re-armed the counter, and the interrupted read then accounted the old
 * value against the new preset: the count went T ahead, and at the next
 * overflow 2^40 ahead (ctests/overflow_sweep).  A flag, not a signal
 * mask: two sigprocmask calls per PAPI_read were counted instructions.
 */
static void pmi_service(ThreadInfo_t *thread, int cidx, nb_control_t *c,
			_papi_hwi_context_t *hw, vptr_t pc, int in_isr);

void p4nb_acc_begin(nb_control_t *c)
{
	c->pmi_deferred = 0;
	c->in_acc = 1;
	__asm__ __volatile__("" ::: "memory");
}

void p4nb_acc_end(nb_control_t *c)
{
	__asm__ __volatile__("" ::: "memory");
	c->in_acc = 0;
	if (c->pmi_deferred) {
		char err[256];
		int cidx;
		ThreadInfo_t *thread;
		/* no signal context: the user's handler gets NULL for it */
		_papi_hwi_context_t hw = { 0 };

		/* the counters stop first: the service in user code is the
		 * ISR's work, not counted */
		if (!c->running || p4nb_backend->enable(c->regs, c->n, 0, err, sizeof(err)))
			return;
		c->pmi_deferred = 0;
		cidx = p4nb_info->CmpIdx;
		thread = _papi_hwi_lookup_thread(0);
		if (thread)
			pmi_service(thread, cidx, c, &hw, c->deferred_pc, 0);
	}
}

/* ---- overflow ----------------------------------------------------------- */

/*
 * Hardware overflow (cmp_info.hardware_intr, backends with the overflow
 * hooks): an overflowing event's CCCR gets OVF_PMI_T0 and its counter the
 * preset 2^40 - threshold (per hardware request: natives 0..nnat-1 map
 * to them through hw_of); the PMI arrives as signal hardware_intr_sig
 * (nbsim sends it, NBSIM_REQ_PMI_SIGNAL).  The handler stops the set,
 * finds the armed counters that passed 2^40, folds the counts, presets
 * those counters so that the next overflow comes threshold events after
 * this one, restarts, and hands PAPI the overflow vector (bit = position
 * of the event) and the interrupted PC.  A PMI that finds no such counter
 * (one already handled by an earlier PMI) is ignored.
 */
/*
 * A precise overflowing event samples with PEBS.  The scheduler placed it
 * on its logical processor's PEBS counter (16 on LP0, 17 on LP1: a precise
 * request counts there only, nb_sched.h), one precise request per event
 * set; here only the backend and the DS format.
 */
static int pebs_place(nb_control_t *c, int h)
{
	char why[256];

	if (p4nb_backend != &nb_backend_sim || p4nb_cpu.model < 3) {
		snprintf(why, sizeof(why), "precise overflow (PEBS) needs the sim backend and the "
			 "64-bit DS format (models 3 and 4, CPUID DTES64); this is %s model %u",
			 p4nb_backend->name, p4nb_cpu.model);
		p4nb_report("overflow", why);
		return PAPI_ENOSUPP;
	}
	/* SDM 18.16.3: counter 16 (MSR_IQ_CCCR4) on LP0, 17 on LP1 */
	if (c->assign.slot[h].counter != PEBS_COUNTER + (p4nb_cpu.ht ? c->lp : 0) ||
	    (c->pebs_h >= 0 && c->pebs_h != h))
		return PAPI_EBUG;       /* the scheduler's rule broken */
	c->pebs_h = h;
	return PAPI_OK;
}

/* The PEBS buffer goes with the event set. */
int p4nb_cleanup_eventset(hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;

	free(c->ds);
	c->ds = NULL;
	c->pebs_h = -1;
	return PAPI_OK;
}

/*
 * The PMI signal is one per process in nbsim (NBSIM_REQ_PMI_SIGNAL), and
 * event sets of other threads (HT: the other logical processor) may
 * overflow too: count the event sets with overflow on, and turn the
 * signal off only when the last one stops.
 */
static pthread_mutex_t pmi_lock = PTHREAD_MUTEX_INITIALIZER;
static int pmi_sets;

static int pmi_acquire(int sig, char *err, size_t len)
{
	int r = 0;

	pthread_mutex_lock(&pmi_lock);
	if (pmi_sets++ == 0)
		r = p4nb_backend->pmi_signal(sig, err, len);
	if (r)
		pmi_sets--;
	pthread_mutex_unlock(&pmi_lock);
	return r;
}

void p4nb_pmi_release(void)
{
	char err[256];

	pthread_mutex_lock(&pmi_lock);
	if (pmi_sets > 0 && --pmi_sets == 0)
		(void)p4nb_backend->pmi_signal(0, err, sizeof(err));
	pthread_mutex_unlock(&pmi_lock);
}

/* PAPI_shutdown: the PMI off, whatever sets were left with overflow on
 * (p4nb_lp_forget) */
void p4nb_pmi_forget(void)
{
	char err[256];

	pthread_mutex_lock(&pmi_lock);
	if (pmi_sets > 0)
		(void)p4nb_backend->pmi_signal(0, err, sizeof(err));
	pmi_sets = 0;
	pthread_mutex_unlock(&pmi_lock);
}

int p4nb_set_overflow(EventSetInfo_t *ESI, int EventIndex, int threshold)
{
	nb_control_t *c = (nb_control_t *)ESI->ctl_state;
	int sig = p4nb_info->hardware_intr_sig;
	int pos = ESI->EventInfoArray[EventIndex].pos[0], h;
	uint32_t was = c->ovf;
	char err[256];

	if (pos < 0 || pos >= c->nnat || threshold < 0)
		return PAPI_EINVAL;
	if (!p4nb_backend->pmi_signal)
		return PAPI_ENOSUPP;
	if (c->running)
		return PAPI_EISRUN;
	h = c->hw_of[pos];
	if (threshold && (h < 0 || c->coef[pos] != 1)) {
		p4nb_report("overflow", "the event is not one counter (a derived preset term): "
		       "it cannot interrupt on overflow");
		return PAPI_EINVAL;
	}
	if (threshold == 0) {
		c->ovf &= ~(1u << pos);
		c->hw_ovf = 0;
		for (int i = 0; i < c->nnat; i++)
			if ((c->ovf >> i) & 1)
				c->hw_ovf |= 1u << c->hw_of[i];
		if (h >= 0 && !((c->hw_ovf >> h) & 1)) {
			c->threshold[h] = 0;
			if (c->pebs_h == h)
				c->pebs_h = -1;
		}
		if (was && !c->ovf) {
			p4nb_pmi_release();
			return _papi_hwi_stop_signal(sig);
		}
		return PAPI_OK;
	}
	if (c->sel[h].cccr & NB_CCCR_MOD_CASCADE) {
		/* the pair's alternate would interrupt only 2^40 events after
		 * the low counter's overflow: not a threshold */
		p4nb_report("overflow", "a cascaded event (cascade) cannot interrupt on overflow: "
		       "use the plain event");
		return PAPI_EINVAL;
	}
	if (c->sel[h].cccr & NB_CCCR_MOD_PRECISE) {
		int r = pebs_place(c, h);

		if (r != PAPI_OK)
			return r;
	}
	c->ovf |= 1u << pos;
	c->hw_ovf |= 1u << h;
	c->threshold[h] = (uint64_t)threshold;   /* natives sharing a counter: the last */
	if (!was) {
		int r = _papi_hwi_start_signal(sig, NEED_CONTEXT, ESI->CmpIdx);

		if (r != PAPI_OK)
			return r;
		if (pmi_acquire(sig, err, sizeof(err))) {
			p4nb_report("overflow", err);
			return PAPI_ESYS;
		}
	}
	return PAPI_OK;
}

/* The interrupted PC from the signal context. */
static vptr_t pc_of(_papi_hwi_context_t *hw)
{
	return GET_OVERFLOW_ADDRESS((*hw));
}

void p4nb_dispatch_timer(int signo, hwd_siginfo_t *si, void *uc)
{
	int cidx = p4nb_info->CmpIdx;
	ThreadInfo_t *thread = _papi_hwi_lookup_thread(0);
	_papi_hwi_context_t hw;
	EventSetInfo_t *ESI;
	nb_control_t *c;
	(void)signo;

	hw.si = si;
	hw.ucontext = (hwd_ucontext_t *)uc;
	/* PAPI_OVERFLOWING, not overflow.flags: PAPI's software overflow
	 * without PAPI_OVERFLOW_FORCE_SW (the only kind on backends without
	 * a PMI, msr) has flags 0, and was dropped here: no overflow, no
	 * profile, on the msr backend */
	if (!thread || !(ESI = thread->running_eventset[cidx]) || !(ESI->state & PAPI_OVERFLOWING))
		return;
	if (!(ESI->overflow.flags & PAPI_OVERFLOW_HARDWARE)) {
		/* PAPI's software overflow (itimer) */
		_papi_hwi_dispatch_overflow_signal(&hw, pc_of(&hw), NULL, 0, 0, &thread, cidx);
		return;
	}
	c = (nb_control_t *)ESI->ctl_state;
	if (!c->running)
		return;
	if (c->in_acc) {
		/* taken inside PAPI_read/stop/reset's bookkeeping: served
		 * once it is done (acc_end), with this PC */
		c->deferred_pc = pc_of(&hw);
		c->pmi_deferred = 1;
		return;
	}
	pmi_service(thread, cidx, c, &hw, pc_of(&hw), 1);
}

/*
 * What a PMI does: stop the set and read it, fold PEBS records, re-arm the
 * armed counters that overflowed, start the set again and call PAPI's
 * dispatcher (the user's handler) once per PEBS record with its precise
 * address and once with PC for the others.  IN_ISR: from the signal
 * handler, which is the interrupt service routine (under nbsim it runs at
 * CPL 0, uncounted), so it stops the counters and starts them again before
 * the dispatch; from acc_end (a deferred PMI, served in user code) the
 * caller has stopped them, and they start after the dispatch, so that
 * the service is not counted either.
 */
static void pmi_service(ThreadInfo_t *thread, int cidx, nb_control_t *c,
			_papi_hwi_context_t *hw, vptr_t pc, int in_isr)
{
	uint32_t which = 0, vec = 0, carry = 0, disp;
	uint64_t raw[2 * NB_NUM_COUNTERS], nrec = 0;   /* 2n: backend read */
	char err[256];
	int hard;

	/* The armed counters that overflowed are those whose count reached
	 * ovf_at (after accumulate below: the counts decide, not the OVF
	 * flags, which a handler running in between could clear). */
	if ((in_isr && p4nb_backend->enable(c->regs, c->n, 0, err, sizeof(err))) ||
	    p4nb_backend->read(c->regs, c->n, raw, err, sizeof(err))) {
		p4nb_report("overflow interrupt", err);
		return;
	}
	/* PEBS records: each one took the counter from the overflow back to
	 * the reset value R = 2^40 - T.  From last L to raw through nrec
	 * reloads: (2^40 - L) + (nrec - 1) T + (raw - R) = nrec T + raw - L,
	 * where raw - L may be negative (so not the masked delta of
	 * accumulate(), which would add 2^40). */
	if (c->pebs_h >= 0 && c->ds) {
		int p = c->pebs_h;

		nrec = (c->ds[5] - c->ds[4]) / (PEBS_REC_WORDS * sizeof(uint64_t));
		if (nrec > PEBS_NREC)
			nrec = 0;
		if (nrec) {
			uint64_t now = raw[p] & NB_COUNTER_MASK;

			c->hwcount[p] += (long long)(nrec * c->threshold[p]) +
					 ((long long)now - (long long)c->last[p]);
			c->last[p] = now;
		}
	}
	if (p4nb_accumulate(c) != PAPI_OK) {
		p4nb_report("overflow interrupt", "the counters cannot be read");
		return;
	}
	for (int h = 0; h < c->n; h++)
		if (((c->hw_ovf >> h) & 1) && h != c->pebs_h && c->hwcount[h] >= c->ovf_at[h]) {
			which |= 1u << h;
			/* deferred out of a read: an overflow past what the
			 * read returned is dispatched with the next PMI, or
			 * not at all if the set stops first (PAPI_stop reads
			 * before it stops: its events after the read are in
			 * no count PAPI returns) */
			if (!in_isr && c->read_hw[h] < c->ovf_at[h])
				carry |= 1u << h;
		}
	if (p4nb_preset_ex(c, which, 1, err, sizeof(err)) ||
	    (in_isr && p4nb_backend->enable(c->regs, c->n, 1, err, sizeof(err)))) {
		p4nb_report("overflow interrupt", err);
		return;
	}
	/* one dispatch per PEBS record, with its precise address (RIP) */
	for (uint64_t k = 0; k < nrec; k++) {
		const uint64_t *rec = (const uint64_t *)(uintptr_t)c->ds[4] + k * PEBS_REC_WORDS;
		uint32_t pv = 0;

		for (int i = 0; i < c->nnat; i++)
			if (((c->ovf >> i) & 1) && c->hw_of[i] == c->pebs_h)
				pv |= 1u << i;
		hard = 1;
		_papi_hwi_dispatch_overflow_signal(hw, (vptr_t)(uintptr_t)rec[1], &hard,
						   (long long)pv, 0, &thread, cidx);
	}
	if (nrec)
		c->ds[5] = c->ds[4];
	/* overflow vector: the natives (PAPI positions) on those counters */
	disp = (which & ~carry) | c->ovf_carry;
	c->ovf_carry = carry;
	for (int i = 0; i < c->nnat; i++)
		if (((c->ovf >> i) & 1) && ((disp >> c->hw_of[i]) & 1))
			vec |= 1u << i;
	if (vec) {
		hard = 1;
		_papi_hwi_dispatch_overflow_signal(hw, pc, &hard, (long long)vec, 0, &thread, cidx);
	}
	if (!in_isr && c->running && p4nb_backend->enable(c->regs, c->n, 1, err, sizeof(err)))
		p4nb_report("overflow interrupt", err);
}

