/*
 * nb_comp_names.c - the p4netburst component's native event codes.
 *
 * Native event codes are indices into a table of interned event selections
 * (struct nb_evsel).  Entry i < nb_num_events is event i with its default
 * masks, so enumeration is a walk over the event table; names with masks or
 * modifiers are interned on first use.  PAPI presets map to "preset slot"
 * entries (PAPI_X, or PAPI_X.0, PAPI_X.1 for presets whose alternatives
 * have several terms): the alternative behind a preset is chosen per event
 * set (nb_presets.h), so an event set where the preferred mapping
 * conflicts still takes the preset.
 */
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb_comp.h"

static struct ntv_entry *ntv;
static unsigned ntv_count, ntv_alloc;
static pthread_mutex_t ntv_lock = PTHREAD_MUTEX_INITIALIZER;

static int intern_entry(const struct ntv_entry *e, unsigned *code)
{
	int ret = PAPI_OK;

	pthread_mutex_lock(&ntv_lock);
	for (unsigned i = 0; i < ntv_count; i++) {
		if (ntv[i].kind == e->kind && nb_evsel_same(&ntv[i].sel, &e->sel) &&
		    ntv[i].preset == e->preset && ntv[i].slot == e->slot && ntv[i].qual == e->qual) {
			*code = i;
			goto out;
		}
	}
	if (ntv_count == ntv_alloc) {
		unsigned n = ntv_alloc ? 2 * ntv_alloc : 64;
		struct ntv_entry *p = realloc(ntv, n * sizeof(*p));

		if (!p) {
			ret = PAPI_ENOMEM;
			goto out;
		}
		ntv = p;
		ntv_alloc = n;
	}
	ntv[ntv_count] = *e;
	*code = ntv_count++;
out:
	pthread_mutex_unlock(&ntv_lock);
	return ret;
}

static int intern(const struct nb_evsel *sel, int kind, unsigned *code)
{
	struct ntv_entry e;

	memset(&e, 0, sizeof(e));
	e.sel = *sel;
	e.kind = kind;
	return intern_entry(&e, code);
}

int p4nb_lookup(unsigned code, struct ntv_entry *out)
{
	int ret = PAPI_ENOEVNT;

	pthread_mutex_lock(&ntv_lock);
	if (code < ntv_count) {
		*out = ntv[code];
		ret = PAPI_OK;
	}
	pthread_mutex_unlock(&ntv_lock);
	return ret;
}

/* ---- names ------------------------------------------------------------- */

/*
 * Base codes: 0 .. nb_num_events-1 are the events with their default masks,
 * nb_num_events .. +nb_num_metrics-1 the tagged metrics.  Enumeration walks
 * the base codes the running CPU has; masks enumerate as ENT_UMASK entries
 * and libpfm4's virtual masks as ENT_VMASK entries, interned on the fly;
 * other names are interned as ENT_USER.
 */
static unsigned base_code(const struct nb_evsel *s)
{
	return s->kind == NB_SEL_METRIC ? nb_num_events + s->event : s->event;
}

static int base_on_cpu(unsigned b)
{
	if (b < nb_num_events)
		return nb_event_on_cpu(b, p4nb_cpu.model, p4nb_cpu_feats);
	return nb_metric_on_cpu(b - nb_num_events, p4nb_cpu.model, p4nb_cpu_feats);
}

static int next_base(unsigned from, unsigned *code)
{
	for (unsigned b = from; b < nb_num_events + nb_num_metrics; b++)
		if (base_on_cpu(b)) {
			*code = b;
			return PAPI_OK;
		}
	return PAPI_ENOEVNT;
}

/* Number of base events and metrics the running CPU offers. */
int p4nb_count_bases(void)
{
	int n = 0;

	for (unsigned b = 0; b < nb_num_events + nb_num_metrics; b++)
		n += base_on_cpu(b);
	return n;
}

