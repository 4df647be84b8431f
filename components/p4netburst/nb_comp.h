/*
 * nb_comp.h - what the files of the p4netburst PAPI component share
 * (private to components/p4netburst/; PAPI's core sees only the vector).
 *
 *   p4netburst.c       the component vector and its life: backend and CPU,
 *                      init and shutdown, options (domain, granularity)
 *   nb_comp_backend.c  the backend as the parts see it: backend, CPU and
 *                      PAPI's component info, domains, messages, refusals,
 *                      the counters folded into 64-bit totals
 *   nb_comp_names.c    native event codes: interning, enumeration, names,
 *                      descriptions
 *   nb_comp_presets.c  PAPI's preset table from native_events/presets.txt
 *   nb_comp_sets.c     event sets: placement, start, stop, read, reset
 *   nb_comp_lp.c       the registers the running sets of each logical
 *                      processor hold (Hyper-Threading), IA32_PEBS_ENABLE
 *   nb_comp_ovf.c      overflow: counter presets, the PMI's service, PEBS
 *
 * Everything below the glue (names, scheduling, encoding, backends) is in
 * the pure modules nb_evsel, nb_presets, nb_sched, nb_encode, nb_backend.
 */
#ifndef NB_COMP_H
#define NB_COMP_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "papi.h"
#include "papi_internal.h"
#include "papi_vector.h"
#include "papi_memory.h"
#include "papi_preset.h"
#include "extras.h"
#include "threads.h"

#include "nb_evsel.h"
#include "nb_sched.h"
#include "nb_presets.h"
#include "nb_encode.h"
#include "nb_backend.h"

extern papi_vector_t _p4netburst_vector;

/* The CPU the backend found, its NB_FEAT_* features, the backend
 * (nb_comp_backend.c, set by p4netburst.c's init; NULL backend: the
 * component is disabled). */
extern struct nb_cpu p4nb_cpu;
extern unsigned p4nb_cpu_feats;
extern const struct nb_backend *p4nb_backend;
/* PAPI's information on the component: &_p4netburst_vector.cmp_info (set
 * by p4netburst.c's init; nb_comp_backend.c) */
extern const PAPI_component_info_t *p4nb_info;

/* ---- interned event selections (nb_comp_names.c) ---- */

/* ENT_PRESET: slot .slot of preset .preset (sel unused).  ENT_QUAL: the
 * qualifier template .qual of the event or metric .sel (listed by
 * PAPI_NTV_ENUM_UMASKS after the masks, not countable itself).  ENT_VMASK:
 * libpfm4 virtual mask .qual (nb_events[.preset].vmasks) of event .preset,
 * listed after the masks; .sel is what "EVENT:VMASK" parses to, so it
 * counts like any name (a TAGn upstream event, or replay_event's metric
 * spellings). */
enum { ENT_BASE, ENT_UMASK, ENT_USER, ENT_PRESET, ENT_QUAL, ENT_VMASK };

struct ntv_entry {
	struct nb_evsel sel;
	int kind;
	uint16_t preset;
	uint8_t slot;
	uint8_t qual;
};

/* ---- per-eventset state ---- */

/*
 * PAPI's natives (positions 0..nnat-1, what read returns) and the hardware
 * requests behind them (0..n-1: sel, assign.slot, regs, last, hwcount) are
 * two lists: native i reads coef[i] * hwcount[hw_of[i]] (hw_of -1: 0).
 * Identical requests share one counter; a preset slot beyond its chosen
 * alternative's terms has no counter.
 */
typedef struct {
	int n;                              /* hardware requests       */
	int domain;
	struct nb_evsel sel[NB_NUM_COUNTERS];
	struct nb_assign assign;            /* from the scheduler      */
	struct nb_regs regs[NB_NUM_COUNTERS];
	struct nb_msr_image extra[NB_SCHED_MAX_HELPERS + 2]; /* helpers, PEBS MSRs */
	int nextra;
	uint64_t last[NB_NUM_COUNTERS];     /* last raw 40-bit values  */
	struct nb_cascade_state casc[NB_NUM_COUNTERS]; /* cascaded pairs' reads */
	long long hwcount[NB_NUM_COUNTERS]; /* 64-bit totals per hw request */
	int running;
	pthread_t owner;                    /* the thread that started it (running) */
	unsigned lp;                        /* logical processor (HT)  */
	int nnat;                           /* PAPI natives            */
	int8_t hw_of[NB_NUM_COUNTERS];      /* native -> hw request, -1: none */
	int8_t coef[NB_NUM_COUNTERS];
	long long count[NB_NUM_COUNTERS];   /* per native, to PAPI     */
	long long rcount[NB_NUM_COUNTERS];  /* count as nb_read read it */
	int8_t palt[NB_NUM_PRESETS_MAX];    /* alternative + 1 per preset in the set, 0: absent */
	uint32_t ovf;                       /* bit i: native i interrupts on overflow */
	uint32_t hw_ovf;                    /* bit h: hw request h does  */
	uint64_t threshold[NB_NUM_COUNTERS]; /* per hw request: its overflow threshold */
	long long ovf_at[NB_NUM_COUNTERS];  /* hwcount at which the armed counter overflows */
	volatile sig_atomic_t in_acc;       /* accumulate() under way outside the PMI handler */
	volatile sig_atomic_t pmi_deferred; /* a PMI came meanwhile: served after it */
	vptr_t deferred_pc;                 /* its interrupted PC */
	long long read_hw[NB_NUM_COUNTERS]; /* hwcount at nb_read's read */
	uint32_t ovf_carry;                 /* overflows re-armed, not yet dispatched */
	int pebs_h;                         /* hw request sampled by PEBS, -1: none */
	int grn_sys;                        /* PAPI_GRN_SYS: counts by CPU */
	int inherit;                        /* PAPI_INHERIT (backends with set_inherit) */
	int attach;                         /* PAPI_attach's task, 0 none (set_attach) */
	int held;                           /* its registers are in lp_busy */
	int tag_held;                       /* its replay tagging is counted */
					    /* in lp_busy (tag_n, pebs_n)    */
	uint64_t *ds;                       /* DS save area + PEBS buffer (PEBS_DS_WORDS) */
} nb_control_t;

