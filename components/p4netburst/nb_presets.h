/*
 * nb_presets.h - PAPI presets with alternatives, chosen per event set.
 *
 * presets.txt lists, per preset, alternatives in order of preference.
 * Which one to use depends on the rest of the event set (PAPI_BR_MSP's
 * preferred mispred_branch_retired needs CRU_ESCR0/1, which PAPI_TOT_INS and
 * uops_retired may hold), so the component does not fix one when PAPI
 * loads its presets: a preset stands for "term k of whichever alternative
 * fits" (one request per term position, a "slot"), and nb_plan_run picks,
 * for the whole set, the alternatives to use.
 *
 * Each alternative is a linear form sum(coef[k] * term k) (the generator
 * turns DERIVED_ADD/SUB/POSTFIX into coefficients), so PAPI sees every
 * preset with more than one slot as DERIVED_ADD over its slots; a slot
 * beyond the chosen alternative's terms counts nothing and reads 0.
 *
 * Pure code: no I/O, no PAPI types.
 */
#ifndef NB_PRESETS_H
#define NB_PRESETS_H

#include <stddef.h>
#include "nb_sched.h"

#define NB_REQ_SEL    0          /* .sel: an event or a metric           */
#define NB_REQ_PRESET 1          /* term .slot of preset .preset         */

struct nb_req {
	uint8_t kind;            /* NB_REQ_*                             */
	uint8_t slot;
	uint16_t preset;         /* index into nb_presets                */
	struct nb_evsel sel;
};

/* Can a CPU of MODEL with FEATS count alternative A of preset P? */
int nb_preset_alt_usable(unsigned p, unsigned a, unsigned model, unsigned feats);

/* Slots of preset P on this CPU: the most terms of a usable alternative;
 * 0 if none is usable (the preset is not offered). */
int nb_preset_slots(unsigned p, unsigned model, unsigned feats);

/* Preset index by name ("PAPI_BR_MSP", case-insensitive), or -1. */
int nb_preset_lookup(const char *name, size_t n);

/* The request that counts term T of an alternative (default masks for
 * an event named without masks; no modifiers). */
void nb_preset_term_sel(const struct nb_preset_ref *t, struct nb_evsel *out);

/* "X87_FP_retired + scalar_DP_retired", "scalar_DP_retired + 2*packed_DP_retired". */
int nb_preset_alt_format(const struct nb_preset_alt *a, char *buf, size_t len);

/* What one event set counts: hardware requests (identical requests are
 * counted once) and, per PAPI request, where its value comes from. */
struct nb_plan {
	int nhw;
	struct nb_evsel hw[NB_SCHED_MAX];
	int8_t hw_of[NB_SCHED_MAX];   /* request i -> hw index, -1: reads 0 */
	int8_t coef[NB_SCHED_MAX];    /* request i reads coef * count       */
	int8_t alt[NB_SCHED_MAX];     /* preset requests: alternative used  */
	int8_t hw_req[NB_SCHED_MAX];  /* hw request h -> the request that made it */
	int tried;                    /* combinations of alternatives tried */
	struct nb_assign assign;      /* placement of hw[]                  */
};

/*
 * Choose alternatives for the presets of REQ[0..N) and place the whole
 * set.  Combinations are tried in order of preference, earlier presets of
 * the set first (a preset added later takes an alternative before an
 * earlier one gives up its preferred mapping).  Returns 0 and fills OUT;
 * or -1 with the scheduler's explanation in WHY, for the alternatives in
 * HINT (per preset index: alternative + 1, as the set had them before the
 * last addition; NULL or 0: the preferred one).
 */
int nb_plan_run(const struct nb_req *req, int n, const struct nb_sched_cpu *cpu,
		unsigned feats, const int8_t *hint, struct nb_plan *out, char *why,
		size_t whylen);

/* Describe the presets of the plan that do not use their first usable
 * alternative ("PAPI_BR_MSP: ... does not fit; counted as ..."). Returns
 * how many there are; BUF holds one line per such preset. */
int nb_plan_note(const struct nb_req *req, int n, const struct nb_plan *plan,
		 const struct nb_sched_cpu *cpu, unsigned feats, char *buf, size_t len);

#endif
