/*
 * t_events_dump.c - print the generated NetBurst tables (nb_tables.c) as
 * text lines for the t_events_*.t tests.  Built by t_events_lib.pl.
 *   E name select escrsel escr,escr models kernel flags features role alias dflmask validmask
 *   M event mask bit TS|TI alias models features dfl
 *   V event vmask tag|metric arg
 *   R metric type count_event count_masks pebs_enable matrix_vert kernel tag models features helpers
 *   P preset nalts
 *   A preset derived features models term;term...
 *   S escr msr select counters models
 */
#include <stdio.h>
#include "nb_events.h"

static const char *nz(const char *s) { return s ? s : "-"; }

int main(void)
{
	unsigned i, k;
	for (i = 0; i < nb_num_escrs; i++)
		printf("S %s 0x%x %u 0x%x 0x%x\n", nb_escrs[i].name, nb_escrs[i].msr,
		       nb_escrs[i].select, (unsigned)nb_escrs[i].counters, (unsigned)nb_escrs[i].models);
	for (i = 0; i < nb_num_events; i++) {
		const struct nb_event *e = &nb_events[i];
		printf("E %s 0x%02x %u %s%s%s 0x%02x %u 0x%x 0x%x %u %s 0x%04x 0x%04x\n", e->name,
		       e->event_select, e->escr_select, nb_escrs[e->escrs[0]].name,
		       e->nescrs > 1 ? "," : "", e->nescrs > 1 ? nb_escrs[e->escrs[1]].name : "",
		       (unsigned)e->models, e->kernel_idx, (unsigned)e->flags, e->features, e->role,
		       nz(e->alias), e->default_masks, e->valid_masks);
		for (k = 0; k < e->nmasks; k++) {
			const struct nb_mask *m = &e->masks[k];
			printf("M %s %s %u %s %s 0x%02x 0x%x %d\n", e->name, m->name, m->bit,
			       (m->flags & NB_MASK_TS) ? "TS" : "TI", nz(m->alias),
			       (unsigned)m->models, m->features, !!(m->flags & NB_MASK_DFL));
		}
		for (k = 0; k < e->nvmasks; k++)
			printf("V %s %s %s %s\n", e->name, e->vmasks[k].name,
			       e->vmasks[k].kind == NB_VMASK_TAG ? "tag" : "metric",
			       e->vmasks[k].kind == NB_VMASK_TAG ? (const char *[]){ "0", "1", "2", "3" }[e->vmasks[k].arg & 3]
			                                          : nb_metrics[e->vmasks[k].arg].name);
	}
	for (i = 0; i < nb_num_metrics; i++) {
		const struct nb_metric *m = &nb_metrics[i];
		printf("R %s %u %s 0x%04x 0x%08x 0x%08x %u %u 0x%02x 0x%x ", m->name, m->type,
		       nb_events[m->count_event].name, m->count_masks, (unsigned)m->pebs_enable,
		       (unsigned)m->matrix_vert, m->kernel_idx, m->tag, (unsigned)m->models, m->features);
		if (!m->nhelpers)
			printf("-");
		for (k = 0; k < m->nhelpers; k++)
			printf("%s%s/0x%04x/%s/%u", k ? ";" : "", nb_events[m->helpers[k].event].name,
			       m->helpers[k].masks,
			       m->helpers[k].escr == NB_NO_ESCR ? "any" : nb_escrs[m->helpers[k].escr].name,
			       m->helpers[k].tag_enable);
		printf("\n");
	}
	for (i = 0; i < nb_num_presets; i++) {
		const struct nb_preset *p = &nb_presets[i];
		printf("P %s %u\n", p->name, p->nalts);
		for (k = 0; k < p->nalts; k++) {
			const struct nb_preset_alt *a = &p->alts[k];
			unsigned t;
			printf("A %s %s 0x%x 0x%02x ", p->name, a->derived, a->features, (unsigned)a->models);
			for (t = 0; t < a->nterms; t++)
				printf("%s%s", t ? ";" : "", a->terms[t].name);
			printf("\n");
		}
	}
	return 0;
}
