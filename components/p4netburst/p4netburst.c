/*
 * p4netburst.c - PAPI component for the Intel NetBurst PMU.
 *
 * PAPI glue only: translates PAPI calls into calls on the event model
 * (nb_events.h), the name parser (nb_evsel), the scheduler (nb_sched), the
 * encoder (nb_encode) and a backend (nb_backend).  Holds no hardware facts.
 *
 * Native event codes are indices into a table of interned event selections
 * (struct nb_evsel).  Entry i < nb_num_events is event i with its default
 * masks, so enumeration is a walk over the event table; names with masks or
 * modifiers are interned on first use.
 *
 * PAPI presets map to "preset slot" entries (PAPI_X, or PAPI_X.0, PAPI_X.1
 * for presets whose alternatives have several terms): the alternative
 * behind a preset is chosen per event set (nb_presets.h), so an event set
 * where the preferred mapping conflicts still takes the preset.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>

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

papi_vector_t _p4netburst_vector;

/* ---- interned event selections ---------------------------------------- */

/* ENT_PRESET: slot .slot of preset .preset (sel unused).  ENT_QUAL: the
 * qualifier template .qual of the event or metric .sel (listed by
 * PAPI_NTV_ENUM_UMASKS after the masks, not countable itself). */
enum { ENT_BASE, ENT_UMASK, ENT_USER, ENT_PRESET, ENT_QUAL };

struct ntv_entry {
	struct nb_evsel sel;
	int kind;
	uint16_t preset;
	uint8_t slot;
	uint8_t qual;
};

static struct ntv_entry *ntv;
static unsigned ntv_count, ntv_alloc;
static pthread_mutex_t ntv_lock = PTHREAD_MUTEX_INITIALIZER;

static struct nb_cpu cpu;
static unsigned cpu_feats;       /* NB_FEAT_* */
static const struct nb_backend *backend;

static int intern_entry(const struct ntv_entry *e, unsigned *code)
{
	int ret = PAPI_OK;

	pthread_mutex_lock(&ntv_lock);
	for (unsigned i = 0; i < ntv_count; i++) {
		if (ntv[i].kind == e->kind && nb_evsel_same(&ntv[i].sel, &e->sel) &&
		    ntv[i].preset == e->preset && ntv[i].slot == e->slot && ntv[i].qual == e->qual) {
			*code = i;
			goto out;
		}
	}
	if (ntv_count == ntv_alloc) {
		unsigned n = ntv_alloc ? 2 * ntv_alloc : 64;
		struct ntv_entry *p = realloc(ntv, n * sizeof(*p));

		if (!p) {
			ret = PAPI_ENOMEM;
			goto out;
		}
		ntv = p;
		ntv_alloc = n;
	}
	ntv[ntv_count] = *e;
	*code = ntv_count++;
out:
	pthread_mutex_unlock(&ntv_lock);
	return ret;
}

static int intern(const struct nb_evsel *sel, int kind, unsigned *code)
{
	struct ntv_entry e;

	memset(&e, 0, sizeof(e));
	e.sel = *sel;
	e.kind = kind;
	return intern_entry(&e, code);
}

static int lookup(unsigned code, struct ntv_entry *out)
{
	int ret = PAPI_ENOEVNT;

	pthread_mutex_lock(&ntv_lock);
	if (code < ntv_count) {
		*out = ntv[code];
		ret = PAPI_OK;
	}
	pthread_mutex_unlock(&ntv_lock);
	return ret;
}

/* ---- per-eventset state ------------------------------------------------ */

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
	unsigned lp;                        /* logical processor (HT)  */
	int nnat;                           /* PAPI natives            */
	int8_t hw_of[NB_NUM_COUNTERS];      /* native -> hw request, -1: none */
	int8_t coef[NB_NUM_COUNTERS];
	long long count[NB_NUM_COUNTERS];   /* per native, to PAPI     */
	int8_t palt[NB_NUM_PRESETS_MAX];    /* alternative + 1 per preset in the set, 0: absent */
	uint32_t ovf;                       /* bit i: native i interrupts on overflow */
	uint32_t hw_ovf;                    /* bit h: hw request h does  */
	uint64_t threshold[NB_NUM_COUNTERS]; /* per hw request: its overflow threshold */
	long long ovf_at[NB_NUM_COUNTERS];  /* hwcount at which the armed counter overflows */
	volatile sig_atomic_t in_acc;       /* accumulate() under way outside the PMI handler */
	volatile sig_atomic_t pmi_deferred; /* a PMI came meanwhile: raised again after it */
	int pebs_h;                         /* hw request sampled by PEBS, -1: none */
	int grn_sys;                        /* PAPI_GRN_SYS: counts by CPU */
	int inherit;                        /* PAPI_INHERIT (backends with set_inherit) */
	int held;                           /* its registers are in lp_busy */
	uint64_t *ds;                       /* DS save area + PEBS buffer (PEBS_DS_WORDS) */
} nb_control_t;

/* PEBS for a precise overflowing event (sim backend, 64-bit DS format):
 * a DS save area with a one-record interrupt threshold, so that each
 * sample interrupts, and room for a few more [SDM "IA-32e Mode DS Save
 * Area", "PEBS Record Format for IA-32e mode"; sim/nb_ds.h].  The PEBS
 * counter is MSR_IQ_COUNTER4 (16) on logical processor 0, + 1 (17) on
 * logical processor 1 [SDM 18.16.3; sim/README.md PEBS]. */
#define PEBS_COUNTER   NB_SCHED_PEBS_COUNTER
#define PEBS_REC_WORDS 18                 /* 144-byte record          */
#define PEBS_NREC      8
#define PEBS_DS_WORDS  (10 + PEBS_NREC * PEBS_REC_WORDS)
#define NB_MSR_DS_AREA 0x600              /* IA32_DS_AREA (pmu.txt)   */

/*
 * Hyper-Threading: the two logical processors (LPs) of a package share the
 * ESCRs, CCCRs and counters.  What the running event sets of each LP hold
 * is recorded here, so that the scheduler places an event set around what
 * its sibling LP already uses (nb_sched_cpu.busy_*).  Per process: under
 * nbsim both LPs run threads of the one guest process.
 */
static pthread_mutex_t lp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	uint64_t escrs;
	uint32_t counters, pebs_enable, matrix_vert;   /* pebs_enable: without bit 25 */
	uint8_t pebs_on;         /* a precise event set runs (PEBS on this LP) */
	/* how many running event sets of the LP's threads hold each ESCR and
	 * counter: nbsim runs more threads than LPs (each with its PMU
	 * context, sim/README.md "Per-thread counting"), so several sets of
	 * one LP may hold the same registers at once */
	uint16_t escr_n[64], counter_n[NB_NUM_COUNTERS];
} lp_busy[3];
/* lp_busy[BY_CPU]: the running PAPI_GRN_SYS sets (either LP), whose
 * counters count every thread: the sets of all threads go around them */
#define BY_CPU 2

/* Running set c takes (d = 1) or gives back (d = -1) its registers on its
 * LP.  Call with lp_lock held. */
static void lp_hold(unsigned lp, uint64_t escrs, uint32_t counters, int d)
{
	for (unsigned e = 0; e < 64; e++)
		if ((escrs >> e) & 1) {
			lp_busy[lp].escr_n[e] = (uint16_t)(lp_busy[lp].escr_n[e] + d);
			if (lp_busy[lp].escr_n[e])
				lp_busy[lp].escrs |= UINT64_C(1) << e;
			else
				lp_busy[lp].escrs &= ~(UINT64_C(1) << e);
		}
	for (unsigned k = 0; k < NB_NUM_COUNTERS; k++)
		if ((counters >> k) & 1) {
			lp_busy[lp].counter_n[k] = (uint16_t)(lp_busy[lp].counter_n[k] + d);
			if (lp_busy[lp].counter_n[k])
				lp_busy[lp].counters |= 1u << k;
			else
				lp_busy[lp].counters &= ~(1u << k);
		}
}

/* IA32_PEBS_ENABLE bit 26, ENABLE_PEBS_OTH_THR: PEBS for the other LP;
 * bit 25 (NB_PEBS_ENABLE_PEBS) is the writer's own [SDM 18.16.3] */
#define PEBS_ENABLE_OTH (UINT32_C(1) << 26)

static unsigned this_lp(void);

/* Scheduler input for LP lp: the CPU and (HT) what the sibling holds.
 * Call with lp_lock held. */
static void sched_cpu(unsigned lp, struct nb_sched_cpu *sc);
static void sched_cpu_sys(unsigned lp, struct nb_sched_cpu *sc);

typedef struct {
	int unused;
} nb_context_t;

typedef struct {
	unsigned code;
} nb_register_t;

static unsigned papi_dom_to_nb(int domain)
{
	unsigned d = 0;

	if (domain & PAPI_DOM_USER)
		d |= NB_DOM_USER;
	if (domain & PAPI_DOM_KERNEL)
		d |= NB_DOM_KERNEL;
	return d;
}

static void report(const char *what, const char *msg)
{
	/* PAPIERROR prints when the user asked for PAPI's error messages
	 * (PAPI_set_debug(PAPI_VERB_ECONT) or PAPI_VERBOSE). */
	PAPIERROR("p4netburst: %s: %s", what, msg);
}

