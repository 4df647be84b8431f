/*
 * nb_backend.h - how the component reaches a NetBurst PMU.
 *
 * One small interface, three implementations: "sim" (client requests into
 * nbsim), "msr" (/dev/cpu/N/msr) and "perf" (perf_event_open with the
 * kernel's P4 raw config).  All take the register images the encoder made.
 *
 * R, in the calls on an event set (program, enable, read, zero,
 * set_counters, cpu_wide, release), is that set's own register array
 * (its control state's, nb_comp.h), the same array in every call from
 * program() to release(): a backend that keeps state per set finds it
 * by R (perf: the set's open events, as PAPI's perf_event component
 * keeps them in its control state), so that one thread may run several
 * sets at once.
 */
#ifndef NB_BACKEND_H
#define NB_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include "nb_encode.h"

struct nb_cpu {
	unsigned family, model, stepping, mhz, ht;
	unsigned l3;             /* the part has an on-die L3 cache */
	/* HT: each LP's sets use only its half of the registers (nbsim
	 * --nbsim-ht-place=migrate moves threads between the LPs and
	 * re-targets their registers to the mirror half) */
	unsigned ht_halves;
	char model_name[32];
	char brand[64];
};

#define NB_BACKEND_CONFLICT (-2)

struct nb_backend {
	const char *name;
	/* 0 if this backend can be used; else a reason in WHY. */
	int (*probe)(struct nb_cpu *cpu, char *why, size_t len);
	/* Write ESCRs and CCCRs (Enable clear) and zero the counters.  -1
	 * with the reason in ERR; NB_BACKEND_CONFLICT if the registers
	 * cannot be had beside the others of the set (the perf backend: the
	 * kernel's own placement refused it). */
	int (*program)(const struct nb_regs *r, int n, char *err, size_t len);
	/* Optional: would program() place R[0..n-1] together?  Asked when
	 * the event set changes, so that PAPI_add_event refuses what
	 * PAPI_start could not count (PAPI's software multiplexing tests
	 * each event beside PAPI_TOT_CYC by adding it, and asserts that the
	 * start succeeds).  NB_BACKEND_CONFLICT with the reason in ERR, or 0
	 * (other failures are left to program()).  NULL: the component's
	 * own placement is the backend's. */
	int (*check)(const struct nb_regs *r, int n, char *err, size_t len);
	/* Optional: can this backend count SEL[0..n-1], placed by our
	 * scheduler as A, at all, whatever else runs?  (The perf backend:
	 * a raw config for each, no helper ESCR, nb_perf_raw_why.)  0, or
	 * NB_BACKEND_CONFLICT with the reason in the user's terms and what
	 * would count them in WHY.  Asked when the event set changes and
	 * again by PAPI_start, before program(); NULL: everything the
	 * scheduler places. */
	int (*refuse)(const struct nb_evsel *sel, int n, const struct nb_assign *a,
		      char *why, size_t len);
	/* Set or clear the CCCR Enable bits. */
	int (*enable)(const struct nb_regs *r, int n, int on, char *err, size_t len);
	/* Raw 40-bit counter values: raw[i] of r[i]'s counter; RAW has room
	 * for 2N values, raw[N + i] the alternate counter of a cascaded pair
	 * r[i] (0 if not cascaded). */
	int (*read)(const struct nb_regs *r, int n, uint64_t *raw, char *err, size_t len);
	/* Set counters to zero (a cascaded pair: also stopped, OVF clear;
	 * enable starts it again). */
	int (*zero)(const struct nb_regs *r, int n, char *err, size_t len);
	/* Write other PMU MSRs: helper ESCRs of tagged metrics,
	 * IA32_PEBS_ENABLE, MSR_PEBS_MATRIX_VERT (nb_encode_extra). */
	int (*write_msrs)(const struct nb_msr_image *w, int n, char *err, size_t len);
	/* Logical processor (0 or 1) the calling thread runs on, for the
	 * T0/T1 ESCR bits under Hyper-Threading; NULL: always 0. */
	unsigned (*thread_lp)(void);

	/* Hardware overflow, optional: a backend without them (NULL) leaves
	 * overflow to PAPI's software emulation (cmp_info.hardware_intr 0). */
	/* Deliver counter-overflow interrupts (CCCR OVF_PMI_T0) to the
	 * running thread as signal SIG; 0: deliver none. */
	int (*pmi_signal)(int sig, char *err, size_t len);
	/* Put back the registers as the backend found them: those the
	 * calling thread changed (stop), or ALL (PAPI's shutdown); optional:
	 * NULL if the backend owns nothing shared. */
	void (*restore)(int all);
	/* Write raw 40-bit values (presets) into the counters of R[i] for
	 * each bit i of MASK: RAW[i]. */
	int (*set_counters)(const struct nb_regs *r, int n, uint32_t mask, const uint64_t *raw,
			    char *err, size_t len);

	/* Optional: R's counters count by CPU, every thread that runs on
	 * it (on = 1; PAPI_GRN_SYS), or by the calling thread again (on =
	 * 0).  NULL: the backend counts one way only. */
	int (*cpu_wide)(const struct nb_regs *r, int n, int on, char *err, size_t len);
	/* Optional: the next program() of the calling thread opens counters
	 * that child threads and processes created afterwards inherit, their
	 * counts added to these when they exit (on = 1; PAPI_INHERIT), or
	 * not (0).  NULL: no inheritance (cmp_info.inherit 0). */
	void (*set_inherit)(int on);
	/* Optional: the next program() of the calling thread opens counters
	 * on task TID (PAPI_attach: another process or thread; 0: the
	 * calling thread).  NULL: no attaching (cmp_info.attach 0). */
	void (*set_attach)(int tid);
	/* Optional: the set R no longer counts (its stop, or a start that
	 * failed after program()): what the backend holds for it is given
	 * back (perf: its descriptors closed).  NULL: nothing per set. */
	void (*release)(const struct nb_regs *r, int n);
};

extern const struct nb_backend nb_backend_sim, nb_backend_msr, nb_backend_perf;

/* The CPU we run on natively (CPUID), if it is a NetBurst: 0; else -1 and
 * the reason in WHY.  For the msr and perf backends. */
int nb_native_cpu(struct nb_cpu *cpu, char *why, size_t len);

#endif
