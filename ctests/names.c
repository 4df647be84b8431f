/*
 * names.c - native event names through the public PAPI API under nbsim:
 * every event, every tagged metric and every mask enumerates with a
 * description, and name -> code -> name round-trips (also with modifiers,
 * libpfm4 spellings and in other letter cases); bad names get PAPI_ENOEVNT
 * or PAPI_EINVAL and nothing crashes.  After its masks, each event and
 * metric lists its modifiers as qualifier templates (":u=0|1" ...), with
 * descriptions; a template is not an event (PAPI_EINVAL when added).
 * Between the two, libpfm4's virtual masks (TAGn, replay_event's metric
 * spellings), each of which can be added.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "papi.h"
#include "nbtap.h"

static int cidx;

static void roundtrip(const char *name, const char *want)
{
	int code = 0, r;
	char back[PAPI_HUGE_STR_LEN];

	r = PAPI_event_name_to_code(name, &code);
	if (!tap_ok(r == PAPI_OK, "name_to_code(%s)", name)) {
		tap_diag("error %s", PAPI_strerror(r));
		return;
	}
	r = PAPI_event_code_to_name(code, back);
	tap_ok(r == PAPI_OK && strcasecmp(back, want) == 0,
	       "code_to_name(name_to_code(%s)) = %s (got %s)", name, want,
	       r == PAPI_OK ? back : PAPI_strerror(r));
}

static void bad(const char *name, const char *why)
{
	int code = 0, r = PAPI_event_name_to_code(name, &code);

	tap_ok(r == PAPI_ENOEVNT || r == PAPI_EINVAL, "%s is refused: %s", why,
	       PAPI_strerror(r));
}

/* NAME resolves; its canonical name ends in SUFFIX (an event named alone
 * gets its default masks spelled out) and round-trips to itself. */
static void canonical(const char *name, const char *suffix)
{
	int code = 0, code2 = 0, r;
	char back[PAPI_HUGE_STR_LEN], again[PAPI_HUGE_STR_LEN];
	size_t n, k = strlen(suffix);

	r = PAPI_event_name_to_code(name, &code);
	if (r == PAPI_OK)
		r = PAPI_event_code_to_name(code, back);
	if (!tap_ok(r == PAPI_OK, "%s resolves", name)) {
		tap_diag("error %s", PAPI_strerror(r));
		return;
	}
	n = strlen(back);
	r = PAPI_event_name_to_code(back, &code2);
	if (r == PAPI_OK)
		r = PAPI_event_code_to_name(code2, again);
	tap_ok(n >= k && strcmp(back + n - k, suffix) == 0 && r == PAPI_OK &&
	       strcmp(back, again) == 0, "%s -> canonical %s round-trips", name, back);
}

/* NAME is refused with exactly WANT. */
static void bad_is(const char *name, int want, const char *why)
{
	int code = 0, r = PAPI_event_name_to_code(name, &code);

	tap_ok(r == want, "%s (%s) is refused with %s: got %s", name, why,
	       PAPI_strerror(want), PAPI_strerror(r));
}

/* The long description of NAME contains WANT. */
static void descr_has(const char *name, const char *want)
{
	PAPI_event_info_t info;
	int code = 0;

	memset(&info, 0, sizeof(info));
	tap_ok(PAPI_event_name_to_code(name, &code) == PAPI_OK &&
	       PAPI_get_event_info(code, &info) == PAPI_OK &&
	       strstr(info.long_descr, want) != NULL,
	       "description of %s mentions '%s'", name, want);
}

static const char *const metric_names[] = {
	"1stL_cache_load_miss_retired", "2ndL_cache_load_miss_retired",
	"DTLB_load_miss_retired", "DTLB_store_miss_retired", "DTLB_all_miss_retired",
	"Tagged_mispred_branch", "MOB_load_replay_retired", "split_load_retired",
	"split_store_retired", "Memory_loads", "Memory_stores", "packed_SP_retired",
	"packed_DP_retired", "scalar_SP_retired", "scalar_DP_retired",
	"64_bit_MMX_retired", "128_bit_MMX_retired", "X87_FP_retired",
	"X87_SIMD_memory_moves_retired",
};

