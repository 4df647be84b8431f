/*
 * nb_linux_sched.h - a model of the Linux P4 perf driver's policy
 * (arch/x86/events/intel/p4.c, perf_event_p4.h; facts transcribed in
 * native_events/kernel_p4.txt, compiled by gen_kernel.pl into nb_kp4.c):
 * which raw configs it accepts (p4_hw_config / p4_validate_raw_event) and
 * where it places a set (p4_pmu_schedule_events: first fit, in the given
 * order, on one thread's half, an ESCR never shared).
 *
 * One model, four users: nbsim's emulated perf driver (sim/kernel/nb_kern.c),
 * nb_schedule --policy=linux, the scheduler bench and the tests.  Pure
 * code without libc, so that the valgrind tool can link it.
 */
#ifndef NB_LINUX_SCHED_H
#define NB_LINUX_SCHED_H

#include <stdint.h>

#define NB_KP4_NEVENTS 46       /* enum P4_EVENTS                         */
#define NB_KP4_NPEBS   10       /* p4_pebs_bind_map: P4_PEBS_METRIC__none..*/

struct nb_kp4_event {
	const char *name;        /* P4_EVENTS name without P4_EVENT_        */
	uint8_t select;          /* P4_OPCODE_EVNT: the ESCR event select   */
	uint8_t escrsel;         /* P4_OPCODE_ESEL: the CCCR ESCR select    */
	uint16_t escr[2];        /* .escr_msr[thread]                       */
	int8_t cntr[2][3];       /* .cntr[thread], -1: none                 */
	uint8_t shared;          /* .shared: counts for both threads (TI)   */
	uint32_t emask;          /* .escr_emask as event-mask bits          */
	uint32_t models;         /* bit m: only on model m; 0: all models   */
};

struct nb_kp4_pebs {
	uint32_t pebs_enable, matrix_vert;
};

extern const struct nb_kp4_event nb_kp4_events[NB_KP4_NEVENTS];
extern const struct nb_kp4_pebs nb_kp4_pebs[NB_KP4_NPEBS];

/* The raw config: ESCR image << 32 | CCCR image; bit 63 the HT bit
 * [perf_event_p4.h p4_config_pack_escr/cccr, P4_CONFIG_HT]. */
#define NB_KP4_ESCR(c)   ((uint32_t)((c) >> 32))
#define NB_KP4_CCCR(c)   ((uint32_t)(c))
#define NB_KP4_EVENT(c)  ((NB_KP4_ESCR(c) >> 25) & 0x3f)
#define NB_KP4_EMASK(c)  ((NB_KP4_ESCR(c) >> 9) & 0xffff)
#define NB_KP4_METRIC(c) (NB_KP4_CCCR(c) & 0x3f)       /* P4_PEBS_CONFIG_METRIC_MASK */
#define NB_KP4_PEBS_CONFIG_ENABLE 0x80u               /* P4_PEBS_CONFIG_ENABLE */
/* P4_CONFIG_MASK: what a raw config may set; the rest the kernel clears
 * (ESCR: event, event mask, tag value, tag enable; CCCR: edge, threshold,
 * complement, compare, active thread, the reserved bits 0-11). */
#define NB_KP4_CONFIG_MASK ((UINT64_C(0x7ffffff0) << 32) | UINT64_C(0x01ff0fff))

enum nb_kp4_err {
	NB_KP4_OK = 0,
	NB_KP4_E_EVENT,          /* event index beyond P4_EVENTS: EINVAL    */
	NB_KP4_E_MODEL,          /* not on this model: EINVAL               */
	NB_KP4_E_EMASK,          /* mask bits outside .escr_emask: EINVAL   */
	NB_KP4_E_PEBS,           /* P4_PEBS_CONFIG_ENABLE set: EINVAL       */
	NB_KP4_E_METRIC,         /* metric index beyond the map: EINVAL     */
	NB_KP4_E_SHARED,         /* shared event with HT on: perf_allow_cpu */
};

/* Mask *CONFIG as the kernel does, then validate it; HT: the kernel sees
 * Hyper-Threading active. */
int nb_kp4_validate(uint64_t *config, unsigned model, int ht);
const char *nb_kp4_strerror(int err);

/* Place CONFIG[0..n-1] (validated) first-fit on THREAD's half: ASSIGN[i]
 * the counter (0-17), ESCR[i] the ESCR MSR.  Returns the number placed
 * before the first that did not fit (n: all). */
int nb_kp4_place(const uint64_t *config, int n, unsigned thread, int *assign, uint32_t *escr);

#endif
