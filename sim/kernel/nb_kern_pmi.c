/*
 * nb_kern_pmi.c - the emulated perf driver's sampling: the ring buffer's
 * records, the PMI's handling (p4_pmu_handle_irq: the period reloaded, the
 * sample, the wakeup and its signal), and throttling (the tick).  The
 * tool calls nb_kern_pmi through the front-ends' PMI claim (nb_front.c).
 */
#include "nb_kern_int.h"

/* ---- sampling: the PMI ---- */

/* ---- throttling: at most NBK_MAX_TICK interrupts of a sampling event
 * per tick (kernel/events/core.c: __perf_event_account_interrupt stops an
 * event past max_samples_per_tick, perf_adjust_freq_unthr_context starts
 * it again at the next tick; the default perf_event_max_sample_rate
 * 100000 at HZ 250 gives 400).  Without it a period shorter than the
 * user-mode signal handler's own count (PAPI's overflow handler, about
 * 270 instructions, on an event of instructions) interrupts again at every
 * return from the handler, and the program never gets further; Linux
 * stops such an event and the program goes on.  The tick is simulated
 * time: NBK_TICK_INS retired instructions (counted while an event samples,
 * nb_need.c), checked at each interrupt and between scheduler slices.
 * Linux's 4 ms are about 10 M instructions of a 2.8 GHz part at one per
 * cycle; a tick of 1 M makes the emulated limit ten times Linux's rate, so
 * that the tests' periods of 10,007 instructions (about 100 interrupts a
 * tick) are not throttled, as they were not before. ---- */

#define NBK_MAX_TICK 400u
#define NBK_TICK_INS 1000000u

ULong nbk_throttles, nbk_interrupts, nbk_ticks;  /* (statistics) */
static ULong tick_next;         /* instructions at which the next tick comes */

static void log_throttle(struct kobj *e, ULong now, Bool enable)
{
	nbk_rb_throttle(e, now, enable);
}

/* ---- frequency mode (attr.freq): kernel/events/core.c
 * perf_calculate_period, perf_adjust_period (a low-pass filter of 1/8),
 * at each overflow (__perf_event_account_interrupt, from the time since
 * the previous one if under two ticks) and at each tick
 * (perf_adjust_freq_unthr_context, from the count over the tick).  The
 * clock is simulated: instructions (the wrong path's too) at one per
 * cycle at the model's clock, so that the periods do not depend on the
 * host. ---- */
#define TICK_NS 4000000ULL               /* TICK_NSEC at HZ 250 */
/* What an interrupt costs the clock: the NMI's entry and exit and
 * p4_pmu_handle_irq's MSR accesses (an estimate, about 2 us on a
 * NetBurst).  nbsim's PMI takes no simulated time; without this the time
 * between two overflows at period 1 is a few instructions, and the first
 * adjustment makes the period thousands of times what Linux's does. */
#define NBK_PMI_NS 2000ULL

ULong nbk_sim_ns(void)
{
	ULong ins = 0;

	nb_derive();
	/* INSTR_RETIRED's four masks: the wrong path's instructions take
	 * time too */
	for (unsigned m = 0; m < 4; m++)
		ins += (ULong)nb_sig[NB_SIG(NB_EV_INSTR_RETIRED, m)];
	return ins * 1000ULL / (nb_cpu->mhz ? nb_cpu->mhz : 1000) + nbk_interrupts * NBK_PMI_NS;
}

/* COUNT events in NS nanoseconds at sample_freq: the period that gives
 * sample_freq samples a second (perf_calculate_period) */
static ULong calc_period(const struct kobj *e, ULong ns, ULong count)
{
	ULong f = e->attr.sample_freq;

	if (!ns || !f)
		return e->period;
	/* count * 10^9 / (ns * f), without overflow for the counts here */
	while (count > (~0ULL) / 1000000000ULL) {
		count >>= 1;
		ns >>= 1;
		if (!ns)
			return e->period;
	}
	return count * 1000000000ULL / (ns * f > 0 ? ns * f : 1);
}

static void adjust_period(struct kobj *e, ULong ns, ULong count)
{
	Long delta = (Long)(calc_period(e, ns, count) - e->period);
	ULong p;

	delta = (delta + 7) / 8;
	p = (ULong)((Long)e->period + delta);
	if (!p || (Long)p < 0)
		p = 1;
	if (p > MAX_PERIOD)
		p = MAX_PERIOD;
	e->period = p;
	/* far from the new period: start it now (period_left 0) */
	if (e->left > 8 * (Long)p) {
		e->left = (Long)p;
		e->prev = (ULong)(-e->left) & CTR_MASK;
		if (e->active) {
			nbk_wr(nb_counters[e->counter].msr, e->prev);
			nbk_wr(nb_counters[e->counter].msr, e->prev);
		}
	}
}

static void freq_overflow(struct kobj *e)
{
	ULong now = nbk_sim_ns(), delta = now - e->freq_stamp;
	ULong last = e->period;

	/* the first: freq_time_stamp 0, the kernel's delta from boot is
	 * beyond two ticks */
	if (!e->freq_stamp)
		delta = 2 * TICK_NS;
	e->freq_stamp = now;
	if (delta > 0 && delta < 2 * TICK_NS)
		adjust_period(e, delta, last);
}

/* instructions retired so far (the tick's clock) */
static ULong tick_clock(void)
{
	nb_derive();
	return (ULong)(nb_sig[SIG_INSTR] + nb_sig[SIG_INSTR_TAG]);
}

