/*
 * names.c - native event names through the public PAPI API under nbsim:
 * every event and every mask enumerates, and name -> code -> name round-trips
 * (also with modifiers and in other letter cases); bad names get
 * PAPI_ENOEVNT or PAPI_EINVAL and nothing crashes.
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

int main(void)
{
	int code, r, nev = 0, nmask = 0;
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

		nev++;
		PAPI_event_code_to_name(code, name);
		roundtrip(name, name);
		for (size_t i = 0; i <= strlen(name); i++)
			up[i] = (char)toupper((unsigned char)name[i]);
		/* the component prefix is lower case by PAPI's convention */
		memcpy(up, "p4netburst:::", 13);
		roundtrip(up, name);
		if (PAPI_enum_cmp_event(&m, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK) {
			do {
				char with[PAPI_HUGE_STR_LEN + 16];

				nmask++;
				PAPI_event_code_to_name(m, name);
				roundtrip(name, name);
				snprintf(with, sizeof(with), "%s:u=1:k=0", name);
				roundtrip(with, with);
			} while (PAPI_enum_cmp_event(&m, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK);
		}
	} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
	tap_ok(nev >= 5, "%d events enumerated", nev);
	tap_ok(nmask >= 12, "%d masks enumerated", nmask);

	bad("p4netburst:::no_such_event", "an unknown event");
	bad("p4netburst:::instr_retired:NOSUCHMASK", "an unknown mask");
	bad("p4netburst:::instr_retired:NBOGUSNTAG:u=2", "a bad modifier value");
	bad("p4netburst:::instr_retired:NBOGUSNTAG:u=", "an empty modifier value");
	bad("p4netburst:::instr_retired:NBOGUSNTAG:NBOGUSNTAG", "a mask given twice");
	bad("p4netburst:::instr_retired::NBOGUSNTAG", "an empty qualifier");
	bad("p4netburst:::instr_retired:", "a trailing colon");
	bad("p4netburst:::", "an empty event name");
	bad("p4netburst:::instr_retired:MMTP", "a mask of another event");
	memset(longname, 'a', sizeof(longname) - 1);
	memcpy(longname, "p4netburst:::", 13);
	bad(longname, "a 5000-character name");
	memcpy(longname, "p4netburst:::instr_retired:", 27);
	bad(longname, "a 5000-character mask");
	PAPI_shutdown();
	printf("1..%d\n", tap_n);
	return tap_exit();
}
