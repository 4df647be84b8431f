/*
 * nbcapture.h - PAPI_add_named_event and PAPI_start with what they write
 * to stderr captured, for the tests that check the component's messages (a
 * conflict's reason, the alternative a preset uses).
 */
#ifndef NBCAPTURE_H
#define NBCAPTURE_H

#include <stdio.h>
#include <unistd.h>
#include "papi.h"

/* what the last captured call wrote to stderr */
static char msgbuf[4096];

/* stderr into a temporary file from capture_begin (its saved descriptor
 * returned) to capture_end, which puts what was written into msgbuf */
static __attribute__((unused)) int capture_begin(FILE **tmp)
{
	int saved = dup(2);

	*tmp = tmpfile();
	fflush(stderr);
	dup2(fileno(*tmp), 2);
	return saved;
}

static __attribute__((unused)) void capture_end(FILE *tmp, int saved)
{
	size_t k;

	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	k = fread(msgbuf, 1, sizeof(msgbuf) - 1, tmp);
	msgbuf[k] = '\0';
	fclose(tmp);
}

static __attribute__((unused)) int add_capturing(int es, const char *name)
{
	FILE *tmp;
	int saved = capture_begin(&tmp), rc = PAPI_add_named_event(es, name);

	capture_end(tmp, saved);
	return rc;
}

static __attribute__((unused)) int start_capturing(int es)
{
	FILE *tmp;
	int saved = capture_begin(&tmp), rc = PAPI_start(es);

	capture_end(tmp, saved);
	return rc;
}

#endif
