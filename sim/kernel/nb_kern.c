/*
 * nb_kern.c - nbsim's emulated kernel: what a Linux kernel on a NetBurst
 * shows a program through /dev/cpu/N/msr, perf_event_open (the P4 driver,
 * arch/x86/events/intel/p4.c) and /proc/sys/kernel/perf_event_paranoid,
 * over the simulated PMU.  The preload library's wrappers
 * (vg_preload_nbsim.c) reach it through NBSIM_REQ_KERN (nbsim_kern.h).
 * sim/README.md "Emulated kernel" says what is emulated and what is not.
 *
 * msr driver (arch/x86/kernel/msr.c semantics): one device per simulated
 * logical processor; open needs the file's permission (mode 0600 root:
 * EACCES otherwise) and CAP_SYS_RAWIO (EPERM); reads and writes move 8
 * bytes per access of the MSR at the file offset, EINVAL for a count not a
 * multiple of 8, EIO where the CPU raises #GP.  --msr-driver=no: the
 * module is not loaded (ENOENT).
 *
 * perf driver: raw configs are validated and placed by the shared model of
 * the kernel's policy (components/p4netburst/nb_linux_sched.c: first fit
 * on the thread's half, counter 1 never used, an ESCR never shared); a
 * group that does not fit is EINVAL, as validate_group makes it.  Events
 * are per thread: on a thread switch the running thread's events leave
 * the PMU (counts saved) and the next thread's come on.  Counting, group
 * reads with the enabled/running times (simulated time: cycles at the
 * model's clock), the ioctls, sampling (sample_period: the counter is
 * preset to -left with OVF_PMI, the PMI reloads it as the kernel does),
 * the ring buffer's records and the overflow signal (fcntl O_ASYNC,
 * F_SETSIG, F_SETOWN/F_SETOWN_EX; si_code POLL_IN, POLL_HUP when the
 * IOC_REFRESH limit is reached, si_fd).  inherit: copies for the threads
 * and forked processes created afterwards, summed into the original when
 * they exit (a forked child's nbsim reports through a file).  exec: the
 * events that outlive it go to the new image's nbsim through a file;
 * enable_on_exec enables them there.
 */
#include "nb_kern_int.h"

/* ---- the msr driver ---- */

static Word msr_open(const HChar *path, UWord flags)
{
	const HChar *p = path + 9;          /* after "/dev/cpu/" */
	unsigned cpu = 0;
	int i;

	if (*p < '0' || *p > '9')
		return NBSIM_KERN_PASS;
	for (; *p >= '0' && *p <= '9'; p++)
		cpu = cpu * 10 + (unsigned)(*p - '0');
	if (VG_(strcmp)(p, "/msr"))
		return NBSIM_KERN_PASS;         /* cpuid and others: the host's */
	if (!clo_msr_driver || cpu >= nbk_ncpus())
		return -E_NOENT;                /* no module, or no such CPU: no node */
	(void)flags;
	if (nb_euid() != 0)
		return -E_ACCES;                /* crw------- root root */
	if (!nbk_rawio_capable())
		return -E_PERM;                 /* msr_open: capable(CAP_SYS_RAWIO) */
	i = nbk_new_obj(K_MSR);
	if (i < 0)
		return -E_MFILE;
	ko[i].cpu = cpu;
	return i + 1;
}

/* 8 bytes per access of MSR (the offset, truncated to 32 bits). */
static Word msr_rw(struct kobj *o, Addr buf, UWord n, UWord off, Bool wr)
{
	uint32_t msr = (uint32_t)(off == (UWord)-1 ? o->pos : off);
	UWord done = 0;

	if (n % 8)
		return -E_INVAL;
	if (!(wr ? nbk_readable(buf, n) : nbk_writable(buf, n)))
		return -E_FAULT;
	/* nbsim has one PMU image for the package; the device of either LP
	 * reaches it (the ESCRs' T0/T1 bits select the logical processor) */
	for (; done < n; done += 8) {
		uint64_t v;
		UWord r;

		if (wr) {
			v = *(const ULong *)(buf + done);
			r = nb_wrmsr_req(msr, v);
		} else {
			r = nb_rdmsr_req(msr, &v);
			if (r == NBSIM_OK)
				*(ULong *)(buf + done) = v;
		}
		if (r != NBSIM_OK)
			break;
	}
	return done ? (Word)done : -E_IO;
}

/* ---- the request ---- */

