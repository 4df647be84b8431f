/*
 * nb_report_prof.c - nb_report's profile in memory: nb_record's profile
 * file read (its format: nb_record.1, FILES), the symbols by address, and
 * the messages and allocations every part of nb_report uses.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "nb_tsv.h"
#include "nb_report_prof.h"

int fail(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "nb_report: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

void *xalloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("nb_report: out of memory\n", stderr);
		exit(EXIT_READ);
	}
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		xalloc(NULL, (size_t)-1);
	return d;
}

/* ---- the profile in memory -------------------------------------------------- */

struct sym *syms;
size_t nsyms;
static size_t capsyms;
static size_t *symtab;           /* open addressing: index + 1, 0 empty */
static size_t symtab_size;
struct sample *samples;
size_t nsamples;
static size_t capsamples;
struct event events[64];
int nevents;
long *spaces;             /* space -> pid */
char *command;            /* PROGRAM ARGS, as recorded */
FILE *out;                /* where the views go: stdout, or a page's block */
int nspaces;

static size_t hash(int space, uint64_t ip)
{
	uint64_t h = ip * UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)space * 0x85ebca6bu;

	return (size_t)(h ^ (h >> 29));
}

static void sym_index(size_t i)
{
	size_t k = hash(syms[i].space, syms[i].ip) & (symtab_size - 1);

	while (symtab[k])
		k = (k + 1) & (symtab_size - 1);
	symtab[k] = i + 1;
}

static void sym_add(const struct sym *s)
{
	if (nsyms == capsyms) {
		capsyms = capsyms ? 2 * capsyms : 1024;
		syms = xalloc(syms, capsyms * sizeof(*syms));
	}
	syms[nsyms] = *s;
	if (2 * (nsyms + 1) > symtab_size) {
		symtab_size = symtab_size ? 2 * symtab_size : 4096;
		symtab = xalloc(symtab, symtab_size * sizeof(*symtab));
		memset(symtab, 0, symtab_size * sizeof(*symtab));
		for (size_t i = 0; i < nsyms; i++)
			sym_index(i);
	}
	sym_index(nsyms++);
}

const struct sym *sym_of(int space, uint64_t ip)
{
	static struct sym unknown = { 0, 0, 0, "?", "?", "?", 0, -1 };

	if (symtab_size)
		for (size_t k = hash(space, ip) & (symtab_size - 1); symtab[k];
		     k = (k + 1) & (symtab_size - 1)) {
			const struct sym *s = &syms[symtab[k] - 1];

			if (s->space == space && s->ip == ip)
				return s;
		}
	return &unknown;
}

int prof_load(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *fl[12];
	size_t cap = 0;
	int lno = 0;

	if (!f)
		return fail(EXIT_READ, "cannot read %s: %s", path, strerror(errno));
	while (getline(&line, &cap, f) > 0) {
		int n = nb_tsv_split(line, fl, 12);

		if (++lno == 1) {
			if (n != 2 || strcmp(fl[0], "nb-profile")) {
				free(line);
				fclose(f);
				return fail(EXIT_FORMAT, "%s: not an nb_record profile", path);
			}
			if (strcmp(fl[1], "1")) {
				fail(EXIT_FORMAT, "%s: profile version %s; this nb_report reads version 1",
				     path, fl[1]);
				free(line);
				fclose(f);
				return EXIT_FORMAT;
			}
			continue;
		}
		if (!strcmp(fl[0], "event") && n == 6) {
			int id = atoi(fl[1]);

			if (id < 0 || id >= 64 || id != nevents)
				goto bad;
			events[id].name = xstrdup(fl[2]);
			events[id].period = strtoull(fl[3], NULL, 10);
			events[id].mode = xstrdup(fl[4]);
			nevents++;
		} else if (!strcmp(fl[0], "sym") && n == 8) {
			struct sym s;

			s.space = atoi(fl[1]);
			s.ip = strtoull(fl[2], NULL, 16);
			s.obj = xstrdup(fl[3]);
			s.svma = strtoull(fl[4], NULL, 16);
			s.fn = xstrdup(fl[5]);
			s.file = xstrdup(fl[6]);
			s.line = (unsigned)strtoul(fl[7], NULL, 10);
			s.wid = -1;
			sym_add(&s);
		} else if (!strcmp(fl[0], "sample") && n == 11) {
			struct sample s;
			char *p = fl[8];

			memset(&s, 0, sizeof(s));
			s.ev = atoi(fl[1]);
			if (s.ev < 0 || s.ev >= nevents)
				goto bad;
			s.space = atoi(fl[2]);
			s.tid = (unsigned)strtoul(fl[3], NULL, 10);
			s.lwp = strtol(fl[4], NULL, 10);
			s.weight = strtoull(fl[5], NULL, 10);
			s.ip = strtoull(fl[6], NULL, 16);
			s.has_addr = strcmp(fl[7], "-") != 0;
			s.addr = s.has_addr ? strtoull(fl[7], NULL, 16) : 0;
			s.dsym = strcmp(fl[10], "-") ? xstrdup(fl[10]) : NULL;
			if (strcmp(p, "-")) {
				for (char *q = p; *q; q++)
					s.depth += *q == ',';
				s.depth++;
				s.stack = xalloc(NULL, (size_t)s.depth * sizeof(*s.stack));
				for (int k = 0; k < s.depth; k++) {
					s.stack[k] = strtoull(p, &p, 16);
					if (*p == ',')
						p++;
				}
			}
			if (nsamples == capsamples) {
				capsamples = capsamples ? 2 * capsamples : 4096;
				samples = xalloc(samples, capsamples * sizeof(*samples));
			}
			samples[nsamples++] = s;
		} else if (!strcmp(fl[0], "space") && n == 3) {
			int sp = atoi(fl[1]);

			if (sp < 0 || sp != nspaces)
				goto bad;
			spaces = xalloc(spaces, (size_t)(nspaces + 1) * sizeof(*spaces));
			spaces[nspaces++] = strtol(fl[2], NULL, 10);
		} else if (!strcmp(fl[0], "command")) {
			size_t len = 1;

			for (int i = 1; i < n; i++)
				len += strlen(fl[i]) + 1;
			free(command);
			command = xalloc(NULL, len);
			command[0] = 0;
			for (int i = 1; i < n; i++)
				strcat(strcat(command, i > 1 ? " " : ""), fl[i]);
		} else if (!strcmp(fl[0], "model")) {
			continue;
		} else {
			goto bad;
		}
	}
	free(line);
	fclose(f);
	if (lno == 0)
		return fail(EXIT_FORMAT, "%s: empty, not an nb_record profile", path);
	return 0;
bad:
	free(line);
	fclose(f);
	return fail(EXIT_FORMAT, "%s line %d: not a line of an nb_record profile", path, lno);
}
