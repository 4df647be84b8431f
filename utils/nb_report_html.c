/*
 * nb_report_html.c - nb_report's --annotate (FN's disassembly by binutils'
 * objdump, each instruction with its samples, and the distances of IEBS
 * samples from a precise one's instruction) and --html (a self-contained
 * page: the template in utils/report/, the views written into it).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "nb_report_html.h"

/* ---- annotate ----------------------------------------------------------------- */

/* FN's disassembly with the samples of each instruction; with FROM (an
 * address in the object's terms; 0 none), also the samples by distance in
 * instructions from it: the skid of IEBS samples from the instruction a
 * PEBS profile found (Sprunt's histogram) */
int annotate(int ev, const char *fn, uint64_t from)
{
	const char *obj = NULL;
	uint64_t total = 0, in = 0, *cnt = NULL;
	long nins = 0, at = -1;
	struct tally t = { 0 };
	char k[64], cmd[8192], *line = NULL;
	size_t cap = 0;
	FILE *p;
	int st;

	for (size_t i = 0; i < nsamples; i++) {
		const struct sample *s = &samples[i];
		const struct sym *y = sym_of(s->space, s->ip);

		if (s->ev != ev)
			continue;
		total += s->weight;
		if (strcmp(y->fn, fn))
			continue;
		if (!obj)
			obj = y->obj;
		in += s->weight;
		snprintf(k, sizeof(k), "%" PRIx64, y->svma);
		tally_add(&t, k, "", s->weight);
	}
	if (!in)
		return fail(EXIT_NOSYM, "--annotate=%s: no sample of %s in that function", fn,
			    events[ev].name);
	fprintf(out, "# %s in %s: %" PRIu64 " of %" PRIu64 " samples of %s\n", fn, obj, in, total,
	       events[ev].name);
	/* objdump's own quoting: the names go through the shell */
	for (const char *q = fn; *q; q++)
		if (*q == '\'')
			return fail(EXIT_USAGE, "--annotate: a name with a quote");
	for (const char *q = obj; *q; q++)
		if (*q == '\'')
			return fail(EXIT_USAGE, "--annotate: an object name with a quote");
	snprintf(cmd, sizeof(cmd), "objdump -d -l --no-show-raw-insn --disassemble='%s' '%s'", fn,
		 obj);
	fflush(out);
	p = popen(cmd, "r");
	if (!p)
		return fail(EXIT_READ, "cannot run objdump: %s", strerror(errno));
	while (getline(&line, &cap, p) > 0) {
		char *end;
		uint64_t a;
		uint64_t n = 0;

		line[strcspn(line, "\n")] = 0;
		while (*line == ' ')
			memmove(line, line + 1, strlen(line));
		a = strtoull(line, &end, 16);
		if (end != line && *end == ':') {
			snprintf(k, sizeof(k), "%" PRIx64, a);
			for (size_t i = 0; i < t.n; i++)
				if (!strcmp(t.r[i].key, k))
					n = t.r[i].n;
			if (n)
				fprintf(out, "%10" PRIu64 " %6.2f%% | %s\n", n, 100.0 * (double)n / (double)in,
				       line);
			else
				fprintf(out, "%10s %7s | %s\n", "", "", line);
			cnt = xalloc(cnt, (size_t)(nins + 1) * sizeof(*cnt));
			cnt[nins] = n;
			if (a == from)
				at = nins;
			nins++;
		} else if (*line && strncmp(line, "Disassembly of section", 22) &&
			   !strstr(line, "file format")) {
			fprintf(out, "%18s | %s\n", "", line);
		}
	}
	free(line);
	st = pclose(p);
	tally_free(&t);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		free(cnt);
		return fail(EXIT_READ, "objdump failed on %s (binutils' objdump, 2.32 or later, "
			    "is needed for --annotate)", obj);
	}
	if (from && at < 0) {
		free(cnt);
		return fail(EXIT_NOSYM, "--distance-from=%#" PRIx64 ": no instruction of %s starts "
			    "there", from, fn);
	}
	if (from) {
		fprintf(out, "# samples of %s by distance in instructions from %#" PRIx64 "\n", fn, from);
		fprintf(out, "# %8s %10s %8s\n", "distance", "samples", "percent");
		for (long i = 0; i < nins; i++)
			if (cnt[i])
				fprintf(out, "  %+8ld %10" PRIu64 " %7.2f%%\n", i - at, cnt[i],
				       100.0 * (double)cnt[i] / (double)in);
	}
	free(cnt);
	return 0;
}

