/*
 * nb_comp_presets.c - PAPI's preset table for the running CPU, from the
 * presets of native_events/presets.txt (nb_presets.h): a preset maps to the
 * terms of its one plain alternative or to its slot entries, and a preset
 * the CPU lacks gets a note naming the parts that have it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_comp.h"

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

void p4nb_preset_slot_name(unsigned p, unsigned slot, char *buf, size_t len)
{
	if (nb_preset_slots(p, p4nb_cpu.model, p4nb_cpu_feats) > 1)
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
		if (!nb_preset_alt_usable(p, a, p4nb_cpu.model, p4nb_cpu_feats))
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

/* Can the backend count a usable alternative of preset P, alone, on an
 * idle PMU?  Asked as PAPI_add_event asks it (p4nb_backend_refusal: the
 * perf backend's raw configs, helper ESCRs and the kernel's own answer),
 * on the alternative placed by our scheduler: a preset none of whose
 * alternatives the backend counts is not offered there, so that PAPI
 * reports it unavailable (PAPI_ENOEVNT) rather than accept it and fail at
 * PAPI_start.  WHY gets the first alternative's reason. */
static int preset_backend_ok(unsigned p, char *why, size_t len)
{
	static nb_control_t probe;      /* the state of an empty set: LP 0 */
	int first = 1;

	if (!p4nb_backend->refuse && !p4nb_backend->check)
		return 1;
	for (unsigned a = 0; a < nb_presets[p].nalts; a++) {
		const struct nb_preset_alt *al = &nb_presets[p].alts[a];
		struct nb_evsel sel[NB_MAX_PRESET_TERMS];
		struct nb_sched_cpu sc;
		struct nb_assign as;
		char w[512];

		if (!nb_preset_alt_usable(p, a, p4nb_cpu.model, p4nb_cpu_feats) ||
		    al->nterms > NB_MAX_PRESET_TERMS)
			continue;
		for (unsigned k = 0; k < al->nterms; k++)
			nb_preset_term_sel(&al->terms[k], &sel[k]);
		memset(&sc, 0, sizeof(sc));
		sc.model = p4nb_cpu.model;
		if (nb_sched_run(sel, (int)al->nterms, &sc, &as, NULL, w, sizeof(w)))
			continue;
		if (!p4nb_backend_refusal(&probe, p4nb_info->default_domain, sel,
					  (int)al->nterms, &as, w, sizeof(w)))
			return 1;
		if (first && why)
			snprintf(why, len, "%s", w);
		first = 0;
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
		p4nb_preset_slot_name(p, k, nm, sizeof(nm));
		snprintf(buf, len, "p4netburst:::%s", nm);
	}
}

/* Why preset P is not offered here, naming the parts that have it. */
void p4nb_preset_absent(unsigned p, char *buf, size_t len)
{
	const char *nm = nb_part_name(p4nb_cpu.model, p4nb_cpu_feats);
	size_t n;
	int any = 0;

	snprintf(buf, len, "%s: not on this CPU (model %u%s%s%s): every alternative in "
		 "presets.txt needs an event or mask it lacks", nb_presets[p].name,
		 p4nb_cpu.model, p4nb_cpu_feats & NB_FEAT_L3 ? " with L3" : "", nm ? ", " : "",
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
int p4nb_load_presets(int cidx)
{
	hwi_search_t *map;
	int n = 0;

	map = papi_calloc(nb_num_presets + 1, sizeof(*map));
	if (!map)
		return PAPI_ENOMEM;
	for (unsigned i = 0; i < nb_num_presets; i++) {
		int slots = nb_preset_slots(i, p4nb_cpu.model, p4nb_cpu_feats);
		unsigned pcode;
		int k;

		if (slots == 0 || !preset_backend_ok(i, NULL, 0) ||
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
		char why[PAPI_HUGE_STR_LEN], reason[512] = "";

		if ((nb_preset_slots(i, p4nb_cpu.model, p4nb_cpu_feats) &&
		     preset_backend_ok(i, reason, sizeof(reason))) ||
		    preset_code(nb_presets[i].name, &pcode) != PAPI_OK)
			continue;
		pr = &_papi_hwi_presets[pcode & PAPI_PRESET_AND_MASK];
		if (pr->count || pr->note)
			continue;
		if (nb_preset_slots(i, p4nb_cpu.model, p4nb_cpu_feats))
			snprintf(why, sizeof(why), "%s: not on the %s backend, which cannot count "
				 "any of its alternatives (%.600s)", nb_presets[i].name,
				 p4nb_backend->name, reason);
		else
			p4nb_preset_absent(i, why, sizeof(why));
		pr->note = papi_strdup(why);
	}
	papi_free(map);
	return PAPI_OK;
}

