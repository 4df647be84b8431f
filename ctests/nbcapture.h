/*
 * nbcapture.h - PAPI_add_named_event with what it writes to stderr
 * captured, for the tests that check the component's messages (a
 * conflict's reason, the alternative a preset uses).
 */
#ifndef NBCAPTURE_H
#define NBCAPTURE_H

#include <stdio.h>
#include <unistd.h>
#include "papi.h"

/* what the last add_capturing wrote to stderr */
static char msgbuf[4096];

static __attribute__((unused)) int add_capturing(int es, const char *name)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), rc;
	size_t k;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = PAPI_add_named_event(es, name);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	k = fread(msgbuf, 1, sizeof(msgbuf) - 1, tmp);
	msgbuf[k] = '\0';
	fclose(tmp);
	return rc;
}

#endif
