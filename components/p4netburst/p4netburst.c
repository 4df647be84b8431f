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
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#include "nb_encode.h"
#include "nb_backend.h"

papi_vector_t _p4netburst_vector;

/* ---- interned event selections ---------------------------------------- */

enum { ENT_BASE, ENT_UMASK, ENT_USER };

struct ntv_entry {
	struct nb_evsel sel;
	int kind;
};

static struct ntv_entry *ntv;
static unsigned ntv_count, ntv_alloc;
static pthread_mutex_t ntv_lock = PTHREAD_MUTEX_INITIALIZER;

static struct nb_cpu cpu;
static unsigned cpu_feats;       /* NB_FEAT_* */
static const struct nb_backend *backend;

static int intern(const struct nb_evsel *sel, int kind, unsigned *code)
{
	int ret = PAPI_OK;

	pthread_mutex_lock(&ntv_lock);
	for (unsigned i = 0; i < ntv_count; i++) {
		if (ntv[i].kind == kind && nb_evsel_same(&ntv[i].sel, sel)) {
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
	ntv[ntv_count].sel = *sel;
	ntv[ntv_count].kind = kind;
	*code = ntv_count++;
out:
	pthread_mutex_unlock(&ntv_lock);
	return ret;
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

typedef struct {
	int n;
	int domain;
	struct nb_evsel sel[NB_NUM_COUNTERS];
	struct nb_assign assign;            /* from the scheduler      */
	struct nb_regs regs[NB_NUM_COUNTERS];
	struct nb_msr_image extra[NB_SCHED_MAX_HELPERS + 2]; /* helpers, PEBS MSRs */
	int nextra;
	uint64_t last[NB_NUM_COUNTERS];     /* last raw 40-bit values  */
	long long count[NB_NUM_COUNTERS];   /* 64-bit totals to PAPI   */
	int running;
	uint32_t ovf;                       /* bit i: event i interrupts on overflow */
	uint64_t threshold[NB_NUM_COUNTERS]; /* its PAPI_overflow threshold */
} nb_control_t;

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
}

/* Are all of MASKS of event EV on the running CPU? */
static int masks_on_cpu(unsigned ev, unsigned masks)
{
	const struct nb_event *e = &nb_events[ev];

	for (unsigned i = 0; i < e->nmasks; i++)
		if ((masks & (1u << e->masks[i].bit)) &&
		    !nb_mask_on_cpu(&e->masks[i], cpu.model, cpu_feats))
			return 0;
	return 1;
}

/* The first alternative of a preset that this CPU model can count with
 * plain events (tagged metrics come with the metric support), or NULL. */
static const struct nb_preset_alt *usable_alt(const struct nb_preset *p)
{
	for (unsigned a = 0; a < p->nalts; a++) {
		const struct nb_preset_alt *alt = &p->alts[a];
		int ok = (alt->models >> cpu.model) & 1;

		for (unsigned k = 0; ok && k < alt->nterms; k++)
			ok = alt->terms[k].kind == NB_REF_EVENT &&
			     nb_event_on_cpu(alt->terms[k].index, cpu.model, cpu_feats) &&
			     masks_on_cpu(alt->terms[k].index, alt->terms[k].masks);
		if (ok && alt->nterms > 0 && alt->type != NB_DERIVED_POSTFIX)
			return alt;
	}
	return NULL;
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

static int papi_derived(unsigned type)
{
	switch (type) {
	case NB_DERIVED_ADD: return DERIVED_ADD;
	case NB_DERIVED_SUB: return DERIVED_SUB;
	default:             return NOT_DERIVED;
	}
}

static int load_presets(int cidx)
{
	hwi_search_t *map;
	const struct nb_preset_alt **alts;
	int n = 0;

	map = papi_calloc(nb_num_presets + 1, sizeof(*map));
	alts = papi_calloc(nb_num_presets + 1, sizeof(*alts));
	if (!map || !alts) {
		papi_free(map);
		papi_free(alts);
		return PAPI_ENOMEM;
	}
	for (unsigned i = 0; i < nb_num_presets; i++) {
		const struct nb_preset_alt *alt = usable_alt(&nb_presets[i]);
		unsigned pcode;
		unsigned k;

		if (!alt || preset_code(nb_presets[i].name, &pcode) != PAPI_OK)
			continue;
		for (k = 0; k < PAPI_EVENTS_IN_DERIVED_EVENT; k++)
			map[n].native[k] = PAPI_NULL;
		for (k = 0; k < alt->nterms; k++) {
			char full[PAPI_HUGE_STR_LEN];
			int code;

			snprintf(full, sizeof(full), "p4netburst:::%s", alt->terms[k].name);
			if (_papi_hwi_native_name_to_code(full, &code) != PAPI_OK)
				break;
			map[n].native[k] = code;
		}
		if (k < alt->nterms)
			continue;
		map[n].event_code = pcode;
		map[n].derived = papi_derived(alt->type);
		map[n].operation[0] = '\0';
		alts[n] = alt;
		map[n].note = (char *)(alt->note ? alt->note : nb_presets[i].note);
		n++;
	}
	map[n].event_code = 0;
	if (n)
		_papi_hwi_setup_all_presets(map, cidx);
	/* Names and notes, which papi_avail -e shows. */
	for (int i = 0; i < n; i++) {
		hwi_presets_t *pr = &_papi_hwi_presets[map[i].event_code & PAPI_PRESET_AND_MASK];

		for (unsigned k = 0; k < pr->count && k < alts[i]->nterms; k++) {
			char full[PAPI_HUGE_STR_LEN];

			snprintf(full, sizeof(full), "p4netburst:::%s", alts[i]->terms[k].name);
			pr->name[k] = papi_strdup(full);
		}
		if (map[i].note)
			pr->note = papi_strdup(map[i].note);
	}
	papi_free(map);
	papi_free(alts);
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
	const char *want = getenv("P4NETBURST_BACKEND");
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
	v->cmp_info.kernel_profile = 0;
	return load_presets(cidx);
}

static int nb_shutdown_component(void)
{
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
	return PAPI_OK;
}

/* ---- event sets -------------------------------------------------------- */

static int nb_update_control_state(hwd_control_state_t *ctl, NativeInfo_t *native,
				   int count, hwd_context_t *ctx)
{
	nb_control_t *c = (nb_control_t *)ctl;
	struct nb_evsel sel[NB_NUM_COUNTERS];
	struct nb_sched_cpu sc;
	char why[512];
	(void)ctx;

	if (c->running)
		return PAPI_EISRUN;
	memset(sel, 0, sizeof(sel));
	if (count > NB_NUM_COUNTERS) {
		report("add event", "more events than the 18 NetBurst counters");
		return PAPI_ECNFLCT;
	}
	for (int i = 0; i < count; i++) {
		struct ntv_entry e;

		if (lookup((unsigned)native[i].ni_event, &e) != PAPI_OK)
			return PAPI_ENOEVNT;
		if (e.sel.kind == NB_SEL_EVENT && nb_evsel_check(&e.sel, why, sizeof(why))) {
			report("add event", why);
			return PAPI_EINVAL;
		}
		sel[i] = e.sel;
	}
	/* One logical processor per process under nbsim: thread 0, no
	 * sibling reservations. */
	memset(&sc, 0, sizeof(sc));
	sc.model = cpu.model;
	if (nb_sched_run(sel, count, &sc, &c->assign, NULL, why, sizeof(why))) {
		report("add event", why);
		return PAPI_ECNFLCT;
	}
	c->n = count;
	for (int i = 0; i < count; i++) {
		c->sel[i] = sel[i];
		native[i].ni_position = i;
	}
	/* PAPI calls set_overflow again after this, for the events that
	 * overflow (the positions may have changed). */
	if (c->ovf)
		_papi_hwi_stop_signal(_p4netburst_vector.cmp_info.hardware_intr_sig);
	c->ovf = 0;
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

/* Counters of the events in MASK that interrupt on overflow: preset to
 * 2^40 - threshold, so that the counter overflows after threshold events
 * [SDM 18.15.3 OVF, 40-bit counters]. */
static int preset_ex(nb_control_t *c, uint32_t mask, int rearm, char *err, size_t len)
{
	uint64_t raw[NB_NUM_COUNTERS];
	struct nb_regs r[NB_NUM_COUNTERS];
	int k = 0;

	for (int i = 0; i < c->n; i++) {
		uint64_t t = c->threshold[i], past = c->last[i];

		if (!((mask >> i) & 1))
			continue;
		r[k] = c->regs[i];
		/* After an overflow the counter holds the events counted since
		 * (skid, handler): the next overflow comes threshold events
		 * after the last one, not after the handler. */
		if (!rearm)
			raw[k] = (NB_COUNTER_MASK + 1 - t) & NB_COUNTER_MASK;
		else
			raw[k] = past >= t ? NB_COUNTER_MASK : past + NB_COUNTER_MASK + 1 - t;
		c->last[i] = raw[k];
		k++;
	}
	return k ? backend->set_counters(r, k, raw, err, len) : 0;
}

static int preset(nb_control_t *c, uint32_t mask, char *err, size_t len)
{
	return preset_ex(c, mask, 0, err, len);
}

static int nb_start(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;
	unsigned dom = papi_dom_to_nb(c->domain);
	char err[256];
	(void)ctx;

	for (int i = 0; i < c->n; i++) {
		nb_encode_ex(&c->sel[i], &c->assign.slot[i], dom, 0,
			     (c->ovf >> i) & 1 ? NB_ENC_PMI : 0, &c->regs[i]);
		c->last[i] = 0;
		c->count[i] = 0;
	}
	c->nextra = nb_encode_extra(&c->assign, dom, 0, c->extra,
				    (int)(sizeof(c->extra) / sizeof(c->extra[0])));
	if (backend->program(c->regs, c->n, err, sizeof(err)) ||
	    (c->nextra && backend->write_msrs(c->extra, c->nextra, err, sizeof(err))) ||
	    preset(c, c->ovf, err, sizeof(err)) ||
	    backend->enable(c->regs, c->n, 1, err, sizeof(err))) {
		report("start", err);
		return PAPI_ESYS;
	}
	c->running = 1;
	return PAPI_OK;
}

/* Fold the counters into the 64-bit totals. */
static int accumulate(nb_control_t *c)
{
	uint64_t raw[NB_NUM_COUNTERS];
	char err[256];

	if (backend->read(c->regs, c->n, raw, err, sizeof(err))) {
		report("read", err);
		return PAPI_ESYS;
	}
	for (int i = 0; i < c->n; i++) {
		uint64_t d = (raw[i] - c->last[i]) & NB_COUNTER_MASK;

		c->count[i] += (long long)d;
		c->last[i] = raw[i] & NB_COUNTER_MASK;
	}
	return PAPI_OK;
}

static int nb_stop(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;
	char err[256];
	int ret;
	(void)ctx;

	if (backend->enable(c->regs, c->n, 0, err, sizeof(err))) {
		report("stop", err);
		return PAPI_ESYS;
	}
	ret = accumulate(c);
	if (clear_extra(c, err, sizeof(err))) {
		report("stop", err);
		ret = PAPI_ESYS;
	}
	c->running = 0;
	return ret;
}

static int nb_read(hwd_context_t *ctx, hwd_control_state_t *ctl,
		   long long **events, int flags)
{
	nb_control_t *c = (nb_control_t *)ctl;
	int ret = PAPI_OK;
	(void)ctx;
	(void)flags;

	if (c->running)
		ret = accumulate(c);
	*events = c->count;
	return ret;
}

static int nb_reset(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	nb_control_t *c = (nb_control_t *)ctl;
	char err[256];
	(void)ctx;

	if (c->running && backend->zero(c->regs, c->n, err, sizeof(err))) {
		report("reset", err);
		return PAPI_ESYS;
	}
	for (int i = 0; i < c->n; i++) {
		c->last[i] = 0;
		c->count[i] = 0;
	}
	if (c->running && preset(c, c->ovf, err, sizeof(err))) {
		report("reset", err);
		return PAPI_ESYS;
	}
	return PAPI_OK;
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
	case PAPI_GRANUL:
	case PAPI_DEFGRN:
		return option->granularity.granularity == PAPI_GRN_THR ?
		       PAPI_OK : PAPI_ENOSUPP;
	default:
		return PAPI_ENOSUPP;
	}
}

/* ---- overflow ----------------------------------------------------------- */

/*
 * Hardware overflow (cmp_info.hardware_intr, backends with the overflow
 * hooks): an overflowing event's CCCR gets OVF_PMI_T0 and its counter the
 * preset 2^40 - threshold; the PMI arrives as signal hardware_intr_sig
 * (nbsim sends it, NBSIM_REQ_PMI_SIGNAL).  The handler finds the counters
 * with OVF set, stops the set, folds the counts, presets those counters
 * so that the next overflow comes threshold events after this one, restarts, and hands PAPI the overflow vector (bit = position of
 * the event) and the interrupted PC.
 */
static int nb_set_overflow(EventSetInfo_t *ESI, int EventIndex, int threshold)
{
	nb_control_t *c = (nb_control_t *)ESI->ctl_state;
	int sig = _p4netburst_vector.cmp_info.hardware_intr_sig;
	int pos = ESI->EventInfoArray[EventIndex].pos[0];
	uint32_t was = c->ovf;
	char err[256];

	if (pos < 0 || pos >= c->n || threshold < 0)
		return PAPI_EINVAL;
	if (!backend->pmi_signal)
		return PAPI_ENOSUPP;
	if (c->running)
		return PAPI_EISRUN;
	if (threshold == 0) {
		c->ovf &= ~(1u << pos);
		c->threshold[pos] = 0;
		if (was && !c->ovf) {
			(void)backend->pmi_signal(0, err, sizeof(err));
			return _papi_hwi_stop_signal(sig);
		}
		return PAPI_OK;
	}
	c->ovf |= 1u << pos;
	c->threshold[pos] = (uint64_t)threshold;
	if (!was) {
		int r = _papi_hwi_start_signal(sig, NEED_CONTEXT, ESI->CmpIdx);

		if (r != PAPI_OK)
			return r;
		if (backend->pmi_signal(sig, err, sizeof(err))) {
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
	if (backend->overflowed(c->regs, c->n, &which, err, sizeof(err)) ||
	    backend->enable(c->regs, c->n, 0, err, sizeof(err)) ||
	    accumulate(c) != PAPI_OK ||
	    preset_ex(c, which & c->ovf, 1, err, sizeof(err)) ||
	    backend->enable(c->regs, c->n, 1, err, sizeof(err))) {
		report("overflow interrupt", err);
		return;
	}
	vec = which & c->ovf;
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

static int nb_ntv_enum_events(unsigned *code, int modifier)
{
	struct ntv_entry e;

	switch (modifier) {
	case PAPI_ENUM_FIRST:
		return next_base(0, code);
	case PAPI_ENUM_EVENTS:
		if (lookup(*code, &e) != PAPI_OK)
			return PAPI_ENOEVNT;
		return next_base(base_code(&e.sel) + 1u, code);
	case PAPI_NTV_ENUM_UMASKS: {
		const struct nb_event *d;
		unsigned i = 0;

		if (lookup(*code, &e) != PAPI_OK || e.sel.kind != NB_SEL_EVENT)
			return PAPI_ENOEVNT;
		d = &nb_events[e.sel.event];
		if (e.kind == ENT_UMASK) {
			while (i < d->nmasks && (1u << d->masks[i].bit) != e.sel.masks)
				i++;
			i++;
		} else if (e.kind != ENT_BASE) {
			return PAPI_ENOEVNT;
		}
		while (i < d->nmasks && !nb_mask_on_cpu(&d->masks[i], cpu.model, cpu_feats))
			i++;
		if (i >= d->nmasks)
			return PAPI_ENOEVNT;
		memset(&e.sel, 0, sizeof(e.sel));
		e.sel.event = (uint16_t)(d - nb_events);
		e.sel.masks = (uint16_t)(1u << d->masks[i].bit);
		return intern(&e.sel, ENT_UMASK, code);
	}
	default:
		return PAPI_EINVAL;
	}
}

static int nb_ntv_name_to_code(const char *name, unsigned *code)
{
	struct nb_evsel s;
	char err[256];
	const char *p;
	int r;

	if (!backend)
		return PAPI_ENOEVNT;
	r = nb_evsel_parse(name, cpu.model, cpu_feats, &s, err, sizeof(err));
	if (r != NB_PARSE_OK) {
		report(name ? name : "(null)", err);
		return r == NB_PARSE_NOEVENT || r == NB_PARSE_NOMASK ||
		       r == NB_PARSE_MODEL ? PAPI_ENOEVNT : PAPI_EINVAL;
	}
	p = strstr(name, ":::");
	p = p ? p + 3 : name;
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
	if (e.kind == ENT_BASE) {
		snprintf(name, (size_t)len, "%s", e.sel.kind == NB_SEL_METRIC ?
			 nb_metrics[e.sel.event].name : nb_events[e.sel.event].name);
		return PAPI_OK;
	}
	return nb_evsel_format(&e.sel, name, (size_t)len) < 0 ? PAPI_EBUF : PAPI_OK;
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

static void describe(const struct ntv_entry *e, char *descr, size_t len)
{
	const struct nb_mask *m = umask_of(e);

	if (m)
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
	int r;

	if (lookup(code, &e) != PAPI_OK)
		return PAPI_ENOEVNT;
	r = nb_ntv_code_to_name(code, info->symbol, (int)sizeof(info->symbol));
	if (r != PAPI_OK)
		return r;
	describe(&e, info->long_descr, sizeof(info->long_descr));
	if (umask_of(&e))
		shrt = umask_of(&e)->desc;
	else if (e.sel.kind == NB_SEL_METRIC)
		shrt = nb_metrics[e.sel.event].desc;
	else
		shrt = nb_events[e.sel.event].desc;
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
	.dispatch_timer = nb_dispatch_timer,
	.ntv_enum_events = nb_ntv_enum_events,
	.ntv_name_to_code = nb_ntv_name_to_code,
	.ntv_code_to_name = nb_ntv_code_to_name,
	.ntv_code_to_descr = nb_ntv_code_to_descr,
	.ntv_code_to_info = nb_ntv_code_to_info,
};