/* Qualifier templates, in the order they are listed. */
static const char *const quals[] = {
	"u=0|1", "k=0|1", "thr=0..15", "cmpl=0|1", "edge=0|1",
	"thread=any|single|both|none", "precise=0|1", "cascade=0|1",
};
#define NQUALS (int)(sizeof(quals) / sizeof(quals[0]))

/* libpfm4's virtual masks (native_events/events.txt "vmask"), listed
 * after the masks and before the qualifiers: the FP/SIMD upstream events'
 * execution tags and replay_event's spellings of the replay metrics. */
static const char *const vmasks[] = {
	"TAG0", "TAG1", "TAG2", "TAG3",
	"L1_LD_MISS", "L2_LD_MISS", "DTLB_LD_MISS", "DTLB_ST_MISS", "DTLB_ALL_MISS",
	"BR_MSP", "MOB_LD_REPLAY", "SP_LD_RET", "SP_ST_RET",
};
#define NVMASKS (int)(sizeof(vmasks) / sizeof(vmasks[0]))

/* Index in list[0..n) of the last ":"-part of NAME, or -1. */
static int suffix_of(const char *name, const char *const *list, int n)
{
	const char *c = strrchr(name, ':');

	for (int k = 0; c && k < n; k++)
		if (strcmp(c + 1, list[k]) == 0)
			return k;
	return -1;
}

/* Index of the virtual mask NAME ends with, or -1. */
static int vmask_of(const char *name)
{
	return suffix_of(name, vmasks, NVMASKS);
}

/* The eight upstream FP/SIMD events that take TAG0..TAG3 [libpfm4,
 * netburst_events.h; README "Execution tagging, libpfm4's way"]. */
static const char *const tag_events[] = {
	"x87_FP_uop", "scalar_SP_uop", "scalar_DP_uop", "packed_SP_uop",
	"packed_DP_uop", "64bit_MMX_uop", "128bit_MMX_uop", "x87_SIMD_moves_uop",
};

/* Index of the qualifier template NAME ends with, or -1. */
static int qual_of(const char *name)
{
	return suffix_of(name, quals, NQUALS);
}

