/*
 * evsel_unit.c - unit tests of the name parser (nb_evsel) without PAPI:
 * every event x mask x modifier set, on every CPU model with and without
 * L3, round-trips name -> selection -> canonical name -> the same bytes;
 * libpfm4 spellings; every kind of bad name gets its error code and a
 * message naming the cause.  Built with AddressSanitizer/UBSan.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "nb_evsel.h"
#include "nb_cpu.h"
#include "nbtap.h"

static const unsigned models[] = { 0, 1, 2, 3, 4, 6 };

/* Modifier suffixes applied to every name, and what they must set. */
static const struct modcase {
	const char *s;
	uint8_t mods, cccr, thr, active;
	int pebs;                /* needs a PEBS-capable event */
} modcases[] = {
	{ "", 0, 0, 0, 0, 0 },
	{ ":u", NB_MOD_USET | NB_MOD_U, 0, 0, 0, 0 },
	{ ":k=0", NB_MOD_KSET, 0, 0, 0, 0 },
	{ ":K=1:U=0", NB_MOD_USET | NB_MOD_KSET | NB_MOD_K, 0, 0, 0, 0 },
	{ ":thr=0", 0, NB_CCCR_MOD_CMP, 0, 0, 0 },
	{ ":cmp=7", 0, NB_CCCR_MOD_CMP, 7, 0, 0 },
	{ ":thr=15:cmpl", 0, NB_CCCR_MOD_CMP | NB_CCCR_MOD_CMPL, 15, 0, 0 },
	{ ":edge:thr=02", 0, NB_CCCR_MOD_CMP | NB_CCCR_MOD_EDGE, 2, 0, 0 },
	{ ":cmpl=1:edge=1:thr=1", 0, NB_CCCR_MOD_CMP | NB_CCCR_MOD_CMPL | NB_CCCR_MOD_EDGE, 1, 0, 0 },
	{ ":cmpl=0:thr=3", 0, NB_CCCR_MOD_CMP, 3, 0, 0 },
	{ ":thread=none", 0, NB_CCCR_MOD_ACTIVE, 0, NB_ACTIVE_NONE, 0 },
	{ ":thread=SINGLE", 0, NB_CCCR_MOD_ACTIVE, 0, NB_ACTIVE_SINGLE, 0 },
	{ ":thread=2", 0, NB_CCCR_MOD_ACTIVE, 0, NB_ACTIVE_BOTH, 0 },
	{ ":thread=any", 0, 0, 0, 0, 0 },
	{ ":thread=3", 0, 0, 0, 0, 0 },
	{ ":precise=0", 0, 0, 0, 0, 0 },
	{ ":precise", 0, NB_CCCR_MOD_PRECISE, 0, 0, 1 },
	{ ":u=1:k=1:thr=4:cmpl:edge:thread=single:precise",
	  NB_MOD_USET | NB_MOD_U | NB_MOD_KSET | NB_MOD_K,
	  NB_CCCR_MOD_CMP | NB_CCCR_MOD_CMPL | NB_CCCR_MOD_EDGE | NB_CCCR_MOD_ACTIVE |
	  NB_CCCR_MOD_PRECISE, 4, NB_ACTIVE_SINGLE, 1 },
};
#define NMODCASES (sizeof(modcases) / sizeof(modcases[0]))

static unsigned checked, failures;

/* NAME must parse to SEL's event/masks/kind with MC's modifiers, and its
 * canonical form must parse back to the same bytes and format identically. */
