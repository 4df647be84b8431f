/*
 * nb_events.h - the NetBurst PMU model: types of the generated tables.
 *
 * The data lives in pmu.txt, events.txt, metrics.txt and presets.txt beside
 * this file; gen_tables.pl turns them into nb_tables.c at build time (see
 * README.md for the formats).  This header is shared by the
 * PAPI component, the utilities and nbsim (a valgrind tool: so it uses no
 * libc and only fixed-width integer types).
 */
#ifndef NB_EVENTS_H
#define NB_EVENTS_H

#include <stdint.h>

#define NB_NUM_COUNTERS   18
#define NB_COUNTER_BITS   40
#define NB_COUNTER_MASK   ((UINT64_C(1) << NB_COUNTER_BITS) - 1)
#define NB_MAX_MASKS      16
#define NB_MAX_EVENT_ESCRS 2

/* Counter groups [SDM 18.15]. */
enum nb_group { NB_GRP_BPU = 0, NB_GRP_MS, NB_GRP_FLAME, NB_GRP_IQ, NB_NUM_GROUPS };

/* ESCR fields [SDM Fig. 18-43/44; seed 003 sec. 5]. */
#define NB_ESCR_T1_USR       (UINT64_C(1) << 0)
#define NB_ESCR_T1_OS        (UINT64_C(1) << 1)
#define NB_ESCR_T0_USR       (UINT64_C(1) << 2)
#define NB_ESCR_T0_OS        (UINT64_C(1) << 3)
#define NB_ESCR_TAG_ENABLE   (UINT64_C(1) << 4)
#define NB_ESCR_TAG_SHIFT    5
#define NB_ESCR_TAG_MASK     (UINT64_C(0xf) << NB_ESCR_TAG_SHIFT)
#define NB_ESCR_EMASK_SHIFT  9
#define NB_ESCR_EMASK_MASK   (UINT64_C(0xffff) << NB_ESCR_EMASK_SHIFT)
#define NB_ESCR_EVSEL_SHIFT  25
#define NB_ESCR_EVSEL_MASK   (UINT64_C(0x3f) << NB_ESCR_EVSEL_SHIFT)
#define NB_ESCR_VALID        (UINT64_C(0x7fffffff))   /* bits 31-63 reserved */

/* CCCR fields [SDM Fig. 18-45; seed 003 sec. 6, 9]. */
#define NB_CCCR_ENABLE       (UINT64_C(1) << 12)
#define NB_CCCR_ESCRSEL_SHIFT 13
#define NB_CCCR_ESCRSEL_MASK (UINT64_C(7) << NB_CCCR_ESCRSEL_SHIFT)
#define NB_CCCR_ACTIVE_SHIFT 16
#define NB_CCCR_ACTIVE_MASK  (UINT64_C(3) << NB_CCCR_ACTIVE_SHIFT)
#define NB_CCCR_COMPARE      (UINT64_C(1) << 18)
#define NB_CCCR_COMPLEMENT   (UINT64_C(1) << 19)
#define NB_CCCR_THR_SHIFT    20
#define NB_CCCR_THR_MASK     (UINT64_C(0xf) << NB_CCCR_THR_SHIFT)
#define NB_CCCR_EDGE         (UINT64_C(1) << 24)
#define NB_CCCR_FORCE_OVF    (UINT64_C(1) << 25)
#define NB_CCCR_OVF_PMI_T0   (UINT64_C(1) << 26)
#define NB_CCCR_OVF_PMI_T1   (UINT64_C(1) << 27)
#define NB_CCCR_CASCADE      (UINT64_C(1) << 30)
#define NB_CCCR_OVF          (UINT64_C(1) << 31)
/* Bits 0-11, 28-29, 32-63 are reserved. */
#define NB_CCCR_VALID        (UINT64_C(0xcffff000))

/* ActiveThread encodings [SDM 18.16.1, Table "ActiveThread"]. */
#define NB_ACTIVE_NONE  0   /* count only when no thread is active  */
#define NB_ACTIVE_SINGLE 1  /* exactly one logical processor active */
#define NB_ACTIVE_BOTH  2   /* both logical processors active       */
#define NB_ACTIVE_ANY   3   /* either (the non-HT setting)          */

