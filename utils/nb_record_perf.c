/*
 * nb_record_perf.c - nb_record's perf backend: sampling through Linux's
 * perf_event_open on a real NetBurst (the kernel's P4 driver,
 * arch/x86/events/intel/p4.c), or under nbsim against its emulated driver
 * (sim/kernel/nb_kern_perf*.c), as perf record samples:
 *
 * - each event opened once per online CPU on PROGRAM's process (pid =
 *   the child, cpu = k: the kernel refuses to mmap an inherited per-task
 *   event with cpu -1, kernel/events/core.c perf_mmap), PERF_TYPE_RAW
 *   with the component's config (nb_perf_raw), disabled with
 *   enable_on_exec (counting from PROGRAM's first instruction) and
 *   inherit (its threads; with --follow its children), user mode only,
 *   sample_period (-F: freq and sample_freq, the kernel adjusting the
 *   period as it goes), sample_type IP | TID | TIME | PERIOD (| CALLCHAIN);
 *   mmap2, comm, comm_exec and task side-band records;
 * - a ring buffer per event (1 + RB_PAGES pages: 512 KB of data, within
 *   the unprivileged perf_event_mlock_kb default of 516 KB), drained
 *   while PROGRAM runs (poll, then data_head with acquire order, the
 *   records, data_tail with release order: the protocol of
 *   include/uapi/linux/perf_event.h's perf_event_mmap_page) and once
 *   after it ends;
 * - the records: PERF_RECORD_SAMPLE (the sample), COMM with
 *   PERF_RECORD_MISC_COMM_EXEC (a new process image: a new space), FORK
 *   (a new process: its parent's mappings copied to its space),
 *   MMAP2 (an executable file mapped: the object an IP falls in and the
 *   file offset, turned into the address in the object's own terms with
 *   its program headers), LOST and THROTTLE (counted and reported);
 * - symbols from the objects' ELF symbol tables (.symtab, else .dynsym):
 *   the function; source lines from the objects' DWARF line tables by
 *   binutils' addr2line, one run per object with all its addresses (the
 *   nbsim backend has valgrind's debug-info reader; nb_report's
 *   --annotate runs objdump the same way).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "nb_record_perf.h"
#include "nb_stat_run.h"

#define RB_PAGES 128
#define MAXCPU 64

/* ---- ELF symbol tables ------------------------------------------------ */

struct esym {
	uint64_t lo, hi;         /* [lo, hi): hi == lo for a symbol of size 0 */
	const char *name;
};

struct elf {
	char *path;
	int nload;
	struct { uint64_t off, filesz, vaddr; } load[32];
	struct esym *sym;
	size_t nsym;
	char *names;             /* the string tables, copied */
};

static struct elf *elves;
static size_t nelves;

static int cmp_esym(const void *a, const void *b)
{
	const struct esym *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	/* a sized symbol before an unsized one at the same address */
	return (y->hi - y->lo > 0) - (x->hi - x->lo > 0);
}

/* the symbols of one symbol-table section (its string table SH_LINK) */
static void elf_syms(struct elf *e, const unsigned char *f, size_t size, const Elf64_Shdr *sh,
		     const Elf64_Shdr *str, size_t *cap, size_t *ncap)
{
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	size_t base;

	if (sh->sh_offset + sh->sh_size > size || str->sh_offset + str->sh_size > size ||
	    sh->sh_entsize < sizeof(Elf64_Sym))
		return;
	/* the string table copied: names live as long as the elf */
	base = *ncap;
	e->names = realloc(e->names, base + str->sh_size + 1);
	if (!e->names)
		return;
	memcpy(e->names + base, f + str->sh_offset, str->sh_size);
	e->names[base + str->sh_size] = 0;
	*ncap = base + str->sh_size + 1;
	for (size_t i = 0; i < n; i++) {
		const Elf64_Sym *s = (const Elf64_Sym *)(f + sh->sh_offset + i * sh->sh_entsize);
		unsigned t = ELF64_ST_TYPE(s->st_info);

		if ((t != STT_FUNC && t != STT_GNU_IFUNC) || s->st_shndx == SHN_UNDEF ||
		    !s->st_value || s->st_name >= str->sh_size)
			continue;
		if (e->nsym == *cap) {
			*cap = *cap ? 2 * *cap : 1024;
			e->sym = realloc(e->sym, *cap * sizeof(*e->sym));
			if (!e->sym) {
				e->nsym = 0;
				return;
			}
		}
		e->sym[e->nsym].lo = s->st_value;
		e->sym[e->nsym].hi = s->st_value + s->st_size;
		/* an offset for now: the table may move (realloc) */
		e->sym[e->nsym].name = (const char *)(uintptr_t)(base + s->st_name);
		e->nsym++;
	}
}

