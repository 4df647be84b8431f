/*
 * fuzz_evsel.c - libFuzzer target for the event-name parser.
 *
 * The input is a name.  It is parsed for two CPUs (Northwood without L3,
 * Prescott-class model 4 with L3).  Invariants checked (abort on breach):
 *  - an error leaves a non-empty, terminated message and a known code;
 *  - a parsed name passes nb_evsel_check or explains why not, formats to a
 *    canonical name no longer than NB_NAME_MAX, which parses back to the
 *    same selection and formats identically; its description fits.
 * Sanitizers (address, undefined) catch the rest.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "nb_evsel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const char *name, unsigned model, unsigned feats)
{
	struct nb_evsel a, b;
	char err[160], c1[NB_NAME_MAX + 1], c2[NB_NAME_MAX + 1], d[1024];
	int r;

	memset(err, 0x55, sizeof(err));
	r = nb_evsel_parse(name, model, feats, &a, err, sizeof(err));
	if (r < NB_PARSE_OK || r > NB_PARSE_NOTALLOWED)
		abort();
	if (!memchr(err, '\0', sizeof(err)))
		abort();
	if (r != NB_PARSE_OK) {
		if (err[0] == '\0')
			abort();
		return;
	}
	if (err[0] != '\0')
		abort();
	(void)nb_evsel_check(&a, err, sizeof(err));
	if (nb_evsel_format(&a, c1, sizeof(c1)) < 0)
		abort();
	if (nb_evsel_parse(c1, model, feats, &b, err, sizeof(err)) != NB_PARSE_OK)
		abort();
	if (!nb_evsel_same(&a, &b))
		abort();
	if (nb_evsel_format(&b, c2, sizeof(c2)) < 0 || strcmp(c1, c2) != 0)
		abort();
	(void)nb_evsel_describe(&a, d, sizeof(d));
	if (!memchr(d, '\0', sizeof(d)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = malloc(size + 1);

	if (!name)
		return 0;
	memcpy(name, data, size);
	name[size] = '\0';          /* an embedded NUL just ends the name */
	check(name, 2, 0);
	check(name, 4, NB_FEAT_L3);
	free(name);
	return 0;
}
