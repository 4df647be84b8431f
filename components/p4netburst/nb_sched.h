/*
 * nb_sched.h - place NetBurst events and tagged metrics on ESCRs and
 * counters.
 *
 * A pure function: no I/O, no PAPI types.  Exact: it finds a placement
 * whenever one exists (tests/unit/t_sched_oracle.t checks it against a brute
 * force search), and otherwise names the events and the resource they
 * compete for.
 *
 * The constraints [SDM 18.15 and Table 18-63; DESIGN.md]:
 *  - an event uses one of the ESCRs its table entry lists that exist on the
 *    CPU model, and one counter wired to that ESCR; one event per counter;
 *  - an ESCR holds one configuration (event select, event mask, privilege
 *    bits, tag bits); requests whose ESCR images are identical may share
 *    it (CCCR-side modifiers are per counter and do not matter);
 *  - counter 1 is avoided unless NB_SCHED_ALLOW_CTR1 (the CCCR1 enable-bit
 *    erratum; Linux never uses it);
 *  - a tagged metric (nb_metrics) needs its counting event on a counter
 *    plus its helper ESCRs (no counter), programmed with the same privilege
 *    bits;
 *  - replay metrics set IA32_PEBS_ENABLE / MSR_PEBS_MATRIX_VERT, which are
 *    shared: every replay metric of the set (and the sibling's) must want
 *    the same values [SDM replay tagging; seed 003 sec. 9];
 *  - front-end tagging marks uops of one kind: front_end_event NBOGUS counts
 *    every tagged uop, so one front-end metric at a time;
 *  - execution metrics each get a TagValue bit 0..3 (the SDM uses bit 0
 *    for every metric; any bit n with execution_event NBOGUSn works), a
 *    different one per metric, so up to four (ESCRs permitting);
 *  - an upstream event the user tags (libpfm4's x87_FP_uop:ALL:TAG1:
 *    nb_evsel .tag) counts on its own counter, and its ESCR carries
 *    TagEnable and the TagValue as given, never renumbered; the metrics'
 *    tag bits avoid the user's.  Refused, with the reason: two requests
 *    tagging different uops (event or masks) with TagValues that overlap
 *    but differ (execution_event NBOGUSn would count a mix neither asked
 *    for alone; equal values are counted together, as PAPI's netburst
 *    PAPI_FP_OPS does, disjoint ones apart); and a mispairing: a TagValue
 *    none of whose bits an execution_event request selects while an
 *    execution_event request selects none of the TAGn bits (x87_FP_uop:
 *    ALL:TAG1 with execution_event:NBOGUS0; either alone is a set still
 *    being built, accepted);
 *  - with a precise (PEBS) request, one tagging mechanism at a time
 *    [SDM 18.15.7];
 *  - a precise request counts on the PEBS counter of the logical
 *    processor (cpu->thread): counter 16, MSR_IQ_COUNTER4, on LP0, 17,
 *    MSR_IQ_COUNTER5, on LP1 [SDM 18.16.3: PEBS "only with two performance
 *    counters: MSR_IQ_CCCR4 ... for logical processor 0 and MSR_IQ_CCCR5
 *    ... for logical processor 1"; seed 003 sec. 3.2 names 16 alone],
 *    through an ESCR wired to it; so at most one precise request per
 *    call;
 *  - a cascaded request (cascade modifier) takes a counter pair: a low
 *    counter L and H with alt(H) = L (nb_sched_cascade_alt), each fed by
 *    an ESCR wired to it carrying the request's configuration (the two
 *    ESCRs are in different halves; either may be shared by identical
 *    configurations as above).
 *
 * Hyper-Threading: ESCRs and CCCRs are shared by the two logical
 * processors; each programs its own T0/T1 bits.  An ESCR in use by the
 * sibling thread cannot also count for us (its output would mix both
 * threads' events), so what the sibling uses is input: its ESCRs, counters
 * and PEBS MSR values are reserved.
 */
#ifndef NB_SCHED_H
#define NB_SCHED_H

#include <stddef.h>
#include "nb_evsel.h"

#define NB_SCHED_ALLOW_CTR1 0x1   /* allow counter 1 (CCCR1 erratum: off by default) */

#define NB_SCHED_MAX 18            /* requests per call (= counters)  */
#define NB_SCHED_PEBS_COUNTER 16   /* MSR_IQ_COUNTER4: LP0's precise requests (+1: LP1's) [SDM 18.16.3] */
#define NB_SCHED_MAX_HELPERS 36

/* Where one request counts: its counter, the ESCR feeding it and that
 * ESCR's configuration (for a metric: the counting event and the masks
 * resolved for its tag). */
