/*
 * nb_decode.c - register values -> events [SDM Fig. 18-43..18-45; the
 * ESCR wiring of pmu.txt; seed 003 perfex syntax].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nb_decode.h"

int nb_decode_regs(uint64_t cccr, uint64_t escr, uint64_t counter, struct nb_decoded *out,
		   char *err, size_t len)
{
	unsigned sel, evsel, c = (unsigned)(counter & 0x7fffffffu);
	const struct nb_event *e;

	memset(out, 0, sizeof(*out));
	out->event = out->escr = -1;
	out->cccr_val = cccr;
	out->escr_val = escr;
	out->tag = -1;
	if (c >= NB_NUM_COUNTERS || (counter >> 32)) {
		snprintf(err, len, "counter %#llx: NetBurst has counters 0-17", (unsigned long long)counter);
		return -1;
	}
	if (cccr & ~NB_CCCR_VALID) {
		snprintf(err, len, "CCCR %#llx sets reserved bits %#llx", (unsigned long long)cccr,
			 (unsigned long long)(cccr & ~NB_CCCR_VALID));
		return -1;
	}
	if (escr & ~NB_ESCR_VALID) {
		snprintf(err, len, "ESCR %#llx sets reserved bits %#llx", (unsigned long long)escr,
			 (unsigned long long)(escr & ~NB_ESCR_VALID));
		return -1;
	}
	out->counter = c;
	sel = (unsigned)((cccr & NB_CCCR_ESCRSEL_MASK) >> NB_CCCR_ESCRSEL_SHIFT);
	for (unsigned i = 0; i < nb_num_escrs; i++)
		if (nb_escrs[i].select == sel && ((nb_escrs[i].counters >> c) & 1))
			out->escr = (int)i;
	if (out->escr < 0) {
		snprintf(err, len, "no ESCR with select %u feeds counter %u (%s)", sel, c, nb_counters[c].name);
		return -1;
	}
	evsel = (unsigned)((escr & NB_ESCR_EVSEL_MASK) >> NB_ESCR_EVSEL_SHIFT);
	for (unsigned i = 0; i < nb_num_events; i++) {
		for (unsigned x = 0; x < nb_events[i].nescrs; x++)
			if (nb_events[i].escrs[x] == out->escr && nb_events[i].event_select == evsel)
				out->event = (int)i;
	}
	if (out->event < 0) {
		snprintf(err, len, "no event with select %#x on %s", evsel, nb_escrs[out->escr].name);
		return -1;
	}
	e = &nb_events[out->event];
	{
		uint16_t m = (uint16_t)((escr & NB_ESCR_EMASK_MASK) >> NB_ESCR_EMASK_SHIFT);

		out->masks = m & e->valid_masks;
		out->unknown_masks = m & (uint16_t)~e->valid_masks;
	}
	out->threads = (uint8_t)(escr & 0xf);
	if (escr & NB_ESCR_TAG_ENABLE)
		out->tag = (int8_t)((escr & NB_ESCR_TAG_MASK) >> NB_ESCR_TAG_SHIFT);
	/* the selection the component would use for it */
	out->sel.event = (uint16_t)out->event;
	out->sel.masks = out->masks;
	/* an execution-tagging upstream event's tag reads back as libpfm4's TAGn */
	if (out->tag > 0 && e->role == NB_ROLE_EXEC_UPSTREAM && e->nvmasks)
		out->sel.tag = (uint8_t)out->tag;
	{
		int usr = (escr & (NB_ESCR_T0_USR | NB_ESCR_T1_USR)) != 0;
		int os = (escr & (NB_ESCR_T0_OS | NB_ESCR_T1_OS)) != 0;

		out->sel.mods = (uint8_t)(NB_MOD_USET | NB_MOD_KSET | (usr ? NB_MOD_U : 0) | (os ? NB_MOD_K : 0));
	}
	if (cccr & NB_CCCR_COMPARE) {
		out->sel.cccr |= NB_CCCR_MOD_CMP;
		out->sel.thr = (uint8_t)((cccr & NB_CCCR_THR_MASK) >> NB_CCCR_THR_SHIFT);
	}
	if (cccr & NB_CCCR_COMPLEMENT)
		out->sel.cccr |= NB_CCCR_MOD_CMPL;
	if (cccr & NB_CCCR_EDGE)
		out->sel.cccr |= NB_CCCR_MOD_EDGE;
	if (((cccr & NB_CCCR_ACTIVE_MASK) >> NB_CCCR_ACTIVE_SHIFT) != NB_ACTIVE_ANY) {
		out->sel.cccr |= NB_CCCR_MOD_ACTIVE;
		out->sel.active = (uint8_t)((cccr & NB_CCCR_ACTIVE_MASK) >> NB_CCCR_ACTIVE_SHIFT);
	}
	return 0;
}