static int intern_bases(void);
static int count_bases(void);
static int nb_ntv_code_to_name(unsigned code, char *name, int len);

/* ---- component life ---------------------------------------------------- */

static void set_hw_info(void)
{
	PAPI_hw_info_t *hw = &_papi_hwi_system_info.hw_info;

	hw->vendor = PAPI_VENDOR_INTEL;
	snprintf(hw->vendor_string, sizeof(hw->vendor_string), "GenuineIntel");
	snprintf(hw->model_string, sizeof(hw->model_string), "%s", cpu.brand);
	hw->model = (int)cpu.model;
	hw->cpuid_family = (int)cpu.family;
	hw->cpuid_model = (int)cpu.model;
	hw->cpuid_stepping = (int)cpu.stepping;
	hw->revision = (float)cpu.stepping;
	if (cpu.mhz) {
		hw->cpu_max_mhz = (int)cpu.mhz;
		hw->cpu_min_mhz = (int)cpu.mhz;
	}
	/* The CPU is simulated: PAPI's real cycles and time (the time stamp
	 * counter, the wall clock) are the host's, not the simulated CPU's;
	 * papi_hardware_avail says so, and so does the high-level API's output
	 * (patches/papi-7.0.0-hl-cycles-note.patch). */
	if (backend == &nb_backend_sim) {
		hw->virtualized = 1;
		snprintf(hw->virtual_vendor_string, sizeof(hw->virtual_vendor_string),
			 "nbsim (valgrind), model %s", cpu.model_name);
	}
}

/* Preset event code by symbol; PAPI_event_name_to_code cannot be used
 * while the library is still initialising. */
static int preset_code(const char *sym, unsigned *code)
{
	for (unsigned i = 0; i < PAPI_MAX_PRESET_EVENTS; i++)
		if (_papi_hwi_presets[i].symbol &&
		    strcmp(_papi_hwi_presets[i].symbol, sym) == 0) {
			*code = i | PAPI_PRESET_MASK;
			return PAPI_OK;
		}
	return PAPI_ENOEVNT;
}

static void preset_slot_name(unsigned p, unsigned slot, char *buf, size_t len)
{
	if (nb_preset_slots(p, cpu.model, cpu_feats) > 1)
		snprintf(buf, len, "%s.%u", nb_presets[p].name, slot);
	else
		snprintf(buf, len, "%s", nb_presets[p].name);
}

/* The only alternative of preset P this CPU can count, if it is a plain
 * sum (then the preset maps to its terms, as PAPI shows them), or NULL. */
static const struct nb_preset_alt *single_alt(unsigned p)
{
	const struct nb_preset_alt *one = NULL;

	for (unsigned a = 0; a < nb_presets[p].nalts; a++) {
		if (!nb_preset_alt_usable(p, a, cpu.model, cpu_feats))
			continue;
		if (one)
			return NULL;
		one = &nb_presets[p].alts[a];
	}
	for (unsigned k = 0; one && k < one->nterms; k++)
		if (one->coef[k] != 1)
			return NULL;
	return one;
}

/* Can the backend count a usable alternative of preset P?  The perf
 * backend cannot count a term without a raw config in the kernel's P4
 * format (nb_perf_raw 0: a front-end or execution tagged metric, whose
 * helper ESCRs the kernel cannot program; an event P4_EVENTS lacks): a
 * preset none of whose alternatives it can count is not offered there,
 * so that PAPI reports it unavailable (PAPI_ENOEVNT) rather than accept
 * it and fail at PAPI_start. */
static int preset_backend_ok(unsigned p)
{
	if (backend != &nb_backend_perf)
		return 1;
	for (unsigned a = 0; a < nb_presets[p].nalts; a++) {
		const struct nb_preset_alt *al = &nb_presets[p].alts[a];
		unsigned k;

		if (!nb_preset_alt_usable(p, a, cpu.model, cpu_feats))
			continue;
		for (k = 0; k < al->nterms; k++) {
			struct nb_evsel sel;

			nb_preset_term_sel(&al->terms[k], &sel);
			if (!nb_perf_raw(&sel, NB_DOM_USER))
				break;
		}
		if (k == al->nterms)
			return 1;
	}
	return 0;
}

/* Native K of preset P: a term of its single alternative, or a slot. */
static void preset_native(unsigned p, unsigned k, char *buf, size_t len)
{
	const struct nb_preset_alt *one = single_alt(p);
	char nm[64];

	if (one) {
		snprintf(buf, len, "p4netburst:::%s", one->terms[k].name);
	} else {
		preset_slot_name(p, k, nm, sizeof(nm));
		snprintf(buf, len, "p4netburst:::%s", nm);
	}
}

/* Why preset P is not offered here, naming the parts that have it. */
static void preset_absent(unsigned p, char *buf, size_t len)
{
	const char *nm = nb_part_name(cpu.model, cpu_feats);
	size_t n;
	int any = 0;

	snprintf(buf, len, "%s: not on this CPU (model %u%s%s%s): every alternative in "
		 "presets.txt needs an event or mask it lacks", nb_presets[p].name,
		 cpu.model, cpu_feats & NB_FEAT_L3 ? " with L3" : "", nm ? ", " : "",
		 nm ? nm : "");
	for (unsigned i = 0; i < nb_num_parts; i++) {
		if (!nb_preset_slots(p, nb_parts[i].model, nb_parts[i].feats))
			continue;
		n = strlen(buf);
		snprintf(buf + n, len - n, "%s%s", any ? ", " : "; it exists on ",
			 nb_parts[i].name);
		any = 1;
	}
	if (!any) {
		n = strlen(buf);
		snprintf(buf + n, len - n, "; it exists on no modelled part");
	}
}

/*
 * Every preset with an alternative this CPU can count: with one plain
 * alternative, its terms (NOT_DERIVED or DERIVED_ADD); with several, its
 * slot entries, NOT_DERIVED over one slot or DERIVED_ADD over the slots
 * (each reads coef * term of the alternative the event set uses).
 */
static int load_presets(int cidx)
{
	hwi_search_t *map;
	int n = 0;

	map = papi_calloc(nb_num_presets + 1, sizeof(*map));
	if (!map)
		return PAPI_ENOMEM;
	for (unsigned i = 0; i < nb_num_presets; i++) {
		int slots = nb_preset_slots(i, cpu.model, cpu_feats);
		unsigned pcode;
		int k;

		if (slots == 0 || !preset_backend_ok(i) ||
		    preset_code(nb_presets[i].name, &pcode) != PAPI_OK)
			continue;
		for (k = 0; k < PAPI_EVENTS_IN_DERIVED_EVENT; k++)
			map[n].native[k] = PAPI_NULL;
		for (k = 0; k < slots; k++) {
			char full[PAPI_HUGE_STR_LEN];
			int code;

			preset_native(i, (unsigned)k, full, sizeof(full));
			if (_papi_hwi_native_name_to_code(full, &code) != PAPI_OK)
				break;
			map[n].native[k] = code;
		}
		if (k < slots)
			continue;
		map[n].event_code = pcode;
		map[n].derived = slots > 1 ? DERIVED_ADD : NOT_DERIVED;
		map[n].operation[0] = '\0';
		map[n].note = (char *)nb_presets[i].note;
		n++;
	}
	map[n].event_code = 0;
	if (n)
		_papi_hwi_setup_all_presets(map, cidx);
	/* Names and notes, which papi_avail -e shows. */
	for (int i = 0; i < n; i++) {
		hwi_presets_t *pr = &_papi_hwi_presets[map[i].event_code & PAPI_PRESET_AND_MASK];
		int p = nb_preset_lookup(pr->symbol, strlen(pr->symbol));

		for (unsigned k = 0; p >= 0 && k < pr->count; k++) {
			char full[PAPI_HUGE_STR_LEN];

			preset_native((unsigned)p, k, full, sizeof(full));
			pr->name[k] = papi_strdup(full);
		}
		if (map[i].note)
			pr->note = papi_strdup(map[i].note);
	}
	/* A preset of presets.txt this CPU lacks: its note says why and where
	 * it exists; PAPI prints it when the preset is added
	 * (patches/papi-7.0.0-name-errors.patch). */
	for (unsigned i = 0; i < nb_num_presets; i++) {
		unsigned pcode;
		hwi_presets_t *pr;
		char why[PAPI_HUGE_STR_LEN];

		if ((nb_preset_slots(i, cpu.model, cpu_feats) && preset_backend_ok(i)) ||
		    preset_code(nb_presets[i].name, &pcode) != PAPI_OK)
			continue;
		pr = &_papi_hwi_presets[pcode & PAPI_PRESET_AND_MASK];
		if (pr->count || pr->note)
			continue;
		if (nb_preset_slots(i, cpu.model, cpu_feats))
			snprintf(why, sizeof(why), "%s: not on the perf backend: the kernel's P4 "
				 "driver cannot count any of its alternatives (tagged metrics' helper "
				 "ESCRs, events its P4_EVENTS lacks); the msr and sim backends can",
				 nb_presets[i].name);
		else
			preset_absent(i, why, sizeof(why));
		pr->note = papi_strdup(why);
	}
	papi_free(map);
	return PAPI_OK;
}