/* PEBS for a precise overflowing event (sim backend, 64-bit DS format):
 * a DS save area with a one-record interrupt threshold, so that each
 * sample interrupts, and room for a few more [SDM "IA-32e Mode DS Save
 * Area", "PEBS Record Format for IA-32e mode"; sim/pmu/nb_ds.h].  The PEBS
 * counter is MSR_IQ_COUNTER4 (16) on logical processor 0, + 1 (17) on
 * logical processor 1 [SDM 18.16.3; sim/README.md PEBS]. */
#define PEBS_COUNTER   NB_SCHED_PEBS_COUNTER
#define PEBS_REC_WORDS 18                 /* 144-byte record          */
#define PEBS_NREC      8
#define PEBS_DS_WORDS  (10 + PEBS_NREC * PEBS_REC_WORDS)
#define NB_MSR_DS_AREA 0x600              /* IA32_DS_AREA (pmu.txt)   */

/* nb_comp_backend.c */
void p4nb_report(const char *what, const char *msg);
unsigned p4nb_papi_dom(int domain);
int p4nb_backend_refusal(const nb_control_t *c, int domain, const struct nb_evsel *sel, int n,
			 const struct nb_assign *a, char *why, size_t len);
int p4nb_accumulate(nb_control_t *c);

/* nb_comp_names.c */
int p4nb_lookup(unsigned code, struct ntv_entry *out);
int p4nb_intern_bases(void);
int p4nb_count_bases(void);
void p4nb_names_free(void);
int p4nb_ntv_enum_events(unsigned *code, int modifier);
int p4nb_ntv_name_to_code(const char *name, unsigned *code);
int p4nb_ntv_code_to_name(unsigned code, char *name, int len);
int p4nb_ntv_code_to_descr(unsigned code, char *descr, int len);
int p4nb_ntv_code_to_info(unsigned code, PAPI_event_info_t *info);

/* nb_comp_presets.c */
int p4nb_load_presets(int cidx);
void p4nb_preset_slot_name(unsigned p, unsigned slot, char *buf, size_t len);
void p4nb_preset_absent(unsigned p, char *buf, size_t len);

/* nb_comp_lp.c */
unsigned p4nb_this_lp(void);
void p4nb_sched_input(unsigned lp, int sys, struct nb_sched_cpu *sc);
int p4nb_claim_lp(nb_control_t *c);
void p4nb_release_lp(nb_control_t *c);
void p4nb_lp_forget(void);
int p4nb_pebs_enable_shared(nb_control_t *c, int start, char *err, size_t len);
int p4nb_lp_shared_msr(uint32_t msr);

/* nb_comp_sets.c */
int p4nb_update_control_state(hwd_control_state_t *ctl, NativeInfo_t *native, int count,
			      hwd_context_t *ctx);
int p4nb_start(hwd_context_t *ctx, hwd_control_state_t *ctl);
int p4nb_stop(hwd_context_t *ctx, hwd_control_state_t *ctl);
int p4nb_read(hwd_context_t *ctx, hwd_control_state_t *ctl, long long **events, int flags);
int p4nb_reset(hwd_context_t *ctx, hwd_control_state_t *ctl);

/* nb_comp_ovf.c */
int p4nb_preset(nb_control_t *c, uint32_t mask, char *err, size_t len);
int p4nb_pebs_arm(nb_control_t *c, char *err, size_t len);
void p4nb_acc_begin(nb_control_t *c);
void p4nb_acc_end(nb_control_t *c);
void p4nb_pmi_release(void);
void p4nb_pmi_forget(void);
int p4nb_set_overflow(EventSetInfo_t *ESI, int EventIndex, int threshold);
int p4nb_cleanup_eventset(hwd_control_state_t *ctl);
void p4nb_dispatch_timer(int signo, hwd_siginfo_t *si, void *uc);

#endif
