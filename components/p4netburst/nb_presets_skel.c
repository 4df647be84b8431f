/*
 * nb_presets_skel.c - walking-skeleton preset mappings, to be replaced by the
 * table generated from native_events/presets.txt.
 */
#include "papi.h"
#include "papi_internal.h"
#include "nb_presets.h"

const struct nb_preset nb_presets[] = {
	{ "PAPI_TOT_INS", { "instr_retired:NBOGUSNTAG:NBOGUSTAG" }, NOT_DERIVED, NULL,
	  "non-bogus (committed-path) instructions retired" },
	{ "PAPI_TOT_CYC", { "global_power_events:RUNNING" }, NOT_DERIVED, NULL,
	  "cycles the processor is not stopped" },
	{ "PAPI_BR_INS", { "branch_retired:MMNP:MMNM:MMTP:MMTM" }, NOT_DERIVED, NULL, NULL },
	{ "PAPI_BR_TKN", { "branch_retired:MMTP:MMTM" }, NOT_DERIVED, NULL, NULL },
	{ "PAPI_BR_NTK", { "branch_retired:MMNP:MMNM" }, NOT_DERIVED, NULL, NULL },
	{ "PAPI_BR_MSP", { "mispred_branch_retired:NBOGUS" }, NOT_DERIVED, NULL,
	  "retired mispredicted branches of all kinds" },
	{ "PAPI_BR_PRC", { "branch_retired:MMNP:MMTP" }, NOT_DERIVED, NULL, NULL },
};
const unsigned nb_num_presets = sizeof(nb_presets) / sizeof(nb_presets[0]);