static Word kopen(Addr path, UWord flags)
{
	const HChar *p = (const HChar *)path;

	if (!nbk_readable(path, 1))
		return -E_FAULT;
	if (!VG_(strncmp)(p, "/dev/cpu/", 9))
		return msr_open(p, flags);
	if (!VG_(strcmp)(p, "/proc/sys/kernel/perf_event_paranoid")) {
		if ((flags & 3) != 0)
			return nb_euid() == 0 ? -E_ROFS : -E_ACCES;
		return NBSIM_KERN_FILE;
	}
	return NBSIM_KERN_PASS;
}

static void kclose(UWord fd)
{
	struct kobj *o = nbk_obj_of_fd(fd);
	int self;

	if (!o)
		return;
	fd_obj[fd] = 0;
	self = (int)(o - ko);
	if (o->kind == K_PERF) {
		ThreadId owner = o->owner;
		ULong now = nbk_now_ns();

		nbk_sched_out(o, now);
		/* perf_event_release_kernel: its copies in other threads go too */
		for (int i = 0; i < NOBJ; i++)
			if (ko[i].kind == K_PERF && ko[i].parent == self) {
				nbk_sched_out(&ko[i], now);
				ko[i].kind = K_FREE;
				nperf--;
			}
		/* perf_group_detach: the members become singletons */
		for (int i = 0; i < NOBJ; i++)
			if (ko[i].kind == K_PERF && i != self && ko[i].leader == self)
				ko[i].leader = i;
		o->kind = K_FREE;
		nperf--;
		if (o->tpid && !o->foreign) {
			HChar path[256];

			nbk_attach_publish(o->tpid);   /* the target takes no new copy */
			nbk_rb_path(nb_pid(), o->id, "rb", path, sizeof path);
			VG_(unlink)(path);             /* its ring buffer's file */
			nbk_rb_path(nb_pid(), o->id, "fifo", path, sizeof path);
			VG_(unlink)(path);
		}
		if (owner)
			nbk_place_thread(owner);
		nbk_resched(now);
	}
	o->kind = K_FREE;
}

void nb_kern_init(void)
{
	VG_(atfork)(NULL, NULL, nbk_task_after_fork);
	nbk_ptrace_init();               /* a traced exec's stop, first */
	nbk_exec_load();
	if (nbk_ptrace_stopped)          /* events opened during the stop */
		nbk_attach_init();
}

/* The requests that touch no PMU register: the preload's bookkeeping
 * around the guest's own files and mappings (KOP_OPEN of a path the
 * emulated kernel may own, KOP_MUNMAP of any mapping, KOP_ATTACH after
 * every read(2)) and the lookups of paths and descriptors.  An anchor
 * at each of them made the sampled clock forget what it learned at
 * every read of a program's input (awk reading a 3.2 MB text: 788
 * anchors, 14.4 M superblock runs walked of 115 M).  KOP_ATTACH that
 * installs events anchors in nbk_attach_take. */
Bool nb_kern_request_pmu(const UWord *arg)
{
	switch (arg[1]) {
	case KOP_OPEN:
	case KOP_MUNMAP:
	case KOP_ATTACH:
	case KOP_GETCPU:
	case KOP_FILE:
	case KOP_FDS:
	case KOP_SYSFS:
	case KOP_MAPS:
	case KOP_RBFILE:
	case KOP_EVPATH:
		return False;
	default:
		return True;
	}
}

