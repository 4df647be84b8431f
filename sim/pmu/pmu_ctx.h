/*
 * pmu_ctx.h - per-thread PMU contexts: what a context switch saves and
 * restores, as Linux perf does for a per-task event.  At sched-out the
 * kernel reads the outgoing task's counters and disables them; at
 * sched-in it writes the incoming task's ESCR and CCCR (with Enable) and
 * its counter value (kernel arch/x86/events/intel/p4.c,
 * p4_pmu_enable_event / p4_pmu_disable_event; perf_event_task_sched_out /
 * _in).  Pure (no libc, no valgrind); unit-tested natively by
 * tests/unit/t_ctx.c.
 *
 * Semantics (sim/README.md "Per-thread counting"):
 *  - A context holds the registers its thread wrote: counters (a counter
 *    write or a CCCR write holds both counter and CCCR) and ESCRs, with
 *    the filter's edge state and the PMI requests not yet delivered.  While
 *    the thread is switched out they hold the thread's values; another
 *    thread sees a register it does not hold as 0 (a fresh PMU: counter 0,
 *    CCCR and ESCR clear), as a new task does under Linux.
 *  - The live registers are still one set, the package's, as on
 *    hardware: with Hyper-Threading the contexts of the two logical
 *    processors' threads are loaded at once and must not hold the same
 *    register (the component schedules each LP's event sets around the
 *    other LP's running sets).  A context may also hold registers of a
 *    stopped event set that the sibling's context uses: then the one whose
 *    counter is enabled (and the ESCR it selects) is loaded, the other
 *    keeps its saved value and gets the register back when it is free
 *    (nb_pmu_ctx.live says which held registers are loaded).
 *    IA32_PEBS_ENABLE, MSR_PEBS_MATRIX_VERT and the other non-counter MSRs
 *    stay shared.
 *  - A switch between two contexts that hold no register costs one test;
 *    otherwise it syncs the PMU once and copies the registers the two
 *    contexts hold; the counting configuration is derived again only if
 *    a loaded ESCR or CCCR value changed (threads running the same event
 *    set swap counter values only).
 *  - Counters in nb_pmu.cpu_wide (and the ESCRs in cpu_wide_escr) count by
 *    CPU: they belong to no context and count whatever thread runs
 *    (PAPI_GRN_SYS; --nbsim-pmu-ctx=cpu turns contexts off altogether).
 */
#ifndef NB_PMU_CTX_H
#define NB_PMU_CTX_H

#include "pmu.h"

struct nb_pmu_ctx {
	uint32_t used;                       /* bit c: counter+CCCR c held    */
	uint64_t used_escr;                  /* bit e: ESCR e held            */
	uint32_t live;                       /* held and loaded in the PMU    */
	uint64_t live_escr;                  /* (else the values below)       */
	uint32_t pmi_pending, pmi_pending_t1; /* undelivered PMI requests     */
	uint64_t ctr[NB_NUM_COUNTERS];
	uint64_t cccr[NB_NUM_COUNTERS];
	uint64_t escr[NB_NUM_ESCRS];
	uint8_t edge_prev[NB_NUM_COUNTERS];
};

/* A fresh context: holds nothing (a new thread's). */
void nb_pmu_ctx_init(struct nb_pmu_ctx *x);

/* The running context wrote registers: fold nb_pmu.touched into it
 * (SIB: the context loaded on the other logical processor, or NULL). */
void nb_pmu_ctx_note(struct nb_pmu *p, struct nb_pmu_ctx *run, struct nb_pmu_ctx *sib);

/* The running context is about to write the registers in CTR / ESCR
 * (bits): the sibling's values there, if loaded, are saved to it first. */
void nb_pmu_ctx_claim(struct nb_pmu *p, struct nb_pmu_ctx *sib, uint32_t ctr, uint64_t escr);

/* Does either context (or the running one's unnoted writes) hold a
 * register?  If not, nb_pmu_ctx_switch does nothing. */
int nb_pmu_ctx_holds(const struct nb_pmu *p, const struct nb_pmu_ctx *out,
		     const struct nb_pmu_ctx *in);