static void one(const char *name, unsigned model, unsigned feats,
		const struct modcase *mc, int pebs_ok)
{
	struct nb_evsel a, b;
	char err[256], c1[NB_NAME_MAX + 1], c2[NB_NAME_MAX + 1], up[NB_NAME_MAX + 1];
	int r = nb_evsel_parse(name, model, feats, &a, err, sizeof(err));

	checked++;
	if (mc->pebs && !pebs_ok) {
		if (r != NB_PARSE_NOTALLOWED || !strstr(err, "precise")) {
			if (!failures++)
				tap_diag("%s (model %u): want NOTALLOWED naming precise, got %d '%s'",
					 name, model, r, err);
		}
		return;
	}
	if (r != NB_PARSE_OK) {
		if (!failures++)
			tap_diag("%s (model %u feats %u): %s", name, model, feats, err);
		return;
	}
	if (a.mods != mc->mods || a.cccr != mc->cccr || a.thr != mc->thr ||
	    a.active != mc->active || a.tag || a.twin || a.pad[0]) {
		if (!failures++)
			tap_diag("%s: mods %x cccr %x thr %u active %u, want %x %x %u %u", name,
				 a.mods, a.cccr, a.thr, a.active, mc->mods, mc->cccr, mc->thr,
				 mc->active);
		return;
	}
	if (nb_evsel_format(&a, c1, sizeof(c1)) < 0 ||
	    nb_evsel_parse(c1, model, feats, &b, err, sizeof(err)) != NB_PARSE_OK ||
	    !nb_evsel_same(&a, &b) || nb_evsel_format(&b, c2, sizeof(c2)) < 0 ||
	    strcmp(c1, c2) != 0) {
		if (!failures++)
			tap_diag("%s: canonical '%s' does not round-trip (%s)", name, c1, err);
		return;
	}
	for (size_t i = 0; i <= strlen(c1); i++)
		up[i] = (char)toupper((unsigned char)c1[i]);
	if (nb_evsel_parse(up, model, feats, &b, err, sizeof(err)) != NB_PARSE_OK ||
	    !nb_evsel_same(&a, &b)) {
		if (!failures++)
			tap_diag("%s: upper case '%s' differs (%s)", name, up, err);
	}
}

static void all_mods(const char *base, unsigned model, unsigned feats, int pebs_ok)
{
	char name[NB_NAME_MAX + 64];

	for (unsigned k = 0; k < NMODCASES; k++) {
		snprintf(name, sizeof(name), "%s%s", base, modcases[k].s);
		one(name, model, feats, &modcases[k], pebs_ok);
	}
}

static void exhaustive(void)
{
	char name[NB_NAME_MAX + 1];

	for (unsigned mi = 0; mi < sizeof(models) / sizeof(models[0]); mi++)
		for (unsigned feats = 0; feats <= NB_FEAT_L3; feats += NB_FEAT_L3) {
			unsigned model = models[mi], before = checked;

			failures = 0;
			for (unsigned ev = 0; ev < nb_num_events; ev++) {
				const struct nb_event *e = &nb_events[ev];
				int pebs = (e->flags & NB_EV_PEBS) != 0;
				size_t off;

				if (!nb_event_on_cpu(ev, model, feats))
					continue;
				all_mods(e->name, model, feats, pebs);
				off = (size_t)snprintf(name, sizeof(name), "%s", e->name);
				for (unsigned i = 0; i < e->nmasks; i++) {
					char one_mask[NB_NAME_MAX + 1];

					if (!nb_mask_on_cpu(&e->masks[i], model, feats))
						continue;
					snprintf(one_mask, sizeof(one_mask), "%s:%s", e->name,
						 e->masks[i].name);
					all_mods(one_mask, model, feats, pebs);
					if (e->masks[i].alias) {
						snprintf(one_mask, sizeof(one_mask), "%s:%s",
							 e->alias ? e->alias : e->name,
							 e->masks[i].alias);
						all_mods(one_mask, model, feats, pebs);
					}
					off += (size_t)snprintf(name + off, sizeof(name) - off,
								":%s", e->masks[i].name);
				}
				all_mods(name, model, feats, pebs);   /* all masks at once */
			}
			for (unsigned m = 0; m < nb_num_metrics; m++)
				if (nb_metric_on_cpu(m, model, feats))
					all_mods(nb_metrics[m].name, model, feats, 1);
			tap_ok(failures == 0, "model %u%s: %u names round-trip", model,
			       feats ? " with L3" : "", checked - before);
		}
}

static void expect(const char *name, unsigned model, unsigned feats, int code,
		   const char *in_msg)
{
	struct nb_evsel s;
	char err[256] = "";
	int r = nb_evsel_parse(name, model, feats, &s, err, sizeof(err));

	tap_ok(r == code && (!in_msg || strstr(err, in_msg)),
	       "'%.60s' -> %s%s%s (got %s: %s)", name ? name : "(null)",
	       nb_parse_strerror(code), in_msg ? ", message names " : "", in_msg ? in_msg : "",
	       nb_parse_strerror(r), err);
}

