/*
 * p4netburst.c - PAPI component for the Intel NetBurst PMU: the component
 * vector and its life (the backend and the CPU it finds, init, shutdown)
 * and the options PAPI passes (domain, granularity, timers).
 *
 * PAPI glue only, in the files nb_comp.h lists: it translates PAPI calls
 * into calls on the event model (nb_events.h), the name parser
 * (nb_evsel), the preset planner (nb_presets), the scheduler (nb_sched),
 * the encoder (nb_encode) and a backend (nb_backend).  Holds no hardware
 * facts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "nb_comp.h"
#include "nbsim_client.h"

typedef struct {
	int unused;
} nb_context_t;

typedef struct {
	unsigned code;
} nb_register_t;

static void set_hw_info(void)
{
	PAPI_hw_info_t *hw = &_papi_hwi_system_info.hw_info;

	hw->vendor = PAPI_VENDOR_INTEL;
	snprintf(hw->vendor_string, sizeof(hw->vendor_string), "GenuineIntel");
	snprintf(hw->model_string, sizeof(hw->model_string), "%s", p4nb_cpu.brand);
	hw->model = (int)p4nb_cpu.model;
	hw->cpuid_family = (int)p4nb_cpu.family;
	hw->cpuid_model = (int)p4nb_cpu.model;
	hw->cpuid_stepping = (int)p4nb_cpu.stepping;
	hw->revision = (float)p4nb_cpu.stepping;
	if (p4nb_cpu.mhz) {
		hw->cpu_max_mhz = (int)p4nb_cpu.mhz;
		hw->cpu_min_mhz = (int)p4nb_cpu.mhz;
	}
	/* The CPU is simulated and its clocks are the host's (nbsim's
	 * default, --nbsim-time=host): PAPI's real cycles and time (the time
	 * stamp counter, the wall clock) are not the simulated CPU's;
	 * papi_hardware_avail says so, and so does the high-level API's output
	 * (patches/papi-7.0.0-hl-cycles-note.patch).  Under
	 * --nbsim-time=simulated they are the simulated part's own. */
	uint64_t ns;

	if (p4nb_backend == &nb_backend_sim && nbsim_time(1 /* CLOCK_MONOTONIC */, &ns) != NBSIM_OK) {
		hw->virtualized = 1;
		snprintf(hw->virtual_vendor_string, sizeof(hw->virtual_vendor_string),
			 "nbsim (valgrind), model %s", p4nb_cpu.model_name);
	}
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
		if (order[i]->probe(&p4nb_cpu, r, sizeof(r)) == 0)
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
	p4nb_info = &v->cmp_info;
	memset(&p4nb_cpu, 0, sizeof(p4nb_cpu));
	p4nb_backend = pick_backend(why, sizeof(why));
	if (!p4nb_backend) {
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
	if (p4nb_cpu.family != 15) {
		snprintf(v->cmp_info.disabled_reason, PAPI_MAX_STR_LEN,
			 "%s backend reports CPU family %u, not NetBurst (15)", p4nb_backend->name,
			 p4nb_cpu.family);
		v->cmp_info.disabled = PAPI_ENOSUPP;
		return PAPI_ENOSUPP;
	}
	set_hw_info();
	p4nb_cpu_feats = p4nb_cpu.l3 ? NB_FEAT_L3 : 0;

	/* Base entries: the events with their default masks, then the metrics. */
	if (p4nb_intern_bases() != PAPI_OK)
		return PAPI_ENOMEM;
	v->cmp_info.num_native_events = p4nb_count_bases();
	snprintf(v->cmp_info.kernel_version, sizeof(v->cmp_info.kernel_version),
		 "%s backend", p4nb_backend->name);
	snprintf(v->cmp_info.support_version, sizeof(v->cmp_info.support_version),
		 "%s%s", p4nb_backend == &nb_backend_sim ? "nbsim model " : "", p4nb_cpu.model_name);
	v->cmp_info.disabled = PAPI_OK;
	/* Hardware overflow when the backend delivers PMIs (sim); else PAPI
	 * emulates overflow in software.  No kernel profiling. */
	v->cmp_info.hardware_intr = p4nb_backend->pmi_signal != NULL;
	/* by CPU (PAPI_GRN_SYS) where the backend can (nbsim) */
	v->cmp_info.available_granularities = PAPI_GRN_THR | (p4nb_backend->cpu_wide ? PAPI_GRN_SYS : 0);
	v->cmp_info.kernel_profile = 0;
	/* children's counts (PAPI_INHERIT) where the backend has them (perf) */
	v->cmp_info.inherit = p4nb_backend->set_inherit != NULL;
	/* another task's counts (PAPI_attach) where the backend opens its
	 * counters on a task (perf: perf_event_open's pid) */
	v->cmp_info.attach = p4nb_backend->set_attach != NULL;
	/* and, as PAPI's perf_event component declares it, the caller
	 * ptrace-stops the task around PAPI_attach, start and stop (PAPI's
	 * attach ctests then PTRACE_ATTACH their child: zero_attach, whose
	 * child stops itself with SIGSTOP, waits on it otherwise) */
	v->cmp_info.attach_must_ptrace = v->cmp_info.attach;
	return p4nb_load_presets(cidx);
}