static struct elf *elf_get(const char *path)
{
	struct elf *e;
	unsigned char *f;
	struct stat st;
	size_t cap = 0, ncap = 0;
	int fd;

	for (size_t i = 0; i < nelves; i++)
		if (!strcmp(elves[i].path, path))
			return &elves[i];
	e = realloc(elves, (nelves + 1) * sizeof(*elves));
	if (!e)
		return NULL;
	elves = e;
	e = &elves[nelves++];
	memset(e, 0, sizeof(*e));
	e->path = strdup(path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return e;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(Elf64_Ehdr)) {
		close(fd);
		return e;
	}
	f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f == MAP_FAILED)
		return e;
	{
		const Elf64_Ehdr *h = (const Elf64_Ehdr *)f;
		size_t size = (size_t)st.st_size;

		if (memcmp(h->e_ident, ELFMAG, SELFMAG) || h->e_ident[EI_CLASS] != ELFCLASS64 ||
		    h->e_phoff + (uint64_t)h->e_phnum * sizeof(Elf64_Phdr) > size ||
		    h->e_shoff + (uint64_t)h->e_shnum * sizeof(Elf64_Shdr) > size)
			goto out;
		for (int i = 0; i < h->e_phnum; i++) {
			const Elf64_Phdr *p = (const Elf64_Phdr *)(f + h->e_phoff) + i;

			if (p->p_type == PT_LOAD && e->nload < 32) {
				e->load[e->nload].off = p->p_offset;
				e->load[e->nload].filesz = p->p_filesz;
				e->load[e->nload].vaddr = p->p_vaddr;
				e->nload++;
			}
		}
		/* .symtab where the object has one (not stripped), else the
		 * dynamic symbols */
		for (int want = SHT_SYMTAB; want; want = want == SHT_SYMTAB ? SHT_DYNSYM : 0) {
			for (int i = 0; i < h->e_shnum; i++) {
				const Elf64_Shdr *s = (const Elf64_Shdr *)(f + h->e_shoff) + i;

				if (s->sh_type == (Elf64_Word)want && s->sh_link < h->e_shnum)
					elf_syms(e, f, size, s, (const Elf64_Shdr *)(f + h->e_shoff) + s->sh_link,
						 &cap, &ncap);
			}
			if (e->nsym)
				break;
		}
		for (size_t i = 0; i < e->nsym; i++)
			e->sym[i].name = e->names + (uintptr_t)e->sym[i].name;
		if (e->nsym)
			qsort(e->sym, e->nsym, sizeof(*e->sym), cmp_esym);
	}
out:
	munmap(f, (size_t)st.st_size);
	return e;
}

/* the address in the object's own terms of file offset OFF (its PT_LOAD
 * segment's), or OFF itself */
static uint64_t elf_svma(const struct elf *e, uint64_t off)
{
	for (int i = 0; i < e->nload; i++)
		if (off >= e->load[i].off && off < e->load[i].off + e->load[i].filesz)
			return off - e->load[i].off + e->load[i].vaddr;
	return off;
}