/*
 * The backend: P4NETBURST_BACKEND=sim|msr|perf forces one (its probe's
 * failure is then the disabled reason); otherwise the first that works of
 * sim (under nbsim), perf (per-thread counting by the kernel's P4 driver),
 * msr (per-CPU registers; needs root).  NULL with WHY empty: no NetBurst.
 */
static const struct nb_backend *pick_backend(char *why, size_t len)
{
	static const struct nb_backend *const order[] = {
		&nb_backend_sim, &nb_backend_perf, &nb_backend_msr,
	};
	const char *want = secure_getenv("P4NETBURST_BACKEND");
	char r[96];

	why[0] = 0;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (want && *want && strcmp(want, order[i]->name))
			continue;
		if (order[i]->probe(&cpu, r, sizeof(r)) == 0)
			return order[i];
		if (want && *want) {
			snprintf(why, len, "P4NETBURST_BACKEND=%.8s: %s", want, r);
			return NULL;
		}
	}
	if (want && *want)
		snprintf(why, len, "P4NETBURST_BACKEND=%.40s: no such backend (sim, msr, perf)", want);
	return NULL;
}

static int nb_init_component(int cidx)
{
	char why[PAPI_MAX_STR_LEN];
	papi_vector_t *v = &_p4netburst_vector;

	v->cmp_info.CmpIdx = cidx;
	memset(&cpu, 0, sizeof(cpu));
	backend = pick_backend(why, sizeof(why));
	if (!backend) {
		if (why[0]) {
			snprintf(v->cmp_info.disabled_reason, PAPI_MAX_STR_LEN, "%s", why);
		} else {
			const PAPI_hw_info_t *hw = &_papi_hwi_system_info.hw_info;

			snprintf(v->cmp_info.disabled_reason, PAPI_MAX_STR_LEN,
				 "No NetBurst PMU (CPU family %d model %d); "
				 "run the program under nbsim: nbsim PROGRAM",
				 hw->cpuid_family, hw->cpuid_model);
		}
		v->cmp_info.disabled = PAPI_ENOSUPP;
		return PAPI_ENOSUPP;
	}
	if (cpu.family != 15) {
		snprintf(v->cmp_info.disabled_reason, PAPI_MAX_STR_LEN,
			 "%s backend reports CPU family %u, not NetBurst (15)", backend->name,
			 cpu.family);
		v->cmp_info.disabled = PAPI_ENOSUPP;
		return PAPI_ENOSUPP;
	}
	set_hw_info();
	cpu_feats = cpu.l3 ? NB_FEAT_L3 : 0;

	/* Base entries: the events with their default masks, then the metrics. */
	if (intern_bases() != PAPI_OK)
		return PAPI_ENOMEM;
	v->cmp_info.num_native_events = count_bases();
	snprintf(v->cmp_info.kernel_version, sizeof(v->cmp_info.kernel_version),
		 "%s backend", backend->name);
	snprintf(v->cmp_info.support_version, sizeof(v->cmp_info.support_version),
		 "%s%s", backend == &nb_backend_sim ? "nbsim model " : "", cpu.model_name);
	v->cmp_info.disabled = PAPI_OK;
	/* Hardware overflow when the backend delivers PMIs (sim); else PAPI
	 * emulates overflow in software.  No kernel profiling. */
	v->cmp_info.hardware_intr = backend->pmi_signal != NULL;
	/* by CPU (PAPI_GRN_SYS) where the backend can (nbsim) */
	v->cmp_info.available_granularities = PAPI_GRN_THR | (backend->cpu_wide ? PAPI_GRN_SYS : 0);
	v->cmp_info.kernel_profile = 0;
	/* children's counts (PAPI_INHERIT) where the backend has them (perf) */
	v->cmp_info.inherit = backend->set_inherit != NULL;
	return load_presets(cidx);
}

static int nb_shutdown_component(void)
{
	if (backend && backend->restore)
		backend->restore(1);         /* the msr backend: registers as found */
	pthread_mutex_lock(&ntv_lock);
	free(ntv);
	ntv = NULL;
	ntv_count = ntv_alloc = 0;
	pthread_mutex_unlock(&ntv_lock);
	return PAPI_OK;
}

static int nb_init_thread(hwd_context_t *ctx)
{
	(void)ctx;
	return PAPI_OK;
}

static int nb_shutdown_thread(hwd_context_t *ctx)
{
	(void)ctx;
	return PAPI_OK;
}

static int nb_init_control_state(hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;

	memset(c, 0, sizeof(*c));
	c->domain = _p4netburst_vector.cmp_info.default_domain;
	c->pebs_h = -1;
	return PAPI_OK;
}

/* ---- event sets -------------------------------------------------------- */

/* Informational messages (the alternative a preset uses), printed when
 * PAPI's error messages are on, like report(). */
static void notice(const char *msg)
{
	if (_papi_hwi_error_level != PAPI_QUIET || secure_getenv("PAPI_VERBOSE"))
		fprintf(stderr, "PAPI p4netburst: %s", msg);
}

static void pmi_release(void);

static int nb_update_control_state(hwd_control_state_t *ctl, NativeInfo_t *native,
				   int count, hwd_context_t *ctx)
{
	nb_control_t *c = (nb_control_t *)ctl;
	struct nb_req req[NB_NUM_COUNTERS];
	static struct nb_plan plan;         /* large; guarded by the lock below */
	static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;
	struct nb_sched_cpu sc;
	char why[1024];
	int8_t palt[NB_NUM_PRESETS_MAX];
	(void)ctx;

	if (c->running)
		return PAPI_EISRUN;
	memset(req, 0, sizeof(req));
	if (count > NB_NUM_COUNTERS) {
		report("add event", "more events than the 18 NetBurst counters");
		return PAPI_ECNFLCT;
	}
	for (int i = 0; i < count; i++) {
		struct ntv_entry e;

		if (lookup((unsigned)native[i].ni_event, &e) != PAPI_OK)
			return PAPI_ENOEVNT;
		if (e.kind == ENT_QUAL) {
			char nm[NB_NAME_MAX];

			(void)nb_ntv_code_to_name((unsigned)native[i].ni_event, nm, (int)sizeof(nm));
			snprintf(why, sizeof(why), "%.300s is a qualifier template (papi_native_avail "
				 "lists it), not an event: give a value, e.g. :u=1", nm);
			report("add event", why);
			return PAPI_EINVAL;
		}
		if (e.kind == ENT_PRESET) {
			req[i].kind = NB_REQ_PRESET;
			req[i].preset = e.preset;
			req[i].slot = e.slot;
			continue;
		}
		if (e.sel.kind == NB_SEL_EVENT && nb_evsel_check(&e.sel, why, sizeof(why))) {
			report("add event", why);
			return PAPI_EINVAL;
		}
		req[i].kind = NB_REQ_SEL;
		req[i].sel = e.sel;
	}
	/* Around what the sibling LP holds now (HT); nb_start checks again. */
	c->lp = this_lp();
	pthread_mutex_lock(&lp_lock);
	if (c->grn_sys)
		sched_cpu_sys(c->lp, &sc);
	else
		sched_cpu(c->lp, &sc);
	pthread_mutex_unlock(&lp_lock);
	pthread_mutex_lock(&plan_lock);
	if (nb_plan_run(req, count, &sc, cpu_feats, c->palt, &plan, why, sizeof(why))) {
		pthread_mutex_unlock(&plan_lock);
		/* Say why even without PAPI_VERBOSE, once: a preset (mapped to
		 * its terms or to its alternatives) none of whose equivalent
		 * mappings fits would otherwise be a bare PAPI_ECNFLCT
		 * (docs/PRESETS.md). */
		if (_papi_hwi_error_level == PAPI_QUIET && !secure_getenv("PAPI_VERBOSE"))
			fprintf(stderr, "PAPI p4netburst: add event: %s\n", why);
		report("add event", why);
		return PAPI_ECNFLCT;
	}
	/* Say which presets use another than their preferred alternative,
	 * when that changes. */
	memset(palt, 0, sizeof(palt));
	for (int i = 0; i < count; i++)
		if (req[i].kind == NB_REQ_PRESET)
			palt[req[i].preset] = (int8_t)(plan.alt[i] + 1);
	if (memcmp(palt, c->palt, sizeof(palt)) &&
	    nb_plan_note(req, count, &plan, &sc, cpu_feats, why, sizeof(why)) > 0)
		notice(why);
	memcpy(c->palt, palt, sizeof(palt));
	c->n = plan.nhw;
	c->assign = plan.assign;
	for (int h = 0; h < plan.nhw; h++)
		c->sel[h] = plan.hw[h];
	c->nnat = count;
	for (int i = 0; i < count; i++) {
		c->hw_of[i] = plan.hw_of[i];
		c->coef[i] = plan.coef[i];
		native[i].ni_position = i;
	}
	pthread_mutex_unlock(&plan_lock);
	/* PAPI calls set_overflow again after this, for the events that
	 * overflow (the positions may have changed). */
	if (c->ovf) {
		_papi_hwi_stop_signal(_p4netburst_vector.cmp_info.hardware_intr_sig);
		pmi_release();
	}
	c->ovf = c->hw_ovf = 0;
	c->pebs_h = -1;
	memset(c->threshold, 0, sizeof(c->threshold));
	return PAPI_OK;
}

