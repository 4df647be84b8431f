/*
 * add_start.c - PAPI_add_event refuses exactly what PAPI_start would
 * refuse, and says why and what would count it (issue 32).
 *
 * PAPI's software multiplexing, papi_event_chooser, papi_multiplex_cost
 * and every tool that asks "can these be counted together" add events and
 * take a successful add as the answer.  Here, on the backend and model
 * nbsim runs (P4NETBURST_BACKEND, --model):
 *  1. every native name the component lists (each event with its default
 *     masks, each mask, each of libpfm4's virtual masks, each qualifier
 *     with a value, each tagged metric) on an empty event set: an add
 *     that succeeds is followed by a PAPI_start that succeeds;
 *  2. an add that fails prints a reason and a cure: another backend
 *     (P4NETBURST_BACKEND=...), separate runs (nb_schedule --partition),
 *     another model, or the name's own mistake;
 *  3. every preset PAPI lists as available adds alone and starts (the
 *     table offers only what this backend counts);
 *  4. NSETS pairs and triples drawn from the names of 1 and 3 (seeded):
 *     whatever adds, starts; every refusal says why, as in 2;
 *  5. PAPI_set_domain (user, kernel, both) on a set of PAPI_TOT_INS:
 *     a domain accepted starts, a refusal says why.
 * Usage: add_start NSETS [SEED]
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "papi.h"
#include "nbtap.h"

#define MAXN 4096
/* failures shown in full (ADD_START_DIAG=N shows N) */
static int MAXDIAG = 12;

static char *names[MAXN];
static int nnames;
static char *pool[MAXN];           /* names that add and start alone */
static int npool;

/* stderr goes to a file for the whole run; what a call printed is what
 * was appended during it */
static int errfd;
static off_t errpos;
static char msg[8192];

static void mark(void)
{
	fflush(stderr);
	errpos = lseek(errfd, 0, SEEK_END);
}

static const char *printed(void)
{
	ssize_t k;

	fflush(stderr);
	k = pread(errfd, msg, sizeof(msg) - 1, errpos);
	msg[k > 0 ? k : 0] = '\0';
	return msg;
}

static void add_name(const char *nm)
{
	if (nnames < MAXN)
		names[nnames++] = strdup(nm);
}

/* A qualifier template "ev:q=0|1" (or q=0..15, q=a|b|c) with a value:
 * 1 where it is 0|1 or a range, else its first spelling. */
static void add_qualifier(const char *tmpl)
{
	char nm[PAPI_MAX_STR_LEN + 16];
	const char *eq = strrchr(tmpl, '=');
	size_t k;

	if (!eq)
		return;
	k = (size_t)(eq - tmpl) + 1;
	if (k + 4 > sizeof(nm))
		return;
	memcpy(nm, tmpl, k);
	/* Complement and Edge act only with a threshold (nb_evsel.h) */
	if (!strncmp(eq - 4, "cmpl", 4) || !strncmp(eq - 4, "edge", 4))
		snprintf(nm + k, sizeof(nm) - k, "1:thr=1");
	else if (!strncmp(eq + 1, "0|1", 3) || strstr(eq + 1, ".."))
		strcpy(nm + k, "1");
	else
		snprintf(nm + k, sizeof(nm) - k, "%.*s", (int)strcspn(eq + 1, "|"), eq + 1);
	add_name(nm);
}

static void list_natives(int cidx)
{
	int code = PAPI_NATIVE_MASK, r;
	char nm[PAPI_MAX_STR_LEN];

	r = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx);
	while (r == PAPI_OK) {
		int sub = code;

		if (PAPI_event_code_to_name(code, nm) == PAPI_OK)
			add_name(nm);
		r = PAPI_enum_cmp_event(&sub, PAPI_NTV_ENUM_UMASKS, cidx);
		while (r == PAPI_OK) {
			if (PAPI_event_code_to_name(sub, nm) == PAPI_OK) {
				if (strchr(nm, '='))
					add_qualifier(nm);
				else
					add_name(nm);
			}
			r = PAPI_enum_cmp_event(&sub, PAPI_NTV_ENUM_UMASKS, cidx);
		}
		r = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx);
	}
}

