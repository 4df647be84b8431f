/*
 * nb_presets.h - PAPI preset mappings for NetBurst (see native_events/).
 */
#ifndef NB_PRESETS_H
#define NB_PRESETS_H

#define NB_PRESET_TERMS 4

struct nb_preset {
	const char *preset;                  /* PAPI_TOT_INS ...          */
	const char *terms[NB_PRESET_TERMS];  /* native names, NULL-ended  */
	int derived;                         /* PAPI derived type         */
	const char *postfix;                 /* for DERIVED_POSTFIX       */
	const char *note;
};

extern const struct nb_preset nb_presets[];
extern const unsigned nb_num_presets;

#endif