/* NAME parses and formats as WANT. */
static void canon(const char *name, unsigned model, unsigned feats, const char *want)
{
	struct nb_evsel s;
	char err[256] = "", got[NB_NAME_MAX + 1] = "";
	int r = nb_evsel_parse(name, model, feats, &s, err, sizeof(err));

	if (r == NB_PARSE_OK)
		nb_evsel_format(&s, got, sizeof(got));
	tap_ok(r == NB_PARSE_OK && strcmp(got, want) == 0, "'%s' -> '%s' (got '%s' %s)",
	       name, want, got, err);
}

static void spellings(void)
{
	struct nb_evsel s;
	char err[256];

	canon("p4netburst:::replay_event:NBOGUS:L1_LD_MISS", 2, 0, "1stL_cache_load_miss_retired");
	canon("REPLAY_EVENT:l1_ld_miss", 2, 0, "1stL_cache_load_miss_retired");
	canon("replay_event:BR_MSP:u=1", 2, 0, "Tagged_mispred_branch:u=1");
	canon("replay_event:SP_ST_RET:precise", 2, 0, "split_store_retired:precise");
	canon("1STL_CACHE_LOAD_MISS_RETIRED", 2, 0, "1stL_cache_load_miss_retired");
	canon("uops_type:TAGLOADS", 2, 0, "uop_type:TAGLOADS");
	canon("mispred_branch_retired:BOGUS", 2, 0, "mispred_branch_retired:NBOGUS");
	canon("instr_retired:thread=any", 2, 0, "instr_retired:NBOGUSNTAG:NBOGUSTAG");
	canon("instr_retired:cascade=1:cmp=5:u", 2, 0, "instr_retired:NBOGUSNTAG:NBOGUSTAG:u=1:thr=5:cascade");
	canon("instr_retired:NBOGUSTAG:cascade=0", 2, 0, "instr_retired:NBOGUSTAG");
	canon("instr_retired:cmp=5:thread=0", 2, 0, "instr_retired:NBOGUSNTAG:NBOGUSTAG:thr=5:thread=none");
	canon("BSQ_cache_reference:RD_3rdL_MISS:RD_2ndL_MISS", 2, NB_FEAT_L3,
	      "BSQ_cache_reference:RD_2ndL_MISS:RD_3rdL_MISS");
	/* libpfm4's execution tags: TagValue bit n per TAGn (libpfm4 4.13
	 * pfmlib_intel_netburst.c: tag_value |= 1 << n), TAGs after the masks */
	canon("x87_FP_uop:ALL:TAG1", 2, 0, "x87_FP_uop:ALL:TAG1");
	canon("p4netburst:::X87_FP_UOP:tag1:u", 3, 0, "x87_FP_uop:ALL:TAG1:u=1");
	canon("scalar_SP_uop:TAG3:ALL:TAG0", 3, 0, "scalar_SP_uop:ALL:TAG0:TAG3");
	canon("x87_SIMD_moves_uop:ALLP2:TAG2:ALLP0", 3, 0, "x87_SIMD_moves_uop:ALLP0:ALLP2:TAG2");
	canon("128bit_MMX_uop:ALL:TAG0:TAG1:TAG2:TAG3", 3, 0, "128bit_MMX_uop:ALL:TAG0:TAG1:TAG2:TAG3");
	tap_ok(nb_evsel_parse("x87_FP_uop:ALL:TAG0:TAG2", 2, 0, &s, err, sizeof(err)) == 0 &&
	       s.kind == NB_SEL_EVENT && s.event == NB_EV_X87_FP_UOP && s.tag == 0x5 &&
	       s.masks == nb_events[NB_EV_X87_FP_UOP].default_masks,
	       "x87_FP_uop:ALL:TAG0:TAG2 has TagValue 0x5 and its masks");
	{
		struct nb_evsel t;

		tap_ok(nb_evsel_parse("x87_FP_uop:ALL", 2, 0, &t, err, sizeof(err)) == 0 &&
		       nb_evsel_parse("x87_FP_uop:ALL:TAG1", 2, 0, &s, err, sizeof(err)) == 0 &&
		       !nb_evsel_same(&s, &t), "a tagged selection differs from the untagged one");
	}
	tap_ok(nb_evsel_parse("replay_event:NBOGUS:L2_LD_MISS", 2, 0, &s, err, sizeof(err)) == 0 &&
	       s.kind == NB_SEL_METRIC && s.event == NB_MET_2NDL_CACHE_LOAD_MISS_RETIRED &&
	       s.masks == 0, "L2_LD_MISS selects metric 2ndL_cache_load_miss_retired");
	tap_ok(nb_evsel_parse("instr_retired", 2, 0, &s, err, sizeof(err)) == 0 &&
	       s.kind == NB_SEL_EVENT && s.event == NB_EV_INSTR_RETIRED &&
	       s.masks == nb_events[NB_EV_INSTR_RETIRED].default_masks && s.masks,
	       "an event alone gets its default masks");
	tap_ok(nb_evsel_parse("Memory_loads", 2, 0, &s, err, sizeof(err)) == 0 &&
	       s.kind == NB_SEL_METRIC && nb_evsel_check(&s, err, sizeof(err)) == 0,
	       "a metric parses and is countable (the scheduler places its parts)");
	tap_ok(nb_evsel_parse("IOQ_allocation", 2, 0, &s, err, sizeof(err)) == 0 &&
	       nb_evsel_check(&s, err, sizeof(err)) == -1 && strstr(err, "IOQ_allocation"),
	       "an event without default masks named alone parses but is not countable");
	tap_ok(nb_evsel_parse("x87_FP_retired:thr=9:u=0", 2, 0, &s, err, sizeof(err)) == 0 &&
	       s.kind == NB_SEL_METRIC && s.thr == 9 && (s.mods & NB_MOD_USET) &&
	       !(s.mods & NB_MOD_U), "a metric takes modifiers");
}

