/*
 * nb_linux_sched.c - the Linux P4 perf driver's validation and placement
 * policy (nb_linux_sched.h), re-implemented from the facts in
 * native_events/kernel_p4.txt, not from the kernel's code.
 */
#include "nb_linux_sched.h"

int nb_kp4_validate(uint64_t *config, unsigned model, int ht)
{
	unsigned v;

	*config &= NB_KP4_CONFIG_MASK;
	v = NB_KP4_EVENT(*config);
	if (v >= NB_KP4_NEVENTS)
		return NB_KP4_E_EVENT;
	if (nb_kp4_events[v].models && !((nb_kp4_events[v].models >> (model & 31)) & 1))
		return NB_KP4_E_MODEL;
	if (ht && nb_kp4_events[v].shared)
		return NB_KP4_E_SHARED;
	if (NB_KP4_EMASK(*config) & ~nb_kp4_events[v].emask)
		return NB_KP4_E_EMASK;
	if (NB_KP4_CCCR(*config) & NB_KP4_PEBS_CONFIG_ENABLE)
		return NB_KP4_E_PEBS;
	if (NB_KP4_METRIC(*config) >= NB_KP4_NPEBS)
		return NB_KP4_E_METRIC;
	return NB_KP4_OK;
}

const char *nb_kp4_strerror(int err)
{
	switch (err) {
	case NB_KP4_OK: return "ok";
	case NB_KP4_E_EVENT: return "event index beyond the kernel's P4_EVENTS";
	case NB_KP4_E_MODEL: return "event not available on this CPU model";
	case NB_KP4_E_EMASK: return "event-mask bits the kernel does not allow for this event";
	case NB_KP4_E_PEBS: return "P4_PEBS_CONFIG_ENABLE is the kernel's own bit";
	case NB_KP4_E_METRIC: return "replay metric index beyond the kernel's p4_pebs_bind_map";
	case NB_KP4_E_SHARED: return "event shared by both logical processors needs CPU-wide "
				     "permission under Hyper-Threading";
	}
	return "unknown error";
}

int nb_kp4_place(const uint64_t *config, int n, unsigned thread, int *assign, uint32_t *escr)
{
	uint32_t used = 0;
	uint32_t escr_used[2] = { 0, 0 };   /* by MSR - 0x3a0: 0..0x41 */

	thread &= 1;
	for (int i = 0; i < n; i++) {
		unsigned v = NB_KP4_EVENT(config[i]);
		const struct nb_kp4_event *e;
		unsigned ei;
		int c = -1;

		if (v >= NB_KP4_NEVENTS)
			return i;
		e = &nb_kp4_events[v];
		ei = (unsigned)e->escr[thread] - 0x3a0u;
		for (int j = 0; j < 3 && c < 0; j++)
			if (e->cntr[thread][j] >= 0 && !((used >> e->cntr[thread][j]) & 1))
				c = e->cntr[thread][j];
		if (c < 0 || ei >= 64 || ((escr_used[ei / 32] >> (ei % 32)) & 1))
			return i;
		used |= 1u << c;
		escr_used[ei / 32] |= 1u << (ei % 32);
		assign[i] = c;
		escr[i] = e->escr[thread];
	}
	return n;
}
