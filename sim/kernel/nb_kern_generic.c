/*
 * nb_kern_generic.c - the emulated perf driver's generic events:
 * PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE mapped to P4 configs through
 * the driver's own tables (arch/x86/events/intel/p4.c p4_general_events,
 * p4_hw_cache_event_ids), with the errors the x86 core gives for what the
 * tables cannot count (arch/x86/events/core.c x86_setup_perfctr,
 * set_ext_hw_attr).  Our tables below are written from those facts, by
 * event index (native_events/kernel_p4.txt "kevent") and mask bit.
 */
#include "nb_kern_int.h"

/* The config as p4.c builds it: ESCR << 32 | CCCR (p4_config_pack_escr,
 * p4_config_pack_cccr); ESCR event select in bits 25-30 holds the
 * P4_EVENTS index, the event mask in bits 9-24 (P4_ESCR_EMASK_BIT). */
#define ESCR_OF(ev, mask) (((uint64_t)(ev) << 25 | (uint64_t)(mask) << 9) << 32)
#define B(n) (1u << (n))
/* P4_EVENTS indices used here (perf_event_p4.h enum P4_EVENTS) */
enum { EV_ITLB_REFERENCE = 2, EV_BSQ_CACHE_REFERENCE = 9, EV_FSB_DATA_ACTIVITY = 12,
       EV_GLOBAL_POWER_EVENTS = 24, EV_RETIRED_BRANCH_TYPE = 28, EV_REPLAY_EVENT = 37,
       EV_INSTR_RETIRED = 38, EV_MISPRED_BRANCH_RETIRED = 42 };
/* CCCR bits the tables use (perf_event_p4.h): P4_CCCR_COMPARE 18,
 * P4_CCCR_EDGE 24; P4_CONFIG_ALIASABLE 9 (a reserved CCCR bit the driver
 * uses to mark cycles as having an alias, p4_event_aliases) */
#define CCCR_COMPARE B(18)
#define CCCR_EDGE B(24)
#define CONFIG_ALIASABLE B(9)

/* p4_general_events[PERF_COUNT_HW_MAX] (p4.c), indexed by
 * PERF_COUNT_HW_*; the entries p4.c leaves out are 0. */
static const uint64_t general[PERF_COUNT_HW_MAX] = {
	/* non-halted clocks: GLOBAL_POWER_EVENTS RUNNING, aliasable */
	[PERF_COUNT_HW_CPU_CYCLES] = ESCR_OF(EV_GLOBAL_POWER_EVENTS, B(0)) | CONFIG_ALIASABLE,
	/* INSTR_RETIRED NBOGUSNTAG | BOGUSNTAG (no tagging) */
	[PERF_COUNT_HW_INSTRUCTIONS] = ESCR_OF(EV_INSTR_RETIRED, B(0) | B(2)),
	/* BSQ_CACHE_REFERENCE RD_2ndL_HITS/HITE/HITM, RD_3rdL_HITS/HITE/HITM */
	[PERF_COUNT_HW_CACHE_REFERENCES] =
		ESCR_OF(EV_BSQ_CACHE_REFERENCE, B(0) | B(1) | B(2) | B(3) | B(4) | B(5)),
	/* BSQ_CACHE_REFERENCE RD_2ndL_MISS, RD_3rdL_MISS, WR_2ndL_MISS */
	[PERF_COUNT_HW_CACHE_MISSES] = ESCR_OF(EV_BSQ_CACHE_REFERENCE, B(8) | B(9) | B(10)),
	/* RETIRED_BRANCH_TYPE CONDITIONAL, CALL, RETURN, INDIRECT */
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] =
		ESCR_OF(EV_RETIRED_BRANCH_TYPE, B(1) | B(2) | B(3) | B(4)),
	/* MISPRED_BRANCH_RETIRED NBOGUS */
	[PERF_COUNT_HW_BRANCH_MISSES] = ESCR_OF(EV_MISPRED_BRANCH_RETIRED, B(0)),
	/* FSB_DATA_ACTIVITY DRDY_DRV | DRDY_OWN, edge, compare */
	[PERF_COUNT_HW_BUS_CYCLES] =
		ESCR_OF(EV_FSB_DATA_ACTIVITY, B(0) | B(1)) | CCCR_EDGE | CCCR_COMPARE,
};