/* ---- the HTML report ------------------------------------------------------------ */

/*
 * --html=DIR: DIR/index.html from the page's template (utils/report/, installed
 * beside the tools), with each view of each event written into it as a
 * textarea block (tab-separated rows, as the tables and the folded stacks;
 * a textarea's text ends only at its end tag, and "&" and "<" are written as
 * entities, so no profile's names can end it early); report.js draws them
 * with d3-flame-graph and Chart.js, copied into DIR beside the page so that it
 * opens with no network.  The page is written under a temporary name and
 * renamed: a reader never sees half of it.
 */
static const char *const assets[] = { "report.js", "report.css", "d3.min.js", "d3-flamegraph.min.js",
				      "chart.umd.min.js", "LICENSES.txt" };

/* the template's folder: $NB_REPORT_ASSETS, or beside the tool, installed
 * (PREFIX/bin -> PREFIX/share/p4netburst/report) or in the build tree
 * (build/utils -> build/share/report) */
static const char *asset_dir(char *buf, size_t len)
{
	const char *env = getenv("NB_REPORT_ASSETS");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return NULL;
	self[n] = 0;
	if (!(slash = strrchr(self, '/')))
		return NULL;
	*slash = 0;
	snprintf(buf, len, "%.3900s/../share/p4netburst/report", self);
	if (access(buf, R_OK) == 0)
		return buf;
	snprintf(buf, len, "%.3900s/../share/report", self);
	return access(buf, R_OK) == 0 ? buf : NULL;
}

static void html_text(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '&')
			fputs("&amp;", f);
		else if (s[i] == '<')
			fputs("&lt;", f);
		else
			fputc(s[i], f);
}

/* a view into the page: what FN(EV, ARG) writes, as one block */
static void html_block(FILE *f, int ev, const char *kind, void (*fn)(int, int), int arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		xalloc(NULL, SIZE_MAX);         /* (says "out of memory" and exits) */
	out = m;
	fn(ev, arg);
	fclose(m);
	out = stdout;
	fprintf(f, "<textarea hidden class=\"nb-data\" data-ev=\"%d\" data-kind=\"%s\">", ev, kind);
	html_text(f, buf, len);
	fputs("</textarea>\n", f);
	free(buf);
}

static void view_table(int ev, int key)
{
	table(ev, key, 1);
}

static void view_folded(int ev, int unused)
{
	(void)unused;
	folded(ev);
}

/* the source file of EV's hottest function ("file\tPATH", then "N\tTEXT" per
 * line, tabs as spaces); nothing when it has no line information or its
 * file cannot be read here */
static void view_source(int ev, int unused)
{
	struct tally t = { 0 };
	char fb[1024], *line = NULL;
	const char *file = NULL;
	size_t cap = 0;
	FILE *src;
	int n = 0;

	(void)unused;
	for (size_t i = 0; i < nsamples; i++)
		if (samples[i].ev == ev)
			tally_add(&t, fn_name(sym_of(samples[i].space, samples[i].ip), fb, sizeof(fb)), "",
				  samples[i].weight);
	qsort(t.r, t.n, sizeof(*t.r), by_count);
	for (size_t i = 0; t.n && i < nsamples && !file; i++) {
		const struct sym *y = sym_of(samples[i].space, samples[i].ip);

		if (samples[i].ev == ev && y->line && strcmp(y->file, "?") &&
		    !strcmp(fn_name(y, fb, sizeof(fb)), t.r[0].key))
			file = y->file;
	}
	tally_free(&t);
	if (!file || !(src = fopen(file, "r")))
		return;
	fprintf(out, "file\t%s\n", file);
	while (getline(&line, &cap, src) > 0) {
		line[strcspn(line, "\n")] = 0;
		fprintf(out, "%d\t", ++n);
		for (char *c = line; *c; c++)
			fputs(*c == '\t' ? "        " : (char[]){ *c, 0 }, out);
		fputc('\n', out);
	}
	free(line);
	fclose(src);
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	size_t n;
	FILE *a = fopen(from, "rb"), *b;
	int bad;

	if (!a)
		return -1;
	if (!(b = fopen(to, "wb"))) {
		fclose(a);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), a)) > 0)
		if (fwrite(buf, 1, n, b) != n)
			break;
	bad = ferror(a) || ferror(b);
	fclose(a);
	return fclose(b) || bad ? -1 : 0;
}