/* Intern the base entries (event i -> code i, metric m -> nb_num_events+m). */
int p4nb_intern_bases(void)
{
	pthread_mutex_lock(&ntv_lock);
	ntv_count = 0;
	pthread_mutex_unlock(&ntv_lock);
	for (unsigned b = 0; b < nb_num_events + nb_num_metrics; b++) {
		struct nb_evsel s;
		unsigned code;

		memset(&s, 0, sizeof(s));
		if (b < nb_num_events) {
			s.event = (uint16_t)b;
			s.masks = nb_event_default_masks(b);
		} else {
			s.kind = NB_SEL_METRIC;
			s.event = (uint16_t)(b - nb_num_events);
		}
		if (intern(&s, ENT_BASE, &code) != PAPI_OK || code != b)
			return PAPI_ENOMEM;
	}
	return PAPI_OK;
}

/*
 * Qualifiers: the modifiers a name may carry (nb_evsel.h), listed by
 * PAPI_NTV_ENUM_UMASKS after an event's masks (as perf_event lists
 * ":u=0|1"), each where a representative use of it parses for that event
 * or metric (precise only where PEBS is allowed).  Field meanings: ESCR
 * [SDM Fig. 18-43/44], CCCR [SDM Fig. 18-45; seed 003 sec. 6], ActiveThread
 * [SDM 18.16.1], PEBS [SDM 18.15.7].
 */
static const struct {
	const char *name;      /* as listed */
	const char *use;       /* a use of it that parses */
	const char *desc;
} quals[] = {
	{ "u=0|1", "u=1", "count at user level, CPL 1-3 (ESCR T0_USR/T1_USR); "
	  "'u' alone is u=1; default: from the PAPI domain" },
	{ "k=0|1", "k=1", "count at kernel level, CPL 0 (ESCR T0_OS/T1_OS); "
	  "default: from the PAPI domain" },
	{ "thr=0..15", "thr=1", "CCCR Compare and Threshold: count the cycles in "
	  "which the event count exceeds the threshold (cmp=N is accepted)" },
	{ "cmpl=0|1", "thr=1:cmpl", "CCCR Complement: with thr, count the cycles "
	  "in which the event count is at most the threshold" },
	{ "edge=0|1", "thr=1:edge", "CCCR Edge: with thr, count the times the "
	  "threshold comparison turns true" },
	{ "thread=any|single|both|none", "thread=single", "CCCR ActiveThread: "
	  "count while any (default), exactly one, both or no logical processor "
	  "is active (3, 1, 2, 0 accepted)" },
	{ "precise=0|1", "precise", "PEBS: precise event-based sampling of the "
	  "tagged uops (IA32_PEBS_ENABLE bit 25)" },
	{ "cascade=0|1", "cascade", "count on a cascaded counter pair (CCCR Cascade, "
	  "SDM 18.15.5.6): the alternate counts once the event's 40-bit counter "
	  "has overflowed, read as one 41-bit count (up to 2^41); events only" },
};
#define NQUALS ((unsigned)(sizeof(quals) / sizeof(quals[0])))

static const char *base_name(const struct nb_evsel *s)
{
	return s->kind == NB_SEL_METRIC ? nb_metrics[s->event].name : nb_events[s->event].name;
}

/* Is qualifier Q offered on the event or metric of SEL? */
static int qual_allowed(const struct nb_evsel *sel, unsigned q)
{
	char nm[NB_NAME_MAX], err[256];
	struct nb_evsel out;

	snprintf(nm, sizeof(nm), "%s:%s", base_name(sel), quals[q].use);
	return nb_evsel_parse(nm, p4nb_cpu.model, p4nb_cpu_feats, &out, err, sizeof(err)) == NB_PARSE_OK;
}

/* The first qualifier >= Q offered on BASE, interned as an ENT_QUAL. */
static int next_qual(const struct nb_evsel *base, unsigned q, unsigned *code)
{
	struct ntv_entry e;

	for (; q < NQUALS; q++)
		if (qual_allowed(base, q))
			break;
	if (q >= NQUALS)
		return PAPI_ENOEVNT;
	memset(&e, 0, sizeof(e));
	e.kind = ENT_QUAL;
	e.sel = *base;
	e.qual = (uint8_t)q;
	return intern_entry(&e, code);
}

/*
 * Virtual masks: libpfm4's names after an event that are not event-mask
 * bits (native_events/events.txt "vmask": the FP/SIMD upstream events'
 * TAG0..TAG3, replay_event's metric spellings), listed after the masks
 * where "EVENT:VMASK" parses on this CPU.  Names that parse must be
 * listed: papi_native_avail is how a user learns the spelling.
 */
