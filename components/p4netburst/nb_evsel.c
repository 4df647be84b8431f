/*
 * nb_evsel.c - parse, format and describe NetBurst event names.
 *
 * Grammar (case-insensitive, at most NB_NAME_MAX characters):
 *     [p4netburst:::]NAME[:QUAL]...
 *     NAME := event | event alias | metric
 *     QUAL := MASK | mask alias | replay virtual mask | modifier[=value]
 * See nb_evsel.h for the modifiers and the canonical form.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "nb_evsel.h"

#define PREFIX "p4netburst:::"

static const char *const thread_names[4] = { "none", "single", "both", "any" };

/* [sim/cpu/nb_cpu.c]: the same parts, names and CPUID models. */
const struct nb_part nb_parts[] = {
	{ "willamette", 1, 0 },
	{ "northwood", 2, 0 },
	{ "prescott", 3, 0 },
	{ "cedarmill", 6, 0 },
	{ "xeonmp", 2, NB_FEAT_L3 },
};
const unsigned nb_num_parts = sizeof nb_parts / sizeof nb_parts[0];

const struct nb_part *nb_part_find(const char *name)
{
	for (unsigned i = 0; name && i < nb_num_parts; i++)
		if (strcasecmp(nb_parts[i].name, name) == 0)
			return &nb_parts[i];
	return NULL;
}

const char *nb_part_name(unsigned model, unsigned feats)
{
	for (unsigned i = 0; i < nb_num_parts; i++)
		if (nb_parts[i].model == model && nb_parts[i].feats == feats)
			return nb_parts[i].name;
	return NULL;
}

void nb_evsel_where(int kind, unsigned idx, const struct nb_mask *mask,
		    char *buf, size_t len)
{
	size_t n = 0;
	int any = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (unsigned i = 0; i < nb_num_parts; i++) {
		const struct nb_part *pt = &nb_parts[i];
		int has = kind == NB_SEL_METRIC ? nb_metric_on_cpu(idx, pt->model, pt->feats)
			: nb_event_on_cpu(idx, pt->model, pt->feats) &&
			  (!mask || nb_mask_on_cpu(mask, pt->model, pt->feats));
		int w;

		if (!has)
			continue;
		w = snprintf(buf + n, len - n, "%s%s", any ? ", " : "; it exists on ", pt->name);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
		any = 1;
	}
	if (!any)
		snprintf(buf, len, "; it exists on no modelled part");
}

/* "model 3 (prescott)" into BUF. */
static const char *this_cpu(unsigned model, unsigned feats, char *buf, size_t len)
{
	const char *nm = nb_part_name(model, feats);

	snprintf(buf, len, "model %u%s%s%s", model, feats & NB_FEAT_L3 ? " with L3" : "",
		 nm ? ", " : "", nm ? nm : "");
	return buf;
}

