/*
 * pmu.h - register model of the NetBurst performance-monitoring unit.
 *
 * A pure module: no libc, no valgrind.  It is compiled into the nbsim tool
 * and into the native unit test (tests/unit/t_pmu.c).
 *
 * Lazy design.  The CPU model does not talk to the PMU per instruction: it
 * accumulates "signals", one monotonically increasing uint64_t per
 * (event, event-mask bit) that the model produces, NB_SIG(ev, bit).  The PMU
 * remembers the signal values at the last synchronisation; on any register
 * access (and whenever the caller asks) nb_pmu_sync() folds the signal
 * deltas into every counter that is counting.  Because the configuration
 * only changes at register accesses, which sync first, counts are exact.
 *
 * The signal NB_SIG(NB_EV_GLOBAL_POWER_EVENTS, 0) (RUNNING) is the cycle
 * count; the CCCR threshold filter uses it as the number of clock cycles.
 *
 * Per-cycle counting.  Counters whose CCCR filters per cycle (Compare) or
 * cascades (Cascade, or the alternate of a cascaded counter) need the ESCR
 * output of every cycle.  A CPU model that defines its cycles says so with
 * nb_pmu_cycle_input(p, 1) and then reports every cycle, in order, with
 * nb_pmu_cycle() / nb_pmu_cycles_const(); those counters are then left out
 * of the lazy sync.  Without cycle input they are approximated from the
 * interval totals (README "Filtering").  nb_pmu.cycle_counters is the set
 * of such counters: a CPU model only needs to report cycles while it is
 * not empty.
 *
 * Hyper-Threading: the two logical processors (LPs) of the package share
 * the registers.  Every signal delta belongs to the LP running when it is
 * folded in (nb_pmu_set_lp syncs before switching); a counter counts it if
 * the ESCR's T<lp>_USR bit is set and the CCCR's ActiveThread condition
 * holds for the number of active LPs [SDM 18.16.1, Table "ActiveThread"].
 */
#ifndef NB_PMU_H
#define NB_PMU_H

#include "nb_events.h"
#include "nb_filter.h"

#define NB_SIG(ev, bit)  ((unsigned)(ev) * NB_MAX_MASKS + (unsigned)(bit))
#define NB_NSIG          (NB_NUM_EVENTS_MAX * NB_MAX_MASKS)
#define NB_SIG_CYCLES    NB_SIG(NB_EV_GLOBAL_POWER_EVENTS, 0)

#define NB_PMU_OK 0
#define NB_PMU_GP 1      /* the access raises #GP(0); state unchanged */

/* IA32_MISC_ENABLE as read: bit 7 performance monitoring available,
 * bit 12 PEBS unavailable = 0 (PEBS available) [SDM Vol. 3B Table B-5,
 * IA32_MISC_ENABLE; pmu.txt]. */
#define NB_MISC_ENABLE_VALUE (UINT64_C(1) << 7)

/* MSRs other than counters/CCCRs/ESCRs, in nb_msrs[] order at most this many. */
#define NB_PMU_MAX_OTHER 8

struct nb_pmu_cfg {          /* derived from CCCR + ESCR; recomputed on writes */
	uint8_t active;          /* counts something                           */
	uint8_t ev;              /* index into nb_events                       */
	uint8_t escr;            /* index into nb_escrs                        */
	uint8_t compare, complement, edge, force_ovf;
	uint8_t threshold;
	uint16_t mask;           /* event-mask bits that count                 */
	uint8_t lpmask;          /* bit lp: the ESCR's T<lp>_USR is set        */
	uint8_t at;              /* CCCR ActiveThread                          */
	uint8_t enable, cascade; /* CCCR Enable, Cascade                       */
	uint8_t percycle;        /* needs per-cycle output (see above)         */
	struct nb_filter f;
};

