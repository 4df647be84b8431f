/*
 * nbsim_client.h - the interface between a guest program and nbsim.
 *
 * A guest reaches the simulated NetBurst PMU through valgrind client
 * requests (valgrind.h).  Outside nbsim every request returns its default
 * (0 for NBSIM_REQ_PROBE), which is how the component tells that no
 * simulated NetBurst is present.
 *
 * Register access follows the instructions it stands for: RDMSR/WRMSR take
 * an MSR address as in ECX; RDPMC takes a counter index as in ECX (bit 31:
 * fast read, low 32 bits only).  A request the hardware would refuse with a
 * general-protection fault returns NBSIM_GP and leaves all state unchanged;
 * NBSIM_REQ_LAST_FAULT then returns a short reason (for error messages).
 */
#ifndef NBSIM_CLIENT_H
#define NBSIM_CLIENT_H

#include <stdint.h>
#include <valgrind/valgrind.h>

#define NBSIM_MAGIC   0x4e425349u   /* "NBSI": returned by NBSIM_REQ_PROBE */
#define NBSIM_OK      0
#define NBSIM_GP      1             /* the access would raise #GP(0)        */

enum nbsim_request {
	/* () -> NBSIM_MAGIC under nbsim, 0 elsewhere */
	NBSIM_REQ_PROBE = VG_USERREQ_TOOL_BASE('N', 'B'),
	/* (uint32 msr, uint64_t *out) -> NBSIM_OK | NBSIM_GP */
	NBSIM_REQ_RDMSR,
	/* (uint32 msr, uint64 value) -> NBSIM_OK | NBSIM_GP */
	NBSIM_REQ_WRMSR,
	/* (uint32 ecx, uint64_t *out) -> NBSIM_OK | NBSIM_GP */
	NBSIM_REQ_RDPMC,
	/* (struct nbsim_info *out) -> NBSIM_OK */
	NBSIM_REQ_INFO,
	/* (char *buf, uint64 len) -> NBSIM_OK; reason of the last #GP, NUL-terminated */
	NBSIM_REQ_LAST_FAULT,
	/* (int signo) -> NBSIM_OK | NBSIM_GP (signo outside 0..64).  The
	 * signal nbsim sends when a counter whose CCCR has OVF_PMI_T0 set
	 * overflows (the PMI) to the guest thread on logical processor 0,
	 * with OVF_PMI_T1 (--ht=yes) to the one on LP1; 0 (the default): none.
	 * Skid: see sim/README.md "Overflow interrupts". */
	NBSIM_REQ_PMI_SIGNAL,
};

/* What the simulated machine is. */
struct nbsim_info {
	uint32_t version;        /* NBSIM_INFO_VERSION                          */
	uint32_t family;         /* CPUID family (15)                           */
	uint32_t model;          /* CPUID model                                 */
	uint32_t stepping;
	uint32_t ht;             /* 1 when Hyper-Threading is modelled          */
	uint32_t logical_cpu;    /* logical processor of the calling thread     */
	uint32_t mhz;            /* nominal clock of the modelled part          */
	char model_name[32];     /* nbsim --model= name, e.g. "prescott"        */
	char brand[64];          /* CPUID brand string                          */
	uint32_t l3_kb;          /* on-die L3 size, 0 if the part has none      */
	/* version 3: --nbsim-ht-place=migrate moves threads between the LPs
	 * (sim/README.md "Hyper-Threading"); logical_cpu stays the LP the
	 * thread was created on, whose registers (ESCR T0/T1 bits, counter
	 * half) it programs, and nbsim re-targets them to running_lp. */
	uint32_t running_lp;     /* logical processor it runs on now            */
	uint32_t ht_place;       /* 0: fixed placement; 1: threads migrate       */
};
#define NBSIM_INFO_VERSION 3    /* 2: l3_kb added; 3: running_lp, ht_place */

/*
 * Memory-model totals since the start (NBSIM_REQ_MEMSTATS), for tests: the
 * cache model runs only while some enabled event needs it (or with
 * --nbsim-stats=yes); `active` says whether it has run.  A split access
 * counts once; an access that missed in either line is one miss.
 */
struct nbsim_memstats {
	uint64_t active;
	uint64_t l1_load_miss, l2_load_miss;    /* load accesses that missed  */
	uint64_t l1_store_miss, l2_store_miss;
	uint64_t dtlb_load_miss, dtlb_store_miss;
	uint64_t split_loads, split_stores;     /* crossing a 64-byte line    */
};
/* (struct nbsim_memstats *out) -> NBSIM_OK | NBSIM_GP (bad pointer) */
#define NBSIM_REQ_MEMSTATS (VG_USERREQ_TOOL_BASE('N', 'B') + 0x40)

static inline int nbsim_memstats(struct nbsim_memstats *ms)
{
	return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_GP, NBSIM_REQ_MEMSTATS,
						    ms, 0, 0, 0, 0);
}

static inline int nbsim_present(void)
{
	return VALGRIND_DO_CLIENT_REQUEST_EXPR(0, NBSIM_REQ_PROBE, 0, 0, 0, 0, 0)
		== NBSIM_MAGIC;
}

static inline int nbsim_rdmsr(uint32_t msr, uint64_t *val)
{
	return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_GP, NBSIM_REQ_RDMSR,
						    msr, val, 0, 0, 0);
}

