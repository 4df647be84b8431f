/*
 * nb_decode - NetBurst register values back to events: perfex-style
 * "cccr/escr@pmc" strings, or --cccr/--escr/--counter; with
 * --pebs-enable/--matrix-vert, the replay metric a replay_event counts.
 * Exit: 0 all decoded, 1 a value did not decode, 2 usage.
 */
#include <getopt.h>
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

	static const struct option opts[] = {
		{ "cccr", required_argument, NULL, 0 },
		{ "escr", required_argument, NULL, 1 },
		{ "counter", required_argument, NULL, 2 },
		{ "pebs-enable", required_argument, NULL, 3 },
		{ "matrix-vert", required_argument, NULL, 4 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long *dst[5] = { &cccr, &escr, &ctr, &pe, &mv };
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		char *end;

		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == '?' || c == ':') {
			fprintf(stderr, "nb_decode: %s '%s'\n", c == ':' ? "option needs a value:" :
				"unknown option", argv[optind - 1]);
			usage(stderr);
			return 2;
		}
		*dst[c] = strtoull(optarg, &end, 0);
		if (*end || end == optarg) {
			fprintf(stderr, "nb_decode: bad number in '--%s=%s'\n", opts[c].name, optarg);
			return 2;
		}
		if (c < 3)
			have[c] = 1;
		have_pebs |= c == 3;
	}
	for (int i = optind; i < argc && nstr < 64; i++)
		strs[nstr++] = argv[i];
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
