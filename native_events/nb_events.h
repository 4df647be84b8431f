/*
 * nb_events.h - the NetBurst PMU model: types of the generated tables.
 *
 * The data lives in pmu.txt and events.txt beside this file; gen_tables.pl
 * turns them into nb_tables.c at build time.  This header is shared by the
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

struct nb_mask {
	const char *name;
	const char *desc;
	uint8_t bit;            /* event-mask bit (ESCR bit 9+bit)     */
	uint8_t flags;          /* NB_MASK_*                           */
};

#define NB_EV_RETIREMENT 0x1

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
};

#define NB_MODELS_ALL 0x7fu

extern const struct nb_counter nb_counters[NB_NUM_COUNTERS];
extern const struct nb_escr nb_escrs[];
extern const unsigned nb_num_escrs;
extern const struct nb_msr nb_msrs[];
extern const unsigned nb_num_msrs;
extern const struct nb_event nb_events[];
extern const unsigned nb_num_events;

/* Indices of events used by name elsewhere (generated). */
#include "nb_tables_idx.h"

#endif /* NB_EVENTS_H */