static const char *elf_fn(const struct elf *e, uint64_t svma)
{
	size_t lo = 0, hi = e->nsym;

	/* the last symbol starting at or below SVMA */
	while (lo < hi) {
		size_t m = (lo + hi) / 2;

		if (e->sym[m].lo <= svma)
			lo = m + 1;
		else
			hi = m;
	}
	/* SVMA in it, or in an unsized one with nothing sized over it;
	 * a few back for nested (an alias with a larger size) */
	for (size_t k = lo, back = 0; k > 0 && back < 8; k--, back++) {
		const struct esym *s = &e->sym[k - 1];

		if (svma < s->hi || (s->hi == s->lo && back == 0))
			return s->name;
	}
	return NULL;
}

/* ---- the run's state -------------------------------------------------- */

struct space {
	long pid;
	int image;               /* exec's count in this pid (COMM_EXEC)   */
	int nthr;
	long thr[256];           /* kernel tids, as numbered (1: the pid's) */
};

struct map {
	int space;
	uint64_t start, len, pgoff;
	char *path;
};

struct samp {
	int ev, space;
	uint32_t tid;
	uint64_t ip;
	int depth;
	uint64_t *stack;         /* return address - 1, innermost first */
};

struct buf {
	int fd, ev;
	unsigned char *base;
	size_t maplen;
	/* per buffer: each pid's image count, the COMM_EXEC records seen
	 * in this buffer (every buffer has its own side-band records) */
	struct { long pid; int image; } img[64];
	int nimg;
};

struct run {
	struct nbr_perf_event *ev;
	int nev, depth, follow;
	long child;
	struct buf *b;
	int nb;
	struct space *sp;
	int nsp;
	struct map *m;
	size_t nm;
	struct samp *s;
	size_t ns;
	struct nbr_perf_stats *st;
	long *forked;            /* the children FORK records named      */
	size_t nforked;
	int oom;
};

static int image_of(struct buf *b, long pid)
{
	for (int i = 0; i < b->nimg; i++)
		if (b->img[i].pid == pid)
			return b->img[i].image;
	return 0;
}

static void image_next(struct buf *b, long pid)
{
	for (int i = 0; i < b->nimg; i++)
		if (b->img[i].pid == pid) {
			b->img[i].image++;
			return;
		}
	if (b->nimg < 64) {
		b->img[b->nimg].pid = pid;
		b->img[b->nimg++].image = 1;
	}
}

static int space_of(struct run *r, long pid, int image)
{
	struct space *n;

	for (int i = 0; i < r->nsp; i++)
		if (r->sp[i].pid == pid && r->sp[i].image == image)
			return i;
	n = realloc(r->sp, (size_t)(r->nsp + 1) * sizeof(*r->sp));
	if (!n) {
		r->oom = 1;
		return -1;
	}
	r->sp = n;
	memset(&r->sp[r->nsp], 0, sizeof(*r->sp));
	r->sp[r->nsp].pid = pid;
	r->sp[r->nsp].image = image;
	return r->nsp++;
}

/* the thread's number in its process: 1 the main thread (tid = pid), then
 * the others as their first samples come */
static unsigned thread_no(struct space *s, long tid)
{
	if (tid == s->pid)
		return 1;
	for (int i = 0; i < s->nthr; i++)
		if (s->thr[i] == tid)
			return (unsigned)i + 2;
	if (s->nthr < 256)
		s->thr[s->nthr++] = tid;
	return (unsigned)s->nthr + 1;
}

static void add_map(struct run *r, int space, uint64_t start, uint64_t len, uint64_t pgoff,
		    const char *path)
{
	struct map *n;

	for (size_t i = 0; i < r->nm; i++)
		if (r->m[i].space == space && r->m[i].start == start && r->m[i].len == len &&
		    r->m[i].pgoff == pgoff && !strcmp(r->m[i].path, path))
			return;             /* the same record from another buffer */
	n = realloc(r->m, (r->nm + 1) * sizeof(*r->m));
	if (!n) {
		r->oom = 1;
		return;
	}
	r->m = n;
	r->m[r->nm].space = space;
	r->m[r->nm].start = start;
	r->m[r->nm].len = len;
	r->m[r->nm].pgoff = pgoff;
	r->m[r->nm].path = strdup(path);
	if (!r->m[r->nm].path) {
		r->oom = 1;
		return;
	}
	r->nm++;
}