/* A tick when the clock has passed it: interrupt counts start again, and
 * throttled events come back (those of the thread on the PMU at once, the
 * others when their thread runs).  1 if one came back. */
Bool nbk_tick(ThreadId tid, ULong now)
{
	ULong ins = tick_clock();
	Bool back = False;

	if (ins < tick_next)
		return False;
	tick_next = ins + NBK_TICK_INS;
	nbk_ticks++;
	for (int i = 0; i < NOBJ; i++) {
		struct kobj *e = &ko[i];
		if (e->kind != K_PERF)
			continue;
		e->interrupts = 0;
		/* perf_adjust_freq_unthr_context: the count over the tick */
		if (e->attr.freq && e->active && !e->throttled) {
			ULong d;

			nbk_sync(e);
			d = e->count - e->freq_count;
			e->freq_count = e->count;
			/* over the simulated time since the last tick's (Linux's
			 * TICK_NSEC: its ticks are regular, the emulated one is
			 * seen at an interrupt or between slices) */
			ULong t = nbk_sim_ns(), dt = t - e->freq_tick;

			e->freq_tick = t;
			if (d > 0 && dt > 0)
				adjust_period(e, dt, d);
		}
		if (!e->throttled)
			continue;
		e->throttled = False;
		back = True;
		log_throttle(e, now, True);
		if (e->owner == tid && on_pmu == tid && nbk_counts(e))
			nbk_sched_in(e, now);
	}
	return back;
}

static void throttle(struct kobj *e, ULong now)
{
	nbk_interrupts++;
	(void)nbk_tick(VG_(get_running_tid)(), now);
	if (++e->interrupts <= NBK_MAX_TICK || e->throttled)
		return;
	log_throttle(e, now, False);
	nbk_sched_out(e, now);
	e->throttled = True;
	nbk_throttles++;
}

void nb_kern_tick(ThreadId tid)
{
	Bool any = False;

	if (!nperf)
		return;
	for (int i = 0; i < NOBJ && !any; i++)
		any = ko[i].kind == K_PERF && ko[i].throttled;
	if (any && nbk_tick(tid, nbk_now_ns())) {
		nb_pmu_written(NB_PMU_NO_WRITE);
	}
}

/* kill_fasync: the F_SETSIG signal with si_fd (rt_tgsigqueueinfo to this
 * process, where any si_code is allowed); SIGIO without F_SETSIG. */
static Bool signal_owner(struct kobj *e, Int code)
{
	vki_siginfo_t si;
	Int sig = e->sig ? e->sig : VKI_SIGIO;
	Int pid = nb_pid();
	Int tid = e->own_type == 0 ? e->own : e->lwpid;

	if (!e->async || !e->own)
		return False;
	VG_(memset)(&si, 0, sizeof si);
	si.si_signo = sig;
	si.si_code = code;
	si._sifields._sigpoll._band = code == 1 ? 0x41 /* POLLIN|POLLRDNORM */ : 0x10 /* POLLHUP */;
	si._sifields._sigpoll._fd = e->fd;
	(void)VG_(do_syscall)(297 /* rt_tgsigqueueinfo */, (UWord)pid, (UWord)tid, (UWord)sig,
			      (UWord)&si, 0, 0, 0, 0);
	return tid == VG_(gettid)();
}

uint32_t nb_kern_pmi(uint32_t pend, unsigned lp, Addr ip, int *here)
{
	uint32_t took = 0;
	ULong now;

	if (!nbk_sampling_on || !pend)
		return 0;
	now = nbk_now_ns();
	for (int i = 0; i < NOBJ; i++) {
		struct kobj *e = &ko[i];
		/* an inherited copy wakes and signals through its original
		 * (perf_event_fasync: only the parent has fasync state) */
		struct kobj *o = e->parent >= 0 ? &ko[e->parent] : e;
		Int code = 1;                  /* POLL_IN */

		if (e->kind != K_PERF || !e->active || !nbk_sampling(e) || e->thread != lp ||
		    !((pend >> e->counter) & 1))
			continue;
		took |= 1u << e->counter;
		/* p4_pmu_handle_irq: clear OVF, update the count, set the next
		 * period (the counter reloaded with -left), then the overflow */
		nbk_sync(e);
		nbk_wr(nb_counters[e->counter].cccr_msr,
		    nbk_rd(nb_counters[e->counter].cccr_msr) & ~(uint64_t)NB_CCCR_OVF);
		if (e->left > 0)
			continue;              /* not this one's period yet */
		if (e->left <= -(Long)e->period)
			e->left = (Long)e->period;
		else
			e->left += (Long)e->period;
		e->prev = (ULong)(-e->left) & CTR_MASK;
		nbk_wr(nb_counters[e->counter].msr, e->prev);
		nbk_wr(nb_counters[e->counter].msr, e->prev);
		nbk_rb_sample(e, ip, now);
		throttle(e, now);
		if (e->attr.freq)
			freq_overflow(e);
		if (e->limit > 0 && --e->limit == 0) {
			code = 6;              /* POLL_HUP: the event is disabled */
			nbk_sched_out(e, now);
			e->enabled = False;
		}
		/* a wakeup (and its signal) needs the ring buffer; the refresh limit
		 * signals without */
		if (code == 6 || (o->rb && !e->rpid &&
				  ++o->wakeups >= (o->attr.wakeup_events ? o->attr.wakeup_events : 1))) {
			o->wakeups = 0;
			if (!e->rpid && signal_owner(o, code))
				*here = 1;
		}
	}
	nb_pmu_written(NB_PMU_NO_WRITE);
	return took;
}