int nb_decode_perfex(const char *s, struct nb_decoded *out, char *err, size_t len)
{
	unsigned long long v[3];
	const char *p = s;
	char *end;

	for (int i = 0; i < 3; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '-') {
			snprintf(err, len, "'%s': expected cccr/escr@pmc", s);
			return -1;
		}
		v[i] = strtoull(p, &end, 0);
		if (end == p) {
			snprintf(err, len, "'%s': expected cccr/escr@pmc", s);
			return -1;
		}
		p = end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (i < 2 && *p != (i == 0 ? '/' : '@')) {
			snprintf(err, len, "'%s': expected '%c' after %s", s, i == 0 ? '/' : '@',
				 i == 0 ? "the CCCR value" : "the ESCR value");
			return -1;
		}
		if (i < 2)
			p++;
	}
	if (*p) {
		snprintf(err, len, "'%s': trailing characters '%s'", s, p);
		return -1;
	}
	return nb_decode_regs(v[0], v[1], v[2], out, err, len);
}

int nb_decode_format(const struct nb_decoded *d, char *buf, size_t len)
{
	char name[NB_NAME_MAX];
	int n;

	if (nb_evsel_format(&d->sel, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "%s", nb_events[d->event].name);
	n = snprintf(buf, len, "%s", name);
	if (d->sel.cccr & NB_CCCR_MOD_CMP)
		n += snprintf(buf + n, (size_t)n < len ? len - (size_t)n : 0, ":cmp=%u", d->sel.thr);
	if (d->sel.cccr & NB_CCCR_MOD_CMPL)
		n += snprintf(buf + n, (size_t)n < len ? len - (size_t)n : 0, ":cmpl");
	if (d->sel.cccr & NB_CCCR_MOD_EDGE)
		n += snprintf(buf + n, (size_t)n < len ? len - (size_t)n : 0, ":edge");
	if (d->sel.cccr & NB_CCCR_MOD_ACTIVE)
		n += snprintf(buf + n, (size_t)n < len ? len - (size_t)n : 0, ":active=%u", d->sel.active);
	if (d->unknown_masks)
		n += snprintf(buf + n, (size_t)n < len ? len - (size_t)n : 0, " undefined-mask-bits=%#x",
			      d->unknown_masks);
	if (d->tag >= 0)
		n += snprintf(buf + n, (size_t)n < len ? len - (size_t)n : 0, " tag=%#x", (unsigned)d->tag);
	{
		static const char *const tn[4] = { "T1_USR", "T1_OS", "T0_USR", "T0_OS" };
		static const int order[4] = { 2, 3, 0, 1 };
		char th[40] = "";

		for (int i = 0; i < 4; i++)
			if (d->threads & (1u << order[i])) {
				if (th[0])
					strcat(th, ",");
				strcat(th, tn[order[i]]);
			}
		n += snprintf(buf + n, (size_t)n < len ? len - (size_t)n : 0, " threads=%s on %s (%s)",
			      th[0] ? th : "none", nb_escrs[d->escr].name, nb_counters[d->counter].name);
	}
	if (!(d->cccr_val & NB_CCCR_ENABLE))
		n += snprintf(buf + n, (size_t)n < len ? len - (size_t)n : 0, " [CCCR disabled]");
	return (size_t)n < len ? n : -1;
}

int nb_decode_metric(unsigned event, unsigned masks, uint32_t pebs_enable, uint32_t matrix_vert)
{
	for (unsigned m = 0; m < nb_num_metrics; m++) {
		const struct nb_metric *mt = &nb_metrics[m];

		if (mt->type == NB_TAG_REPLAY && mt->count_event == event && mt->count_masks == masks &&
		    mt->pebs_enable == (pebs_enable & ~NB_PEBS_ENABLE_PEBS) && mt->matrix_vert == matrix_vert)
			return (int)m;
	}
	return -1;
}
