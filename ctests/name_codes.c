/*
 * name_codes.c - the error code for a bad or absent name is the same for
 * every spelling and every entry point, as README.md promises: PAPI_ENOEVNT
 * for an unknown preset, event, mask or modifier and for one this CPU lacks,
 * PAPI_EINVAL for a bad value; through PAPI_event_name_to_code,
 * PAPI_add_named_event, PAPI_query_named_event and (for a name that has a
 * code) PAPI_add_event, with and without the "p4netburst:::" prefix.  The
 * message (PAPI_VERB_ECONT) names the cause, and for a name this CPU lacks
 * the modelled parts that have it.
 *
 * Usage: name_codes MODEL   (the nbsim --model it runs under)
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "papi.h"
#include "nbtap.h"

static char msgs[8192];
static int errfd = -1, saved = -1;

/* Capture stderr (PAPI's messages) into a temporary file. */
static void capture(void)
{
	char path[] = "/tmp/name_codes.XXXXXX";

	fflush(stderr);
	errfd = mkstemp(path);
	if (errfd < 0)
		tap_bail("mkstemp");
	unlink(path);
	saved = dup(2);
	dup2(errfd, 2);
}

static const char *captured(void)
{
	ssize_t n;

	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	lseek(errfd, 0, SEEK_SET);
	n = read(errfd, msgs, sizeof(msgs) - 1);
	msgs[n > 0 ? n : 0] = '\0';
	close(errfd);
	return msgs;
}

static const char *cname(int r)
{
	return r == PAPI_OK ? "PAPI_OK" : r == PAPI_ENOEVNT ? "PAPI_ENOEVNT" :
	       r == PAPI_EINVAL ? "PAPI_EINVAL" : PAPI_strerror(r);
}

/*
 * NAME: name_to_code gives N2C; adding it (by name, and by code when it has
 * one) and querying it give ADD; the messages contain each of WANT (a
 * NULL-terminated list).
 */
static void spell(const char *name, int n2c, int add, const char *const *want)
{
	int es = PAPI_NULL, es2 = PAPI_NULL, code = 0, r;
	const char *m;

	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_create_eventset(&es2) != PAPI_OK)
		tap_bail("PAPI_create_eventset");
	capture();
	r = PAPI_event_name_to_code(name, &code);
	int ra = PAPI_add_named_event(es, name);
	int rq = PAPI_query_named_event(name);
	int rc = r == PAPI_OK ? PAPI_add_event(es2, code) : add;
	m = captured();
	tap_ok(r == n2c, "%s: PAPI_event_name_to_code = %s (got %s)", name, cname(n2c), cname(r));
	tap_ok(ra == add, "%s: PAPI_add_named_event = %s (got %s)", name, cname(add), cname(ra));
	tap_ok(rq == (add == PAPI_OK ? PAPI_OK : add == PAPI_EINVAL ? PAPI_EINVAL : PAPI_ENOEVNT),
	       "%s: PAPI_query_named_event agrees (got %s)", name, cname(rq));
	tap_ok(rc == add, "%s: PAPI_add_event(its code) = %s (got %s)", name, cname(add), cname(rc));
	for (; want && *want; want++)
		if (!tap_ok(strstr(m, *want) != NULL, "%s: the message says \"%s\"", name, *want))
			tap_diag("messages: %s", m);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_cleanup_eventset(es2);
	PAPI_destroy_eventset(&es2);
}

/* NAME with and without the component prefix. */
static void both(const char *name, int n2c, int n2c_prefixed, int add, const char *const *want)
{
	char full[256];

	snprintf(full, sizeof(full), "p4netburst:::%s", name);
	spell(name, n2c, add, want);
	spell(full, n2c_prefixed, add, want);
}

int main(int argc, char **argv)
{
	const char *model = argc > 1 ? argv[1] : "prescott";
	int l3 = strcmp(model, "xeonmp") == 0;

	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		tap_bail("PAPI_library_init");
	PAPI_set_debug(PAPI_VERB_ECONT);

	both("PAPI_TOT_INSS", PAPI_ENOEVNT, PAPI_ENOEVNT, PAPI_ENOEVNT,
	     (const char *const[]){ "PAPI_TOT_INSS: unknown preset", NULL });
	both("instr_retird", PAPI_ENOEVNT, PAPI_ENOEVNT, PAPI_ENOEVNT,
	     (const char *const[]){ "unknown NetBurst event or metric 'instr_retird'", NULL });
	both("instr_retired:NBOGUSNTAG:BOGUSMASK", PAPI_ENOEVNT, PAPI_ENOEVNT, PAPI_ENOEVNT,
	     (const char *const[]){ "no mask or modifier 'BOGUSMASK'", NULL });
	both("instr_retired:NBOGUSNTAG:u=7", PAPI_EINVAL, PAPI_EINVAL, PAPI_EINVAL,
	     (const char *const[]){ "modifier u takes 0 or 1", NULL });
	both("instr_retired:NBOGUSNTAG", PAPI_OK, PAPI_OK, PAPI_OK, NULL);
	both("PAPI_TOT_INS", PAPI_OK, PAPI_OK, PAPI_OK, NULL);
	if (!l3) {
		/* PAPI's preset table knows every preset symbol (a code on any
		 * CPU); the component has no entry for one this CPU lacks. */
		both("PAPI_L3_TCM", PAPI_OK, PAPI_ENOEVNT, PAPI_ENOEVNT,
		     (const char *const[]){ "PAPI_L3_TCM: not on this CPU (model 3, prescott)",
					    "it exists on xeonmp", NULL });
		both("BSQ_cache_reference:RD_3rdL_HITS", PAPI_ENOEVNT, PAPI_ENOEVNT, PAPI_ENOEVNT,
		     (const char *const[]){ "mask RD_3rdL_HITS of BSQ_cache_reference does not "
					    "exist on this CPU (model 3, prescott); it exists on xeonmp",
					    NULL });
	} else {
		both("PAPI_L3_TCM", PAPI_OK, PAPI_OK, PAPI_OK, NULL);
		both("BSQ_cache_reference:RD_3rdL_HITS", PAPI_OK, PAPI_OK, PAPI_OK, NULL);
	}
	return tap_done_plan();
}