static inline int nbsim_wrmsr(uint32_t msr, uint64_t val)
{
	return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_GP, NBSIM_REQ_WRMSR,
						    msr, val, 0, 0, 0);
}

static inline int nbsim_rdpmc(uint32_t ecx, uint64_t *val)
{
	return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_GP, NBSIM_REQ_RDPMC,
						    ecx, val, 0, 0, 0);
}

static inline int nbsim_info(struct nbsim_info *info)
{
	return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_GP, NBSIM_REQ_INFO,
						    info, 0, 0, 0, 0);
}

static inline void nbsim_last_fault(char *buf, uint64_t len)
{
	if (len)
		buf[0] = '\0';
	(void)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, NBSIM_REQ_LAST_FAULT,
					      buf, len, 0, 0, 0);
}

static inline int nbsim_pmi_signal(int signo)
{
	return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_GP, NBSIM_REQ_PMI_SIGNAL,
						    signo, 0, 0, 0, 0);
}

/*
 * (uint32 mask, int on) -> NBSIM_OK | NBSIM_GP (mask beyond counters
 * 0-17).  Counters in MASK count by CPU (on = 1): they leave the calling
 * thread's context and count whatever thread runs on the logical
 * processor, as on hardware without an OS; on = 0: by thread again, held
 * by the calling thread.  See sim/README.md "Per-thread counting".
 */
#define NBSIM_REQ_CPU_WIDE (VG_USERREQ_TOOL_BASE('N', 'B') + 0x48)

static inline int nbsim_cpu_wide(uint32_t mask, int on)
{
	return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_GP, NBSIM_REQ_CPU_WIDE,
						    mask, on, 0, 0, 0);
}

/* The emulated kernel's one request (the preload library's, ARG[1] the op:
 * kernel/nbsim_kern.h); the tool passes it to its front-end. */
#define NBSIM_REQ_KERN (VG_USERREQ_TOOL_BASE('N', 'B') + 0x80)

/*
 * The simulated machine's time (NBSIM_REQ_TIME; docs/simulated-time.md):
 * the value of clock CLOCK_ID in nanoseconds (since the epoch for
 * CLOCK_REALTIME, since boot for the monotonic clocks, CPU time for the
 * CPU-time clocks), or NBSIM_TIME_TSC for the time-stamp counter.
 * -> NBSIM_OK with *ns set, or NBSIM_TIME_HOST: this clock is the host's
 * (--nbsim-time=host, a clock nbsim does not simulate, or no nbsim).
 */
#define NBSIM_REQ_TIME (VG_USERREQ_TOOL_BASE('N', 'B') + 0x50)
#define NBSIM_TIME_TSC   (-100)
#define NBSIM_TIME_HOST  2

static inline int nbsim_time(long clock_id, uint64_t *ns)
{
	return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_TIME_HOST, NBSIM_REQ_TIME,
						    clock_id, ns, 0, 0, 0);
}

/*
 * An interval timer in simulated time (NBSIM_REQ_ITIMER, as setitimer(2)):
 * WHICH is ITIMER_REAL (0, wall time), ITIMER_VIRTUAL (1) or ITIMER_PROF
 * (2, CPU time); NEW (struct itimerval *, may be 0: a query, as getitimer)
 * arms or disarms it, OLD (may be 0) gets the previous setting.  -> NBSIM_OK,
 * NBSIM_GP (a bad pointer or value), or NBSIM_TIME_HOST: the host's timer
 * (another WHICH, --nbsim-time=host, no nbsim).
 */
#define NBSIM_REQ_ITIMER (VG_USERREQ_TOOL_BASE('N', 'B') + 0x51)

static inline int nbsim_itimer(int which, const void *new_value, void *old_value)
{
	return (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_TIME_HOST, NBSIM_REQ_ITIMER,
						    which, new_value, old_value, 0, 0);
}

/*
 * A POSIX timer in simulated time (NBSIM_REQ_PTIMER, as timer_create(2)
 * and its kin): OP and its arguments
 *   NBSIM_PT_CREATE  A clockid, B struct sigevent * (0: SIGALRM), C timer_t *
 *   NBSIM_PT_SET     A timer, B flags (TIMER_ABSTIME), C new struct
 *                    itimerspec *, D old (may be 0)
 *   NBSIM_PT_GET     A timer, B struct itimerspec *
 *   NBSIM_PT_OVERRUN A timer
 *   NBSIM_PT_DELETE  A timer
 * -> the call's result (>= 0), -errno, or NBSIM_PT_HOST: the host's timer
 * (a clock or notification nbsim does not simulate, a timer it did not
 * create, --nbsim-time=host, no nbsim).
 */
#define NBSIM_REQ_PTIMER (VG_USERREQ_TOOL_BASE('N', 'B') + 0x52)
#define NBSIM_PT_CREATE  1
#define NBSIM_PT_SET     2
#define NBSIM_PT_GET     3
#define NBSIM_PT_OVERRUN 4
#define NBSIM_PT_DELETE  5
#define NBSIM_PT_HOST    (-1000)

static inline long nbsim_ptimer(int op, long a, const void *b, const void *c, const void *d)
{
	return (long)VALGRIND_DO_CLIENT_REQUEST_EXPR(NBSIM_PT_HOST, NBSIM_REQ_PTIMER,
						     op, a, b, c, d);
}

#endif /* NBSIM_CLIENT_H */