static void errors(void)
{
	char longname[600];

	expect("no_such_event", 2, 0, NB_PARSE_NOEVENT, "no_such_event");
	expect("p4netburst:::", 2, 0, NB_PARSE_SYNTAX, "empty");
	expect("", 2, 0, NB_PARSE_SYNTAX, NULL);
	expect(NULL, 2, 0, NB_PARSE_SYNTAX, NULL);
	expect(":NBOGUS", 2, 0, NB_PARSE_SYNTAX, NULL);
	expect("instr_retired:", 2, 0, NB_PARSE_SYNTAX, NULL);
	expect("instr_retired::u", 2, 0, NB_PARSE_SYNTAX, NULL);
	expect("instr_retired:NOSUCH", 2, 0, NB_PARSE_NOMASK, "NOSUCH");
	expect("instr_retired:MMTP", 2, 0, NB_PARSE_NOMASK, "MMTP");
	expect("instr_retired:NBOGUSNTAG:nbogusntag", 2, 0, NB_PARSE_DUP, "NBOGUSNTAG");
	expect("instr_retired:u=2", 2, 0, NB_PARSE_BADVALUE, "'2'");
	expect("instr_retired:u=", 2, 0, NB_PARSE_SYNTAX, NULL);
	expect("instr_retired:=1", 2, 0, NB_PARSE_SYNTAX, NULL);
	expect("instr_retired:u=1=1", 2, 0, NB_PARSE_SYNTAX, NULL);
	expect("instr_retired:u:u=0", 2, 0, NB_PARSE_DUP, "u");
	expect("instr_retired:thr=16", 2, 0, NB_PARSE_BADVALUE, "'16'");
	expect("instr_retired:thr=-1", 2, 0, NB_PARSE_BADVALUE, "'-1'");
	expect("instr_retired:thr=0x3", 2, 0, NB_PARSE_BADVALUE, "'0x3'");
	expect("instr_retired:thr=00000001", 2, 0, NB_PARSE_BADVALUE, NULL);
	expect("instr_retired:thr", 2, 0, NB_PARSE_BADVALUE, "thr");
	expect("instr_retired:thr=1:cmp=2", 2, 0, NB_PARSE_DUP, "thr");
	expect("instr_retired:cmpl", 2, 0, NB_PARSE_NOTALLOWED, "cmpl");
	expect("instr_retired:edge", 2, 0, NB_PARSE_NOTALLOWED, "edge");
	expect("instr_retired:thr=1:edge:edge=0", 2, 0, NB_PARSE_DUP, "edge");
	expect("instr_retired:thread=three", 2, 0, NB_PARSE_BADVALUE, "three");
	expect("instr_retired:thread=4", 2, 0, NB_PARSE_BADVALUE, "'4'");
	expect("instr_retired:thread", 2, 0, NB_PARSE_BADVALUE, "thread");
	expect("instr_retired:thread=any:thread=any", 2, 0, NB_PARSE_DUP, "thread");
	expect("instr_retired:precise", 2, 0, NB_PARSE_NOTALLOWED, "instr_retired");
	expect("instr_retired:precise=2", 2, 0, NB_PARSE_BADVALUE, "precise");
	expect("replay_event:BOGUS:L1_LD_MISS", 2, 0, NB_PARSE_NOTALLOWED, "1stL_cache_load_miss_retired");
	expect("replay_event:L1_LD_MISS:DTLB_LD_MISS", 2, 0, NB_PARSE_DUP, "DTLB_LD_MISS");
	expect("instr_retired:L1_LD_MISS", 2, 0, NB_PARSE_NOMASK, "L1_LD_MISS");
	expect("x87_FP_uop:ALL:TAG0:TAG0", 2, 0, NB_PARSE_DUP, "TAG0");
	expect("instr_retired:TAG1", 2, 0, NB_PARSE_NOMASK, "TAG1");
	expect("execution_event:NBOGUS1:TAG1", 2, 0, NB_PARSE_NOMASK, "TAG1");
	expect("X87_FP_retired:TAG1", 2, 0, NB_PARSE_NOMASK, "TAG1");
	expect("x87_FP_uop:ALL:TAG4", 2, 0, NB_PARSE_NOMASK, "TAG4");
	expect("packed_SP_retired:ALL", 2, 0, NB_PARSE_NOMASK, "ALL");
	expect("packed_SP_retired:precise:precise", 2, 0, NB_PARSE_DUP, "precise");
	expect("instr_retired:cascade:cascade=1", 2, 0, NB_PARSE_DUP, "cascade");
	expect("instr_retired:cascade=2", 2, 0, NB_PARSE_BADVALUE, "cascade");
	expect("Memory_loads:cascade", 2, 0, NB_PARSE_NOTALLOWED, "Memory_loads");
	expect("replay_event:NBOGUS:L1_LD_MISS:cascade", 2, 0, NB_PARSE_NOTALLOWED, "cascade");
	expect("replay_event:NBOGUS:precise:cascade", 2, 0, NB_PARSE_NOTALLOWED, "precise");
	expect("instr_retired:NBOGUSNTAG:cascade", 2, 0, NB_PARSE_OK, NULL);
	expect("instr_retired:NBOGUSNTAG:cascade=0", 2, 0, NB_PARSE_OK, NULL);
	expect("instr_completed", 2, 0, NB_PARSE_MODEL, "instr_completed");
	expect("instr_completed:NBOGUS", 3, 0, NB_PARSE_OK, NULL);
	expect("BSQ_cache_reference:RD_3rdL_MISS", 3, 0, NB_PARSE_MODEL, "RD_3rdL_MISS");
	expect("BSQ_cache_reference:RD_3rdL_MISS", 3, NB_FEAT_L3, NB_PARSE_OK, NULL);
	expect("instr_retired", 40, 0, NB_PARSE_MODEL, NULL);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	expect(longname, 2, 0, NB_PARSE_TOOLONG, "longer");
	memcpy(longname, "instr_retired:", 14);
	expect(longname, 2, 0, NB_PARSE_TOOLONG, "longer");
	longname[NB_NAME_MAX] = '\0';   /* exactly the limit: parsed, unknown mask */
	expect(longname, 2, 0, NB_PARSE_NOMASK, NULL);
}