struct nb_counter {
	const char *name;       /* BPU_COUNTER0 ...                    */
	const char *cccr_name;  /* BPU_CCCR0 ...                       */
	uint16_t msr;           /* counter MSR                         */
	uint16_t cccr_msr;      /* CCCR MSR                            */
	uint8_t num;            /* 0..17                               */
	uint8_t group;          /* enum nb_group                       */
	int8_t cascade_from;    /* alternate whose overflow starts a   */
				/* cascaded counter; -1: none          */
};

struct nb_escr {
	const char *name;
	uint16_t msr;
	uint8_t group;          /* enum nb_group                       */
	uint8_t select;         /* CCCR ESCRSelect value               */
	uint32_t counters;      /* bit n: counter n can use this ESCR  */
	uint32_t models;        /* bit m: present on family-15 model m */
};

struct nb_msr {
	const char *name;
	const char *desc;
	uint32_t addr;
	uint64_t writable;      /* bits software may set               */
};

#define NB_MASK_TS  0x1     /* thread-specific   */
#define NB_MASK_TI  0x2     /* thread-independent */
#define NB_MASK_DFL 0x4     /* used when no mask is named          */

/* CPU features an event, mask, metric or preset may need. */
#define NB_FEAT_L3  0x1     /* on-die 3rd-level cache (Xeon MP, P4 EE) */

struct nb_mask {
	const char *name;
	const char *desc;
	uint8_t bit;            /* event-mask bit (ESCR bit 9+bit)     */
	uint8_t flags;          /* NB_MASK_*                           */
	/* appended: */
	const char *alias;      /* other accepted spelling, or NULL    */
	uint32_t models;        /* bit m: mask exists on model m       */
	uint8_t features;       /* NB_FEAT_* the mask needs            */
};

/* libpfm4-style "virtual masks": names accepted after an event that are
 * not event-mask bits. */
#define NB_VMASK_TAG    1   /* TagEnable + TagValue bit .arg (0-3)   */
#define NB_VMASK_METRIC 2   /* select replay metric nb_metrics[.arg] */

struct nb_vmask {
	const char *name;
	const char *desc;
	uint8_t kind;           /* NB_VMASK_*                          */
	uint8_t arg;
};

#define NB_EV_RETIREMENT 0x1    /* listed in the SDM at-retirement table */
#define NB_EV_PEBS       0x2    /* SDM "Can Support PEBS"                */

/* Part an event plays in at-retirement tagging (nb_event.role). */
#define NB_ROLE_NONE          0
#define NB_ROLE_FE_UPSTREAM   1 /* uop_type: tags for front_end_event    */
#define NB_ROLE_EXEC_UPSTREAM 2 /* FP/SIMD uops: tag for execution_event */
#define NB_ROLE_FE_COUNT      3 /* front_end_event                       */
#define NB_ROLE_EXEC_COUNT    4 /* execution_event                       */
#define NB_ROLE_REPLAY_COUNT  5 /* replay_event                          */

#define NB_KERNEL_NONE 0xff     /* event unknown to Linux's P4_EVENTS    */

struct nb_event {
	const char *name;
	const char *desc;
	const char *src;        /* where the facts come from           */
	const struct nb_mask *masks;
	uint32_t models;        /* bit m: present on family-15 model m */
	uint32_t flags;         /* NB_EV_*                             */
	uint8_t event_select;
	uint8_t escr_select;
	uint8_t nescrs;
	uint8_t escrs[NB_MAX_EVENT_ESCRS];   /* indices into nb_escrs      */
	uint8_t nmasks;
	/* appended: */
	const char *note;       /* caveats, or NULL                     */
	const char *alias;      /* other accepted spelling, or NULL     */
	const struct nb_vmask *vmasks;       /* NULL if nvmasks == 0     */
	uint8_t nvmasks;
	uint8_t kernel_idx;     /* Linux P4_EVENTS index: the EventSelect
	                           of perf's raw config; NB_KERNEL_NONE  */
	uint8_t features;       /* NB_FEAT_* the event needs            */
	uint8_t role;           /* NB_ROLE_*                            */
	uint16_t default_masks; /* event-mask bits of the NB_MASK_DFL masks
	                           (0: the user must name masks)        */
	uint16_t valid_masks;   /* all defined event-mask bits          */
};