/* A refusal the user can act on: the component's reason and, for a set
 * that cannot be counted (PAPI_ECNFLCT), a cure: another backend,
 * separate runs, another model.  Any other refusal is of the name itself
 * (a listed event without a default mask: "name at least one"), and its
 * message says what is wrong with it. */
static int names_cure(const char *m)
{
	return strstr(m, "P4NETBURST_BACKEND=") || strstr(m, "separate runs") ||
	       strstr(m, "--model") || strstr(m, "perf_event_paranoid");
}

static int refusal_ok(int rc, const char *m);

static int set_domain_of(int es, int dom)
{
	PAPI_option_t o;

	memset(&o, 0, sizeof(o));
	o.domain.eventset = es;
	o.domain.domain = dom;
	return PAPI_set_opt(PAPI_DOMAIN, &o);
}

static int refusal_ok(int rc, const char *m)
{
	return strstr(m, "p4netburst") && (rc != PAPI_ECNFLCT || names_cure(m));
}

/* Add NAMES[0..n-1] to a new set in order, then start the set if any was
 * added.  Returns 1 if every refusal named its cure and the start (if any)
 * succeeded; *ADDED the number added.  WHY: what went wrong. */
static int try_set(char **set, int n, int *added, char *why, size_t len)
{
	int es = PAPI_NULL, rc, ok = 1;
	long long v[3];

	*added = 0;
	why[0] = '\0';
	if (PAPI_create_eventset(&es) != PAPI_OK)
		tap_bail("PAPI_create_eventset");
	for (int i = 0; i < n; i++) {
		mark();
		rc = PAPI_add_named_event(es, set[i]);
		if (rc == PAPI_OK) {
			(*added)++;
			continue;
		}
		if (!refusal_ok(rc, printed()) && ok) {
			snprintf(why, len, "add %s: %s, and no reason with a cure printed: '%.300s'",
				 set[i], PAPI_strerror(rc), msg);
			ok = 0;
		}
	}
	if (*added) {
		mark();
		rc = PAPI_start(es);
		if (rc != PAPI_OK) {
			snprintf(why, len, "added, but PAPI_start: %s: '%.400s'", PAPI_strerror(rc),
				 printed());
			ok = 0;
		} else {
			PAPI_stop(es, v);
		}
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return ok;
}

static uint64_t rng;

static unsigned below(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

int main(int argc, char **argv)
{
	int nsets = argc > 1 ? atoi(argv[1]) : 1000, cidx, bad, refused = 0, nrefdiag = 0;
	int npresets = 0, pairs = 0, triples = 0, setref = 0;
	const char *be = getenv("P4NETBURST_BACKEND");
	char why[1024], path[] = "/tmp/add_startXXXXXX";

	if (getenv("ADD_START_DIAG"))
		MAXDIAG = atoi(getenv("ADD_START_DIAG"));
	rng = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x32;
	be = be ? be : "sim";
	setenv("PAPI_VERBOSE", "1", 1);
	tap_plan(6);
	errfd = mkstemp(path);
	if (errfd < 0)
		tap_bail("mkstemp");
	unlink(path);
	dup2(errfd, 2);
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init");
	cidx = PAPI_get_component_index("p4netburst");
	if (cidx < 0)
		tap_bail("no p4netburst component");
	list_natives(cidx);
	tap_ok(nnames > 100, "%s backend: %d native names listed (events, masks, "
	       "qualifiers, metrics)", be, nnames);

	/* 1, 2: each alone */
	bad = 0;
	for (int i = 0; i < nnames; i++) {
		int added;

		if (!try_set(&names[i], 1, &added, why, sizeof(why))) {
			if (added && bad++ < MAXDIAG)
				tap_diag("%s: %s", names[i], why);
			if (!added && nrefdiag++ < MAXDIAG)
				tap_diag("%s: %s", names[i], why);
		} else if (added) {
			pool[npool++] = names[i];
		}
		refused += !added;
		if (!added && nrefdiag < 4 && getenv("ADD_START_SHOW"))
			tap_diag("refused %s: %s", names[i], msg);
	}
	tap_ok(bad == 0, "%s backend: each of %d names that adds alone starts (%d of %d failed)",
	       be, npool + bad, bad, nnames);
	tap_ok(nrefdiag == 0, "%s backend: each of the %d refused alone says why and what would "
	       "count it (%d did not)", be, refused, nrefdiag);

	/* 3: the available presets */
	bad = 0;
	for (int code = PAPI_PRESET_MASK, r = PAPI_enum_event(&code, PAPI_ENUM_FIRST); r == PAPI_OK;
	     r = PAPI_enum_event(&code, PAPI_PRESET_ENUM_AVAIL)) {
		char nm[PAPI_MAX_STR_LEN];
		int added;

		if (PAPI_event_code_to_name(code, nm) != PAPI_OK || PAPI_query_event(code) != PAPI_OK)
			continue;
		npresets++;
		if (!try_set((char *[]){ nm }, 1, &added, why, sizeof(why)) || !added) {
			if (bad++ < MAXDIAG)
				tap_diag("%s (listed available): %s", nm, added ? why : msg);
		} else if (npool < MAXN) {
			pool[npool++] = strdup(nm);
		}
	}
	tap_ok(bad == 0 && npresets > 0, "%s backend: each of the %d available presets adds alone "
	       "and starts (%d did not)", be, npresets, bad);

	/* 4: pairs and triples */
	bad = 0;
	for (int k = 0; k < nsets && npool > 0; k++) {
		char *set[3];
		int n = 2 + (int)below(2), added;

		/* distinct names: PAPI itself refuses an event twice in a set */
		for (int i = 0; i < n; i++) {
			int dup;

			do {
				set[i] = pool[below((unsigned)npool)];
				dup = 0;
				for (int j = 0; j < i; j++)
					dup |= !strcmp(set[j], set[i]);
			} while (dup && npool > n);
		}
		pairs += n == 2;
		triples += n == 3;
		if (!try_set(set, n, &added, why, sizeof(why)) && bad++ < MAXDIAG)
			tap_diag("{%s, %s%s%s}: %s", set[0], set[1], n > 2 ? ", " : "",
				 n > 2 ? set[2] : "", why);
		setref += added < n;
	}
	tap_ok(bad == 0, "%s backend: %d pairs and %d triples of them (seed %#llx): what adds "
	       "starts, each refusal says why (%d sets with a refusal; %d failed)", be, pairs,
	       triples, (unsigned long long)(argc > 2 ? strtoull(argv[2], NULL, 0) : 0x32), setref,
	       bad);
	/* 5: the domain, an option that changes what the backend is asked */
	bad = 0;
	{
		static const int doms[] = { PAPI_DOM_USER, PAPI_DOM_KERNEL, PAPI_DOM_ALL };
		int nok = 0, nref = 0;

		for (unsigned d = 0; d < sizeof(doms) / sizeof(doms[0]); d++) {
			int es = PAPI_NULL, rc;
			long long v[1];

			if (PAPI_create_eventset(&es) != PAPI_OK ||
			    PAPI_add_named_event(es, "PAPI_TOT_INS") != PAPI_OK)
				tap_bail("PAPI_TOT_INS alone");
			mark();
			rc = set_domain_of(es, doms[d]);
			if (rc == PAPI_OK) {
				nok++;
				mark();
				if ((rc = PAPI_start(es)) != PAPI_OK && bad++ < MAXDIAG)
					tap_diag("domain %#x accepted, PAPI_start: %s: %s", doms[d],
						 PAPI_strerror(rc), printed());
				else if (rc == PAPI_OK)
					PAPI_stop(es, v);
			} else {
				nref++;
				if (!refusal_ok(rc, printed()) && bad++ < MAXDIAG)
					tap_diag("domain %#x refused (%s) without a reason and a cure: '%s'",
						 doms[d], PAPI_strerror(rc), msg);
			}
			PAPI_cleanup_eventset(es);
			PAPI_destroy_eventset(&es);
		}
		tap_ok(bad == 0, "%s backend: PAPI_set_domain of PAPI_TOT_INS: %d domains accepted "
		       "and started, %d refused with the reason", be, nok, nref);
	}
	PAPI_shutdown();
	return tap_exit();
}
