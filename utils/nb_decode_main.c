/*
 * nb_decode - NetBurst register values back to events: perfex-style
 * "cccr/escr@pmc" strings, or --cccr/--escr/--counter; with
 * --pebs-enable/--matrix-vert, the replay metric a replay_event counts.
 * Exit: 0 all decoded, 1 a value did not decode, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nb_decode.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: nb_decode [options] CCCR/ESCR@PMC...\n"
		"       nb_decode [options] --cccr=V --escr=V --counter=N\n"
		"Decode NetBurst CCCR and ESCR values (perfex syntax; PMC is the counter\n"
		"number, bit 31 = fast RDPMC, ignored) back to the event, masks and modifiers.\n"
		"options:\n"
		"  --pebs-enable=V  IA32_PEBS_ENABLE value: name the replay metric\n"
		"  --matrix-vert=V  MSR_PEBS_MATRIX_VERT value (with --pebs-enable)\n"
		"  --help           this text\n"
		"exit status: 0 decoded, 1 a value does not decode, 2 usage error\n");
}

static int num(const char *arg, const char *opt, unsigned long long *v)
{
	size_t k = strlen(opt);
	char *end;

	if (strncmp(arg, opt, k))
		return 0;
	*v = strtoull(arg + k, &end, 0);
	return (*end || end == arg + k) ? -1 : 1;
}

static int show(struct nb_decoded *d, int have_pebs, unsigned long long pe, unsigned long long mv)
{
	char buf[512];

	if (nb_decode_format(d, buf, sizeof(buf)) < 0)
		return 1;
	printf("%s", buf);
	if (have_pebs && !strcmp(nb_events[d->event].name, "replay_event")) {
		int m = nb_decode_metric((unsigned)d->event, d->masks, (uint32_t)pe, (uint32_t)mv);

		printf(m >= 0 ? " metric=%s" : " metric=(none matches the PEBS MSR values)",
		       m >= 0 ? nb_metrics[m].name : "");
	}
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long cccr = 0, escr = 0, ctr = 0, pe = 0, mv = 0;
	int have[3] = { 0, 0, 0 }, have_pebs = 0, rc = 0, nstr = 0;
	const char *strs[64];
	char err[512];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		}
		if ((r = num(a, "--cccr=", &cccr)) || (r = num(a, "--escr=", &escr)) ||
		    (r = num(a, "--counter=", &ctr)) || (r = num(a, "--pebs-enable=", &pe)) ||
		    (r = num(a, "--matrix-vert=", &mv))) {
			if (r < 0) {
				fprintf(stderr, "nb_decode: bad number in '%s'\n", a);
				return 2;
			}
			have[0] |= !strncmp(a, "--cccr=", 7);
			have[1] |= !strncmp(a, "--escr=", 7);
			have[2] |= !strncmp(a, "--counter=", 10);
			have_pebs |= !strncmp(a, "--pebs-enable=", 14);
			continue;
		}
		if (a[0] == '-' && a[1] == '-') {
			fprintf(stderr, "nb_decode: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		}
		if (nstr < 64)
			strs[nstr++] = a;
	}
	if ((have[0] || have[1] || have[2]) && !(have[0] && have[1] && have[2])) {
		fprintf(stderr, "nb_decode: --cccr, --escr and --counter go together\n");
		return 2;
	}
	if (!have[0] && nstr == 0) {
		usage(stderr);
		return 2;
	}
	if (have[0]) {
		struct nb_decoded d;

		if (nb_decode_regs(cccr, escr, ctr, &d, err, sizeof(err))) {
			fprintf(stderr, "nb_decode: %s\n", err);
			rc = 1;
		} else {
			rc |= show(&d, have_pebs, pe, mv);
		}
	}
	for (int i = 0; i < nstr; i++) {
		struct nb_decoded d;

		if (nb_decode_perfex(strs[i], &d, err, sizeof(err))) {
			fprintf(stderr, "nb_decode: %s\n", err);
			rc = 1;
			continue;
		}
		rc |= show(&d, have_pebs, pe, mv);
	}
	return rc;
}