/* the newest mapping of SPACE over IP; or (a forked child, whose mappings
 * are its parent's: no FORK record copies them) of PROGRAM's newest image */
static const struct map *map_of(struct run *r, int space, uint64_t ip)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = r->nm; i-- > 0;) {
			const struct map *m = &r->m[i];
			int ok = pass == 0 ? m->space == space : r->sp[m->space].pid == r->child;

			if (ok && ip >= m->start && ip - m->start < m->len)
				return m;
		}
	}
	return NULL;
}

static void copy_ring(unsigned char *dst, const unsigned char *data, uint64_t size, uint64_t at,
		      size_t n)
{
	uint64_t o = at & (size - 1);
	size_t first = size - o < n ? (size_t)(size - o) : n;

	memcpy(dst, data + o, first);
	if (first < n)
		memcpy(dst + first, data, n - first);
}

static uint64_t u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* PERF_RECORD_SAMPLE: ip, pid/tid, time, period [, nr, ips] */
static void on_sample(struct run *r, struct buf *b, const unsigned char *p, size_t n)
{
	struct samp s;
	uint32_t pid;
	size_t need = 32;

	if (n < need)
		return;
	memset(&s, 0, sizeof(s));
	s.ev = b->ev;
	s.ip = u64(p);
	pid = u32(p + 8);
	s.tid = u32(p + 12);
	if (!r->follow && pid != (uint32_t)r->child) {
		r->st->other++;
		return;
	}
	if (r->depth) {
		uint64_t nr, k = 0;

		if (n < need + 8)
			return;
		nr = u64(p + 32);
		if (n < need + 8 + nr * 8)
			return;
		s.stack = nr ? malloc((size_t)nr * sizeof(*s.stack)) : NULL;
		for (uint64_t i = 0, first = 1; i < nr; i++) {
			uint64_t a = u64(p + 40 + i * 8);

			if (a >= (uint64_t)PERF_CONTEXT_MAX)
				continue;       /* PERF_CONTEXT_USER and the like */
			if (first) {            /* the sampled IP itself */
				first = 0;
				continue;
			}
			if ((int)k < r->depth && s.stack)
				s.stack[k++] = a - 1;
		}
		s.depth = (int)k;
	}
	s.space = space_of(r, pid, image_of(b, pid));
	if (s.space < 0)
		return;
	{
		struct samp *ns = r->ns % 4096 ? r->s : realloc(r->s, (r->ns + 4096) * sizeof(*r->s));

		if (!ns) {
			r->oom = 1;
			free(s.stack);
			return;
		}
		r->s = ns;
	}
	r->s[r->ns++] = s;
	r->ev[b->ev].samples++;
	r->ev[b->ev].period_sum += u64(p + 24);
}

/* A forked child CHILD of PARENT: the mappings of the parent's image
 * become the child's (its image 0), as fork copies the address space */
static void fork_maps(struct run *r, struct buf *b, long parent, long child)
{
	int ps = space_of(r, parent, image_of(b, parent)), cs = space_of(r, child, image_of(b, child));
	size_t nm = r->nm;

	if (ps < 0 || cs < 0)
		return;
	/* (one record per event and CPU: the processes counted once) */
	for (size_t i = 0; i < r->nforked; i++)
		if (r->forked[i] == child)
			goto maps;
	if (r->nforked % 64 == 0) {
		long *f = realloc(r->forked, (r->nforked + 64) * sizeof(*f));

		if (!f) {
			r->oom = 1;
			return;
		}
		r->forked = f;
	}
	r->forked[r->nforked++] = child;
	r->st->forks++;
maps:
	for (size_t i = 0; i < nm; i++)
		if (r->m[i].space == ps) {
			struct map m = r->m[i];      /* (add_map may move r->m) */

			add_map(r, cs, m.start, m.len, m.pgoff, m.path);
		}
}