static int next_vmask(unsigned ev, unsigned v, unsigned *code)
{
	const struct nb_event *d = &nb_events[ev];

	for (; v < d->nvmasks; v++) {
		char nm[NB_NAME_MAX], err[256];
		struct ntv_entry e;

		memset(&e, 0, sizeof(e));
		snprintf(nm, sizeof(nm), "%s:%s", d->name, d->vmasks[v].name);
		if (nb_evsel_parse(nm, p4nb_cpu.model, p4nb_cpu_feats, &e.sel, err,
				   sizeof(err)) != NB_PARSE_OK)
			continue;
		e.kind = ENT_VMASK;
		e.preset = (uint16_t)ev;
		e.qual = (uint8_t)v;
		return intern_entry(&e, code);
	}
	return PAPI_ENOEVNT;
}

/* The base selection (event with default masks, or metric) of E. */
static void base_sel(const struct ntv_entry *e, struct nb_evsel *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = e->kind == ENT_VMASK ? NB_SEL_EVENT : e->sel.kind;
	out->event = e->kind == ENT_VMASK ? e->preset : e->sel.event;
	if (out->kind == NB_SEL_EVENT)
		out->masks = nb_event_default_masks(out->event);
}

/* After an event's masks: its virtual masks, then its qualifiers. */
static int after_masks(const struct nb_evsel *base, unsigned v, unsigned *code)
{
	if (base->kind == NB_SEL_EVENT && next_vmask(base->event, v, code) == PAPI_OK)
		return PAPI_OK;
	return next_qual(base, 0, code);
}

int p4nb_ntv_enum_events(unsigned *code, int modifier)
{
	struct ntv_entry e;

	switch (modifier) {
	case PAPI_ENUM_FIRST:
		return next_base(0, code);
	case PAPI_ENUM_EVENTS:
		if (p4nb_lookup(*code, &e) != PAPI_OK || e.kind == ENT_PRESET)
			return PAPI_ENOEVNT;
		if (e.kind == ENT_VMASK)
			return next_base(e.preset + 1u, code);
		return next_base(base_code(&e.sel) + 1u, code);
	case PAPI_NTV_ENUM_UMASKS: {
		const struct nb_event *d;
		struct nb_evsel base;
		unsigned i = 0;

		if (p4nb_lookup(*code, &e) != PAPI_OK)
			return PAPI_ENOEVNT;
		if (e.kind == ENT_QUAL)
			return next_qual(&e.sel, e.qual + 1u, code);
		base_sel(&e, &base);
		if (e.kind == ENT_VMASK)
			return after_masks(&base, e.qual + 1u, code);
		if (e.kind != ENT_BASE && e.kind != ENT_UMASK)
			return PAPI_ENOEVNT;
		if (e.sel.kind != NB_SEL_EVENT)     /* metrics: qualifiers only */
			return next_qual(&base, 0, code);
		d = &nb_events[e.sel.event];
		if (e.kind == ENT_UMASK) {
			while (i < d->nmasks && (1u << d->masks[i].bit) != e.sel.masks)
				i++;
			i++;
		}
		while (i < d->nmasks && !nb_mask_on_cpu(&d->masks[i], p4nb_cpu.model, p4nb_cpu_feats))
			i++;
		if (i >= d->nmasks)
			return after_masks(&base, 0, code);
		memset(&e.sel, 0, sizeof(e.sel));
		e.sel.event = (uint16_t)(d - nb_events);
		e.sel.masks = (uint16_t)(1u << d->masks[i].bit);
		return intern(&e.sel, ENT_UMASK, code);
	}
	default:
		return PAPI_EINVAL;
	}
}

