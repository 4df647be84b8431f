/*
 * nb_kern_sched.c - the emulated perf driver's PMU side: an event's
 * registers written when it comes on the PMU and cleared when it leaves
 * (arch/x86/events/intel/p4.c p4_pmu_enable_event, p4_pmu_disable_event),
 * its count and times kept across, the events of the running thread
 * placed on the counters by the shared model of the kernel's policy, and
 * the thread switch.  The objects and the request: nb_kern.c.
 */
#include "nb_kern_int.h"

void nbk_wr(uint32_t msr, uint64_t v)
{
	(void)nb_wrmsr_req(msr, v);
}

uint64_t nbk_rd(uint32_t msr)
{
	uint64_t v = 0;

	(void)nb_rdmsr_req(msr, &v);
	return v;
}

Bool nbk_sampling(const struct kobj *e)
{
	return e->attr.freq ? e->attr.sample_freq != 0 : e->attr.sample_period != 0;
}

Bool nbk_counts(const struct kobj *e)
{
	return e->enabled && ko[e->leader].enabled && e->counter >= 0 && !e->throttled;
}

/* The times advance while the event's task is on the CPU (Linux's
 * context time: a task event's enabled and running times stop while its
 * task is switched out, kernel/events/core.c update_context_time), so an
 * event on the PMU whenever its thread runs has enabled == running and
 * perf scales nothing.  An event on another process: its times are the
 * target's reports. */
void nbk_upd_times(struct kobj *e, ULong now)
{
	if (e->enabled && !e->tpid && e->owner && e->owner == on_pmu && ko[e->leader].enabled) {
		e->t_enabled += now - e->t_stamp;
		if (e->active)
			e->t_running += now - e->t_stamp;
	}
	e->t_stamp = now;
}

/* Fold the counter into the count (an active event). */
void nbk_sync(struct kobj *e)
{
	ULong cur, d;

	if (!e->active)
		return;
	cur = nbk_rd(nb_counters[e->counter].msr) & CTR_MASK;
	d = (cur - e->prev) & CTR_MASK;
	e->count += d;
	e->left -= (Long)d;
	e->prev = cur;
}

uint32_t nbk_cccr_of(const struct kobj *e)
{
	const struct nb_kp4_event *b = &nb_kp4_events[NB_KP4_EVENT(e->config)];
	/* p4_default_cccr_conf: ActiveThread ANY; the reserved bits 0-11 (the
	 * metric) never reach the register; Enable set by the caller */
	uint32_t c = (NB_KP4_CCCR(e->config) & ~0xfffu) | 0x30000u | ((uint32_t)b->escrsel << 13);

	/* the kernel always sets OVF_PMI (max period 2^39 - 1 when counting);
	 * here only sampling events interrupt */
	if (nbk_sampling(e))
		c |= e->thread ? NB_CCCR_OVF_PMI_T1 : NB_CCCR_OVF_PMI_T0;
	return c;
}

/* The tool must send PMIs without NBSIM_REQ_PMI_SIGNAL while an event
 * samples, and count retired instructions for the tick (throttling). */
void nbk_set_sampling(Bool on)
{
	nbk_sampling_on = on;
	nb_pmi_front = on;
	nb_need_front = on ? NEED_INSTR : 0;
}

void nbk_sched_in(struct kobj *e, ULong now)
{
	const struct nb_kp4_event *b = &nb_kp4_events[NB_KP4_EVENT(e->config)];
	uint32_t escr = NB_KP4_ESCR(e->config) & ~(0x7e000000u | 0xfu);
	unsigned m = NB_KP4_METRIC(e->config);
	ULong v = 0;

	nbk_upd_times(e, now);
	if (nbk_sampling(e))
		nbk_set_sampling(True);             /* before the writes: nb_pmu_written */
	escr |= (uint32_t)b->select << 25;      /* the real event select */
	if (!e->attr.exclude_user)
		escr |= e->thread ? NB_ESCR_T1_USR : NB_ESCR_T0_USR;
	if (!e->attr.exclude_kernel)
		escr |= e->thread ? NB_ESCR_T1_OS : NB_ESCR_T0_OS;
	if (nbk_sampling(e)) {
		/* x86_perf_event_set_period */
		if (e->left <= -(Long)e->period)
			e->left = (Long)e->period;
		else if (e->left <= 0)
			e->left += (Long)e->period;
		if ((ULong)e->left > MAX_PERIOD)
			e->left = (Long)MAX_PERIOD;
		v = (ULong)(-e->left) & CTR_MASK;
	}
	nbk_wr(nb_counters[e->counter].msr, v);
	nbk_wr(nb_counters[e->counter].msr, v);    /* erratum N15: twice, as p4_pmu_set_period */
	if (m) {
		nbk_wr(NB_MSR_IA32_PEBS_ENABLE, nb_kp4_pebs[m].pebs_enable);
		nbk_wr(NB_MSR_MSR_PEBS_MATRIX_VERT, nb_kp4_pebs[m].matrix_vert);
	}
	nbk_wr(e->escr, escr);
	nbk_wr(nb_counters[e->counter].cccr_msr, nbk_cccr_of(e) | NB_CCCR_ENABLE);
	e->prev = v;
	e->active = True;
}