/* Helper ESCRs and PEBS MSRs off, so that the next event set starts clean. */
static int clear_extra(nb_control_t *c, char *err, size_t len)
{
	struct nb_msr_image z[NB_SCHED_MAX_HELPERS + 2];

	for (int i = 0; i < c->nextra; i++) {
		z[i].msr = c->extra[i].msr;
		z[i].value = 0;
	}
	return c->nextra ? backend->write_msrs(z, c->nextra, err, len) : 0;
}

/* Counters of the hardware requests in MASK that interrupt on overflow:
 * preset to 2^40 - threshold, so that the counter overflows after
 * threshold events [SDM 18.15.3 OVF, 40-bit counters]; ovf_at is the
 * count at which it will.  REARM (in the overflow handler, after
 * accumulate): the events counted since the overflow (skid) are
 * hwcount - ovf_at, so preset it for the next overflow to come threshold
 * events after the last one. */
static int preset_ex(nb_control_t *c, uint32_t mask, int rearm, char *err, size_t len)
{
	uint64_t raw[NB_NUM_COUNTERS];
	struct nb_regs r[NB_NUM_COUNTERS];
	int k = 0;

	for (int i = 0; i < c->n; i++) {
		uint64_t t = c->threshold[i], past = 0;

		if (!((mask >> i) & 1))
			continue;
		r[k] = c->regs[i];
		if (rearm)      /* the events since the overflow */
			past = (uint64_t)(c->hwcount[i] - c->ovf_at[i]) % t;
		/* past >= t: more thresholds went by before the PMI was taken
		 * (skid); they coalesce into this one and the next overflow
		 * keeps the phase, at the next multiple */
		raw[k] = (past + NB_COUNTER_MASK + 1 - t) & NB_COUNTER_MASK;
		c->last[i] = raw[k];
		c->ovf_at[i] = c->hwcount[i] + (long long)(t - past);
		k++;
	}
	return k ? backend->set_counters(r, k, raw, err, len) : 0;
}

static int preset(nb_control_t *c, uint32_t mask, char *err, size_t len)
{
	return preset_ex(c, mask, 0, err, len);
}

/* The DS save area for PEBS (c->pebs_h), written to IA32_DS_AREA; 0 if
 * no PEBS.  Fields: PEBS base 4, index 5, absolute maximum 6, interrupt
 * threshold 7 (one record), counter reset 8 = 2^40 - threshold. */
static int pebs_arm(nb_control_t *c, char *err, size_t len)
{
	struct nb_msr_image w;
	uint64_t *buf;

	if (c->pebs_h < 0)
		return 0;
	if (!c->ds && !(c->ds = calloc(PEBS_DS_WORDS, sizeof(uint64_t)))) {
		snprintf(err, len, "no memory for the PEBS buffer");
		return -1;
	}
	buf = c->ds + 10;
	memset(c->ds, 0, 10 * sizeof(uint64_t));
	c->ds[4] = c->ds[5] = (uint64_t)(uintptr_t)buf;
	c->ds[6] = (uint64_t)(uintptr_t)(buf + PEBS_NREC * PEBS_REC_WORDS);
	c->ds[7] = (uint64_t)(uintptr_t)(buf + PEBS_REC_WORDS);
	c->ds[8] = (NB_COUNTER_MASK + 1 - c->threshold[c->pebs_h]) & NB_COUNTER_MASK;
	w.msr = NB_MSR_DS_AREA;
	w.value = (uint64_t)(uintptr_t)c->ds;
	return backend->write_msrs(&w, 1, err, len);
}

static unsigned this_lp(void)
{
	return cpu.ht && backend && backend->thread_lp ? backend->thread_lp() & 1 : 0;
}

static void sched_cpu(unsigned lp, struct nb_sched_cpu *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->model = cpu.model;
	sc->thread = lp;
	if (cpu.ht) {
		sc->busy_escrs = lp_busy[lp ^ 1].escrs;
		sc->busy_counters = lp_busy[lp ^ 1].counters;
		sc->busy_pebs_enable = lp_busy[lp ^ 1].pebs_enable;
		sc->busy_matrix_vert = lp_busy[lp ^ 1].matrix_vert;
	}
	sc->busy_escrs |= lp_busy[BY_CPU].escrs;
	sc->busy_counters |= lp_busy[BY_CPU].counters;
}

/* A PAPI_GRN_SYS set also goes around the running sets of the other
 * threads of its LP (their contexts hold those registers). */
static void sched_cpu_sys(unsigned lp, struct nb_sched_cpu *sc)
{
	sched_cpu(lp, sc);
	sc->busy_escrs |= lp_busy[lp].escrs;
	sc->busy_counters |= lp_busy[lp].counters;
}

/* HT: claim the registers of c's assignment for its LP, placing the set
 * again if the sibling took any of them since it was added.  0 or a PAPI
 * error. */
static int claim_lp(nb_control_t *c)
{
	struct nb_sched_cpu sc;
	char why[512];
	int ret = PAPI_OK;

	pthread_mutex_lock(&lp_lock);
	c->lp = this_lp();
	if (c->grn_sys)
		sched_cpu_sys(c->lp, &sc);
	else
		sched_cpu(c->lp, &sc);
	if ((c->assign.escrs_used & sc.busy_escrs) || (c->assign.counters_used & sc.busy_counters) ||
	    (c->assign.pebs_enable && sc.busy_pebs_enable &&
	     (c->assign.pebs_enable & ~NB_PEBS_ENABLE_PEBS) != sc.busy_pebs_enable)) {
		if (nb_sched_run(c->sel, c->n, &sc, &c->assign, NULL, why, sizeof(why))) {
			report("start (the sibling logical processor holds registers)", why);
			ret = PAPI_ECNFLCT;
		}
	}
	if (ret == PAPI_OK) {
		lp_hold(c->grn_sys ? BY_CPU : c->lp, c->assign.escrs_used,
			c->assign.counters_used, 1);
		c->held = 1;
		if (c->assign.pebs_enable) {
			lp_busy[c->lp].pebs_enable = c->assign.pebs_enable & ~NB_PEBS_ENABLE_PEBS;
			lp_busy[c->lp].matrix_vert = c->assign.matrix_vert;
			lp_busy[c->lp].pebs_on = c->pebs_h >= 0;
		}
	}
	pthread_mutex_unlock(&lp_lock);
	return ret;
}

/*
 * HT: IA32_PEBS_ENABLE is the package's, its PEBS bits relative to the
 * writer (25: my LP, 26: the other) [SDM 18.16.3].  Written again under
 * the lock once the set is programmed (START) or stopped: the value that
 * keeps the sibling's replay tagging and PEBS, so that the last writer
 * has seen both LPs' state.  0 or -1 with ERR.
 */
static int pebs_enable_shared(nb_control_t *c, int start, char *err, size_t len)
{
	struct nb_msr_image w[2];
	unsigned sib = c->lp ^ 1;
	int rc;

	if (!cpu.ht || (!c->assign.pebs_enable && !lp_busy[sib].pebs_enable))
		return 0;
	pthread_mutex_lock(&lp_lock);
	w[0].msr = NB_MSR_PEBS_ENABLE;
	w[1].msr = NB_MSR_MATRIX_VERT;
	if (start && c->assign.pebs_enable) {
		w[0].value = c->assign.pebs_enable;
		w[1].value = c->assign.matrix_vert;
	} else {
		w[0].value = lp_busy[sib].pebs_enable;
		w[1].value = lp_busy[sib].matrix_vert;
	}
	if (lp_busy[sib].pebs_on)
		w[0].value |= PEBS_ENABLE_OTH;
	rc = backend->write_msrs(w, 2, err, len);
	pthread_mutex_unlock(&lp_lock);
	return rc;
}

static void release_lp(nb_control_t *c)
{
	pthread_mutex_lock(&lp_lock);
	/* only what claim_lp took (PAPI may stop a set whose start failed) */
	if (c->held)
		lp_hold(c->grn_sys ? BY_CPU : c->lp, c->assign.escrs_used,
			c->assign.counters_used, -1);
	c->held = 0;
	if (c->assign.pebs_enable) {
		lp_busy[c->lp].pebs_enable = lp_busy[c->lp].matrix_vert = 0;
		lp_busy[c->lp].pebs_on = 0;
	}
	pthread_mutex_unlock(&lp_lock);
}