int html(const char *dir, int only)
{
	char ad[PATH_MAX], from[PATH_MAX + 64], to[PATH_MAX + 64], tmp[PATH_MAX + 64], *tpl = NULL;
	const char *a = asset_dir(ad, sizeof(ad));
	size_t cap = 0;
	ssize_t len;
	struct stat st;
	FILE *f, *page;
	char *mark;

	if (!a)
		return fail(EXIT_READ, "--html: the page's template and libraries are not installed "
			    "(share/p4netburst/report beside the tools; or set NB_REPORT_ASSETS)");
	if (mkdir(dir, 0755) && errno != EEXIST)
		return fail(EXIT_WRITE, "--html=%s: cannot make the folder: %s", dir, strerror(errno));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return fail(EXIT_WRITE, "--html=%s: not a folder", dir);
	snprintf(from, sizeof(from), "%s/report.html", a);
	if (!(f = fopen(from, "r")) || (len = getdelim(&tpl, &cap, 0, f)) <= 0) {
		if (f)
			fclose(f);
		return fail(EXIT_READ, "--html: cannot read the template %s", from);
	}
	fclose(f);
	if (!(mark = strstr(tpl, "<!-- NB_DATA -->")))
		return fail(EXIT_READ, "--html: %s has no NB_DATA mark", from);
	for (size_t i = 0; i < sizeof(assets) / sizeof(assets[0]); i++) {
		snprintf(from, sizeof(from), "%s/%s", a, assets[i]);
		snprintf(to, sizeof(to), "%s/%s", dir, assets[i]);
		if (copy_file(from, to))
			return fail(EXIT_WRITE, "--html: cannot copy %s to %s: %s", from, to,
				    strerror(errno));
	}
	snprintf(to, sizeof(to), "%s/index.html", dir);
	snprintf(tmp, sizeof(tmp), "%s/.index.html.%ld", dir, (long)getpid());
	if (!(page = fopen(tmp, "w")))
		return fail(EXIT_WRITE, "--html: cannot write %s: %s", tmp, strerror(errno));
	{
		char *t = strstr(tpl, "NB_TITLE");

		if (t && t < mark) {
			fwrite(tpl, 1, (size_t)(t - tpl), page);
			html_text(page, command ? command : "?", strlen(command ? command : "?"));
			fwrite(t + 8, 1, (size_t)(mark - t - 8), page);
		} else {
			fwrite(tpl, 1, (size_t)(mark - tpl), page);
		}
	}
	fputs("<textarea hidden id=\"nb-meta\">command\t", page);
	html_text(page, command ? command : "?", strlen(command ? command : "?"));
	fputc('\n', page);
	for (int i = 0; i < nevents; i++) {
		uint64_t total = 0;

		if (only >= 0 && i != only)
			continue;
		for (size_t k = 0; k < nsamples; k++)
			if (samples[k].ev == i)
				total += samples[k].weight;
		fprintf(page, "event\t%d\t", i);
		html_text(page, events[i].name, strlen(events[i].name));
		fprintf(page, "\t%s\t%" PRIu64 "\t%" PRIu64 "\n", events[i].mode, events[i].period, total);
	}
	fputs("</textarea>\n", page);
	for (int i = 0; i < nevents; i++) {
		if (only >= 0 && i != only)
			continue;
		html_block(page, i, "folded", view_folded, 0);
		html_block(page, i, "sym", view_table, K_SYM);
		html_block(page, i, "line", view_table, K_LINE);
		html_block(page, i, "ip", view_table, K_IP);
		html_block(page, i, "data", view_table, K_DATA);
		html_block(page, i, "source", view_source, 0);
	}
	fputs(mark + strlen("<!-- NB_DATA -->"), page);
	free(tpl);
	if (ferror(page) | fclose(page) || rename(tmp, to)) {
		unlink(tmp);
		return fail(EXIT_WRITE, "--html: cannot write %s: %s", to, strerror(errno));
	}
	return 0;
}