void nbk_sched_out(struct kobj *e, ULong now)
{
	if (!e->active)
		return;
	nbk_sync(e);
	nbk_upd_times(e, now);
	/* p4_pmu_disable_event: Enable and OVF clear */
	nbk_wr(nb_counters[e->counter].cccr_msr, nbk_cccr_of(e) & ~(NB_CCCR_ENABLE | NB_CCCR_OVF));
	e->active = False;
}

void nbk_sched_out_all(ULong now)
{
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_PERF)
			nbk_sched_out(&ko[i], now);
	nbk_set_sampling(False);
}

void nbk_sched_in_thread(ThreadId tid, ULong now)
{
	for (int i = 0; i < NOBJ; i++) {
		struct kobj *e = &ko[i];

		if (e->kind == K_PERF) {
			nbk_upd_times(e, now);
			if (e->owner == tid && (e->parent >= 0 || e->rpid))
				e->lwpid = VG_(gettid)();   /* a copy: its thread's */
			if (e->owner == tid && nbk_counts(e))
				nbk_sched_in(e, now);
		}
	}
	on_pmu = tid;
}

/* Take the running thread's events off the PMU and put them back (after
 * a change of state or placement). */
void nbk_resched(ULong now)
{
	ThreadId t = VG_(get_running_tid)();

	nbk_sched_out_all(now);
	nbk_sched_in_thread(t, now);
	nb_pmu_written(NB_PMU_NO_WRITE);
}

Bool nb_kern_quiet(void)
{
	return !nperf;
}

void nb_kern_switch(ThreadId tid)
{
	if (!nperf || tid == on_pmu)
		return;
	nb_pmu_access();
	{
		ULong now = nbk_now_ns();

		nbk_sched_out_all(now);
		nbk_sched_in_thread(tid, now);
	}
	nb_pmu_written(NB_PMU_NO_WRITE);
}

/* Place all events of thread OWNER group by group in open order: a group
 * that does not fit beside the groups before it gets no counters (it is
 * enabled but never runs; the kernel would rotate it in). */
void nbk_place_thread(ThreadId owner)
{
	uint64_t cfg[NB_NUM_COUNTERS];
	int assign[NB_NUM_COUNTERS], who[NB_NUM_COUNTERS], n = 0;
	uint32_t escr[NB_NUM_COUNTERS];
	ULong last = 0;

	for (;;) {
		int l = -1, k = n;

		/* the next leader in open order */
		for (int i = 0; i < NOBJ; i++)
			if (ko[i].kind == K_PERF && ko[i].owner == owner && ko[i].leader == i &&
			    ko[i].seq > last && (l < 0 || ko[i].seq < ko[l].seq))
				l = i;
		if (l < 0)
			break;
		last = ko[l].seq;
		for (ULong s = 0, done = 0; !done;) {   /* leader then members by seq */
			int m = -1;

			for (int i = 0; i < NOBJ; i++)
				if (ko[i].kind == K_PERF && ko[i].leader == l && ko[i].seq > s &&
				    (m < 0 || ko[i].seq < ko[m].seq))
					m = i;
			if (m < 0) {
				done = 1;
				break;
			}
			s = ko[m].seq;
			ko[m].counter = -1;
			if (k < NB_NUM_COUNTERS) {
				cfg[k] = ko[m].config;
				who[k++] = m;
			}
		}
		if (nb_kp4_place(cfg, k, ko[l].thread, assign, escr) == k) {
			for (int j = n; j < k; j++) {
				ko[who[j]].counter = assign[j];
				ko[who[j]].escr = escr[j];
			}
			n = k;
		}
	}
}