static int nb_start(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;
	unsigned dom = papi_dom_to_nb(c->domain);
	char err[256];
	int ret;
	(void)ctx;

	if ((ret = claim_lp(c)) != PAPI_OK)
		return ret;
	/* T0 or T1 ESCR bits for the LP this thread runs on */
	for (int i = 0; i < c->n; i++) {
		nb_encode_ex(&c->sel[i], &c->assign.slot[i], dom, c->lp,
			     ((c->hw_ovf >> i) & 1) && i != c->pebs_h ? NB_ENC_PMI : 0, &c->regs[i]);
		c->last[i] = 0;
		c->hwcount[i] = 0;
		memset(&c->casc[i], 0, sizeof(c->casc[i]));
	}
	for (int i = 0; i < c->nnat; i++)
		c->count[i] = 0;
	c->nextra = nb_encode_extra(&c->assign, dom, c->lp, c->extra,
				    (int)(sizeof(c->extra) / sizeof(c->extra[0])));
	if (backend->set_inherit)
		backend->set_inherit(c->inherit);
	if (backend->program(c->regs, c->n, err, sizeof(err)) ||
	    (c->grn_sys && backend->cpu_wide(c->regs, c->n, 1, err, sizeof(err))) ||
	    (c->nextra && backend->write_msrs(c->extra, c->nextra, err, sizeof(err))) ||
	    pebs_enable_shared(c, 1, err, sizeof(err)) ||
	    (c->hw_ovf && preset(c, c->hw_ovf, err, sizeof(err))) ||
	    (c->pebs_h >= 0 && pebs_arm(c, err, sizeof(err))) ||
	    /* running once programmed and preset, before the counters
	     * start: with a small threshold the first PMI comes before
	     * this function returns, and its handler must find the set
	     * running to fold and re-arm it */
	    (c->running = 1, backend->enable(c->regs, c->n, 1, err, sizeof(err)))) {
		c->running = 0;
		report("start", err);
		release_lp(c);
		return PAPI_ESYS;
	}
	return PAPI_OK;
}

/* Fold the counters into the 64-bit totals. */
static int accumulate(nb_control_t *c)
{
	uint64_t raw[2 * NB_NUM_COUNTERS];   /* raw[n + i]: cascaded alternates */
	char err[256];

	if (backend->read(c->regs, c->n, raw, err, sizeof(err))) {
		report("read", err);
		return PAPI_ESYS;
	}
	for (int i = 0; i < c->n; i++) {
		uint64_t d = (raw[i] - c->last[i]) & NB_COUNTER_MASK;

		if (c->regs[i].cascade) {
			/* the pair's 41 bits, then deltas (nb_encode.h) */
			c->hwcount[i] = (long long)nb_cascade_fold(&c->casc[i], raw[i], raw[c->n + i]);
			continue;
		}

		c->hwcount[i] += (long long)d;
		c->last[i] = raw[i] & NB_COUNTER_MASK;
	}
	for (int i = 0; i < c->nnat; i++)
		c->count[i] = c->hw_of[i] < 0 ? 0 : c->coef[i] * c->hwcount[c->hw_of[i]];
	return PAPI_OK;
}

static int nb_stop(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;
	char err[256];
	int ret;
	(void)ctx;

	/* not running from here on: a PMI taken inside this function (a
	 * small threshold overflows in its first instructions) must not
	 * re-arm and re-enable the counters being stopped */
	c->running = 0;
	if (backend->enable(c->regs, c->n, 0, err, sizeof(err))) {
		c->running = 1;
		report("stop", err);
		return PAPI_ESYS;
	}
	ret = accumulate(c);
	/* the counters are the thread's again (nbsim: its context) */
	if (c->grn_sys && backend->cpu_wide(c->regs, c->n, 0, err, sizeof(err))) {
		report("stop", err);
		ret = PAPI_ESYS;
	}
	if (clear_extra(c, err, sizeof(err))) {
		report("stop", err);
		ret = PAPI_ESYS;
	}
	if (c->pebs_h >= 0) {
		struct nb_msr_image w = { NB_MSR_DS_AREA, 0 };

		(void)backend->write_msrs(&w, 1, err, sizeof(err));
	}
	release_lp(c);
	/* the sibling's replay tagging and PEBS back (clear_extra wrote 0) */
	if (pebs_enable_shared(c, 0, err, sizeof(err))) {
		report("stop", err);
		ret = PAPI_ESYS;
	}
	if (backend->restore)
		backend->restore(0);
	return ret;
}

/*
 * The PMI handler (nb_dispatch_timer) reads, re-arms and accounts the
 * counters of a running set.  A PMI taken while code outside it does the
 * same (PAPI_read, PAPI_stop's read, PAPI_reset) is deferred, as a kernel
 * masks interrupts around its counter updates: the handler notes it and
 * returns, and the signal is raised again once the bookkeeping is done.
 * Without it, a PMI between the read of a counter and its bookkeeping
 * re-armed the counter, and the interrupted read then accounted the old
 * value against the new preset: the count went T ahead, and at the next
 * overflow 2^40 ahead (ctests/overflow_sweep).  A flag, not a signal
 * mask: two sigprocmask calls per PAPI_read were counted instructions.
 */
static void acc_begin(nb_control_t *c)
{
	c->pmi_deferred = 0;
	c->in_acc = 1;
	__asm__ __volatile__("" ::: "memory");
}

static void acc_end(nb_control_t *c)
{
	__asm__ __volatile__("" ::: "memory");
	c->in_acc = 0;
	if (c->pmi_deferred) {
		char err[256];
		uint32_t due = 0;

		c->pmi_deferred = 0;
		/* only if an armed counter reached its overflow (a PMI whose
		 * overflow the handler already took needs nothing) */
		for (int h = 0; h < c->n; h++)
			if (((c->hw_ovf >> h) & 1) && h != c->pebs_h && c->hwcount[h] >= c->ovf_at[h])
				due |= 1u << h;
		if (!due && c->pebs_h < 0)
			return;
		/* the counters stop first, so that raising the signal is
		 * not counted (the handler enables them again) */
		(void)backend->enable(c->regs, c->n, 0, err, sizeof(err));
		(void)pthread_kill(pthread_self(), _p4netburst_vector.cmp_info.hardware_intr_sig);
	}
}

static int nb_read(hwd_context_t *ctx, hwd_control_state_t *ctl,
		   long long **events, int flags)
{
	nb_control_t *c = (nb_control_t *)ctl;
	int ret = PAPI_OK;
	(void)ctx;
	(void)flags;

	if (c->running) {
		acc_begin(c);
		ret = accumulate(c);
		acc_end(c);
	}
	*events = c->count;
	return ret;
}

static int nb_reset(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;
	char err[256];
	int ret = PAPI_OK;
	(void)ctx;

	acc_begin(c);
	/* zero stops cascaded pairs (backend_regs.c): start them again */
	if (c->running && (backend->zero(c->regs, c->n, err, sizeof(err)) ||
			   backend->enable(c->regs, c->n, 1, err, sizeof(err)))) {
		report("reset", err);
		acc_end(c);
		return PAPI_ESYS;
	}
	for (int i = 0; i < c->n; i++) {
		c->last[i] = 0;
		c->hwcount[i] = 0;
		memset(&c->casc[i], 0, sizeof(c->casc[i]));
	}
	for (int i = 0; i < c->nnat; i++)
		c->count[i] = 0;
	if (c->running && preset(c, c->hw_ovf, err, sizeof(err))) {
		report("reset", err);
		ret = PAPI_ESYS;
	}
	acc_end(c);
	return ret;
}

static int nb_set_domain(hwd_control_state_t *ctl, int domain)
{
	nb_control_t *c = (nb_control_t *)ctl;

	if (!(domain & (PAPI_DOM_USER | PAPI_DOM_KERNEL)) ||
	    (domain & ~PAPI_DOM_ALL))
		return PAPI_EINVAL;
	c->domain = domain;
	return PAPI_OK;
}

static int nb_ctl(hwd_context_t *ctx, int code, _papi_int_option_t *option)
{
	(void)ctx;
	switch (code) {
	case PAPI_DOMAIN:
	case PAPI_DEFDOM:
		if (code == PAPI_DOMAIN)
			return nb_set_domain(option->domain.ESI->ctl_state,
					     option->domain.domain);
		return PAPI_OK;
	case PAPI_DEF_ITIMER:
		/* The interval timer of PAPI's software overflow and
		 * multiplexing is the OS's, not the PMU's: any real, virtual
		 * or profiling timer will do. */
		return option->itimer.itimer_num == ITIMER_REAL ||
		       option->itimer.itimer_num == ITIMER_VIRTUAL ||
		       option->itimer.itimer_num == ITIMER_PROF ? PAPI_OK : PAPI_EINVAL;
	case PAPI_DEF_ITIMER_NS:
		return PAPI_OK;
	case PAPI_GRANUL: {
		/* PAPI_GRN_THR: the calling thread (the default: nbsim and
		 * the perf backend keep counters per thread); PAPI_GRN_SYS:
		 * the logical CPU, every thread that runs on it (backends
		 * with cpu_wide: sim) */
		nb_control_t *c = (nb_control_t *)option->granularity.ESI->ctl_state;
		int g = option->granularity.granularity;

		if (c->running)
			return PAPI_EISRUN;
		if (g != PAPI_GRN_THR && (g != PAPI_GRN_SYS || !backend->cpu_wide))
			return PAPI_ENOSUPP;
		c->grn_sys = g == PAPI_GRN_SYS;
		return PAPI_OK;
	}
	case PAPI_DEFGRN:
		return option->granularity.granularity == PAPI_GRN_THR ?
		       PAPI_OK : PAPI_ENOSUPP;
	case PAPI_INHERIT: {
		/* PAPI checked cmp_info.inherit (the perf backend: the
		 * kernel's attr.inherit) and that the set is stopped */
		nb_control_t *c = (nb_control_t *)option->inherit.ESI->ctl_state;

		if (!backend->set_inherit)
			return PAPI_ECMP;
		c->inherit = option->inherit.inherit != 0;
		return PAPI_OK;
	}
	default:
		return PAPI_ENOSUPP;
	}
}