/* Tagged at-retirement metrics (metrics.txt). */
#define NB_TAG_FRONTEND  1
#define NB_TAG_EXECUTION 2
#define NB_TAG_REPLAY    3
#define NB_MAX_HELPERS   2
#define NB_NO_ESCR       0xff   /* helper may use any of its event's ESCRs */
#define NB_NO_TAG        0xff
#define NB_PEBS_ENABLE_UOP_TAG  (UINT32_C(1) << 24)
#define NB_PEBS_ENABLE_PEBS     (UINT32_C(1) << 25) /* sampling only */
#define NB_PEBS_ENABLE_PEBS_OTH (UINT32_C(1) << 26) /* the other logical processor's (HT) */

struct nb_helper {              /* an extra ESCR a metric programs      */
	uint8_t event;          /* index into nb_events                 */
	uint8_t escr;           /* index into nb_escrs, or NB_NO_ESCR   */
	uint8_t tag_enable;     /* 1: TagEnable + the metric's tag bit  */
	uint16_t masks;         /* event-mask bits                      */
};

struct nb_metric {
	const char *name;
	const char *desc;
	const char *note;       /* or NULL                              */
	const char *src;
	uint32_t pebs_enable;   /* replay: IA32_PEBS_ENABLE for counting
	                           (bit 24 set, bit 25 clear)           */
	uint32_t matrix_vert;   /* replay: MSR_PEBS_MATRIX_VERT         */
	uint32_t models;        /* bit m: available on model m          */
	uint8_t type;           /* NB_TAG_*                             */
	uint8_t count_event;    /* index into nb_events                 */
	uint16_t count_masks;   /* event-mask bits of the counting event */
	uint8_t tag;            /* execution: TagValue bit (SDM: 0); the
	                           count mask is NBOGUS<tag>. Else NB_NO_TAG */
	uint8_t kernel_idx;     /* replay: Linux P4_PEBS_METRIC index
	                           (CCCR bits 0-6 of perf's raw config), or 0 */
	uint8_t features;       /* NB_FEAT_*                            */
	uint8_t nhelpers;
	struct nb_helper helpers[NB_MAX_HELPERS];
};

/* PAPI preset mapping (presets.txt). */
enum nb_derived { NB_NOT_DERIVED = 0, NB_DERIVED_ADD, NB_DERIVED_SUB, NB_DERIVED_POSTFIX };
#define NB_REF_EVENT  1
#define NB_REF_METRIC 2
#define NB_MAX_PRESET_TERMS 4

struct nb_preset_ref {
	const char *name;       /* "event:MASK:MASK" or a metric name   */
	uint8_t kind;           /* NB_REF_*                             */
	uint8_t index;          /* into nb_events or nb_metrics         */
	uint16_t masks;         /* events: event-mask bits              */
};

struct nb_preset_alt {
	const char *derived;    /* PAPI spelling: "NOT_DERIVED", ...    */
	const char *formula;    /* DERIVED_POSTFIX, else NULL           */
	const char *note;       /* or NULL                              */
	uint32_t models;        /* models on which all terms exist      */
	uint8_t type;           /* enum nb_derived                      */
	uint8_t features;       /* NB_FEAT_* needed                     */
	uint8_t nterms;
	struct nb_preset_ref terms[NB_MAX_PRESET_TERMS];
	/* appended: */
	int8_t coef[NB_MAX_PRESET_TERMS]; /* the value is sum(coef[k] * term k):
	                           the derived type as a linear form     */
};

struct nb_preset {
	const char *name;       /* PAPI_*                               */
	const char *note;       /* how it differs on NetBurst, or NULL  */
	const char *src;
	const struct nb_preset_alt *alts;    /* in order of preference */
	uint8_t nalts;
};

#define NB_MODELS_ALL 0x7fu

extern const struct nb_counter nb_counters[NB_NUM_COUNTERS];
extern const struct nb_escr nb_escrs[];
extern const unsigned nb_num_escrs;
extern const struct nb_msr nb_msrs[];
extern const unsigned nb_num_msrs;
extern const struct nb_event nb_events[];
extern const unsigned nb_num_events;
extern const struct nb_metric nb_metrics[];
extern const unsigned nb_num_metrics;
extern const struct nb_preset nb_presets[];
extern const unsigned nb_num_presets;

/* Indices of events used by name elsewhere (generated). */
#include "nb_tables_idx.h"

#endif /* NB_EVENTS_H */
