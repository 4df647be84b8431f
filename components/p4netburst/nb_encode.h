/*
 * nb_encode.h - placed events -> NetBurst register images, and the Linux
 * perf raw config of the kernel's P4 driver.  Pure code.
 */
#ifndef NB_ENCODE_H
#define NB_ENCODE_H

#include "nb_sched.h"

/* Privilege levels counted when the event names no u/k modifier. */
#define NB_DOM_USER   0x1
#define NB_DOM_KERNEL 0x2

/* nb_encode_ex flags */
#define NB_ENC_PMI    0x1        /* interrupt on overflow (sampling) */

struct nb_regs {
	uint32_t escr_msr;
	uint32_t cccr_msr;
	uint64_t escr;           /* ESCR value                         */
	uint64_t cccr;           /* CCCR value, Enable set             */
	uint64_t perf;           /* Linux perf raw config (nb_perf_raw) */
	uint8_t counter;
	/* A cascaded pair (slot->cascade): the alternate counter HI_COUNTER,
	 * whose CCCR has Cascade set and Enable clear (it counts while
	 * COUNTER's OVF is set), fed by its own ESCR with the same value as
	 * ESCR [SDM 18.15.5.6].  Zero otherwise. */
	uint8_t cascade;
	uint8_t hi_counter;
	uint32_t hi_escr_msr;
	uint32_t hi_cccr_msr;
	uint64_t hi_escr;
	uint64_t hi_cccr;
};

/* One MSR write besides the per-counter ESCR/CCCR pairs: a helper ESCR of
 * a tagged metric, IA32_PEBS_ENABLE, MSR_PEBS_MATRIX_VERT. */
struct nb_msr_image {
	uint32_t msr;
	uint64_t value;
};

#define NB_MSR_PEBS_ENABLE  0x3f1   /* pmu.txt */
#define NB_MSR_MATRIX_VERT  0x3f2

/* ESCR and CCCR for SEL placed at SLOT, counted on logical processor 0
 * (thread T0 bits) with default privilege levels DOM. */
void nb_encode(const struct nb_evsel *sel, const struct nb_slot *slot,
	       unsigned dom, struct nb_regs *out);

/* The same for logical processor THREAD (0/1: T0 or T1 ESCR bits,
 * OVF_PMI_T0/T1), with NB_ENC_* FLAGS.  CCCR: ESCRSelect of the slot's
 * ESCR, ActiveThread (sel's, else 11b: any), Compare/Threshold,
 * Complement, Edge from SEL's CCCR modifiers; the perf raw config of SEL
 * for the perf backend.  A cascaded slot also gets the alternate's images
 * (hi_*: Cascade, same CCCR modifiers, ESCRSelect of its own ESCR); with
 * NB_ENC_PMI the interrupt is the alternate's (the pair's) overflow. */
void nb_encode_ex(const struct nb_evsel *sel, const struct nb_slot *slot,
		  unsigned dom, unsigned thread, unsigned flags, struct nb_regs *out);

/* ESCR value for event EVENT with MASKS, TagValue bit TAG (NB_NO_TAG: no
 * tagging), privilege modifiers MODS (NB_MOD_*) over DOM, on THREAD. */
uint64_t nb_escr_value(unsigned event, unsigned masks, unsigned tag,
		       unsigned mods, unsigned dom, unsigned thread);

/* The extra MSR writes of assignment A: helper ESCRs, then the replay
 * MSRs when a replay metric is placed.  Returns how many (<= MAX). */
int nb_encode_extra(const struct nb_assign *a, unsigned dom, unsigned thread,
		    struct nb_msr_image *out, int max);

/*
 * Linux perf raw config (attr.config, PERF_TYPE_RAW) in the kernel's P4
 * format [Linux perf_event_p4.h p4_config_pack_escr/cccr, P4_CONFIG_HT,
 * P4_PEBS_CONFIG_METRIC_MASK; kernel_p4.txt]: bits 63 HT (the kernel sets
 * it itself for thread 1), 32-62 ESCR, 0-31 CCCR.  The ESCR EventSelect
 * field holds the kernel's P4_EVENTS index (nb_events[].kernel_idx), not
 * the hardware select; CCCR bits 0-6 carry the replay metric's
 * P4_PEBS_METRIC index.  The other fields are written as libpfm4 4.13
 * writes them (the kernel overwrites ESCR select/enable/OS/USR/PMI
 * itself): ESCR T0 and T1 privilege bits for DOM, event mask, tag; CCCR
 * Enable, ESCRSelect, ActiveThread 11b and the CCCR modifiers.
 * Returns 0 if the event or a metric is unknown to the kernel.
 */
uint64_t nb_perf_raw(const struct nb_evsel *sel, unsigned dom);

/* The same, and when it returns 0 the reason in the user's terms and the
 * backends that count the selection, in WHY (NULL: none).  The perf
 * backend refuses what has no raw config with this at PAPI_add_event
 * (nb_comp_sets.c) and at PAPI_start alike. */
uint64_t nb_perf_raw_why(const struct nb_evsel *sel, unsigned dom, char *why, size_t len);

/* What counts what the perf backend refuses (nb_perf_raw_why and the
 * perf backend's messages): the backends that write the registers. */
#define NB_PERF_CURE "count it with P4NETBURST_BACKEND=msr (a real NetBurst, root) or " \
	"under nbsim with its sim backend (P4NETBURST_BACKEND=sim, the default)"

/*
 * Reading a cascaded pair.  Both counters count the same events; the
 * alternate (HIGH) starts when the low counter (LOW) overflows, i.e. after
 * 2^40 events [SDM 18.15.5.6; seed 000: "the second counter does not begin
 * counting until the first counter overflows"; sim/pmu/pmu.c].  So the pair
 * holds 41 bits: events = LOW while HIGH is 0, else 2^40 + HIGH, exact
 * below 2^41 events since the counters were zeroed (one value, exactly
 * 2^40 events, reads as 0 until the next event: OVF is not read).  Beyond
 * 2^41 the pair wraps (HIGH overflows) and carries no more information.
 *
 * nb_cascade_fold keeps a 64-bit total across reads: it adds LOW's delta
 * mod 2^40 since the last read (as for one counter), except on the read
 * that first sees HIGH non-zero, where the total is 2^40 + HIGH: exact
 * whenever reads come less than 2^40 events apart, or the first read
 * comes within 2^41 events.  The total cannot pass 2^64 in practice
 * (2^64 cycles at 4 GHz: 146 years).  STATE: zero-initialise at start.
 */
struct nb_cascade_state {
	uint64_t last_low;
	uint64_t total;
	int started;             /* HIGH seen non-zero */
};

uint64_t nb_cascade_fold(struct nb_cascade_state *st, uint64_t low, uint64_t high);

#endif