/* P4_GEN_CACHE_EVENT(event, bit, metric): the metric index in CCCR bits
 * 0-5, the event's ESCR select packed by the caller. */
#define CACHE(ev, bit, metric) (ESCR_OF(ev, B(bit)) | (metric))
#define NONE ((uint64_t)-1)   /* -1 in the table: EINVAL */
enum { C_READ, C_WRITE, C_PREFETCH };
enum { C_ACCESS, C_MISS };

/* p4_hw_cache_event_ids[type][op][result] (p4.c): 0 not counted
 * (ENOENT), -1 invalid (EINVAL).  Metrics (enum P4_PEBS_METRIC): 1
 * 1stl_cache_load_miss_retired, 2 2ndl_..., 3 dtlb_load_miss_retired, 4
 * dtlb_store_miss_retired; REPLAY_EVENT NBOGUS, ITLB_REFERENCE HIT (bit 0)
 * and MISS (bit 1). */
static const uint64_t hw_cache[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
			      [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = { [C_READ] = { [C_MISS] = CACHE(EV_REPLAY_EVENT, 0, 1) } },
	[PERF_COUNT_HW_CACHE_LL] = { [C_READ] = { [C_MISS] = CACHE(EV_REPLAY_EVENT, 0, 2) } },
	[PERF_COUNT_HW_CACHE_DTLB] = {
		[C_READ] = { [C_MISS] = CACHE(EV_REPLAY_EVENT, 0, 3) },
		[C_WRITE] = { [C_MISS] = CACHE(EV_REPLAY_EVENT, 0, 4) },
	},
	[PERF_COUNT_HW_CACHE_ITLB] = {
		[C_READ] = { CACHE(EV_ITLB_REFERENCE, 0, 0), CACHE(EV_ITLB_REFERENCE, 1, 0) },
		[C_WRITE] = { NONE, NONE },
		[C_PREFETCH] = { NONE, NONE },
	},
	[PERF_COUNT_HW_CACHE_NODE] = { { NONE, NONE }, { NONE, NONE }, { NONE, NONE } },
};

/* The CCCR ESCR select of the config's event (p4_pmu_event_map packs it
 * for generic events, P4_GEN_CACHE_EVENT for cache events). */
static uint64_t with_esel(uint64_t c)
{
	return c | (uint64_t)nb_kp4_events[NB_KP4_EVENT(c)].escrsel << 13;
}

/* The config of generic event A (type HARDWARE or HW_CACHE) in *CFG, or
 * -errno as x86_setup_perfctr / set_ext_hw_attr give it. */
Word nbk_generic_config(const struct perf_event_attr *a, uint64_t *cfg)
{
	if (a->type == PERF_TYPE_HARDWARE) {
		/* x86_pmu.max_events = ARRAY_SIZE(p4_general_events) */
		if (a->config >= PERF_COUNT_HW_MAX)
			return -E_INVAL;
		/* p4_pmu_event_map never returns 0: an entry p4.c leaves
		 * out (stalled cycles, ref-cycles) becomes event 0
		 * (TC_DELIVER_MODE) with no mask and its ESCR select, which
		 * x86_setup_perfctr accepts; it counts nothing. */
		*cfg = with_esel(general[a->config]);
		return 0;
	}
	{
		unsigned type = a->config & 0xff, op = (a->config >> 8) & 0xff,
			 res = (a->config >> 16) & 0xff;
		uint64_t v;

		if (type >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
		    res >= PERF_COUNT_HW_CACHE_RESULT_MAX)
			return -E_INVAL;
		v = hw_cache[type][op][res];
		if (v == 0)
			return -E_NOENT;
		if (v == NONE)
			return -E_INVAL;
		*cfg = with_esel(v);
		return 0;
	}
}