/* ---- overflow ----------------------------------------------------------- */

/*
 * Hardware overflow (cmp_info.hardware_intr, backends with the overflow
 * hooks): an overflowing event's CCCR gets OVF_PMI_T0 and its counter the
 * preset 2^40 - threshold (per hardware request: natives 0..nnat-1 map
 * to them through hw_of); the PMI arrives as signal hardware_intr_sig
 * (nbsim sends it, NBSIM_REQ_PMI_SIGNAL).  The handler stops the set,
 * finds the armed counters that passed 2^40, folds the counts, presets
 * those counters so that the next overflow comes threshold events after
 * this one, restarts, and hands PAPI the overflow vector (bit = position
 * of the event) and the interrupted PC.  A PMI that finds no such counter
 * (one already handled by an earlier PMI) is ignored.
 */
/*
 * A precise overflowing event samples with PEBS.  The scheduler placed it
 * on its logical processor's PEBS counter (16 on LP0, 17 on LP1: a precise
 * request counts there only, nb_sched.h), one precise request per event
 * set; here only the backend and the DS format.
 */
static int pebs_place(nb_control_t *c, int h)
{
	char why[256];

	if (backend != &nb_backend_sim || cpu.model < 3) {
		snprintf(why, sizeof(why), "precise overflow (PEBS) needs the sim backend and the "
			 "64-bit DS format (models 3 and 4, CPUID DTES64); this is %s model %u",
			 backend->name, cpu.model);
		report("overflow", why);
		return PAPI_ENOSUPP;
	}
	/* SDM 18.16.3: counter 16 (MSR_IQ_CCCR4) on LP0, 17 on LP1 */
	if (c->assign.slot[h].counter != PEBS_COUNTER + (cpu.ht ? c->lp : 0) ||
	    (c->pebs_h >= 0 && c->pebs_h != h))
		return PAPI_EBUG;       /* the scheduler's rule broken */
	c->pebs_h = h;
	return PAPI_OK;
}

/* The PEBS buffer goes with the event set. */
static int nb_cleanup_eventset(hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;

	free(c->ds);
	c->ds = NULL;
	c->pebs_h = -1;
	return PAPI_OK;
}

/*
 * The PMI signal is one per process in nbsim (NBSIM_REQ_PMI_SIGNAL), and
 * event sets of other threads (HT: the other logical processor) may
 * overflow too: count the event sets with overflow on, and turn the
 * signal off only when the last one stops.
 */
static pthread_mutex_t pmi_lock = PTHREAD_MUTEX_INITIALIZER;
static int pmi_sets;

static int pmi_acquire(int sig, char *err, size_t len)
{
	int r = 0;

	pthread_mutex_lock(&pmi_lock);
	if (pmi_sets++ == 0)
		r = backend->pmi_signal(sig, err, len);
	if (r)
		pmi_sets--;
	pthread_mutex_unlock(&pmi_lock);
	return r;
}

static void pmi_release(void)
{
	char err[256];

	pthread_mutex_lock(&pmi_lock);
	if (pmi_sets > 0 && --pmi_sets == 0)
		(void)backend->pmi_signal(0, err, sizeof(err));
	pthread_mutex_unlock(&pmi_lock);
}

static int nb_set_overflow(EventSetInfo_t *ESI, int EventIndex, int threshold)
{
	nb_control_t *c = (nb_control_t *)ESI->ctl_state;
	int sig = _p4netburst_vector.cmp_info.hardware_intr_sig;
	int pos = ESI->EventInfoArray[EventIndex].pos[0], h;
	uint32_t was = c->ovf;
	char err[256];

	if (pos < 0 || pos >= c->nnat || threshold < 0)
		return PAPI_EINVAL;
	if (!backend->pmi_signal)
		return PAPI_ENOSUPP;
	if (c->running)
		return PAPI_EISRUN;
	h = c->hw_of[pos];
	if (threshold && (h < 0 || c->coef[pos] != 1)) {
		report("overflow", "the event is not one counter (a derived preset term): "
		       "it cannot interrupt on overflow");
		return PAPI_EINVAL;
	}
	if (threshold == 0) {
		c->ovf &= ~(1u << pos);
		c->hw_ovf = 0;
		for (int i = 0; i < c->nnat; i++)
			if ((c->ovf >> i) & 1)
				c->hw_ovf |= 1u << c->hw_of[i];
		if (h >= 0 && !((c->hw_ovf >> h) & 1)) {
			c->threshold[h] = 0;
			if (c->pebs_h == h)
				c->pebs_h = -1;
		}
		if (was && !c->ovf) {
			pmi_release();
			return _papi_hwi_stop_signal(sig);
		}
		return PAPI_OK;
	}
	if (c->sel[h].cccr & NB_CCCR_MOD_CASCADE) {
		/* the pair's alternate would interrupt only 2^40 events after
		 * the low counter's overflow: not a threshold */
		report("overflow", "a cascaded event (cascade) cannot interrupt on overflow: "
		       "use the plain event");
		return PAPI_EINVAL;
	}
	if (c->sel[h].cccr & NB_CCCR_MOD_PRECISE) {
		int r = pebs_place(c, h);

		if (r != PAPI_OK)
			return r;
	}
	c->ovf |= 1u << pos;
	c->hw_ovf |= 1u << h;
	c->threshold[h] = (uint64_t)threshold;   /* natives sharing a counter: the last */
	if (!was) {
		int r = _papi_hwi_start_signal(sig, NEED_CONTEXT, ESI->CmpIdx);

		if (r != PAPI_OK)
			return r;
		if (pmi_acquire(sig, err, sizeof(err))) {
			report("overflow", err);
			return PAPI_ESYS;
		}
	}
	return PAPI_OK;
}

/* The interrupted PC from the signal context. */
static vptr_t pc_of(_papi_hwi_context_t *hw)
{
	return GET_OVERFLOW_ADDRESS((*hw));
}

static void nb_dispatch_timer(int signo, hwd_siginfo_t *si, void *uc)
{
	int cidx = _p4netburst_vector.cmp_info.CmpIdx;
	ThreadInfo_t *thread = _papi_hwi_lookup_thread(0);
	_papi_hwi_context_t hw;
	EventSetInfo_t *ESI;
	nb_control_t *c;
	uint32_t which = 0, vec = 0;
	uint64_t raw[2 * NB_NUM_COUNTERS], nrec = 0;   /* 2n: backend read */
	char err[256];
	int hard;
	(void)signo;

	hw.si = si;
	hw.ucontext = (hwd_ucontext_t *)uc;
	if (!thread || !(ESI = thread->running_eventset[cidx]) || !ESI->overflow.flags)
		return;
	if (!(ESI->overflow.flags & PAPI_OVERFLOW_HARDWARE)) {
		/* PAPI's software overflow (itimer) */
		_papi_hwi_dispatch_overflow_signal(&hw, pc_of(&hw), NULL, 0, 0, &thread, cidx);
		return;
	}
	c = (nb_control_t *)ESI->ctl_state;
	if (!c->running)
		return;
	if (c->in_acc) {
		/* taken inside PAPI_read/stop/reset's bookkeeping: again
		 * once it is done (acc_end) */
		c->pmi_deferred = 1;
		return;
	}
	/* Stop the set and read it; the armed counters that overflowed are
	 * those whose count reached ovf_at (after accumulate below: the
	 * counts decide, not the OVF flags, which a handler running in
	 * between could clear). */
	if (backend->enable(c->regs, c->n, 0, err, sizeof(err)) ||
	    backend->read(c->regs, c->n, raw, err, sizeof(err))) {
		report("overflow interrupt", err);
		return;
	}
	/* PEBS records: each one took the counter from the overflow back to
	 * the reset value R = 2^40 - T.  From last L to raw through nrec
	 * reloads: (2^40 - L) + (nrec - 1) T + (raw - R) = nrec T + raw - L,
	 * where raw - L may be negative (so not the masked delta of
	 * accumulate(), which would add 2^40). */
	if (c->pebs_h >= 0 && c->ds) {
		int p = c->pebs_h;

		nrec = (c->ds[5] - c->ds[4]) / (PEBS_REC_WORDS * sizeof(uint64_t));
		if (nrec > PEBS_NREC)
			nrec = 0;
		if (nrec) {
			uint64_t now = raw[p] & NB_COUNTER_MASK;

			c->hwcount[p] += (long long)(nrec * c->threshold[p]) +
					 ((long long)now - (long long)c->last[p]);
			c->last[p] = now;
		}
	}
	if (accumulate(c) != PAPI_OK) {
		report("overflow interrupt", "the counters cannot be read");
		return;
	}
	for (int h = 0; h < c->n; h++)
		if (((c->hw_ovf >> h) & 1) && h != c->pebs_h && c->hwcount[h] >= c->ovf_at[h])
			which |= 1u << h;
	if (preset_ex(c, which, 1, err, sizeof(err)) ||
	    backend->enable(c->regs, c->n, 1, err, sizeof(err))) {
		report("overflow interrupt", err);
		return;
	}
	/* one dispatch per PEBS record, with its precise address (RIP) */
	for (uint64_t k = 0; k < nrec; k++) {
		const uint64_t *rec = (const uint64_t *)(uintptr_t)c->ds[4] + k * PEBS_REC_WORDS;
		uint32_t pv = 0;

		for (int i = 0; i < c->nnat; i++)
			if (((c->ovf >> i) & 1) && c->hw_of[i] == c->pebs_h)
				pv |= 1u << i;
		hard = 1;
		_papi_hwi_dispatch_overflow_signal(&hw, (vptr_t)(uintptr_t)rec[1], &hard,
						   (long long)pv, 0, &thread, cidx);
	}
	if (nrec)
		c->ds[5] = c->ds[4];
	/* overflow vector: the natives (PAPI positions) on those counters */
	for (int i = 0; i < c->nnat; i++)
		if (((c->ovf >> i) & 1) && ((which >> c->hw_of[i]) & 1))
			vec |= 1u << i;
	if (!vec)
		return;
	hard = 1;
	_papi_hwi_dispatch_overflow_signal(&hw, pc_of(&hw), &hard, (long long)vec, 0,
					   &thread, cidx);
}