Word nb_kern_request(ThreadId tid, UWord *arg)
{
	UWord a = arg[2], b = arg[3], c = arg[4], d = arg[5];
	struct kobj *o;

	switch (arg[1]) {
	case KOP_OPEN:
		return kopen(a, b);
	case KOP_BIND:
		if (a >= NBSIM_KERN_MAXFD || b == 0 || b > NOBJ || ko[b - 1].kind == K_FREE)
			return -E_BADF;
		fd_obj[a] = (int)b;
		if (ko[b - 1].fd < 0)
			ko[b - 1].fd = (int)a;
		return 0;
	case KOP_CLOSE:
		if ((Word)a < 0) {             /* an unbound handle: the preload failed */
			UWord h = -(Word)a;

			if (h >= 1 && h <= NOBJ && ko[h - 1].kind == K_PERF)
				nperf--;
			if (h >= 1 && h <= NOBJ)
				ko[h - 1].kind = K_FREE;
			nbk_resched(nbk_now_ns());
			return 0;
		}
		kclose(a);
		return 0;
	case KOP_PREAD:
	case KOP_PWRITE:
		o = nbk_obj_of_fd(a);
		if (!o)
			return -E_BADF;
		if (o->kind == K_MSR)            /* read(2): at the file position (0: no lseek) */
			return msr_rw(o, b, c, d, arg[1] == KOP_PWRITE);
		if (arg[1] == KOP_PWRITE || d != (UWord)-1)
			return arg[1] == KOP_PWRITE ? -E_INVAL : -E_SPIPE;
		return nbk_perf_read(o, b, c);
	case KOP_PERF_OPEN:
		return nbk_perf_open(tid, a, b, c, d);
	case KOP_IOCTL:
		o = nbk_obj_of_fd(a);
		if (!o)
			return -E_BADF;
		return o->kind == K_PERF ? nbk_perf_ioctl(o, b, c) : -E_NOTTY;
	case KOP_FCNTL:
		o = nbk_obj_of_fd(a);
		return o && o->kind == K_PERF ? nbk_perf_fcntl(o, b, c) : NBSIM_KERN_PASS;
	case KOP_MMAP: {
		ULong pages;

		o = nbk_obj_of_fd(a);
		if (!o || o->kind != K_PERF)
			return -E_NODEV;
		if (c % PAGE)
			return -E_INVAL;
		pages = c / PAGE - 1;
		if (c < PAGE || (pages & (pages - 1)))
			return -E_INVAL;       /* 1 + 2^n pages */
		if (o->rb)
			return -E_INVAL;
		o->rb = b;
		o->rb_len = c;
		{
			struct perf_event_mmap_page *h = (struct perf_event_mmap_page *)b;

			h->data_offset = PAGE;
			h->data_size = c - PAGE;
		}
		return 0;
	}
	case KOP_MUNMAP:
		for (int i = 0; i < NOBJ; i++)
			if (ko[i].kind == K_PERF && ko[i].rb == a)
				ko[i].rb = 0, ko[i].rb_len = 0;
		return 0;
	case KOP_GETCPU:
		return clo_ht ? nb_lp_of(tid) & 1 : 0;
	case KOP_FDS:                          /* (map, len): 1 per emulated fd */
		if (!nbk_writable(a, b))
			return -E_FAULT;
		for (UWord k = 0; k < b && k < NBSIM_KERN_MAXFD; k++)
			((UChar *)a)[k] = fd_obj[k] != 0;
		return 0;
	case KOP_RBFILE: {                     /* (fd, buf, len): an event on another process */
		HChar path[256];

		o = nbk_obj_of_fd(a);
		if (!o || o->kind != K_PERF || !o->tpid)
			return NBSIM_KERN_PASS;
		nbk_rb_path(nb_pid(), o->id, "rb", path, sizeof path);
		if (!nbk_writable(b, c) || c <= VG_(strlen)(path))
			return -E_FAULT;
		VG_(strcpy)((HChar *)b, path);
		return (Word)VG_(strlen)(path);
	}
	case KOP_EVPATH:                       /* (handle, buf, len) */
		if (a == 0 || a > NOBJ || ko[a - 1].kind != K_PERF || !ko[a - 1].tpid)
			return NBSIM_KERN_PASS;
		{
			HChar path[256];

			nbk_rb_path(nb_pid(), ko[a - 1].id, "fifo", path, sizeof path);
			if (!nbk_writable(b, c) || c <= VG_(strlen)(path))
				return -E_FAULT;
			VG_(strcpy)((HChar *)b, path);
			return (Word)VG_(strlen)(path);
		}
	case KOP_ATTACH:                       /* after a read(2) */
		nbk_attach_take(tid);
		return 0;
	case KOP_PTRACE:                       /* (request, pid, addr, data) */
		return nbk_ptrace(a, b);
	case KOP_SYSFS:
		return nbk_sysfs_dir(a, b);
	case KOP_MAPS:
		return nbk_maps(a, b);
	case KOP_FILE:
		if (!nbk_writable(a, b) || b < 16)
			return -E_FAULT;
		return VG_(snprintf)((HChar *)a, (Int)b, "%d\n", clo_perf_paranoid);
	}
	return NBSIM_KERN_PASS;
}


void nb_kern_stats(void)
{
	VG_(umsg)("nbsim: emulated perf driver: sampling interrupts %llu, events throttled %llu times, "
		  "ticks %llu\n", nbk_interrupts, nbk_throttles, nbk_ticks);
}