struct nb_pmu {
	unsigned model;          /* CPUID family-15 model                      */
	int ht;                  /* Hyper-Threading modelled                   */
	unsigned features;       /* NB_FEAT_* of the part (e.g. an L3)         */
	uint64_t escr[NB_NUM_ESCRS];
	uint64_t cccr[NB_NUM_COUNTERS];
	uint64_t ctr[NB_NUM_COUNTERS];
	uint64_t other[NB_PMU_MAX_OTHER];    /* indexed like nb_msrs[]         */
	uint64_t last[NB_NSIG];              /* signal values at the last sync:
					      * current for the signals of
					      * sync_list only (nb_pmu_sync) */
	/* the signals a sync reads (the active counters' and NB_SIG_CYCLES),
	 * whose last[] it alone keeps current (recompute); the array the last
	 * sync read, from which recompute brings a newly read signal's last[]
	 * up to date (every recompute follows a sync with the same signals) */
	uint16_t nsync;
	uint16_t sync_list[NB_NUM_COUNTERS * NB_MAX_MASKS + 1];
	const uint64_t *sigsrc;
	struct nb_pmu_cfg cfg[NB_NUM_COUNTERS];
	uint8_t edge_prev[NB_NUM_COUNTERS];  /* compare output, last cycle     */
	uint8_t rate[NB_NUM_EVENTS_MAX];     /* max event count per cycle      */
	uint64_t events_in_use;              /* bit ev: an active counter needs it */
	unsigned lp;                         /* LP whose events are folded in   */
	unsigned lp_active;                  /* bit lp: LP lp is active         */
	int cycle_input;                     /* the CPU model reports cycles    */
	uint32_t cycle_counters;             /* bit c: counter c is per-cycle   */
	uint64_t cbase[NB_NSIG];             /* signal values at the last cycle */
	uint64_t cused[(NB_NSIG + 63) / 64]; /* signals per-cycle counters read */
	/* the same as lists, for the per-cycle path (recompute) */
	uint8_t ncyc, cyc_cascade;           /* per-cycle counters; any cascaded */
	uint8_t cyc_list[NB_NUM_COUNTERS];
	uint8_t ncsig[NB_NUM_COUNTERS];
	uint16_t csig[NB_NUM_COUNTERS][NB_MAX_MASKS];  /* signals of counter c */
	uint16_t ncused;
	uint16_t cused_list[NB_NUM_COUNTERS * NB_MAX_MASKS];
	uint32_t generation;                 /* bumped when events_in_use changes */
	uint32_t cfg_gen;                    /* bumped at every recompute and
					      * write of another MSR (PEBS) */
	uint32_t pmi_armed;      /* bit c: counter c counts with OVF_PMI_T0 set,
				  * or OVF_PMI_T1 with HT                         */
	uint32_t pmi_pending;    /* bit c: counter c overflowed with OVF_PMI_T0
				  * set since the last nb_pmu_take_pmi_lp(0)      */
	uint32_t pmi_pending_t1; /* the same for OVF_PMI_T1 (HT only)            */
	/* per-thread contexts (pmu_ctx.h): counters (counter or CCCR) and
	 * ESCRs the running context wrote since the last nb_pmu_ctx_note,
	 * and those that count by CPU (never saved with a thread) */
	uint32_t touched, cpu_wide;
	uint64_t touched_escr, cpu_wide_escr;
	uint8_t cpl0;            /* bit lp: LP lp runs its PMI handler, the
				  * interrupt service routine, at CPL 0: its
				  * events count nowhere (no OS-mode counting) */
	char fault[160];
};

/*
 * Reset state: all registers 0, signal baseline = sig (may be 0 = all zero).
 * rate[ev]: the most occurrences of event ev the model produces in one
 * cycle (used by the CCCR Compare filter); NULL = 3 (retire width) for
 * at-retirement events, 1 for the others.
 */
void nb_pmu_init(struct nb_pmu *p, unsigned model, int ht,
		 const uint8_t *rate, const uint64_t *sig);

/* CPU features (NB_FEAT_*) of the part: events/masks needing a feature the
 * part lacks count nothing.  Default after init: none. */
void nb_pmu_set_features(struct nb_pmu *p, unsigned features);

/* Register access; sig = current signal values (synced first). */
int nb_pmu_rdmsr(struct nb_pmu *p, uint32_t msr, uint64_t *val, const uint64_t *sig);
int nb_pmu_wrmsr(struct nb_pmu *p, uint32_t msr, uint64_t val, const uint64_t *sig);
int nb_pmu_rdpmc(struct nb_pmu *p, uint32_t ecx, uint64_t *val, const uint64_t *sig);
/* All NB_NUM_COUNTERS counters, as that many RDPMCs in a row read them:
 * synced once (a sync with no signal moved since the last is a no-op). */
void nb_pmu_read_all(struct nb_pmu *p, uint64_t *val, const uint64_t *sig);

/* Fold signal deltas since the last sync into the counters. */
void nb_pmu_sync(struct nb_pmu *p, const uint64_t *sig);

/* The CPU model reports cycles (1) or not (0, the default). */
void nb_pmu_cycle_input(struct nb_pmu *p, int on);

/* One cycle ends.  Its ESCR outputs: sig[s] - (sig[s] at the previous
 * cycle end) for every signal s; RUNNING (NB_SIG_CYCLES) outputs 1. */
void nb_pmu_cycle(struct nb_pmu *p, const uint64_t *sig);

/* n cycles end in which signal s outputs v per cycle, RUNNING 1 and every
 * other signal 0 (the caller has added n*v to sig[s]; the baseline of s
 * moves with it). */
void nb_pmu_cycles_const(struct nb_pmu *p, uint64_t n, unsigned s, uint64_t v);
/* The same, the baseline of s already moved by n*v (a caller that holds
 * cycles back and keeps the baseline current meanwhile) */
void nb_pmu_cycles_out(struct nb_pmu *p, uint64_t n, unsigned s, uint64_t v);

/* A run of cycles held back: n cycles in which signal s outputs v each.
 * nb_pmu_run_add extends it (or, for another output, first reports it);
 * nb_pmu_run_flush reports it as nb_pmu_cycles_const would, so a caller
 * that batches equal cycles gets the counts of reporting them one by one
 * (Edge and cascading included: nb_pmu_cycles_const's contract). */