/* ---- names ------------------------------------------------------------- */

/*
 * Base codes: 0 .. nb_num_events-1 are the events with their default masks,
 * nb_num_events .. +nb_num_metrics-1 the tagged metrics.  Enumeration walks
 * the base codes the running CPU has; masks enumerate as ENT_UMASK entries
 * interned on the fly; other names are interned as ENT_USER.
 */
static unsigned base_code(const struct nb_evsel *s)
{
	return s->kind == NB_SEL_METRIC ? nb_num_events + s->event : s->event;
}

static int base_on_cpu(unsigned b)
{
	if (b < nb_num_events)
		return nb_event_on_cpu(b, cpu.model, cpu_feats);
	return nb_metric_on_cpu(b - nb_num_events, cpu.model, cpu_feats);
}

static int next_base(unsigned from, unsigned *code)
{
	for (unsigned b = from; b < nb_num_events + nb_num_metrics; b++)
		if (base_on_cpu(b)) {
			*code = b;
			return PAPI_OK;
		}
	return PAPI_ENOEVNT;
}

/* Number of base events and metrics the running CPU offers. */
static int count_bases(void)
{
	int n = 0;

	for (unsigned b = 0; b < nb_num_events + nb_num_metrics; b++)
		n += base_on_cpu(b);
	return n;
}

/* Intern the base entries (event i -> code i, metric m -> nb_num_events+m). */
static int intern_bases(void)
{
	pthread_mutex_lock(&ntv_lock);
	ntv_count = 0;
	pthread_mutex_unlock(&ntv_lock);
	for (unsigned b = 0; b < nb_num_events + nb_num_metrics; b++) {
		struct nb_evsel s;
		unsigned code;

		memset(&s, 0, sizeof(s));
		if (b < nb_num_events) {
			s.event = (uint16_t)b;
			s.masks = nb_event_default_masks(b);
		} else {
			s.kind = NB_SEL_METRIC;
			s.event = (uint16_t)(b - nb_num_events);
		}
		if (intern(&s, ENT_BASE, &code) != PAPI_OK || code != b)
			return PAPI_ENOMEM;
	}
	return PAPI_OK;
}

/*
 * Qualifiers: the modifiers a name may carry (nb_evsel.h), listed by
 * PAPI_NTV_ENUM_UMASKS after an event's masks (as perf_event lists
 * ":u=0|1"), each where a representative use of it parses for that event
 * or metric (precise only where PEBS is allowed).  Field meanings: ESCR
 * [SDM Fig. 18-43/44], CCCR [SDM Fig. 18-45; seed 003 sec. 6], ActiveThread
 * [SDM 18.16.1], PEBS [SDM 18.15.7].
 */
static const struct {
	const char *name;      /* as listed */
	const char *use;       /* a use of it that parses */
	const char *desc;
} quals[] = {
	{ "u=0|1", "u=1", "count at user level, CPL 1-3 (ESCR T0_USR/T1_USR); "
	  "'u' alone is u=1; default: from the PAPI domain" },
	{ "k=0|1", "k=1", "count at kernel level, CPL 0 (ESCR T0_OS/T1_OS); "
	  "default: from the PAPI domain" },
	{ "thr=0..15", "thr=1", "CCCR Compare and Threshold: count the cycles in "
	  "which the event count exceeds the threshold (cmp=N is accepted)" },
	{ "cmpl=0|1", "thr=1:cmpl", "CCCR Complement: with thr, count the cycles "
	  "in which the event count is at most the threshold" },
	{ "edge=0|1", "thr=1:edge", "CCCR Edge: with thr, count the times the "
	  "threshold comparison turns true" },
	{ "thread=any|single|both|none", "thread=single", "CCCR ActiveThread: "
	  "count while any (default), exactly one, both or no logical processor "
	  "is active (3, 1, 2, 0 accepted)" },
	{ "precise=0|1", "precise", "PEBS: precise event-based sampling of the "
	  "tagged uops (IA32_PEBS_ENABLE bit 25)" },
	{ "cascade=0|1", "cascade", "count on a cascaded counter pair (CCCR Cascade, "
	  "SDM 18.15.5.6): the alternate counts once the event's 40-bit counter "
	  "has overflowed, read as one 41-bit count (up to 2^41); events only" },
};
#define NQUALS ((unsigned)(sizeof(quals) / sizeof(quals[0])))

static const char *base_name(const struct nb_evsel *s)
{
	return s->kind == NB_SEL_METRIC ? nb_metrics[s->event].name : nb_events[s->event].name;
}

/* Is qualifier Q offered on the event or metric of SEL? */
static int qual_allowed(const struct nb_evsel *sel, unsigned q)
{
	char nm[NB_NAME_MAX], err[256];
	struct nb_evsel out;

	snprintf(nm, sizeof(nm), "%s:%s", base_name(sel), quals[q].use);
	return nb_evsel_parse(nm, cpu.model, cpu_feats, &out, err, sizeof(err)) == NB_PARSE_OK;
}

/* The first qualifier >= Q offered on BASE, interned as an ENT_QUAL. */
static int next_qual(const struct nb_evsel *base, unsigned q, unsigned *code)
{
	struct ntv_entry e;

	for (; q < NQUALS; q++)
		if (qual_allowed(base, q))
			break;
	if (q >= NQUALS)
		return PAPI_ENOEVNT;
	memset(&e, 0, sizeof(e));
	e.kind = ENT_QUAL;
	e.sel = *base;
	e.qual = (uint8_t)q;
	return intern_entry(&e, code);
}

/* The base selection (event with default masks, or metric) of E. */
static void base_sel(const struct ntv_entry *e, struct nb_evsel *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = e->sel.kind;
	out->event = e->sel.event;
	if (out->kind == NB_SEL_EVENT)
		out->masks = nb_event_default_masks(e->sel.event);
}

static int nb_ntv_enum_events(unsigned *code, int modifier)
{
	struct ntv_entry e;

	switch (modifier) {
	case PAPI_ENUM_FIRST:
		return next_base(0, code);
	case PAPI_ENUM_EVENTS:
		if (lookup(*code, &e) != PAPI_OK || e.kind == ENT_PRESET)
			return PAPI_ENOEVNT;
		return next_base(base_code(&e.sel) + 1u, code);
	case PAPI_NTV_ENUM_UMASKS: {
		const struct nb_event *d;
		struct nb_evsel base;
		unsigned i = 0;

		if (lookup(*code, &e) != PAPI_OK)
			return PAPI_ENOEVNT;
		if (e.kind == ENT_QUAL)
			return next_qual(&e.sel, e.qual + 1u, code);
		if (e.kind != ENT_BASE && e.kind != ENT_UMASK)
			return PAPI_ENOEVNT;
		base_sel(&e, &base);
		if (e.sel.kind != NB_SEL_EVENT)     /* metrics: qualifiers only */
			return next_qual(&base, 0, code);
		d = &nb_events[e.sel.event];
		if (e.kind == ENT_UMASK) {
			while (i < d->nmasks && (1u << d->masks[i].bit) != e.sel.masks)
				i++;
			i++;
		}
		while (i < d->nmasks && !nb_mask_on_cpu(&d->masks[i], cpu.model, cpu_feats))
			i++;
		if (i >= d->nmasks)
			return next_qual(&base, 0, code);
		memset(&e.sel, 0, sizeof(e.sel));
		e.sel.event = (uint16_t)(d - nb_events);
		e.sel.masks = (uint16_t)(1u << d->masks[i].bit);
		return intern(&e.sel, ENT_UMASK, code);
	}
	default:
		return PAPI_EINVAL;
	}
}