int nb_evsel_same(const struct nb_evsel *a, const struct nb_evsel *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

const char *nb_parse_strerror(int err)
{
	switch (err) {
	case NB_PARSE_OK:         return "ok";
	case NB_PARSE_NOEVENT:    return "unknown event";
	case NB_PARSE_NOMASK:     return "unknown mask or modifier";
	case NB_PARSE_BADVALUE:   return "bad modifier value";
	case NB_PARSE_TOOLONG:    return "name too long";
	case NB_PARSE_SYNTAX:     return "syntax error";
	case NB_PARSE_DUP:        return "given twice";
	case NB_PARSE_MODEL:      return "not on this CPU";
	case NB_PARSE_NOTALLOWED: return "not allowed here";
	default:                  return "?";
	}
}

static int same(const char *a, const char *s, size_t n)
{
	return a && strlen(a) == n && strncasecmp(a, s, n) == 0;
}

int nb_event_lookup(const char *name, size_t n)
{
	for (unsigned i = 0; i < nb_num_events; i++)
		if (same(nb_events[i].name, name, n) || same(nb_events[i].alias, name, n))
			return (int)i;
	return -1;
}

int nb_metric_lookup(const char *name, size_t n)
{
	for (unsigned i = 0; i < nb_num_metrics; i++)
		if (same(nb_metrics[i].name, name, n))
			return (int)i;
	return -1;
}

uint16_t nb_event_default_masks(unsigned event)
{
	return nb_events[event].default_masks;
}

int nb_event_on_cpu(unsigned event, unsigned model, unsigned feats)
{
	return event < nb_num_events && model < 32 &&
	       (nb_events[event].models >> model) & 1 &&
	       (nb_events[event].features & ~feats) == 0;
}

int nb_mask_on_cpu(const struct nb_mask *m, unsigned model, unsigned feats)
{
	return model < 32 && (m->models >> model) & 1 && (m->features & ~feats) == 0;
}

int nb_metric_on_cpu(unsigned metric, unsigned model, unsigned feats)
{
	const struct nb_metric *m;

	if (metric >= nb_num_metrics || model >= 32)
		return 0;
	m = &nb_metrics[metric];
	if (!((m->models >> model) & 1) || (m->features & ~feats) ||
	    !nb_event_on_cpu(m->count_event, model, feats))
		return 0;
	for (unsigned h = 0; h < m->nhelpers; h++)
		if (!nb_event_on_cpu(m->helpers[h].event, model, feats))
			return 0;
	return 1;
}

int nb_evsel_pebs_capable(const struct nb_evsel *sel)
{
	unsigned ev;

	if (sel->kind == NB_SEL_METRIC) {
		if (sel->event >= nb_num_metrics)
			return 0;
		ev = nb_metrics[sel->event].count_event;
	} else {
		ev = sel->event;
	}
	return ev < nb_num_events && (nb_events[ev].flags & NB_EV_PEBS);
}

static const struct nb_mask *mask_lookup(const struct nb_event *e, const char *s, size_t n)
{
	for (unsigned i = 0; i < e->nmasks; i++)
		if (same(e->masks[i].name, s, n) || same(e->masks[i].alias, s, n))
			return &e->masks[i];
	return NULL;
}

static const struct nb_vmask *vmask_lookup(const struct nb_event *e, const char *s, size_t n)
{
	for (unsigned i = 0; i < e->nvmasks; i++)
		if (same(e->vmasks[i].name, s, n))
			return &e->vmasks[i];
	return NULL;
}

/* TagValue bits event E's TAGn virtual masks can set (0: not an
 * execution-tagging upstream event). */
static unsigned tag_bits(const struct nb_event *e)
{
	unsigned b = 0;

	for (unsigned i = 0; i < e->nvmasks; i++)
		if (e->vmasks[i].kind == NB_VMASK_TAG)
			b |= 1u << e->vmasks[i].arg;
	return b;
}

/* The execution metric whose helper is EVENT (for a hint), or NULL. */
static const char *metric_tagging(unsigned event)
{
	for (unsigned i = 0; i < nb_num_metrics; i++)
		for (unsigned h = 0; h < nb_metrics[i].nhelpers; h++)
			if (nb_metrics[i].helpers[h].event == event &&
			    nb_metrics[i].helpers[h].tag_enable)
				return nb_metrics[i].name;
	return NULL;
}

/* Boolean value: absent = 1, "0" or "1". */
static int parse_bool(const char *v, size_t n, unsigned *out)
{
	if (!v) {
		*out = 1;
		return 0;
	}
	if (n == 1 && (v[0] == '0' || v[0] == '1')) {
		*out = (unsigned)(v[0] - '0');
		return 0;
	}
	return -1;
}

/* Decimal 0..MAX (leading zeros allowed, at most 4 digits). */
static int parse_uint(const char *v, size_t n, unsigned max, unsigned *out)
{
	unsigned x = 0;

	if (!v || n == 0 || n > 4)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		x = x * 10 + (unsigned)(v[i] - '0');
	}
	if (x > max)
		return -1;
	*out = x;
	return 0;
}