static void on_record(struct run *r, struct buf *b, const struct perf_event_header *h,
		      const unsigned char *p, size_t n)
{
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		on_sample(r, b, p, n);
		break;
	case PERF_RECORD_COMM:
		if ((h->misc & PERF_RECORD_MISC_COMM_EXEC) && n >= 8)
			image_next(b, (long)u32(p));
		break;
	case PERF_RECORD_FORK:
		/* pid, ppid, tid, ptid: a new process (not a thread) starts
		 * with its parent's mappings, until it execs */
		if (n >= 16 && u32(p) == u32(p + 8) && u32(p) != u32(p + 4) &&
		    (r->follow || (long)u32(p + 4) == r->child))
			fork_maps(r, b, (long)u32(p + 4), (long)u32(p));
		break;
	case PERF_RECORD_MMAP2:
		/* pid, tid, addr, len, pgoff, maj, min, ino, ino_generation,
		 * prot, flags, filename */
		if (n > 64) {
			long pid = (long)u32(p);
			char path[4096];
			size_t l = n - 64 < sizeof(path) - 1 ? n - 64 : sizeof(path) - 1;

			memcpy(path, p + 64, l);
			path[l] = 0;
			if (!r->follow && pid != r->child)
				break;
			if (path[0] == '/') {
				int sp = space_of(r, pid, image_of(b, pid));

				if (sp >= 0)
					add_map(r, sp, u64(p + 8), u64(p + 16), u64(p + 24), path);
			}
		}
		break;
	case PERF_RECORD_LOST:
		if (n >= 16)
			r->st->lost += u64(p + 8);
		break;
	case PERF_RECORD_THROTTLE:
		r->st->throttles++;
		break;
	default:
		break;
	}
}