/* "PAPI_X" or "PAPI_X.k": a preset slot entry (see load_presets). */
static int preset_name_to_code(const char *p, unsigned *code)
{
	const char *dot = strchr(p, '.');
	size_t n = dot ? (size_t)(dot - p) : strlen(p);
	int pi = nb_preset_lookup(p, n), slots;
	unsigned slot = 0;
	struct ntv_entry e;

	if (pi < 0)
		return PAPI_ENOEVNT;
	slots = nb_preset_slots((unsigned)pi, p4nb_cpu.model, p4nb_cpu_feats);
	if (slots == 0) {
		char why[PAPI_HUGE_STR_LEN];

		p4nb_preset_absent((unsigned)pi, why, sizeof(why));
		PAPIERROR("p4netburst: %s", why);
		return PAPI_ENOEVNT;
	}
	if (dot) {
		char *end;

		slot = (unsigned)strtoul(dot + 1, &end, 10);
		if (*end || end == dot + 1 || slots < 2)
			return PAPI_ENOEVNT;
	} else if (slots != 1) {
		return PAPI_ENOEVNT;
	}
	if (slot >= (unsigned)slots)
		return PAPI_ENOEVNT;
	memset(&e, 0, sizeof(e));
	e.kind = ENT_PRESET;
	e.preset = (uint16_t)pi;
	e.slot = (uint8_t)slot;
	return intern_entry(&e, code);
}

int p4nb_ntv_name_to_code(const char *name, unsigned *code)
{
	struct nb_evsel s;
	char err[256];
	const char *p;
	int r;

	if (!p4nb_backend)
		return PAPI_ENOEVNT;
	p = name ? strstr(name, ":::") : NULL;
	p = p ? p + 3 : name;
	if (p && strncasecmp(p, "PAPI_", 5) == 0 && !strchr(p, ':')) {
		int pi = nb_preset_lookup(p, strcspn(p, "."));

		r = preset_name_to_code(p, code);
		if (r != PAPI_OK && pi < 0)
			p4nb_report(name, "unknown preset (native_events/presets.txt; papi_avail lists them)");
		else if (r != PAPI_OK && nb_preset_slots((unsigned)pi, p4nb_cpu.model, p4nb_cpu_feats))
			p4nb_report(name, "no such preset entry (papi_native_avail lists them)");
		return r;
	}
	r = nb_evsel_parse(name, p4nb_cpu.model, p4nb_cpu_feats, &s, err, sizeof(err));
	if (r != NB_PARSE_OK) {
		p4nb_report(name ? name : "(null)", err);
		return r == NB_PARSE_NOEVENT || r == NB_PARSE_NOMASK ||
		       r == NB_PARSE_MODEL ? PAPI_ENOEVNT : PAPI_EINVAL;
	}
	if (!strchr(p, ':')) {      /* the event or metric alone: its base entry */
		*code = base_code(&s);
		return PAPI_OK;
	}
	return intern(&s, ENT_USER, code);
}

int p4nb_ntv_code_to_name(unsigned code, char *name, int len)
{
	struct ntv_entry e;

	if (len <= 0 || p4nb_lookup(code, &e) != PAPI_OK)
		return PAPI_ENOEVNT;
	switch (e.kind) {
	case ENT_BASE:
		snprintf(name, (size_t)len, "%s", base_name(&e.sel));
		return PAPI_OK;
	case ENT_PRESET:
		p4nb_preset_slot_name(e.preset, e.slot, name, (size_t)len);
		return PAPI_OK;
	case ENT_QUAL:
		snprintf(name, (size_t)len, "%s:%s", base_name(&e.sel), quals[e.qual].name);
		return PAPI_OK;
	case ENT_VMASK:     /* as listed: libpfm4's spelling, which parses back */
		snprintf(name, (size_t)len, "%s:%s", nb_events[e.preset].name,
			 nb_events[e.preset].vmasks[e.qual].name);
		return PAPI_OK;
	default:
		return nb_evsel_format(&e.sel, name, (size_t)len) < 0 ? PAPI_EBUF : PAPI_OK;
	}
}

/* A mask entry: "EVENT DESC, masks:MASK DESC" (the form papi_native_avail
 * splits at "masks:"). */
static const struct nb_mask *umask_of(const struct ntv_entry *e)
{
	const struct nb_event *d = &nb_events[e->sel.event];

	if (e->kind != ENT_UMASK)
		return NULL;
	for (unsigned i = 0; i < d->nmasks; i++)
		if ((1u << d->masks[i].bit) == e->sel.masks)
			return &d->masks[i];
	return NULL;
}