/* "PAPI_X" or "PAPI_X.k": a preset slot entry (see load_presets). */
static int preset_name_to_code(const char *p, unsigned *code)
{
	const char *dot = strchr(p, '.');
	size_t n = dot ? (size_t)(dot - p) : strlen(p);
	int pi = nb_preset_lookup(p, n), slots;
	unsigned slot = 0;
	struct ntv_entry e;

	if (pi < 0)
		return PAPI_ENOEVNT;
	slots = nb_preset_slots((unsigned)pi, cpu.model, cpu_feats);
	if (slots == 0) {
		char why[PAPI_HUGE_STR_LEN];

		preset_absent((unsigned)pi, why, sizeof(why));
		PAPIERROR("p4netburst: %s", why);
		return PAPI_ENOEVNT;
	}
	if (dot) {
		char *end;

		slot = (unsigned)strtoul(dot + 1, &end, 10);
		if (*end || end == dot + 1 || slots < 2)
			return PAPI_ENOEVNT;
	} else if (slots != 1) {
		return PAPI_ENOEVNT;
	}
	if (slot >= (unsigned)slots)
		return PAPI_ENOEVNT;
	memset(&e, 0, sizeof(e));
	e.kind = ENT_PRESET;
	e.preset = (uint16_t)pi;
	e.slot = (uint8_t)slot;
	return intern_entry(&e, code);
}

static int nb_ntv_name_to_code(const char *name, unsigned *code)
{
	struct nb_evsel s;
	char err[256];
	const char *p;
	int r;

	if (!backend)
		return PAPI_ENOEVNT;
	p = name ? strstr(name, ":::") : NULL;
	p = p ? p + 3 : name;
	if (p && strncasecmp(p, "PAPI_", 5) == 0 && !strchr(p, ':')) {
		int pi = nb_preset_lookup(p, strcspn(p, "."));

		r = preset_name_to_code(p, code);
		if (r != PAPI_OK && pi < 0)
			report(name, "unknown preset (native_events/presets.txt; papi_avail lists them)");
		else if (r != PAPI_OK && nb_preset_slots((unsigned)pi, cpu.model, cpu_feats))
			report(name, "no such preset entry (papi_native_avail lists them)");
		return r;
	}
	r = nb_evsel_parse(name, cpu.model, cpu_feats, &s, err, sizeof(err));
	if (r != NB_PARSE_OK) {
		report(name ? name : "(null)", err);
		return r == NB_PARSE_NOEVENT || r == NB_PARSE_NOMASK ||
		       r == NB_PARSE_MODEL ? PAPI_ENOEVNT : PAPI_EINVAL;
	}
	if (!strchr(p, ':')) {      /* the event or metric alone: its base entry */
		*code = base_code(&s);
		return PAPI_OK;
	}
	return intern(&s, ENT_USER, code);
}

static int nb_ntv_code_to_name(unsigned code, char *name, int len)
{
	struct ntv_entry e;

	if (len <= 0 || lookup(code, &e) != PAPI_OK)
		return PAPI_ENOEVNT;
	switch (e.kind) {
	case ENT_BASE:
		snprintf(name, (size_t)len, "%s", base_name(&e.sel));
		return PAPI_OK;
	case ENT_PRESET:
		preset_slot_name(e.preset, e.slot, name, (size_t)len);
		return PAPI_OK;
	case ENT_QUAL:
		snprintf(name, (size_t)len, "%s:%s", base_name(&e.sel), quals[e.qual].name);
		return PAPI_OK;
	default:
		return nb_evsel_format(&e.sel, name, (size_t)len) < 0 ? PAPI_EBUF : PAPI_OK;
	}
}

/* A mask entry: "EVENT DESC, masks:MASK DESC" (the form papi_native_avail
 * splits at "masks:"). */
static const struct nb_mask *umask_of(const struct ntv_entry *e)
{
	const struct nb_event *d = &nb_events[e->sel.event];

	if (e->kind != ENT_UMASK)
		return NULL;
	for (unsigned i = 0; i < d->nmasks; i++)
		if ((1u << d->masks[i].bit) == e->sel.masks)
			return &d->masks[i];
	return NULL;
}

/* A preset slot: what it counts in each alternative. */
static void describe_preset(const struct ntv_entry *e, char *descr, size_t len)
{
	const struct nb_preset *p = &nb_presets[e->preset];
	int slots = nb_preset_slots(e->preset, cpu.model, cpu_feats);
	size_t off;
	unsigned k = 0;

	if (slots > 1)
		snprintf(descr, len, "%s, term %u of %d of the first alternative that fits "
			 "beside the other events of the set:", p->name, e->slot, slots);
	else
		snprintf(descr, len, "%s: the first alternative that fits beside the other "
			 "events of the set:", p->name);
	for (unsigned a = 0; a < p->nalts; a++) {
		char f[256];

		if (!nb_preset_alt_usable(e->preset, a, cpu.model, cpu_feats))
			continue;
		nb_preset_alt_format(&p->alts[a], f, sizeof(f));
		off = strlen(descr);
		snprintf(descr + off, len - off, " %u) %s;", ++k, f);
	}
	off = strlen(descr);
	if (off && descr[off - 1] == ';')
		descr[off - 1] = '.';
}

static void describe(const struct ntv_entry *e, char *descr, size_t len)
{
	const struct nb_mask *m = umask_of(e);

	if (e->kind == ENT_PRESET)
		describe_preset(e, descr, len);
	else if (e->kind == ENT_QUAL)
		snprintf(descr, len, "%s, masks:%s", e->sel.kind == NB_SEL_METRIC ?
			 nb_metrics[e->sel.event].desc : nb_events[e->sel.event].desc,
			 quals[e->qual].desc);
	else if (m)
		snprintf(descr, len, "%s, masks:%s (%s)", nb_events[e->sel.event].desc,
			 m->desc, m->flags & NB_MASK_TI ? "thread-independent" :
			 "thread-specific");
	else
		(void)nb_evsel_describe(&e->sel, descr, len);   /* truncation is fine */
}

static int nb_ntv_code_to_descr(unsigned code, char *descr, int len)
{
	struct ntv_entry e;

	if (len <= 0 || lookup(code, &e) != PAPI_OK)
		return PAPI_ENOEVNT;
	describe(&e, descr, (size_t)len);
	return PAPI_OK;
}

static int nb_ntv_code_to_info(unsigned code, PAPI_event_info_t *info)
{
	struct ntv_entry e;
	const char *shrt;
	char tmp[PAPI_MIN_STR_LEN];
	int r;

	if (lookup(code, &e) != PAPI_OK)
		return PAPI_ENOEVNT;
	r = nb_ntv_code_to_name(code, info->symbol, (int)sizeof(info->symbol));
	if (r != PAPI_OK)
		return r;
	describe(&e, info->long_descr, sizeof(info->long_descr));
	if (e.kind == ENT_PRESET) {
		snprintf(tmp, sizeof(tmp), "%s (alternatives chosen per event set)",
			 nb_presets[e.preset].name);
		shrt = tmp;
	} else if (e.kind == ENT_QUAL) {
		shrt = quals[e.qual].desc;
	} else if (umask_of(&e)) {
		shrt = umask_of(&e)->desc;
	} else if (e.sel.kind == NB_SEL_METRIC) {
		shrt = nb_metrics[e.sel.event].desc;
	} else {
		shrt = nb_events[e.sel.event].desc;
	}
	snprintf(info->short_descr, sizeof(info->short_descr), "%s", shrt);
	info->data_type = PAPI_DATATYPE_INT64;
	info->value_type = PAPI_VALUETYPE_RUNNING_SUM;
	info->timescope = PAPI_TIMESCOPE_SINCE_START;
	info->location = PAPI_LOCATION_CPU;
	info->update_type = PAPI_UPDATETYPE_ARBITRARY;
	return PAPI_OK;
}

papi_vector_t _p4netburst_vector = {
	.cmp_info = {
		.name = "p4netburst",
		.short_name = "p4netburst",
		.description = "Intel NetBurst (Pentium 4) PMU: ESCRs, CCCRs, 18 counters",
		.version = "0.1",
		.num_cntrs = NB_NUM_COUNTERS,
		.num_mpx_cntrs = NB_NUM_COUNTERS,
		.default_domain = PAPI_DOM_USER,
		.available_domains = PAPI_DOM_USER | PAPI_DOM_KERNEL,
		.default_granularity = PAPI_GRN_THR,
		.available_granularities = PAPI_GRN_THR,
		.hardware_intr_sig = PAPI_INT_SIGNAL,
		.fast_real_timer = 0,
		.fast_virtual_timer = 0,
		.attach = 0,
		.cpu = 0,
		.inherit = 0,
		.cntr_umasks = 1,
	},
	.size = {
		.context = sizeof(nb_context_t),
		.control_state = sizeof(nb_control_t),
		.reg_value = sizeof(nb_register_t),
		.reg_alloc = sizeof(nb_register_t),
	},
	.init_component = nb_init_component,
	.shutdown_component = nb_shutdown_component,
	.init_thread = nb_init_thread,
	.shutdown_thread = nb_shutdown_thread,
	.init_control_state = nb_init_control_state,
	.update_control_state = nb_update_control_state,
	.start = nb_start,
	.stop = nb_stop,
	.read = nb_read,
	.reset = nb_reset,
	.set_domain = nb_set_domain,
	.ctl = nb_ctl,
	.set_overflow = nb_set_overflow,
	.cleanup_eventset = nb_cleanup_eventset,
	.dispatch_timer = nb_dispatch_timer,
	.ntv_enum_events = nb_ntv_enum_events,
	.ntv_name_to_code = nb_ntv_name_to_code,
	.ntv_code_to_name = nb_ntv_code_to_name,
	.ntv_code_to_descr = nb_ntv_code_to_descr,
	.ntv_code_to_info = nb_ntv_code_to_info,
};
