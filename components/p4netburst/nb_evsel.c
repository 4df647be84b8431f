/*
 * nb_evsel.c - parse and format NetBurst event names.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "nb_evsel.h"

#define PREFIX "p4netburst:::"

int nb_evsel_same(const struct nb_evsel *a, const struct nb_evsel *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
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

static const struct nb_mask *mask_lookup(const struct nb_event *e, const char *s, size_t n)
{
	for (unsigned i = 0; i < e->nmasks; i++)
		if (same(e->masks[i].name, s, n) || same(e->masks[i].alias, s, n))
			return &e->masks[i];
	return NULL;
}

/* Parse a boolean modifier value: absent = 1, "0" or "1". */
static int parse_bool(const char *v, size_t n, int *out)
{
	if (!v) {
		*out = 1;
		return 0;
	}
	if (n == 1 && (v[0] == '0' || v[0] == '1')) {
		*out = v[0] - '0';
		return 0;
	}
	return -1;
}

int nb_evsel_parse(const char *name, unsigned model, unsigned feats,
		   struct nb_evsel *out, char *err, size_t errlen)
{
	const char *p, *end;
	size_t len;
	int ev;

	if (errlen)
		err[0] = '\0';
	if (!name) {
		snprintf(err, errlen, "no event name");
		return NB_PARSE_SYNTAX;
	}
	len = strnlen(name, NB_NAME_MAX + 1);
	if (len > NB_NAME_MAX) {
		snprintf(err, errlen, "event name longer than %d characters",
			 NB_NAME_MAX);
		return NB_PARSE_TOOLONG;
	}
	if (strncasecmp(name, PREFIX, strlen(PREFIX)) == 0)
		name += strlen(PREFIX);
	p = name;
	end = strchr(p, ':');
	if (!end)
		end = p + strlen(p);
	if (end == p) {
		snprintf(err, errlen, "empty event name");
		return NB_PARSE_SYNTAX;
	}
	ev = nb_event_lookup(p, (size_t)(end - p));
	if (ev < 0) {
		snprintf(err, errlen, "unknown NetBurst event '%.*s'",
			 (int)(end - p), p);
		return NB_PARSE_NOEVENT;
	}
	if (!nb_event_on_cpu((unsigned)ev, model, feats)) {
		snprintf(err, errlen, "event %s does not exist on this CPU (model %u%s)",
			 nb_events[ev].name, model, feats & NB_FEAT_L3 ? ", L3" : "");
		return NB_PARSE_MODEL;
	}
	memset(out, 0, sizeof(*out));
	out->event = (uint16_t)ev;

	while (*end == ':') {
		const char *q = end + 1, *eq, *v = NULL;
		const struct nb_mask *mk;
		size_t n, vn = 0;
		int b;

		end = strchr(q, ':');
		if (!end)
			end = q + strlen(q);
		n = (size_t)(end - q);
		if (n == 0) {
			snprintf(err, errlen, "empty qualifier in '%s'", name);
			return NB_PARSE_SYNTAX;
		}
		eq = memchr(q, '=', n);
		if (eq) {
			v = eq + 1;
			vn = (size_t)(end - v);
			n = (size_t)(eq - q);
			if (n == 0 || vn == 0) {
				snprintf(err, errlen, "malformed qualifier '%.*s'",
					 (int)(end - q), q);
				return NB_PARSE_SYNTAX;
			}
		}
		if (!eq && (mk = mask_lookup(&nb_events[ev], q, n)) != NULL) {
			unsigned bit = mk->bit;

			if (!nb_mask_on_cpu(mk, model, feats)) {
				snprintf(err, errlen, "mask %s of %s does not exist on "
					 "this CPU (model %u)", mk->name,
					 nb_events[ev].name, model);
				return NB_PARSE_MODEL;
			}
			if (out->masks & (1u << bit)) {
				snprintf(err, errlen, "mask %.*s given twice",
					 (int)n, q);
				return NB_PARSE_DUP;
			}
			out->masks |= (uint16_t)(1u << bit);
			continue;
		}
		if (n == 1 && (tolower((unsigned char)q[0]) == 'u' ||
			       tolower((unsigned char)q[0]) == 'k')) {
			int isu = tolower((unsigned char)q[0]) == 'u';
			uint8_t set = isu ? NB_MOD_USET : NB_MOD_KSET;
			uint8_t on = isu ? NB_MOD_U : NB_MOD_K;

			if (parse_bool(v, vn, &b)) {
				snprintf(err, errlen,
					 "modifier %c takes 0 or 1, not '%.*s'",
					 q[0], (int)vn, v);
				return NB_PARSE_BADVALUE;
			}
			if (out->mods & set) {
				snprintf(err, errlen, "modifier %c given twice", q[0]);
				return NB_PARSE_DUP;
			}
			out->mods |= set;
			if (b)
				out->mods |= on;
			continue;
		}
		snprintf(err, errlen, "event %s has no mask or modifier '%.*s'",
			 nb_events[ev].name, (int)(end - q), q);
		return NB_PARSE_NOMASK;
	}
	if (*end != '\0') {   /* cannot happen: loop consumes to NUL */
		snprintf(err, errlen, "trailing characters in '%s'", name);
		return NB_PARSE_SYNTAX;
	}
	if (!out->masks)
		out->masks = nb_event_default_masks(out->event);
	return NB_PARSE_OK;
}

int nb_evsel_check(const struct nb_evsel *sel, char *err, size_t errlen)
{
	if (sel->masks == 0) {
		snprintf(err, errlen, "event %s has no default mask: name at least "
			 "one (e.g. %s:%s)", nb_events[sel->event].name,
			 nb_events[sel->event].name, nb_events[sel->event].masks[0].name);
		return -1;
	}
	return 0;
}

int nb_evsel_format(const struct nb_evsel *sel, char *buf, size_t len)
{
	const struct nb_event *e;
	size_t off;
	int n;

	if (sel->event >= nb_num_events || len == 0)
		return -1;
	e = &nb_events[sel->event];
	n = snprintf(buf, len, "%s", e->name);
	if (n < 0 || (size_t)n >= len)
		return -1;
	off = (size_t)n;
	for (unsigned bit = 0; bit < NB_MAX_MASKS; bit++) {
		if (!(sel->masks & (1u << bit)))
			continue;
		for (unsigned i = 0; i < e->nmasks; i++) {
			if (e->masks[i].bit != bit)
				continue;
			n = snprintf(buf + off, len - off, ":%s", e->masks[i].name);
			if (n < 0 || (size_t)n >= len - off)
				return -1;
			off += (size_t)n;
		}
	}
	if (sel->mods & NB_MOD_USET) {
		n = snprintf(buf + off, len - off, ":u=%d", !!(sel->mods & NB_MOD_U));
		if (n < 0 || (size_t)n >= len - off)
			return -1;
		off += (size_t)n;
	}
	if (sel->mods & NB_MOD_KSET) {
		n = snprintf(buf + off, len - off, ":k=%d", !!(sel->mods & NB_MOD_K));
		if (n < 0 || (size_t)n >= len - off)
			return -1;
		off += (size_t)n;
	}
	return (int)off;
}