/* The qualifiers listed after the masks of NAME, as a bit set. */
static unsigned quals_listed(const char *name)
{
	int code = 0, q;
	unsigned set = 0;
	char n[PAPI_HUGE_STR_LEN];

	if (PAPI_event_name_to_code(name, &code) != PAPI_OK ||
	    PAPI_enum_cmp_event(&code, PAPI_NTV_ENUM_UMASKS, cidx) != PAPI_OK)
		return 0;
	do {
		if (PAPI_event_code_to_name(code, n) == PAPI_OK && (q = qual_of(n)) >= 0)
			set |= 1u << q;
	} while (PAPI_enum_cmp_event(&code, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK);
	return set;
}

/* The long description of qualifier template QUAL of event NAME. */
static void qual_descr(const char *name, const char *qual, char *out, size_t len)
{
	int code = 0;
	char n[PAPI_HUGE_STR_LEN];
	PAPI_event_info_t info;

	if (PAPI_event_name_to_code(name, &code) != PAPI_OK ||
	    PAPI_enum_cmp_event(&code, PAPI_NTV_ENUM_UMASKS, cidx) != PAPI_OK)
		return;
	do {
		const char *c;

		if (PAPI_event_code_to_name(code, n) == PAPI_OK && (c = strrchr(n, ':')) &&
		    strcmp(c + 1, qual) == 0 && PAPI_get_event_info(code, &info) == PAPI_OK) {
			snprintf(out, len, "%s", info.long_descr);
			return;
		}
	} while (PAPI_enum_cmp_event(&code, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK);
}

static int is_metric(const char *full)
{
	const char *n = strstr(full, ":::");

	n = n ? n + 3 : full;
	for (size_t i = 0; i < sizeof(metric_names) / sizeof(metric_names[0]); i++)
		if (strcmp(n, metric_names[i]) == 0)
			return 1;
	return strcmp(n, "Memory_loads_stores") == 0;
}

int main(void)
{
	int code, r, nev = 0, nmask = 0, nmet = 0, nodescr = 0;
	int nqual[NQUALS] = { 0 }, qual_bad = 0, qual_added = 0, qual_order = 0;
	int nvm[NVMASKS] = { 0 }, vm_bad = 0, vm_refused = 0, vm_on_tag_event = 0;
	PAPI_event_info_t info;
	char name[PAPI_HUGE_STR_LEN], up[PAPI_HUGE_STR_LEN];
	static char longname[5000];

	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init: %s", PAPI_strerror(r));
	cidx = PAPI_get_component_index("p4netburst");
	if (cidx < 0)
		tap_bail("no p4netburst component");
	code = PAPI_NATIVE_MASK;
	if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK)
		tap_bail("no native events");
	do {
		int m = code;

		PAPI_event_code_to_name(code, name);
		if (is_metric(name))
			nmet++;
		else
			nev++;
		if (PAPI_get_event_info(code, &info) != PAPI_OK ||
		    strcmp(info.symbol, name) != 0 || strlen(info.long_descr) < 10 ||
		    strlen(info.short_descr) < 5)
			nodescr++;
		roundtrip(name, name);
		{
			char with[PAPI_HUGE_STR_LEN + 64];

			snprintf(with, sizeof(with), "%s:thr=3:cmpl", name);
			canonical(with, ":thr=3:cmpl");
			snprintf(with, sizeof(with), "%s:thread=single:k=1", name);
			canonical(with, ":k=1:thread=single");
		}
		for (size_t i = 0; i <= strlen(name); i++)
			up[i] = (char)toupper((unsigned char)name[i]);
		/* the component prefix is lower case by PAPI's convention */
		memcpy(up, "p4netburst:::", 13);
		roundtrip(up, name);
		if (PAPI_enum_cmp_event(&m, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK) {
			int last_q = -1;

			do {
				char with[PAPI_HUGE_STR_LEN + 16];
				int q;

				PAPI_event_code_to_name(m, name);
				if ((q = vmask_of(name)) >= 0) {
					int es = PAPI_NULL, ra = PAPI_ENOMEM, rn = PAPI_ENOMEM;

					nvm[q]++;
					qual_order += last_q >= 0;  /* after a qualifier */
					for (size_t t = 0; q < 4 && t < 8; t++)
						vm_on_tag_event += strncmp(name + 13, tag_events[t],
							strlen(tag_events[t])) == 0 &&
							name[13 + strlen(tag_events[t])] == ':';
					if (PAPI_get_event_info(m, &info) != PAPI_OK ||
					    strcmp(info.symbol, name) != 0 ||
					    strlen(info.short_descr) < 5 ||
					    !strstr(info.long_descr, "masks:") ||
					    strlen(strstr(info.long_descr, "masks:")) < 16)
						vm_bad++;
					/* a listed name can be added, by code and by name */
					if (PAPI_create_eventset(&es) == PAPI_OK) {
						ra = PAPI_add_event(es, m);
						PAPI_cleanup_eventset(es);
						rn = PAPI_add_named_event(es, name);
						PAPI_cleanup_eventset(es);
						PAPI_destroy_eventset(&es);
					}
					if (ra != PAPI_OK || rn != PAPI_OK) {
						vm_refused++;
						tap_diag("%s listed but refused: %s / %s", name,
							 PAPI_strerror(ra), PAPI_strerror(rn));
					}
					continue;
				}
				if ((q = qual_of(name)) >= 0) {
					int es = PAPI_NULL;

					nqual[q]++;
					qual_order += q <= last_q;
					last_q = q;
					if (PAPI_get_event_info(m, &info) != PAPI_OK ||
					    strcmp(info.symbol, name) != 0 ||
					    strlen(info.long_descr) < 10 ||
					    !strstr(info.long_descr, "masks:"))
						qual_bad++;
					if (PAPI_create_eventset(&es) == PAPI_OK) {
						qual_added += PAPI_add_event(es, m) != PAPI_EINVAL;
						PAPI_destroy_eventset(&es);
					}
					continue;
				}
				qual_order += last_q >= 0;      /* a mask after a qualifier */
				nmask++;
				if (PAPI_get_event_info(m, &info) != PAPI_OK ||
				    strcmp(info.symbol, name) != 0 ||
				    !strstr(info.long_descr, "masks:"))
					nodescr++;
				roundtrip(name, name);
				snprintf(with, sizeof(with), "%s:u=1:k=0", name);
				roundtrip(with, with);
				snprintf(with, sizeof(with), "%s:thr=1:edge:thread=both", name);
				roundtrip(with, with);
			} while (PAPI_enum_cmp_event(&m, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK);
		}
	} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
	tap_ok(nev >= 45, "%d events enumerated", nev);
	tap_ok(nmask >= 150, "%d masks enumerated", nmask);
	tap_ok(nmet == 20, "%d tagged metrics enumerated", nmet);
	tap_ok(nodescr == 0, "every enumerated name has its info and description (%d lack it)",
	       nodescr);
	for (int q = 0; q < 6; q++)
		tap_ok(nqual[q] == nev + nmet, "qualifier :%s listed for every event and metric (%d of %d)",
		       quals[q], nqual[q], nev + nmet);
	tap_ok(qual_bad == 0, "every qualifier has its description after 'masks:' (%d lack it)",
	       qual_bad);
	/* libpfm4's virtual masks are listed (issue 15: papi_native_avail
	 * showed no TAGn although the names were accepted): TAG0..TAG3 on each
	 * of the eight upstream FP/SIMD events and nowhere else, replay_event's
	 * nine metric spellings once each; every one described and accepted. */
	for (int v = 0; v < 4; v++)
		tap_ok(nvm[v] == 8, "TAG%d listed on the 8 upstream FP/SIMD events (%d)", v, nvm[v]);
	tap_ok(vm_on_tag_event == 32, "the TAGn entries are on those eight events (%d of 32)",
	       vm_on_tag_event);
	for (int v = 4; v < NVMASKS; v++)
		tap_ok(nvm[v] == 1, "replay_event:%s listed once (%d)", vmasks[v], nvm[v]);
	tap_ok(vm_bad == 0, "every virtual mask has its info and description after 'masks:' "
	       "(%d lack it)", vm_bad);
	tap_ok(vm_refused == 0, "every listed virtual mask is added by code and by name "
	       "(%d refused)", vm_refused);
	tap_ok(qual_order == 0, "qualifiers come after the masks, in order (%d out of place)",
	       qual_order);
	tap_ok(qual_added == 0, "a qualifier template is not an event: PAPI_EINVAL when added "
	       "(%d were not refused so)", qual_added);
	/* precise where PEBS is allowed (README): replay/front-end/execution
	 * events and the tagged metrics, not elsewhere. */
	tap_ok(quals_listed("p4netburst:::replay_event") == 0xff,
	       "replay_event lists all eight qualifiers, precise and cascade included");
	tap_ok(quals_listed("p4netburst:::1stL_cache_load_miss_retired") == 0x7f,
	       "a replay metric lists seven qualifiers, precise included, cascade not");
	tap_ok(quals_listed("p4netburst:::instr_retired") == 0xbf,
	       "instr_retired lists seven qualifiers: cascade, not precise");
	tap_ok(quals_listed("p4netburst:::global_power_events") == 0xbf,
	       "global_power_events lists seven qualifiers: cascade, not precise");
	tap_ok(nqual[7] == nev, "cascade listed for every event (%d of %d), no metric", nqual[7], nev);
	{
		/* the cascade qualifier's description says what README says: a
		 * cascaded pair holds 41 bits (2^40 + the alternate), not 80 */
		char d[PAPI_HUGE_STR_LEN] = "";

		qual_descr("p4netburst:::instr_retired", "cascade=0|1", d, sizeof(d));
		tap_ok(strstr(d, "41-bit") && !strstr(d, "80"),
		       "the cascade qualifier's description says 41 bits (%s)", d);
	}
	tap_ok(nqual[6] >= 4 && nqual[6] < nev + nmet, "precise listed for %d of %d events and metrics",
	       nqual[6], nev + nmet);
	{
		int nn = PAPI_get_component_info(cidx)->num_native_events;

		tap_ok(nn == nev + nmet, "num_native_events %d = events + metrics", nn);
	}

	/* libpfm4 spellings, and modifiers with their canonical forms. */
	roundtrip("p4netburst:::replay_event:NBOGUS:L1_LD_MISS",
		  "p4netburst:::1stL_cache_load_miss_retired");
	roundtrip("p4netburst:::REPLAY_EVENT:dtlb_all_miss:u",
		  "p4netburst:::DTLB_all_miss_retired:u=1");
	roundtrip("p4netburst:::uops_type:TAGLOADS", "p4netburst:::uop_type:TAGLOADS");
	roundtrip("p4netburst:::mispred_branch_retired:BOGUS",
		  "p4netburst:::mispred_branch_retired:NBOGUS");
	roundtrip("p4netburst:::instr_retired:NBOGUSNTAG:cmp=2:edge:thread=0",
		  "p4netburst:::instr_retired:NBOGUSNTAG:thr=2:edge:thread=none");
	roundtrip("p4netburst:::instr_retired:NBOGUSNTAG:thread=any",
		  "p4netburst:::instr_retired:NBOGUSNTAG");
	roundtrip("p4netburst:::replay_event:NBOGUS:precise",
		  "p4netburst:::replay_event:NBOGUS:precise");
	roundtrip("p4netburst:::Tagged_mispred_branch:precise:u=1",
		  "p4netburst:::Tagged_mispred_branch:u=1:precise");
	roundtrip("p4netburst:::front_end_event:NBOGUS:precise=1",
		  "p4netburst:::front_end_event:NBOGUS:precise");
	roundtrip("p4netburst:::instr_retired:NBOGUSNTAG:cascade",
		  "p4netburst:::instr_retired:NBOGUSNTAG:cascade");
	roundtrip("p4netburst:::instr_retired:NBOGUSNTAG:cascade=1:thr=1:u=1",
		  "p4netburst:::instr_retired:NBOGUSNTAG:u=1:thr=1:cascade");
	roundtrip("p4netburst:::instr_retired:NBOGUSNTAG:cascade=0",
		  "p4netburst:::instr_retired:NBOGUSNTAG");
	descr_has("p4netburst:::instr_retired", "cascade");
	descr_has("p4netburst:::MOB_load_replay_retired", "MOB_load_replay");
	descr_has("p4netburst:::MOB_load_replay_retired", "replay_event:NBOGUS");
	descr_has("p4netburst:::packed_SP_retired", "execution_event:NBOGUS0");
	descr_has("p4netburst:::x87_FP_uop:ALL:TAG1", "TagValue 0x2");
	descr_has("p4netburst:::x87_FP_uop:ALL:TAG1", "execution_event:NBOGUS1");
	descr_has("p4netburst:::Memory_loads", "uop_type:TAGLOADS");
	descr_has("p4netburst:::replay_event", "precise");
	descr_has("p4netburst:::instr_retired:NBOGUSTAG:u=1", "Modifiers");

	bad("p4netburst:::no_such_event", "an unknown event");
	bad("p4netburst:::instr_retired:NOSUCHMASK", "an unknown mask");
	bad("p4netburst:::instr_retired:NBOGUSNTAG:u=2", "a bad modifier value");
	bad("p4netburst:::instr_retired:NBOGUSNTAG:u=", "an empty modifier value");
	bad("p4netburst:::instr_retired:NBOGUSNTAG:NBOGUSNTAG", "a mask given twice");
	bad("p4netburst:::instr_retired::NBOGUSNTAG", "an empty qualifier");
	bad("p4netburst:::instr_retired:", "a trailing colon");
	bad("p4netburst:::", "an empty event name");
	bad("p4netburst:::instr_retired:MMTP", "a mask of another event");
	bad_is("p4netburst:::instr_retired:NOSUCHMASK", PAPI_ENOEVNT, "unknown mask");
	bad_is("p4netburst:::no_such_metric_retired", PAPI_ENOEVNT, "unknown event");
	bad_is("p4netburst:::instr_retired:bogus_mod=1", PAPI_ENOEVNT, "unknown modifier");
	bad_is("p4netburst:::instr_retired:thr=16", PAPI_EINVAL, "threshold too large");
	bad_is("p4netburst:::instr_retired:thr=x", PAPI_EINVAL, "threshold not a number");
	bad_is("p4netburst:::instr_retired:thread=all", PAPI_EINVAL, "unknown thread mode");
	bad_is("p4netburst:::instr_retired:u=1=1", PAPI_EINVAL, "two '='");
	bad_is("p4netburst:::instr_retired:cmpl", PAPI_EINVAL, "cmpl without thr");
	bad_is("p4netburst:::instr_retired:precise", PAPI_EINVAL, "precise on a non-PEBS event");
	bad_is("p4netburst:::Memory_loads:NBOGUS", PAPI_ENOEVNT, "a mask on a metric");
	bad_is("p4netburst:::Memory_loads:cascade", PAPI_EINVAL, "cascade on a metric");
	bad_is("p4netburst:::replay_event:NBOGUS:cascade:precise", PAPI_EINVAL,
	       "cascade with precise");
	bad_is("p4netburst:::instr_retired:cascade:cascade", PAPI_EINVAL, "cascade given twice");
	bad_is("p4netburst:::replay_event:BOGUS:L1_LD_MISS", PAPI_EINVAL,
	       "another mask beside a replay virtual mask");
	bad_is("p4netburst:::replay_event:L1_LD_MISS:L2_LD_MISS", PAPI_EINVAL,
	       "two replay metrics");
	bad_is("p4netburst:::x87_FP_uop:ALL:TAG0:TAG0", PAPI_EINVAL, "a libpfm4 execution tag twice");
	bad_is("p4netburst:::instr_retired:TAG0", PAPI_ENOEVNT,
	       "a libpfm4 execution tag on an event that is not an upstream FP/SIMD event");
	bad_is("p4netburst:::BSQ_cache_reference:RD_3rdL_MISS", PAPI_ENOEVNT,
	       "an L3 mask on a CPU without L3");
	memset(longname, 'a', sizeof(longname) - 1);
	memcpy(longname, "p4netburst:::", 13);
	bad(longname, "a 5000-character name");
	memcpy(longname, "p4netburst:::instr_retired:", 27);
	bad(longname, "a 5000-character mask");
	{
		int es = PAPI_NULL;

		r = PAPI_create_eventset(&es);
		if (r == PAPI_OK)
			r = PAPI_add_named_event(es, "p4netburst:::Memory_loads");
		tap_ok(r == PAPI_OK, "a tagged metric can be added to an event set: %s",
		       PAPI_strerror(r));
		if (r == PAPI_OK)
			r = PAPI_add_named_event(es, "p4netburst:::Memory_stores");
		tap_ok(r == PAPI_ECNFLCT, "two front-end tagged metrics conflict "
		       "(one front-end tag): %s", PAPI_strerror(r));
	}
	PAPI_shutdown();
	printf("1..%d\n", tap_n);
	return tap_exit();
}
