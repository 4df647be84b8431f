/*
 * nb_kern_maps.c - /proc/self/maps as the simulated program sees it: its
 * own mappings, not valgrind's.  The host's file lists the process
 * valgrind runs, so the tool binary (at its install path), valgrind's
 * arenas and translation cache and its stack are there too; a program
 * that parses its maps (PAPI's shared-library table, linux-memory.c and
 * _linux_update_shlib_info; glibc's pthread_getattr_np; profilers) then
 * allocated and worked by where and how big the tool was, and its counts
 * moved with the tool's build and install path.  On a NetBurst the file
 * has the program's mappings only.
 *
 * Mechanism: the preload library answers open, openat and fopen of the
 * process's maps (/proc/self/maps, /proc/thread-self/maps, /proc/PID/maps,
 * .../task/TID/maps) with a memory file holding what KOP_MAPS returns
 * (vg_preload_nbsim.c nbsim_maps_fd).  Each line of the host's file is
 * kept unless valgrind's address-space manager has its first address in
 * one of valgrind's own segments (SkAnonV, SkFileV); the lines are the
 * kernel's, but for the preload libraries' (valgrind's and this tool's,
 * in the guest's address space), whose path is given as the guest loaded
 * it, through the launcher's directory of links (VALGRIND_LIB, ten
 * digits whatever the install path: nbsim.sh), not the path the kernel
 * resolved, which moved with the tool's install path.  The host's
 * [stack] is valgrind's own; the main thread's stack, which valgrind
 * mapped for the guest, gets the name instead (its line holds the stack's
 * top, VG_(thread_get_stack_max) of thread 1), as the kernel names the
 * process's stack.  Read at each open, as the kernel's file is.
 *
 * Not covered: smaps, numa_maps and the other per-mapping files; reads
 * by glibc's internal calls (they bypass the wrappers).
 */
#include "nb_kern_int.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"

/* the host's /proc/self/maps whole, NUL-terminated, into a buffer of
 * ours (VG_(free) it); its length in *n; NULL if it cannot be read */
static HChar *read_maps(SizeT *n)
{
	SysRes r = VG_(open)("/proc/self/maps", VKI_O_RDONLY, 0);
	SizeT cap = 65536, len = 0;
	HChar *b;
	Int fd;

	if (sr_isError(r))
		return NULL;
	fd = (Int)sr_Res(r);
	b = VG_(malloc)("nb.kern.maps", cap);
	for (;;) {
		Int k;
		if (cap - len < 4096) {
			cap *= 2;
			b = VG_(realloc)("nb.kern.maps", b, cap);
		}
		k = VG_(read)(fd, b + len, (Int)(cap - len - 1));
		if (k <= 0)
			break;
		len += (SizeT)k;
	}
	VG_(close)(fd);
	b[len] = 0;
	*n = len;
	return b;
}

/* is the mapping that starts at a valgrind's own? */
static Bool valgrinds(Addr a)
{
	NSegment const *s = VG_(am_find_nsegment)(a);

	return s && (s->kind == SkAnonV || s->kind == SkFileV);
}

/* the end of the mapping whose line starts at P (the hex after '-') */
static Addr end_of(const HChar *p)
{
	Addr e = 0;

	while (*p && *p != '-' && *p != '\n')
		p++;
	if (*p != '-')
		return 0;
	for (p++; ; p++) {
		UInt d = *p >= '0' && *p <= '9' ? (UInt)(*p - '0') :
			*p >= 'a' && *p <= 'f' ? (UInt)(*p - 'a' + 10) : 16;
		if (d == 16)
			return e;
		e = e * 16 + d;
	}
}

/* L bytes at P onto BUF (LEN bytes) at *OUT, as far as they fit */
static void emit(Addr buf, UWord len, SizeT *out, const HChar *p, SizeT l)
{
	if (*out < len)
		VG_(memcpy)((HChar *)buf + *out, p, *out + l <= len ? l : len - *out);
	*out += l;
}

/* KOP_MAPS (buf, len): the program's maps into BUF (at most LEN bytes);
 * the whole length, which may exceed LEN (the preload asks again with
 * room enough) */
Word nbk_maps(Addr buf, UWord len)
{
	SizeT n, out = 0;
	HChar *m, *p;
	Addr top;

	if (len && !nbk_writable(buf, len))
		return -E_FAULT;
	top = VG_(thread_get_stack_max)(1);
	m = read_maps(&n);
	if (!m)
		return -E_NOENT;
	for (p = m; *p; ) {
		HChar *e = VG_(strchr)(p, '\n');
		SizeT l = e ? (SizeT)(e - p) + 1 : VG_(strlen)(p);
		Addr a = 0;

		for (const HChar *c = p; ; c++) {
			UInt d = *c >= '0' && *c <= '9' ? (UInt)(*c - '0') :
				*c >= 'a' && *c <= 'f' ? (UInt)(*c - 'a' + 10) : 16;
			if (d == 16)
				break;
			a = a * 16 + d;
		}
		if (!valgrinds(a)) {
			const HChar *q = p, *lib = VG_(getenv)("VALGRIND_LIB");
			HChar *pre = NULL, *slash;
			/* the path: from the first '/' of the line, if any */
			while (q < p + l && *q != '/')
				q++;
			if (lib && q < p + l && (slash = VG_(strstr)(q, "/vgpreload_")) && slash < p + l) {
				SizeT head = (SizeT)(q - p), tail = l - (SizeT)(slash - p);
				pre = VG_(malloc)("nb.kern.maps", head + VG_(strlen)(lib) + tail + 1);
				VG_(memcpy)(pre, p, head);
				VG_(strcpy)(pre + head, lib);
				VG_(memcpy)(pre + head + VG_(strlen)(lib), slash, tail);
				emit(buf, len, &out, pre, head + VG_(strlen)(lib) + tail);
				VG_(free)(pre);
			} else if (q == p + l && a <= top - 1 && top - 1 < end_of(p)) {
				/* (the kernel pads the name to column 73) */
				HChar named[160];
				SizeT k = l - (p[l - 1] == '\n');
				if (k < 73 && k + 9 <= sizeof named) {
					VG_(memcpy)(named, p, k);
					while (k < 73)
						named[k++] = ' ';
					VG_(strcpy)(named + k, "[stack]\n");
					emit(buf, len, &out, named, VG_(strlen)(named));
				} else {
					emit(buf, len, &out, p, l);
				}
			} else {
				emit(buf, len, &out, p, l);
			}
		}
		p += l;
	}
	VG_(free)(m);
	return (Word)out;
}