static int parse_thread(const char *v, size_t n, unsigned *out)
{
	for (unsigned i = 0; i < 4; i++)
		if (same(thread_names[i], v, n)) {
			*out = i;
			return 0;
		}
	return parse_uint(v, n, 3, out);
}

struct pstate {
	const char *name;       /* after the prefix */
	char *err;
	size_t errlen;
};

static int fail(struct pstate *ps, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct pstate *ps, int code, const char *fmt, ...)
{
	va_list ap;

	if (ps->errlen) {
		va_start(ap, fmt);
		vsnprintf(ps->err, ps->errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

/* Modifier Q (N chars) with value V (VN chars, V NULL if none). */
static int parse_modifier(struct pstate *ps, const char *what, struct nb_evsel *out,
			  uint16_t *seen, const char *q, size_t n,
			  const char *v, size_t vn)
{
	unsigned b;

	if (same("u", q, n) || same("k", q, n)) {
		int isu = tolower((unsigned char)q[0]) == 'u';
		uint8_t set = isu ? NB_MOD_USET : NB_MOD_KSET;

		if (parse_bool(v, vn, &b))
			return fail(ps, NB_PARSE_BADVALUE, "modifier %c takes 0 or 1, not '%.*s'",
				    isu ? 'u' : 'k', (int)vn, v);
		if (out->mods & set)
			return fail(ps, NB_PARSE_DUP, "modifier %c given twice", isu ? 'u' : 'k');
		out->mods |= set;
		if (b)
			out->mods |= isu ? NB_MOD_U : NB_MOD_K;
		return NB_PARSE_OK;
	}
	if (same("thr", q, n) || same("cmp", q, n)) {
		if (!v)
			return fail(ps, NB_PARSE_BADVALUE,
				    "modifier %.*s needs a threshold value 0..15 (e.g. thr=1)",
				    (int)n, q);
		if (parse_uint(v, vn, 15, &b))
			return fail(ps, NB_PARSE_BADVALUE,
				    "threshold must be 0..15, not '%.*s'", (int)vn, v);
		if (out->cccr & NB_CCCR_MOD_CMP)
			return fail(ps, NB_PARSE_DUP, "threshold (thr/cmp) given twice");
		out->cccr |= NB_CCCR_MOD_CMP;
		out->thr = (uint8_t)b;
		return NB_PARSE_OK;
	}
	if (same("cmpl", q, n) || same("edge", q, n) || same("precise", q, n) ||
	    same("cascade", q, n)) {
		/* seen bits 0-2 and 4 (bit 3 is thread) */
		unsigned bit = same("cmpl", q, n) ? 0 : same("edge", q, n) ? 1 :
			       same("precise", q, n) ? 2 : 4;
		static const char *const nm[5] = { "cmpl", "edge", "precise", "", "cascade" };
		static const uint8_t fl[5] = { NB_CCCR_MOD_CMPL, NB_CCCR_MOD_EDGE,
					       NB_CCCR_MOD_PRECISE, 0, NB_CCCR_MOD_CASCADE };

		if (parse_bool(v, vn, &b))
			return fail(ps, NB_PARSE_BADVALUE, "modifier %s takes 0 or 1, not '%.*s'",
				    nm[bit], (int)vn, v);
		if (*seen & (1u << bit))
			return fail(ps, NB_PARSE_DUP, "modifier %s given twice", nm[bit]);
		*seen |= (uint16_t)(1u << bit);
		if (b && bit == 2 && !nb_evsel_pebs_capable(out))
			return fail(ps, NB_PARSE_NOTALLOWED,
				    "%s cannot be precise: PEBS samples only front_end_event, "
				    "execution_event, replay_event and the tagged metrics", what);
		if (b)
			out->cccr |= fl[bit];
		return NB_PARSE_OK;
	}
	if (same("thread", q, n)) {
		if (!v)
			return fail(ps, NB_PARSE_BADVALUE,
				    "modifier thread needs a value: any, single, both, none or 0..3");
		if (parse_thread(v, vn, &b))
			return fail(ps, NB_PARSE_BADVALUE,
				    "thread takes any, single, both, none or 0..3, not '%.*s'",
				    (int)vn, v);
		if (*seen & 8u)
			return fail(ps, NB_PARSE_DUP, "modifier thread given twice");
		*seen |= 8u;
		if (b != NB_ACTIVE_ANY) {   /* any is the default: canonical = absent */
			out->cccr |= NB_CCCR_MOD_ACTIVE;
			out->active = (uint8_t)b;
		}
		return NB_PARSE_OK;
	}
	return -1;   /* not a modifier */
}

int nb_evsel_parse(const char *name, unsigned model, unsigned feats,
		   struct nb_evsel *out, char *err, size_t errlen)
{
	struct pstate ps = { name, err, errlen };
	const struct nb_event *e = NULL;
	const struct nb_vmask *vm = NULL;
	const char *p, *end, *what;
	uint16_t seen = 0;
	size_t len;
	int ev, r;
	char where[160], cpuname[48];

	if (errlen)
		err[0] = '\0';
	memset(out, 0, sizeof(*out));
	if (!name)
		return fail(&ps, NB_PARSE_SYNTAX, "no event name");
	len = strnlen(name, NB_NAME_MAX + 1);
	if (len > NB_NAME_MAX)
		return fail(&ps, NB_PARSE_TOOLONG, "event name longer than %d characters",
			    NB_NAME_MAX);
	if (strncasecmp(name, PREFIX, strlen(PREFIX)) == 0)
		name += strlen(PREFIX);
	p = name;
	end = strchr(p, ':');
	if (!end)
		end = p + strlen(p);
	if (end == p)
		return fail(&ps, NB_PARSE_SYNTAX, "empty event name");
	ev = nb_event_lookup(p, (size_t)(end - p));
	if (ev >= 0) {
		e = &nb_events[ev];
		what = e->name;
		if (!nb_event_on_cpu((unsigned)ev, model, feats)) {
			nb_evsel_where(NB_SEL_EVENT, (unsigned)ev, NULL, where, sizeof(where));
			return fail(&ps, NB_PARSE_MODEL,
				    "event %s does not exist on this CPU (%s)%s", e->name,
				    this_cpu(model, feats, cpuname, sizeof(cpuname)), where);
		}
		out->kind = NB_SEL_EVENT;
	} else {
		ev = nb_metric_lookup(p, (size_t)(end - p));
		if (ev < 0)
			return fail(&ps, NB_PARSE_NOEVENT, "unknown NetBurst event or metric '%.*s'",
				    (int)(end - p), p);
		what = nb_metrics[ev].name;
		if (!nb_metric_on_cpu((unsigned)ev, model, feats)) {
			nb_evsel_where(NB_SEL_METRIC, (unsigned)ev, NULL, where, sizeof(where));
			return fail(&ps, NB_PARSE_MODEL,
				    "metric %s does not exist on this CPU (%s)%s", what,
				    this_cpu(model, feats, cpuname, sizeof(cpuname)), where);
		}
		out->kind = NB_SEL_METRIC;
	}
	out->event = (uint16_t)ev;

	while (*end == ':') {
		const char *q = end + 1, *eq, *v = NULL;
		const struct nb_mask *mk;
		const struct nb_vmask *vq;
		size_t n, vn = 0;

		end = strchr(q, ':');
		if (!end)
			end = q + strlen(q);
		n = (size_t)(end - q);
		if (n == 0)
			return fail(&ps, NB_PARSE_SYNTAX, "empty qualifier in '%s'", name);
		eq = memchr(q, '=', n);
		if (eq) {
			v = eq + 1;
			vn = (size_t)(end - v);
			n = (size_t)(eq - q);
			if (n == 0 || vn == 0)
				return fail(&ps, NB_PARSE_SYNTAX, "malformed qualifier '%.*s'",
					    (int)(end - q), q);
			if (memchr(v, '=', vn))
				return fail(&ps, NB_PARSE_SYNTAX, "malformed qualifier '%.*s'",
					    (int)(end - q), q);
		}
		if (e && !eq && (mk = mask_lookup(e, q, n)) != NULL) {
			if (!nb_mask_on_cpu(mk, model, feats)) {
				nb_evsel_where(NB_SEL_EVENT, (unsigned)ev, mk, where, sizeof(where));
				return fail(&ps, NB_PARSE_MODEL,
					    "mask %s of %s does not exist on this CPU (%s)%s",
					    mk->name, e->name,
					    this_cpu(model, feats, cpuname, sizeof(cpuname)), where);
			}
			if (out->masks & (1u << mk->bit))
				return fail(&ps, NB_PARSE_DUP, "mask %s given twice", mk->name);
			out->masks |= (uint16_t)(1u << mk->bit);
			continue;
		}
		if (e && !eq && (vq = vmask_lookup(e, q, n)) != NULL) {
			if (vq->kind == NB_VMASK_TAG) {
				/* libpfm4's TAGn: TagValue bit n, TagEnable */
				if (out->tag & (1u << vq->arg))
					return fail(&ps, NB_PARSE_DUP, "tag %s given twice",
						    vq->name);
				out->tag |= (uint8_t)(1u << vq->arg);
				continue;
			}
			if (vm)
				return fail(&ps, NB_PARSE_DUP,
					    "%s and %s both select a replay metric: one at a time",
					    vm->name, vq->name);
			vm = vq;
			continue;
		}
		r = parse_modifier(&ps, what, out, &seen, q, n, v, vn);
		if (r >= 0) {
			if (r != NB_PARSE_OK)
				return r;
			continue;
		}
		if (e)
			return fail(&ps, NB_PARSE_NOMASK, "event %s has no mask or modifier '%.*s'",
				    e->name, (int)(end - q), q);
		return fail(&ps, NB_PARSE_NOMASK,
			    "metric %s takes no masks, and has no modifier '%.*s'",
			    what, (int)(end - q), q);
	}
	if (vm) {
		/* libpfm4 virtual mask: the metric it names, with at most the
		 * metric's own counting masks spelled out. */
		const struct nb_metric *m = &nb_metrics[vm->arg];

		if (vm->arg >= nb_num_metrics)
			return fail(&ps, NB_PARSE_NOMASK, "virtual mask %s names no metric",
				    vm->name);
		if (out->masks & ~m->count_masks)
			return fail(&ps, NB_PARSE_NOTALLOWED,
				    "%s selects metric %s, which counts %s with its own "
				    "masks: other masks cannot be added", vm->name, m->name,
				    e->name);
		if (!nb_metric_on_cpu(vm->arg, model, feats)) {
			nb_evsel_where(NB_SEL_METRIC, vm->arg, NULL, where, sizeof(where));
			return fail(&ps, NB_PARSE_MODEL,
				    "metric %s does not exist on this CPU (%s)%s", m->name,
				    this_cpu(model, feats, cpuname, sizeof(cpuname)), where);
		}
		out->kind = NB_SEL_METRIC;
		out->event = vm->arg;
		out->masks = 0;
		if ((out->cccr & NB_CCCR_MOD_PRECISE) && !nb_evsel_pebs_capable(out))
			return fail(&ps, NB_PARSE_NOTALLOWED, "%s cannot be precise", m->name);
	}
	if ((out->cccr & NB_CCCR_MOD_CASCADE) && out->kind == NB_SEL_METRIC)
		return fail(&ps, NB_PARSE_NOTALLOWED,
			    "%s cannot be cascaded: cascade applies to events only "
			    "(a metric's helper ESCRs have no counter pair)",
			    nb_metrics[out->event].name);
	if ((out->cccr & NB_CCCR_MOD_CASCADE) && (out->cccr & NB_CCCR_MOD_PRECISE))
		return fail(&ps, NB_PARSE_NOTALLOWED,
			    "cascade and precise cannot be combined: PEBS arms one counter, "
			    "not a cascaded pair");
	if ((out->cccr & (NB_CCCR_MOD_CMPL | NB_CCCR_MOD_EDGE)) &&
	    !(out->cccr & NB_CCCR_MOD_CMP))
		return fail(&ps, NB_PARSE_NOTALLOWED,
			    "%s needs thr=N: the CCCR acts on Complement and Edge only "
			    "when Compare is on", out->cccr & NB_CCCR_MOD_CMPL ? "cmpl" : "edge");
	if (out->kind == NB_SEL_EVENT && !out->masks)
		out->masks = nb_event_default_masks(out->event);
	return NB_PARSE_OK;
}

int nb_evsel_check(const struct nb_evsel *sel, char *err, size_t errlen)
{
	if (sel->kind == NB_SEL_METRIC)     /* the scheduler places its parts */
		return 0;
	if (sel->masks == 0) {
		snprintf(err, errlen, "event %s has no default mask: name at least "
			 "one (e.g. %s:%s)", nb_events[sel->event].name,
			 nb_events[sel->event].name, nb_events[sel->event].masks[0].name);
		return -1;
	}
	return 0;
}

/* Append to BUF at *OFF; -1 when it does not fit. */
static int put(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int put(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *off) {
		*off = len;
		return -1;
	}
	*off += (size_t)n;
	return 0;
}

static int format_mods(const struct nb_evsel *sel, char *buf, size_t len, size_t *off)
{
	int r = 0;

	if (sel->mods & NB_MOD_USET)
		r |= put(buf, len, off, ":u=%d", !!(sel->mods & NB_MOD_U));
	if (sel->mods & NB_MOD_KSET)
		r |= put(buf, len, off, ":k=%d", !!(sel->mods & NB_MOD_K));
	if (sel->cccr & NB_CCCR_MOD_CMP)
		r |= put(buf, len, off, ":thr=%u", sel->thr & 15u);
	if (sel->cccr & NB_CCCR_MOD_CMPL)
		r |= put(buf, len, off, ":cmpl");
	if (sel->cccr & NB_CCCR_MOD_EDGE)
		r |= put(buf, len, off, ":edge");
	if (sel->cccr & NB_CCCR_MOD_ACTIVE)
		r |= put(buf, len, off, ":thread=%s", thread_names[sel->active & 3u]);
	if (sel->cccr & NB_CCCR_MOD_PRECISE)
		r |= put(buf, len, off, ":precise");
	if (sel->cccr & NB_CCCR_MOD_CASCADE)
		r |= put(buf, len, off, ":cascade");
	return r ? -1 : 0;
}

int nb_evsel_format(const struct nb_evsel *sel, char *buf, size_t len)
{
	size_t off = 0;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	if (sel->kind == NB_SEL_METRIC) {
		if (sel->event >= nb_num_metrics || sel->tag ||
		    put(buf, len, &off, "%s", nb_metrics[sel->event].name))
			return -1;
	} else {
		const struct nb_event *e;

		if (sel->kind != NB_SEL_EVENT || sel->event >= nb_num_events)
			return -1;
		e = &nb_events[sel->event];
		if (put(buf, len, &off, "%s", e->name))
			return -1;
		for (unsigned i = 0; i < e->nmasks; i++)   /* masks are in bit order */
			if ((sel->masks & (1u << e->masks[i].bit)) &&
			    put(buf, len, &off, ":%s", e->masks[i].name))
				return -1;
		for (unsigned i = 0; i < e->nvmasks; i++)  /* TAG0..TAG3, in bit order */
			if (e->vmasks[i].kind == NB_VMASK_TAG &&
			    (sel->tag & (1u << e->vmasks[i].arg)) &&
			    put(buf, len, &off, ":%s", e->vmasks[i].name))
				return -1;
		if (sel->tag & ~tag_bits(e))
			return -1;
	}
	if (format_mods(sel, buf, len, &off))
		return -1;
	return (int)off;
}

/* Append "EVENT:MASK..." for MASKS of event EV. */
static void put_event_masks(char *buf, size_t len, size_t *off, unsigned ev, unsigned masks)
{
	const struct nb_event *e = &nb_events[ev];

	put(buf, len, off, "%s", e->name);
	for (unsigned i = 0; i < e->nmasks; i++)
		if (masks & (1u << e->masks[i].bit))
			put(buf, len, off, ":%s", e->masks[i].name);
}

static void put_modifiers(char *buf, size_t len, size_t *off, int pebs, int casc)
{
	put(buf, len, off, " Modifiers: u, k, thr=0..15, cmpl, edge, "
	    "thread=any|single|both|none%s%s.", pebs ? ", precise" : "",
	    casc ? ", cascade" : "");
}

int nb_evsel_describe(const struct nb_evsel *sel, char *buf, size_t len)
{
	size_t off = 0;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	if (sel->kind == NB_SEL_METRIC) {
		const struct nb_metric *m;
		static const char *const type[4] = { "", "front-end", "execution", "replay" };

		if (sel->event >= nb_num_metrics)
			return -1;
		m = &nb_metrics[sel->event];
		put(buf, len, &off, "Tagged metric (%s tagging): %s. Counted by ",
		    type[m->type & 3u], m->desc);
		put_event_masks(buf, len, &off, m->count_event, m->count_masks);
		for (unsigned h = 0; h < m->nhelpers; h++) {
			put(buf, len, &off, h ? ", " : "; helper ");
			put_event_masks(buf, len, &off, m->helpers[h].event,
					m->helpers[h].masks);
			if (m->helpers[h].escr != NB_NO_ESCR)
				put(buf, len, &off, " on %s", nb_escrs[m->helpers[h].escr].name);
			if (m->helpers[h].tag_enable)
				put(buf, len, &off, " (TagEnable, tag bit %u)", m->tag);
		}
		if (m->type == NB_TAG_REPLAY)
			put(buf, len, &off, "; IA32_PEBS_ENABLE=0x%08x, MSR_PEBS_MATRIX_VERT=0x%08x",
			    (unsigned)m->pebs_enable, (unsigned)m->matrix_vert);
		put(buf, len, &off, ".");
		if (m->note)
			put(buf, len, &off, " Note: %s.", m->note);
		put_modifiers(buf, len, &off, nb_evsel_pebs_capable(sel), 0);
	} else {
		const struct nb_event *e;

		if (sel->event >= nb_num_events)
			return -1;
		e = &nb_events[sel->event];
		put(buf, len, &off, "%s", e->desc);
		if (e->note)
			put(buf, len, &off, ". Note: %s", e->note);
		put(buf, len, &off, ".");
		if (sel->tag) {
			const char *m = metric_tagging(sel->event);

			put(buf, len, &off, " Tags its uops (ESCR TagEnable, TagValue %#x):", sel->tag);
			for (unsigned b = 0; b < 4; b++)
				if (sel->tag & (1u << b))
					put(buf, len, &off, " execution_event:NBOGUS%u", b);
			put(buf, len, &off, " counts them at retirement");
			if (m)
				put(buf, len, &off, " (the tagged metric %s does both in one name)", m);
			put(buf, len, &off, ".");
		}
		if (e->flags & NB_EV_RETIREMENT)
			put(buf, len, &off, " At-retirement event.");
		if (sel->masks && sel->masks != e->default_masks) {
			put(buf, len, &off, " Masks:");
			for (unsigned i = 0; i < e->nmasks; i++)
				if (sel->masks & (1u << e->masks[i].bit))
					put(buf, len, &off, " %s (%s);", e->masks[i].name,
					    e->masks[i].desc);
		} else if (e->default_masks) {
			put(buf, len, &off, " Default masks:");
			for (unsigned i = 0; i < e->nmasks; i++)
				if (e->default_masks & (1u << e->masks[i].bit))
					put(buf, len, &off, " %s", e->masks[i].name);
			put(buf, len, &off, ".");
		} else {
			put(buf, len, &off, " No default mask: name at least one.");
		}
		put_modifiers(buf, len, &off, nb_evsel_pebs_capable(sel), 1);
	}
	return off >= len ? -1 : 0;
}