struct nb_slot {
	uint8_t escr;            /* index into nb_escrs    */
	uint8_t counter;         /* 0..17                  */
	uint8_t tag;             /* TagValue bit 0..3 in the ESCR, or NB_NO_TAG */
	uint8_t cascade;         /* 1: a cascaded pair (below); 0: one counter */
	uint16_t event;          /* index into nb_events   */
	uint16_t masks;          /* event-mask bits        */
	/* Cascaded pair (request with NB_CCCR_MOD_CASCADE): COUNTER is the
	 * low counter (Enable set), HI_COUNTER the counter whose alternate
	 * it is (Cascade set, Enable clear: counts while COUNTER's OVF is
	 * set), fed by HI_ESCR with the same configuration.  Zero otherwise. */
	uint8_t hi_escr;
	uint8_t hi_counter;
	/* TagValue the request gives its ESCR (struct nb_evsel .tag: libpfm4's
	 * TAGn), kept as given; 0: TagEnable clear (metrics' helpers carry
	 * their tags in nb_helper_slot). */
	uint8_t tag_value;
	uint8_t pad[1];
};

/* The alternate of counter C: the counter whose overflow starts C when
 * C's CCCR has Cascade set, or -1 [SDM 18.15.5.6, 18.15.6.5; seed 003:
 * counter 0<->2, 1<->3 in each group of four (ESCR halves), IQ 12<->14,
 * 13<->15, 16 from 14, 17 from 15; sim/pmu/nb_filter.c nb_cascade_alternate
 * models the same].  A cascaded pair always spans both ESCR halves. */
int nb_sched_cascade_alt(unsigned c);

/* An ESCR a metric needs without a counter. */
struct nb_helper_slot {
	uint8_t escr;            /* index into nb_escrs    */
	uint8_t tag;             /* TagValue bit, or NB_NO_TAG (TagEnable clear) */
	uint8_t mods;            /* privilege modifiers (NB_MOD_*) of its metric */
	uint8_t owner;           /* request index          */
	uint16_t event;          /* index into nb_events   */
	uint16_t masks;
};

struct nb_assign {
	struct nb_slot slot[NB_SCHED_MAX];
	struct nb_helper_slot helper[NB_SCHED_MAX_HELPERS];
	int nhelpers;            /* helper ESCRs not already programmed by a slot */
	uint32_t pebs_enable;    /* IA32_PEBS_ENABLE, 0 if no replay metric */
	uint32_t matrix_vert;    /* MSR_PEBS_MATRIX_VERT  */
	uint64_t escrs_used;     /* bit i: nb_escrs[i] programmed */
	uint32_t counters_used;  /* bit n: counter n */
};

/* The CPU and, under Hyper-Threading, what the sibling already uses. */
struct nb_sched_cpu {
	unsigned model;          /* CPUID family-15 model     */
	unsigned flags;          /* NB_SCHED_*                */
	unsigned thread;         /* logical processor 0 or 1 (encoder: T0/T1 bits) */
	uint64_t busy_escrs;     /* bit i: nb_escrs[i] used by the sibling */
	uint32_t busy_counters;  /* bit n: counter n used by the sibling    */
	uint32_t busy_pebs_enable;  /* sibling's replay MSR values, 0 = none */
	uint32_t busy_matrix_vert;
};

/*
 * Place N requests (N <= NB_SCHED_MAX).  Returns 0 and fills OUT, or -1
 * with a message in WHY naming the events and the contended resource; if
 * CULPRIT is not NULL it receives the index of the first request that
 * cannot join the ones before it (or -1).
 */
int nb_sched_run(const struct nb_evsel *req, int n, const struct nb_sched_cpu *cpu,
		 struct nb_assign *out, int *culprit, char *why, size_t whylen);

/* Requests that must be counted in the same run (nb_partition, nb_stat):
 * a TAGn request (nb_evsel .tag) and every execution_event request that
 * selects a bit of its TagValue, transitively: counted apart, the
 * execution_event count would miss the tagged uops.  LEAD[i] receives the
 * smallest index of request i's group (i itself when alone). */
void nb_sched_tag_bonds(const struct nb_evsel *req, int n, int *lead);

/* The mispairing nb_sched_run refuses (a TAGn value no execution_event
 * request counts beside an execution_event request counting no TAGn
 * value), over a whole set that may be split into runs (nb_partition,
 * nb_stat), where splitting would hide it.  0, or -1 and the reason. */
int nb_sched_tag_pairing(const struct nb_evsel *req, int n, char *why, size_t len);

/* Name of request SEL for messages (event name with masks, or metric name). */
void nb_sched_name(const struct nb_evsel *sel, char *buf, size_t len);

/* The old entry point: no sibling, thread 0; slots only. */
int nb_schedule(const struct nb_evsel *ev, int n, unsigned model,
		unsigned flags, struct nb_slot *out, char *why, size_t whylen);

#endif