/* the records between data_tail and data_head, then data_tail moved on */
static void drain(struct run *r, struct buf *b)
{
	static unsigned char rec[65536];
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)b->base;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	uint64_t size = pg->data_size ? pg->data_size : (uint64_t)RB_PAGES * (uint64_t)getpagesize();
	const unsigned char *data = b->base + (pg->data_offset ? pg->data_offset : (uint64_t)getpagesize());

	if (size & (size - 1))
		return;
	while (head - tail >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;

		copy_ring((unsigned char *)&h, data, size, tail, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail)
			break;
		copy_ring(rec, data, size, tail, h.size);
		on_record(r, b, &h, rec + sizeof(h), h.size - sizeof(h));
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* the simulated or real machine's online CPUs (a list such as 0-1,3) */
static int online_cpus(int *cpu, int max)
{
	char buf[256], *s = buf;
	int n = 0, fd = open("/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC);
	ssize_t l = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (l <= 0) {
		cpu[0] = 0;
		return 1;
	}
	buf[l] = 0;
	while (*s && *s != '\n' && n < max) {
		char *e;
		long a = strtol(s, &e, 10), z = a;

		if (e == s)
			break;
		if (*e == '-')
			z = strtol(e + 1, &e, 10);
		for (long k = a; k <= z && n < max; k++)
			cpu[n++] = (int)k;
		s = *e == ',' ? e + 1 : e;
	}
	if (!n)
		cpu[n++] = 0;
	return n;
}

/* ---- the profile ------------------------------------------------------- */

struct seen {
	uint64_t *ip;
	size_t n, cap;
};

static int seen_add(struct seen *z, uint64_t ip)
{
	for (size_t i = 0; i < z->n; i++)
		if (z->ip[i] == ip)
			return 0;
	if (z->n == z->cap) {
		z->cap = z->cap ? 2 * z->cap : 256;
		z->ip = realloc(z->ip, z->cap * sizeof(*z->ip));
		if (!z->ip) {
			z->n = z->cap = 0;
			return 1;
		}
	}
	z->ip[z->n++] = ip;
	return 1;
}

/* ---- source lines (addr2line) ------------------------------------------ */

struct srcline {
	size_t e;                /* the object: elves[e] (elf_get moves them) */
	uint64_t svma;
	char *file;              /* NULL: none */
	unsigned line;
};

static struct srcline *srcl;
static size_t nsrcl;

static int cmp_srcline(const void *a, const void *b)
{
	const struct srcline *x = a, *y = b;

	if (x->e != y->e)
		return x->e < y->e ? -1 : 1;
	return x->svma < y->svma ? -1 : x->svma > y->svma;
}

static void srcline_want(size_t e, uint64_t svma, size_t *cap)
{
	if (nsrcl == *cap) {
		struct srcline *n = realloc(srcl, (*cap = *cap ? 2 * *cap : 1024) * sizeof(*srcl));

		if (!n)
			return;
		srcl = n;
	}
	srcl[nsrcl].e = e;
	srcl[nsrcl].svma = svma;
	srcl[nsrcl].file = NULL;
	srcl[nsrcl++].line = 0;
}

/* addr2line's answers for srcl[from, to), all of object e: one line each,
 * FILE:LINE, "??:0" or FILE:? when the tables have none, and a
 * " (discriminator N)" after some */
static void srcline_run(size_t ei, size_t from, size_t to)
{
	const struct elf *e = &elves[ei];
	char in[] = "/tmp/nb_record.XXXXXX", cmd[8192], line[8192];
	int fd = mkstemp(in);
	FILE *f, *p;

	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(in);
		return;
	}
	for (size_t i = from; i < to; i++)
		fprintf(f, "%" PRIx64 "\n", srcl[i].svma);
	fclose(f);
	/* (the object's path quoted for the shell: no ' in it, else no lines) */
	if (!strchr(e->path, '\'') &&
	    snprintf(cmd, sizeof(cmd), "addr2line -e '%s' < %s 2>/dev/null", e->path, in) <
	    (int)sizeof(cmd) && (p = popen(cmd, "r"))) {
		for (size_t i = from; i < to && fgets(line, sizeof(line), p); i++) {
			char *c, *d = strstr(line, " (discriminator");

			if (d)
				*d = 0;
			line[strcspn(line, "\n")] = 0;
			c = strrchr(line, ':');
			if (!c || c == line || !strncmp(line, "??", 2) || c[1] < '1' || c[1] > '9')
				continue;
			*c = 0;
			for (char *t = line; *t; t++)        /* one field */
				if (*t == '\t')
					*t = ' ';
			srcl[i].line = (unsigned)strtoul(c + 1, NULL, 10);
			srcl[i].file = strdup(line);
		}
		pclose(p);
	}
	unlink(in);
}

/* the source lines of every address the profile names, by object */
static void srclines(struct run *r)
{
	size_t cap = 0, k = 0;

	for (size_t i = 0; i < r->ns; i++) {
		const struct samp *s = &r->s[i];

		for (int d = -1; d < s->depth; d++) {
			uint64_t ip = d < 0 ? s->ip : s->stack[d];
			const struct map *m = map_of(r, s->space, ip);
			const struct elf *e = m ? elf_get(m->path) : NULL;

			if (e)
				srcline_want((size_t)(e - elves), elf_svma(e, ip - m->start + m->pgoff),
					     &cap);
		}
	}
	if (!nsrcl)
		return;
	qsort(srcl, nsrcl, sizeof(*srcl), cmp_srcline);
	for (size_t i = 1; i < nsrcl; i++)
		if (cmp_srcline(&srcl[i], &srcl[k]))
			srcl[++k] = srcl[i];
	nsrcl = k + 1;
	for (size_t i = 0, j; i < nsrcl; i = j) {
		for (j = i + 1; j < nsrcl && srcl[j].e == srcl[i].e; j++)
			;
		srcline_run(srcl[i].e, i, j);
	}
}

static const struct srcline *srcline_of(const struct elf *e, uint64_t svma)
{
	struct srcline k = { .e = (size_t)(e - elves), .svma = svma };

	return nsrcl ? bsearch(&k, srcl, nsrcl, sizeof(*srcl), cmp_srcline) : NULL;
}

static void put_sym(struct run *r, FILE *out, int space, uint64_t ip)
{
	const struct map *m = map_of(r, space, ip);
	const struct elf *e = m ? elf_get(m->path) : NULL;
	const struct srcline *l = NULL;
	uint64_t svma = ip;
	const char *fn = NULL;

	if (!m)
		r->st->unresolved++;
	if (e) {
		svma = elf_svma(e, ip - m->start + m->pgoff);
		fn = elf_fn(e, svma);
		l = srcline_of(e, svma);
	}
	fprintf(out, "sym\t%d\t%" PRIx64 "\t%s\t%" PRIx64 "\t%s\t%s\t%u\n", space, ip,
		m ? m->path : "?", svma, fn ? fn : "?", l && l->file ? l->file : "?",
		l && l->file ? l->line : 0);
}

static void write_profile(struct run *r, FILE *out)
{
	srclines(r);
	for (int sp = 0; sp < r->nsp; sp++) {
		struct seen z = { 0 };
		int any = 0;

		for (size_t i = 0; i < r->ns; i++) {
			struct samp *s = &r->s[i];

			if (s->space != sp)
				continue;
			if (!any++)
				fprintf(out, "space\t%d\t%ld\n", sp, r->sp[sp].pid);
			if (seen_add(&z, s->ip))
				put_sym(r, out, sp, s->ip);
			for (int k = 0; k < s->depth; k++)
				if (seen_add(&z, s->stack[k]))
					put_sym(r, out, sp, s->stack[k]);
			fprintf(out, "sample\t%d\t%d\t%u\t%u\t1\t%" PRIx64 "\t-\t", s->ev, sp,
				thread_no(&r->sp[sp], (long)s->tid), s->tid, s->ip);
			for (int k = 0; k < s->depth; k++)
				fprintf(out, "%s%" PRIx64, k ? "," : "", s->stack[k]);
			fprintf(out, "%s\t-\t-\n", s->depth ? "" : "-");
		}
		if (!any)
			fprintf(out, "space\t%d\t%ld\n", sp, r->sp[sp].pid);
		free(z.ip);
	}
	for (size_t i = 0; i < nsrcl; i++)
		free(srcl[i].file);
	free(srcl);
	srcl = NULL;
	nsrcl = 0;
}

/* ---- the run ------------------------------------------------------------ */

int nbr_run_perf(const struct st_config *c, struct nbr_perf_event *ev, int n, int depth,
		 FILE *out, struct nbr_perf_stats *st, int *status, char *err, size_t len)
{
	struct run r;
	int cpu[MAXCPU], ncpu = online_cpus(cpu, MAXCPU), go[2], rc = -1, done = 0;
	struct pollfd *pf;
	size_t maplen = (size_t)(1 + RB_PAGES) * (size_t)getpagesize();
	pid_t pid;
	char b;

	memset(&r, 0, sizeof(r));
	memset(st, 0, sizeof(*st));
	st->ncpus = ncpu;
	r.ev = ev;
	r.nev = n;
	r.depth = depth;
	r.follow = c->follow;
	r.st = st;
	r.b = calloc((size_t)(n * ncpu), sizeof(*r.b));
	pf = calloc((size_t)(n * ncpu), sizeof(*pf));
	if (!r.b || !pf) {
		snprintf(err, len, "out of memory");
		free(r.b);
		free(pf);
		return -1;
	}
	if (pipe2(go, O_CLOEXEC)) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		free(r.b);
		free(pf);
		return -1;
	}
	fflush(NULL);
	pid = st_fork_child();
	if (pid < 0) {
		snprintf(err, len, "fork: %s", strerror(errno));
		goto out_pipe;
	}
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(ST_EXIT_BACKEND);    /* the parent could not open the events */
		execvp(c->argv[0], c->argv);
		_exit(errno == ENOENT ? ST_EXIT_NOTFOUND : ST_EXIT_NOEXEC);
	}
	close(go[0]);
	go[0] = -1;
	r.child = pid;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < ncpu; k++) {
			struct perf_event_attr a;
			struct buf *bf = &r.b[r.nb];
			int fd;

			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.type = PERF_TYPE_RAW;
			a.config = ev[i].config;
			if (ev[i].freq) {
				a.freq = 1;
				a.sample_freq = ev[i].freq;
			} else
				a.sample_period = ev[i].period;
			a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				PERF_SAMPLE_PERIOD | (depth ? PERF_SAMPLE_CALLCHAIN : 0);
			a.disabled = 1;
			a.enable_on_exec = 1;
			a.inherit = 1;
			a.exclude_kernel = 1;
			a.exclude_hv = 1;
			a.exclude_callchain_kernel = 1;
			a.mmap = 1;
			a.mmap2 = 1;
			a.comm = 1;
			a.comm_exec = 1;
			a.task = 1;
			a.wakeup_events = 0;    /* the default watermark: half the buffer */
			fd = (int)syscall(SYS_perf_event_open, &a, pid, cpu[k], -1, PERF_FLAG_FD_CLOEXEC);
			if (fd < 0) {
				snprintf(err, len, "perf_event_open(raw %#llx, period %llu, cpu %d): %s%s",
					 (unsigned long long)a.config, (unsigned long long)a.sample_period,
					 cpu[k], strerror(errno),
					 errno == EACCES || errno == EPERM ? " (perf_event_paranoid?)" : "");
				goto out_kill;
			}
			bf->fd = fd;
			bf->ev = i;
			bf->maplen = maplen;
			bf->base = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (bf->base == MAP_FAILED) {
				bf->base = NULL;
				snprintf(err, len, "mmap of a perf ring buffer (%zu KB): %s%s", maplen / 1024,
					 strerror(errno), errno == EPERM ? " (perf_event_mlock_kb?)" : "");
				close(fd);
				goto out_kill;
			}
			pf[r.nb].fd = fd;
			pf[r.nb].events = POLLIN;
			r.nb++;
		}
	}
	if (write(go[1], "g", 1) != 1) {
		snprintf(err, len, "cannot start the program: %s", strerror(errno));
		goto out_kill;
	}
	close(go[1]);
	go[1] = -1;
	/* PROGRAM runs: the buffers drained at each wakeup (half a buffer)
	 * and every 100 ms */
	while (!done) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid) {
			done = 1;
			break;
		}
		if (w < 0 && errno != EINTR) {
			snprintf(err, len, "waitpid: %s", strerror(errno));
			goto out;
		}
		if (st_interrupted) {
			st_wait_child(pid, status);
			done = 1;
			break;
		}
		(void)poll(pf, (nfds_t)r.nb, 100);
		for (int i = 0; i < r.nb; i++)
			drain(&r, &r.b[i]);
	}
	/* what PROGRAM wrote before it ended */
	for (int i = 0; i < r.nb; i++)
		drain(&r, &r.b[i]);
	for (int i = 0; i < r.nb; i++) {
		uint64_t v = 0;

		if (read(r.b[i].fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
			ev[r.b[i].ev].count += v;
	}
	if (r.oom) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	write_profile(&r, out);
	rc = 0;
	goto out;
out_kill:
	/* the child waits on the pipe: closing it ends it */
	if (go[1] >= 0)
		close(go[1]);
	go[1] = -1;
	st_wait_child(pid, status);
out:
	for (int i = 0; i < r.nb; i++) {
		if (r.b[i].base)
			munmap(r.b[i].base, r.b[i].maplen);
		close(r.b[i].fd);
	}
	for (size_t i = 0; i < r.ns; i++)
		free(r.s[i].stack);
	for (size_t i = 0; i < r.nm; i++)
		free(r.m[i].path);
	free(r.s);
	free(r.m);
	free(r.sp);
	free(r.forked);
	free(r.b);
	free(pf);
	return rc;
out_pipe:
	close(go[0]);
	close(go[1]);
	free(r.b);
	free(pf);
	return -1;
}