/* A preset slot: what it counts in each alternative. */
static void describe_preset(const struct ntv_entry *e, char *descr, size_t len)
{
	const struct nb_preset *p = &nb_presets[e->preset];
	int slots = nb_preset_slots(e->preset, p4nb_cpu.model, p4nb_cpu_feats);
	size_t off;
	unsigned k = 0;

	if (slots > 1)
		snprintf(descr, len, "%s, term %u of %d of the first alternative that fits "
			 "beside the other events of the set:", p->name, e->slot, slots);
	else
		snprintf(descr, len, "%s: the first alternative that fits beside the other "
			 "events of the set:", p->name);
	for (unsigned a = 0; a < p->nalts; a++) {
		char f[256];

		if (!nb_preset_alt_usable(e->preset, a, p4nb_cpu.model, p4nb_cpu_feats))
			continue;
		nb_preset_alt_format(&p->alts[a], f, sizeof(f));
		off = strlen(descr);
		snprintf(descr + off, len - off, " %u) %s;", ++k, f);
	}
	off = strlen(descr);
	if (off && descr[off - 1] == ';')
		descr[off - 1] = '.';
}

static void describe(const struct ntv_entry *e, char *descr, size_t len)
{
	const struct nb_mask *m = umask_of(e);

	if (e->kind == ENT_PRESET)
		describe_preset(e, descr, len);
	else if (e->kind == ENT_VMASK)
		snprintf(descr, len, "%s, masks:%s (libpfm4 virtual mask)",
			 nb_events[e->preset].desc, nb_events[e->preset].vmasks[e->qual].desc);
	else if (e->kind == ENT_QUAL)
		snprintf(descr, len, "%s, masks:%s", e->sel.kind == NB_SEL_METRIC ?
			 nb_metrics[e->sel.event].desc : nb_events[e->sel.event].desc,
			 quals[e->qual].desc);
	else if (m)
		snprintf(descr, len, "%s, masks:%s (%s)", nb_events[e->sel.event].desc,
			 m->desc, m->flags & NB_MASK_TI ? "thread-independent" :
			 "thread-specific");
	else
		(void)nb_evsel_describe(&e->sel, descr, len);   /* truncation is fine */
}

int p4nb_ntv_code_to_descr(unsigned code, char *descr, int len)
{
	struct ntv_entry e;

	if (len <= 0 || p4nb_lookup(code, &e) != PAPI_OK)
		return PAPI_ENOEVNT;
	describe(&e, descr, (size_t)len);
	return PAPI_OK;
}

int p4nb_ntv_code_to_info(unsigned code, PAPI_event_info_t *info)
{
	struct ntv_entry e;
	const char *shrt;
	char tmp[PAPI_MIN_STR_LEN];
	int r;

	if (p4nb_lookup(code, &e) != PAPI_OK)
		return PAPI_ENOEVNT;
	r = p4nb_ntv_code_to_name(code, info->symbol, (int)sizeof(info->symbol));
	if (r != PAPI_OK)
		return r;
	describe(&e, info->long_descr, sizeof(info->long_descr));
	if (e.kind == ENT_PRESET) {
		snprintf(tmp, sizeof(tmp), "%s (alternatives chosen per event set)",
			 nb_presets[e.preset].name);
		shrt = tmp;
	} else if (e.kind == ENT_QUAL) {
		shrt = quals[e.qual].desc;
	} else if (e.kind == ENT_VMASK) {
		shrt = nb_events[e.preset].vmasks[e.qual].desc;
	} else if (umask_of(&e)) {
		shrt = umask_of(&e)->desc;
	} else if (e.sel.kind == NB_SEL_METRIC) {
		shrt = nb_metrics[e.sel.event].desc;
	} else {
		shrt = nb_events[e.sel.event].desc;
	}
	snprintf(info->short_descr, sizeof(info->short_descr), "%s", shrt);
	info->data_type = PAPI_DATATYPE_INT64;
	info->value_type = PAPI_VALUETYPE_RUNNING_SUM;
	info->timescope = PAPI_TIMESCOPE_SINCE_START;
	info->location = PAPI_LOCATION_CPU;
	info->update_type = PAPI_UPDATETYPE_ARBITRARY;
	return PAPI_OK;
}

/* The interned entries go with the component (PAPI_shutdown). */
void p4nb_names_free(void)
{
	pthread_mutex_lock(&ntv_lock);
	free(ntv);
	ntv = NULL;
	ntv_count = ntv_alloc = 0;
	pthread_mutex_unlock(&ntv_lock);
}