static void buffers(void)
{
	struct nb_evsel s;
	char err[8], buf[300];
	int ok = 1;

	/* A short error buffer truncates; it is never overrun (ASan). */
	nb_evsel_parse("no_such_event_at_all", 2, 0, &s, err, sizeof(err));
	tap_ok(strlen(err) == sizeof(err) - 1, "error message truncated to its buffer");
	nb_evsel_parse("instr_retired:u=1:thr=3:thread=both", 2, 0, &s, buf, sizeof(buf));
	for (size_t n = 1; n < 45; n++) {
		int r = nb_evsel_format(&s, buf, n);

		if (r >= 0 ? (size_t)r >= n || strlen(buf) != (size_t)r : strlen(buf) >= n)
			ok = 0;
	}
	tap_ok(ok, "format into every short buffer fails cleanly or fits");
	s.event = (uint16_t)nb_num_events;
	tap_ok(nb_evsel_format(&s, buf, sizeof(buf)) == -1, "format refuses a bad event index");
	s.kind = NB_SEL_METRIC;
	s.event = (uint16_t)nb_num_metrics;
	tap_ok(nb_evsel_format(&s, buf, sizeof(buf)) == -1, "format refuses a bad metric index");
}

static void descriptions(void)
{
	char d[1024];
	int ok = 1;

	for (unsigned m = 0; m < nb_num_metrics; m++) {
		const struct nb_metric *mt = &nb_metrics[m];
		struct nb_evsel s = { .event = (uint16_t)m, .kind = NB_SEL_METRIC };

		if (nb_evsel_describe(&s, d, sizeof(d)) ||
		    !strstr(d, nb_events[mt->count_event].name) ||
		    (mt->nhelpers && !strstr(d, nb_events[mt->helpers[0].event].name)) ||
		    (mt->type == NB_TAG_REPLAY && !strstr(d, "IA32_PEBS_ENABLE"))) {
			if (ok)
				tap_diag("metric %s: '%s'", mt->name, d);
			ok = 0;
		}
	}
	tap_ok(ok, "every metric's description names its counting event and helpers");
	ok = 1;
	for (unsigned e = 0; e < nb_num_events; e++) {
		struct nb_evsel s = { .event = (uint16_t)e,
				      .masks = nb_events[e].default_masks };

		if (nb_evsel_describe(&s, d, sizeof(d)) || !strstr(d, nb_events[e].desc))
			ok = 0;
	}
	tap_ok(ok, "every event has a description that fits");
	{
		struct nb_evsel s = { .event = NB_EV_X87_FP_UOP, .tag = 0x2,
				      .masks = nb_events[NB_EV_X87_FP_UOP].default_masks };

		tap_ok(nb_evsel_describe(&s, d, sizeof(d)) == 0 && strstr(d, "TagValue 0x2") &&
		       strstr(d, "execution_event:NBOGUS1") && !strstr(d, "NBOGUS0"),
		       "a tagged upstream event's description names TagValue and NBOGUSn ('%s')", d);
		s.event = NB_EV_INSTR_RETIRED;
		s.masks = nb_events[NB_EV_INSTR_RETIRED].default_masks;
		tap_ok(nb_evsel_format(&s, d, sizeof(d)) == -1,
		       "format refuses a tag on an event without TAGn");
	}
	{
		struct nb_evsel s = { .event = NB_MET_1STL_CACHE_LOAD_MISS_RETIRED,
				      .kind = NB_SEL_METRIC };

		tap_ok(nb_evsel_describe(&s, d, 20) == -1 && strlen(d) == 19,
		       "a description truncated to its buffer says so");
	}
}