/*
 * Switch the live registers of a logical processor from context OUT (the
 * running one) to IN: note OUT's writes, sync (the interval so far is
 * OUT's), save the registers OUT holds, load IN's (those IN does not
 * hold: 0, or given back to SIB if it holds them).  SIB: the context
 * loaded on the other logical processor (HT), or NULL.  sig = current
 * signal values.  Returns 0 if neither context holds a register (nothing
 * done, not even the sync), else 1.
 */
int nb_pmu_ctx_switch(struct nb_pmu *p, struct nb_pmu_ctx *out, struct nb_pmu_ctx *in,
		      struct nb_pmu_ctx *sib, const uint64_t *sig);

/*
 * Context X, loaded on a logical processor, runs again after the
 * sibling's context was loaded over some of its registers (a switch on
 * the other LP while X's counter was stopped: the handler of its
 * overflow between clearing and setting Enable, say).  X takes them back
 * as a switch to X would, the value it had first: it would otherwise
 * count on from the sibling's.  Returns 1 if X had lost any, else 0.
 */
int nb_pmu_ctx_reclaim(struct nb_pmu *p, struct nb_pmu_ctx *x, struct nb_pmu_ctx *sib,
		       const uint64_t *sig);

/* Counters in MASK, and the ESCRs their CCCRs select, count by CPU (on =
 * 1: no context holds them from now on) or by thread again (on = 0: the
 * running context RUN holds them). */
void nb_pmu_ctx_cpu_wide(struct nb_pmu *p, struct nb_pmu_ctx *run, uint32_t mask, int on);

/*
 * Hyper-Threading halves and the re-targeting of a context to the other
 * logical processor.  Linux's P4 driver gives each event one ESCR and
 * counters per thread of the core (p4_event_bind_map .escr_msr[thread],
 * .cntr[thread]: the ESCR0 of a group and the counters it feeds for thread
 * 0, the ESCR1 and its counters for thread 1) and, when a task's event runs
 * on the other thread than it was configured for, swaps its T0/T1 ESCR
 * bits and OVF_PMI_T0/T1 (p4_should_swap_ts, p4_pmu_swap_config_ts).  The
 * mirror of a register is its counterpart in the other half: counter c <->
 * c ^ 2 (0-15; 16 <-> 17), an ESCR <-> the ESCR of the same group and
 * ESCRSelect that feeds the mirror counters (SSU_ESCR0 has none) [SDM Table
 * 18-63 wiring, native_events/pmu.txt].
 */
#define NB_HALF0_COUNTERS 0x13333u           /* 0,1,4,5,8,9,12,13,16   */
#define NB_HALF1_COUNTERS 0x2ccccu           /* 2,3,6,7,10,11,14,15,17 */

unsigned nb_pmu_mirror_ctr(unsigned c);
/* The mirror ESCR index of ESCR e, or -1 (none). */
int nb_pmu_mirror_escr(unsigned e);
/* ESCR (bit e) in half 0 (feeds half-0 counters) or half 1. */
uint64_t nb_pmu_half_escrs(unsigned half);
/* The value of a register moved to its mirror: ESCR T0 <-> T1 bits, CCCR
 * OVF_PMI_T0 <-> T1. */
uint64_t nb_pmu_mirror_escr_val(uint64_t v);
uint64_t nb_pmu_mirror_cccr_val(uint64_t v);
/* MSR msr seen from the other half: its mirror's address in *out and
 * the value mapping to apply (0 none, 1 ESCR, 2 CCCR); -1 if the MSR is
 * a per-half register without a mirror (SSU_ESCR0).  MSRs that are not
 * counters, CCCRs or ESCRs map to themselves. */
int nb_pmu_mirror_msr(uint32_t msr, uint32_t *out);

/* Can context x move to the other half (every register it holds has a
 * mirror; no Cascade from 16/17)?  1 or 0. */
int nb_pmu_ctx_can_mirror(const struct nb_pmu_ctx *x);
/* Move saved context x (nothing of it loaded: live == 0) to the mirror
 * registers; its PMI requests change thread.  0, or -1 (can't: x
 * unchanged). */
int nb_pmu_ctx_mirror(struct nb_pmu_ctx *x);

#endif