struct nb_pmu_run {
	uint64_t n, v;
	unsigned s;
};
void nb_pmu_run_add(struct nb_pmu *p, struct nb_pmu_run *r, uint64_t n, unsigned s, uint64_t v);
void nb_pmu_run_flush(struct nb_pmu *p, struct nb_pmu_run *r);

/* Cycles held back counted by output (0 to NB_PMU_HIST_N - 1) of signal
 * s, RUNNING 1 and every other signal 0, for a caller that knows no
 * per-cycle counter has Edge or Cascade: a counter's count over a set of
 * such cycles does not depend on their order (Compare, Complement and
 * Threshold look at one cycle; OVF only sets; a PMI is the caller's to
 * rule out).  nb_pmu_hist_add moves the baseline of s at once;
 * nb_pmu_hist_flush reports them as nb_pmu_cycles_const would, the
 * output of the cycle added last last (edge_prev, which a later Edge
 * reads, as cycle by cycle). */
#define NB_PMU_HIST_N 16u
struct nb_pmu_hist {
	uint64_t n[NB_PMU_HIST_N];
	unsigned s, last, on;
};
static inline void nb_pmu_hist_add(struct nb_pmu *p, struct nb_pmu_hist *h, unsigned s,
				   unsigned v, uint64_t n)
{
	p->cbase[s] += n * v;
	h->n[v] += n;
	h->s = s;
	h->last = v;
	h->on = 1;
}
void nb_pmu_hist_flush(struct nb_pmu *p, struct nb_pmu_hist *h);

/* Hyper-Threading: sync (the interval so far belongs to the old LP), then
 * fold later deltas into LP lp; active = bit mask of the active LPs. */
void nb_pmu_set_lp(struct nb_pmu *p, unsigned lp, unsigned active, const uint64_t *sig);

/* Logical processor lp enters (on = 1) or leaves (0) its PMI handler, run
 * at CPL 0: sync (the interval so far counts as before), then LP lp's
 * deltas count in no counter until it leaves (the T<lp>_USR bits qualify
 * user-mode events only; OS-mode events are not modelled). */
void nb_pmu_set_cpl0(struct nb_pmu *p, unsigned lp, int on, const uint64_t *sig);

/*
 * Counter-overflow interrupts.  A counter whose CCCR has OVF_PMI_T0 (bit 26)
 * set requests a PMI for logical processor 0 when it overflows (the OVF flag
 * goes up), OVF_PMI_T1 (bit 27) one for logical processor 1, both bits one
 * for each [SDM 18.15.3, CCCR OVF_PMI_T0/T1; 18.16.5 "Performance
 * Monitoring Interrupt"; seed 003 CCCR layout]: nb_pmu_sync() records them
 * in pmi_pending / pmi_pending_t1.  Without HT there is no LP1: OVF_PMI_T1
 * requests nothing.  nb_pmu_take_pmi_lp returns the counters pending for
 * LP lp and clears them; nb_pmu_take_pmi is nb_pmu_take_pmi_lp(p, 0).
 */
uint32_t nb_pmu_take_pmi_lp(struct nb_pmu *p, unsigned lp);
uint32_t nb_pmu_take_pmi(struct nb_pmu *p);

/* The counter (via its MSR or its CCCR's) or ESCR at this MSR, as a bit
 * in *ctr or *escr (both 0: another MSR). */
void nb_pmu_reg_of(uint32_t msr, uint32_t *ctr, uint64_t *escr);

/* Derive the counting configuration again after CCCR bits changed
 * outside nb_pmu_wrmsr (pmu_ctx.c restores a thread's Enable bits). */
void nb_pmu_reconfigure(struct nb_pmu *p);

/* Reason of the last #GP, NUL-terminated ("" if none). */
const char *nb_pmu_fault(const struct nb_pmu *p);

/* Name of an MSR the PMU knows ("?" if unknown). */
const char *nb_pmu_msr_name(uint32_t msr);

/* Index of the ESCR at this MSR present on the model, or -1. */
int nb_pmu_escr_index(unsigned model, uint32_t msr);
/* Does ESCR escr (index) select event ev with mask bit `bit` for T0_USR? */
int nb_pmu_escr_selects(const struct nb_pmu *p, unsigned escr, unsigned ev, unsigned bit);
/* The loads blocked by the store buffer that IA32_PEBS_ENABLE value pe
 * tags as MOB replays: with bit 9, those of each mask a MOB ESCR selects
 * for MOB_load_replay (NB_PMU_MOB_PD: PARTIAL_DATA, mask bit 4;
 * NB_PMU_MOB_UA: UNALGN_ADDR, mask bit 5) [metrics.txt: SDM replay-metric
 * table, "additional ESCR: MOB_load_replay with PARTIAL_DATA and
 * UNALGN_ADDR"]. */
#define NB_PMU_MOB_PD 1u
#define NB_PMU_MOB_UA 2u
unsigned nb_pmu_mob_tags(const struct nb_pmu *p, uint64_t pe);

#endif /* NB_PMU_H */