/* The parts messages and tools name are nbsim's (sim/cpu/nb_cpu.c). */
static void parts(void)
{
	int ok = nb_num_parts == nb_num_cpu_models;
	char w[160];

	for (unsigned i = 0; ok && i < nb_num_parts; i++) {
		const struct nb_cpu_model *m = nb_cpu_find(nb_parts[i].name);

		ok = m && m->model == nb_parts[i].model &&
		     !!m->l3_kb == !!(nb_parts[i].feats & NB_FEAT_L3);
	}
	tap_ok(ok, "nb_parts lists nbsim's %u models with their CPUID models and L3", nb_num_cpu_models);
	tap_ok(strcmp(NB_PART_DEFAULT, NB_CPU_DEFAULT) == 0, "one default model: %s", NB_CPU_DEFAULT);
	tap_ok(nb_part_find("XeonMP") && !nb_part_find("9") && !nb_part_find(""),
	       "nb_part_find: case-insensitive, names only");
	nb_evsel_where(NB_SEL_EVENT, NB_EV_INSTR_COMPLETED, NULL, w, sizeof(w));
	tap_ok(strcmp(w, "; it exists on prescott, cedarmill") == 0, "instr_completed%s", w);
	nb_evsel_where(NB_SEL_EVENT, NB_EV_INSTR_COMPLETED, NULL, w, 12);
	tap_ok(strlen(w) < 12, "nb_evsel_where stays in its buffer");
}

int main(void)
{
	parts();
	exhaustive();
	spellings();
	errors();
	buffers();
	descriptions();
	printf("1..%d\n", tap_n);
	return tap_exit();
}