static int nb_shutdown_component(void)
{
	if (p4nb_backend && p4nb_backend->restore)
		p4nb_backend->restore(1);         /* the msr backend: registers as found */
	if (p4nb_backend) {
		p4nb_pmi_forget();
		p4nb_lp_forget();
	}
	p4nb_names_free();
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

static int nb_set_domain(hwd_control_state_t *ctl, int domain)
{
	nb_control_t *c = (nb_control_t *)ctl;

	char why[1024];

	if (!(domain & (PAPI_DOM_USER | PAPI_DOM_KERNEL)) ||
	    (domain & ~PAPI_DOM_ALL))
		return PAPI_EINVAL;
	/* The set's events in the new domain: what the backend would refuse
	 * at PAPI_start (the perf backend: counting the kernel needs
	 * privilege under perf_event_paranoid 2) is refused here, the
	 * domain left as it was. */
	if (c->n > 0 && p4nb_backend_refusal(c, domain, c->sel, c->n, &c->assign, why, sizeof(why))) {
		p4nb_report("set domain", why);
		return PAPI_ECNFLCT;
	}
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
		if (g != PAPI_GRN_THR && (g != PAPI_GRN_SYS || !p4nb_backend->cpu_wide))
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

		if (!p4nb_backend->set_inherit)
			return PAPI_ECMP;
		c->inherit = option->inherit.inherit != 0;
		return PAPI_OK;
	}
	case PAPI_ATTACH:
	case PAPI_DETACH: {
		/* PAPI checked cmp_info.attach and that the set is stopped */
		nb_control_t *c = (nb_control_t *)option->attach.ESI->ctl_state;

		if (!p4nb_backend->set_attach)
			return PAPI_ECMP;
		c->attach = code == PAPI_ATTACH ? (int)option->attach.tid : 0;
		return PAPI_OK;
	}
	default:
		return PAPI_ENOSUPP;
	}
}

papi_vector_t _p4netburst_vector = {
	.cmp_info = {
		.name = "p4netburst",
		.short_name = "p4netburst",
		.description = "Intel NetBurst (Pentium 4) PMU: ESCRs, CCCRs, 18 counters",
		.version = "0.1",
		.num_cntrs = NB_NUM_COUNTERS,
		/* PAPI sizes a multiplexed event set by this: software
		 * multiplexing (sw_multiplex.c) takes up to
		 * PAPI_MAX_SW_MPX_EVENTS events, as perf_event declares when
		 * it multiplexes in software; 18 refused the 19th event of a
		 * multiplexed set (ctests/mpx_many.c).  A plain set is still
		 * refused beyond 18 natives (p4nb_update_control_state). */
		.num_mpx_cntrs = PAPI_MAX_SW_MPX_EVENTS,
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
	.update_control_state = p4nb_update_control_state,
	.start = p4nb_start,
	.stop = p4nb_stop,
	.read = p4nb_read,
	.reset = p4nb_reset,
	.set_domain = nb_set_domain,
	.ctl = nb_ctl,
	.set_overflow = p4nb_set_overflow,
	.cleanup_eventset = p4nb_cleanup_eventset,
	.dispatch_timer = p4nb_dispatch_timer,
	.ntv_enum_events = p4nb_ntv_enum_events,
	.ntv_name_to_code = p4nb_ntv_name_to_code,
	.ntv_code_to_name = p4nb_ntv_code_to_name,
	.ntv_code_to_descr = p4nb_ntv_code_to_descr,
	.ntv_code_to_info = p4nb_ntv_code_to_info,
};
