/*
 * t_sched_decode.c - decoding inverts encoding: random placed sets
 * (events with masks, privilege and CCCR modifiers; thread 0 and 1) are
 * encoded to ESCR/CCCR values and perfex strings, decoded, and must give
 * back the event, masks, privilege levels, CCCR modifiers, ESCR and
 * counter.  Also: replay metrics back from the PEBS MSRs.
 */
#include <stdio.h>
#include <stdlib.h>
#include "nb_encode.h"
#include "nb_decode.h"
#include "sched_gen.h"

int main(int argc, char **argv)
{
	long sets = argc > 1 ? atol(argv[1]) : 20000, checked = 0, bad = 0, badm = 0;

	for (long k = 0; k < sets; k++) {
		struct nb_evsel r[NB_SCHED_MAX];
		struct nb_sched_cpu c;
		struct nb_assign a;
		int n = 1 + (int)gen_below(6);

		gen_set(r, n, &c, -1);
		if (nb_sched_run(r, n, &c, &a, NULL, NULL, 0))
			continue;
		for (int i = 0; i < n; i++) {
			struct nb_regs g;
			struct nb_decoded d;
			char s[128], err[256];
			unsigned dom = NB_DOM_USER;

			if (gen_chance(30)) {
				r[i].cccr |= NB_CCCR_MOD_CMPL | NB_CCCR_MOD_EDGE | NB_CCCR_MOD_ACTIVE;
				r[i].active = (uint8_t)gen_below(3);
			}
			r[i].cccr &= (uint8_t)~NB_CCCR_MOD_PRECISE;
			nb_encode_ex(&r[i], &a.slot[i], dom, c.thread, 0, &g);
			snprintf(s, sizeof(s), "%#llx/%#llx@%#x", (unsigned long long)g.cccr,
				 (unsigned long long)g.escr, 0x80000000u | a.slot[i].counter);
			checked++;
			if (nb_decode_perfex(s, &d, err, sizeof(err))) {
				if (bad++ < 5)
					printf("# %s: %s\n", s, err);
				continue;
			}
			int usr = !!(g.escr & (NB_ESCR_T0_USR | NB_ESCR_T1_USR));
			int os = !!(g.escr & (NB_ESCR_T0_OS | NB_ESCR_T1_OS));
			int same = d.event == a.slot[i].event && d.masks == a.slot[i].masks && !d.unknown_masks &&
				   d.escr == a.slot[i].escr && d.counter == a.slot[i].counter &&
				   !!(d.sel.mods & NB_MOD_U) == usr && !!(d.sel.mods & NB_MOD_K) == os &&
				   (d.sel.cccr & (NB_CCCR_MOD_CMP | NB_CCCR_MOD_CMPL | NB_CCCR_MOD_EDGE)) ==
					   (r[i].cccr & (NB_CCCR_MOD_CMP | NB_CCCR_MOD_CMPL | NB_CCCR_MOD_EDGE)) &&
				   (!(r[i].cccr & NB_CCCR_MOD_CMP) || d.sel.thr == r[i].thr) &&
				   (!(r[i].cccr & NB_CCCR_MOD_ACTIVE) || r[i].active == NB_ACTIVE_ANY ||
				    d.sel.active == r[i].active);
			if (!same && bad++ < 5)
				printf("# %s decoded to event %d masks %#x escr %d counter %u\n", s, d.event, d.masks,
				       d.escr, d.counter);
			if (r[i].kind == NB_SEL_METRIC && nb_metrics[r[i].event].type == NB_TAG_REPLAY) {
				int m = nb_decode_metric(a.slot[i].event, a.slot[i].masks, a.pebs_enable, a.matrix_vert);

				/* metrics with identical MSR values are indistinguishable */
				if (m < 0 || nb_metrics[m].pebs_enable != nb_metrics[r[i].event].pebs_enable ||
				    nb_metrics[m].matrix_vert != nb_metrics[r[i].event].matrix_vert)
					badm++;
			}
		}
	}
	printf("%sok 1 - %ld placed requests: perfex string decodes to the same event, masks, "
	       "privilege, CCCR modifiers, ESCR and counter\n", bad ? "not " : "", checked);
	printf("%sok 2 - replay metrics identified from IA32_PEBS_ENABLE / MSR_PEBS_MATRIX_VERT\n", badm ? "not " : "");
	printf("1..2\n");
	return 0;
}
