/*
 * nb_kern_perf.c - the emulated perf driver's system calls on an event:
 * perf_event_open (validation and placement), read(2) (the count, group
 * reads, the enabled/running times), ioctl(2) and fcntl(2) (the overflow
 * signal).  The objects and the request: nb_kern.c; the PMU side:
 * nb_kern_sched.c.
 */
#include "nb_kern_int.h"

/* ---- perf_event_open ---- */

/* Is descriptor FD of this process a host kernel's perf event? */
static Bool host_perf_fd(UWord fd)
{
	HChar path[48], link[64];
	SSizeT n;

	VG_(snprintf)(path, sizeof path, "/proc/self/fd/%lu", fd);
	n = VG_(readlink)(path, link, sizeof link - 1);
	if (n <= 0)
		return False;
	link[n] = 0;
	return VG_(strcmp)(link, "anon_inode:[perf_event]") == 0;
}

/* A group of host (software) and emulated (hardware) events: Linux
 * takes it (a software member in a hardware group; a software leader's
 * group moved to the hardware context), the emulation cannot tie the two
 * kernels' events together. */
static Word mixed_group(void)
{
	VG_(snprintf)(nb_fault_buf, sizeof nb_fault_buf, "perf_event_open: a group mixing "
		      "software events (the host kernel's) with the emulated P4 driver's is not "
		      "emulated");
	return -E_OPNOTSUPP;
}

Word nbk_perf_open(ThreadId tid, Addr uattr, UWord pidcpu, UWord group_fd, UWord flags)
{
	struct perf_event_attr a;
	Int pid = (Int)(uint32_t)pidcpu, cpu = (Int)(uint32_t)(pidcpu >> 32);
	uint32_t size;
	Bool priv = nb_euid() == 0 || nbk_perfmon_capable();
	int leader = -1, i, err;
	uint64_t cfg = 0;
	ThreadId owner = 0;
	Int tpid = 0;
	Word tgt_err = 0;
	const uint64_t known = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_IDENTIFIER |
			       PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_READ;

	if (!nbk_readable(uattr, 8))
		return -E_FAULT;
	size = ((const struct perf_event_attr *)uattr)->size;
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > PAGE)
		return -E_2BIG;
	if (!nbk_readable(uattr, size))
		return -E_FAULT;
	VG_(memset)(&a, 0, sizeof a);
	VG_(memcpy)(&a, (const void *)uattr, size < sizeof a ? size : sizeof a);
	for (uint32_t b = sizeof a; b < size; b++)
		if (((const UChar *)uattr)[b])
			return -E_2BIG;
	if (a.type != PERF_TYPE_RAW && a.type != PERF_TYPE_HARDWARE && a.type != PERF_TYPE_HW_CACHE) {
		/* software events: the host kernel's; in a group an emulated
		 * event leads (Linux takes a software member into a hardware
		 * group), not emulated: the host would say EBADF */
		if ((Int)group_fd != -1 && nbk_obj_of_fd(group_fd))
			return mixed_group();
		return NBSIM_KERN_PASS;
	}
	/* perf_copy_attr: unknown sample bits; (5.13+) inherit_thread,
	 * remove_on_exec */
	if (a.sample_type & ~(uint64_t)(PERF_SAMPLE_MAX - 1))
		return -E_INVAL;
	if ((a.inherit_thread && !a.inherit) || (a.remove_on_exec && a.enable_on_exec))
		return -E_INVAL;
	/* kernel/events/core.c perf_event_open, in its order: the paranoia */
	if (clo_perf_paranoid > 2 && !priv)
		return -E_ACCES;                /* Debian's perf_event_paranoid 3 */
	if (!a.exclude_kernel && clo_perf_paranoid > 1 && !priv)
		return -E_ACCES;                /* perf_allow_kernel */
	/* perf_event_open: a frequency above perf_event_max_sample_rate
	 * (its default 100000), or a period with bit 63 */
	if (a.freq ? a.sample_freq > 100000 : a.sample_period >> 63)
		return -E_INVAL;
	if (flags & ~(UWord)PERF_FLAG_FD_CLOEXEC)
		return -E_INVAL;                /* FD_NO_GROUP, FD_OUTPUT, PID_CGROUP: not emulated */
	if ((Word)group_fd != -1 && (Int)group_fd != -1 && !nbk_obj_of_fd(group_fd))
		/* perf_fget_light: not an open perf event (EBADF); a host
		 * kernel's (a software leader, which Linux moves into the
		 * hardware context): not emulated */
		return host_perf_fd(group_fd) ? mixed_group() : -E_BADF;
	/* the task: find_lively_task_by_vpid (ESRCH); the permission
	 * (EACCES) is checked after the event's init, as the kernel does */
	if (pid != -1 && pid != 0) {
		tgt_err = nbk_target(pid, priv, &owner, &tpid);
		if (tgt_err == -E_SRCH)
			return tgt_err;
	}
	/* perf_event_alloc: a CPU beyond the machine's, or none without a task */
	if (cpu < -1 || cpu >= (Int)nbk_ncpus() || (pid == -1 && cpu == -1))
		return -E_INVAL;
	/* the PMU's event_init: x86_pmu_event_init, p4_hw_config */
	if (a.type != PERF_TYPE_RAW) {
		Word g = nbk_generic_config(&a, &cfg);

		if (g)
			return g;
	}
	/* the sample fields matter to a sampling event only (a counting
	 * event's sample_type is never used) */
	if (((a.sample_period || a.freq) && (a.sample_type & ~known)) || a.read_format & ~(uint64_t)(PERF_FORMAT_TOTAL_TIME_ENABLED |
		PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST))
		return -E_OPNOTSUPP;
	if (a.sigtrap)
		return -E_OPNOTSUPP;            /* synchronous SIGTRAP: not emulated */
	if ((a.sample_type & PERF_SAMPLE_READ) && (a.read_format & PERF_FORMAT_GROUP))
		return -E_OPNOTSUPP;            /* group reads in samples: not emulated */
	if (a.type == PERF_TYPE_RAW) {
		cfg = a.config;
		err = nb_kp4_validate(&cfg, nb_cpu->model, clo_ht);
		if (err == NB_KP4_E_SHARED) {
			if (clo_perf_paranoid > 0 && !priv)
				return -E_ACCES;        /* perf_allow_cpu */
			cfg = a.config;
			cfg &= NB_KP4_CONFIG_MASK;
			err = nb_kp4_validate(&cfg, nb_cpu->model, 0);
		}
		if (err) {
			VG_(snprintf)(nb_fault_buf, sizeof nb_fault_buf, "perf_event_open: %s",
				      nb_kp4_strerror(err));
			return -E_INVAL;
		}
	}
	if (tgt_err)
		return tgt_err;                 /* perf_check_permission */
	if (pid == -1) {
		/* find_get_context without a task: perf_allow_cpu */
		if (clo_perf_paranoid > 0 && !priv)
			return -E_ACCES;
		return -E_OPNOTSUPP;            /* CPU-wide events: not emulated */
	}
	if (pid == 0 || owner == 0)
		owner = tpid ? 0 : tid;
	if (a.inherit)
		nbk_inherit_open();
	if (tpid)
		nbk_inherit_open();             /* the target's reports come there */
	if ((Word)group_fd != -1 && (Int)group_fd != -1) {
		struct kobj *g = nbk_obj_of_fd(group_fd);

		if (!g)
			return -E_BADF;                 /* not an open perf event */
		/* kernel/events/core.c perf_event_open's group checks, all
		 * EINVAL: the same inherit as the leader (with a task); a
		 * leader (no recursive hierarchy); the same clock
		 * (use_clockid); the same CPU; the same task; and only a
		 * leader may be pinned or exclusive.  The P4 has no other
		 * hardware PMU to mix with (its other PMUs, msr and the
		 * software ones, are in the software context). */
		if (g->kind != K_PERF || g->leader != g - ko ||
		    (pid != -1 && g->attr.inherit != a.inherit) ||
		    (g->attr.use_clockid ? (Int)g->attr.clockid : -1) !=
			    (a.use_clockid ? (Int)a.clockid : -1) ||
		    g->pcpu != cpu || g->owner != owner || g->tpid != tpid || a.pinned || a.exclusive)
			return -E_INVAL;
		leader = (int)(g - ko);
	}
	i = nbk_new_obj(K_PERF);
	if (i < 0)
		return -E_MFILE;
	ko[i].seq = next_seq++;
	ko[i].id = next_id++;
	ko[i].owner = owner;
	ko[i].tpid = tpid;
	ko[i].lwpid = owner == tid ? VG_(gettid)() : pid;
	ko[i].leader = leader >= 0 ? leader : i;
	ko[i].config = cfg;
	ko[i].attr = a;
	ko[i].pcpu = cpu;
	ko[i].thread = clo_ht && owner ? nb_lp_of(owner) & 1 : 0;
	ko[i].enabled = !a.disabled;
	ko[i].limit = 0;
	/* perf_event_alloc: a frequency starts at period 1 */
	ko[i].period = a.freq ? 1 : a.sample_period;
	ko[i].t_stamp = nbk_now_ns();
	/* validate_group: the group alone must fit */
	if (leader >= 0) {
		uint64_t c[NB_NUM_COUNTERS];
		int as[NB_NUM_COUNTERS], k = 0;
		uint32_t es[NB_NUM_COUNTERS];

		/* the group, the new event last, in open order (first fit) */
		for (ULong s = 0;;) {
			int m = -1;

			for (int j = 0; j < NOBJ; j++)
				if (ko[j].kind == K_PERF && ko[j].leader == leader && ko[j].seq > s &&
				    (m < 0 || ko[j].seq < ko[m].seq))
					m = j;
			if (m < 0 || k >= NB_NUM_COUNTERS)
				break;
			s = ko[m].seq;
			c[k++] = ko[m].config;
		}
		if (nb_kp4_place(c, k, ko[i].thread, as, es) != k) {
			VG_(snprintf)(nb_fault_buf, sizeof nb_fault_buf,
				      "perf_event_open: the P4 scheduler cannot place the group");
			ko[i].kind = K_FREE;
			return -E_INVAL;
		}
	}
	nperf++;
	if (tpid) {
		HChar path[256];

		ko[i].counter = -1;
		/* its descriptor: a FIFO the target's wakeups write to */
		nbk_rb_path(nb_pid(), ko[i].id, "fifo", path, sizeof path);
		VG_(unlink)(path);
		(void)VG_(do_syscall)(__NR_mknod, (UWord)path, VKI_S_IFIFO | 0600, 0, 0, 0, 0, 0, 0);
		nbk_attach_publish(tpid);
		return i + 1;
	}
	nbk_place_thread(owner);
	nbk_resched(nbk_now_ns());
	return i + 1;
}

/* ---- read(2) of a perf event ---- */

Word nbk_perf_read(struct kobj *e, Addr buf, UWord n)
{
	ULong v[3 + 3 * NB_NUM_COUNTERS + 8];
	UWord k = 0;
	uint64_t rf = e->attr.read_format;
	ULong now = nbk_now_ns();

	ULong ten, trun;

	nbk_inherit_drain();
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_PERF) {
			nbk_sync(&ko[i]);
			nbk_upd_times(&ko[i], now);
		}
	if (rf & PERF_FORMAT_GROUP) {
		struct kobj *l = &ko[e->leader];
		ULong nr = 0;
		UWord nrpos = k++;

		(void)nbk_total(l, &ten, &trun);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			v[k++] = ten;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			v[k++] = trun;
		for (ULong s = 0;;) {            /* leader, then members in open order */
			int m = -1;

			for (int i = 0; i < NOBJ; i++)
				if (ko[i].kind == K_PERF && ko[i].leader == e->leader && ko[i].seq > s &&
				    (m < 0 || ko[i].seq < ko[m].seq))
					m = i;
			if (m < 0 || k + 3 > sizeof v / sizeof v[0])
				break;
			s = ko[m].seq;
			v[k++] = nbk_total(&ko[m], NULL, NULL);
			if (rf & PERF_FORMAT_ID)
				v[k++] = ko[m].id;
			if (rf & PERF_FORMAT_LOST)
				v[k++] = ko[m].lost;
			nr++;
		}
		v[nrpos] = nr;
	} else {
		v[k++] = nbk_total(e, &ten, &trun);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			v[k++] = ten;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			v[k++] = trun;
		if (rf & PERF_FORMAT_ID)
			v[k++] = e->id;
		if (rf & PERF_FORMAT_LOST)
			v[k++] = e->lost;
	}
	if (n < k * 8)
		return -E_NOSPC;
	if (!nbk_writable(buf, k * 8))
		return -E_FAULT;
	VG_(memcpy)((void *)buf, v, k * 8);
	return (Word)(k * 8);
}

/* ---- ioctl(2) ---- */

Word nbk_perf_ioctl(struct kobj *e, UWord req, UWord arg)
{
	int self = (int)(e - ko);
	Bool group = (arg & PERF_IOC_FLAG_GROUP) != 0;
	ULong now = nbk_now_ns();

	switch (req) {
	case PERF_EVENT_IOC_ENABLE:
	case PERF_EVENT_IOC_DISABLE:
	case PERF_EVENT_IOC_RESET:
		for (int i = 0; i < NOBJ; i++) {
			struct kobj *x = &ko[i];

			const struct kobj *o = x->parent >= 0 ? &ko[x->parent] : x;
			int oi = (int)(o - ko);

			/* the event (its group) and their copies in other threads
			 * (perf_event_for_each_child) */
			if (x->kind != K_PERF || !(oi == self || (group && o->leader == e->leader)))
				continue;
			nbk_sync(x);
			nbk_upd_times(x, now);
			if (req == PERF_EVENT_IOC_RESET)
				x->count = 0;
			else {
				x->enabled = req == PERF_EVENT_IOC_ENABLE;
				x->toggles++;
			}
		}
		if (req != PERF_EVENT_IOC_RESET) {
			nbk_resched(now);
			/* events on another process: its nbsim follows */
			for (int i = 0; i < NOBJ; i++)
				if (ko[i].kind == K_PERF && ko[i].tpid && !ko[i].foreign &&
				    (i == self || (group && ko[i].leader == e->leader)))
					nbk_attach_publish(ko[i].tpid);
		}
		return 0;
	case PERF_EVENT_IOC_REFRESH:
		if (e->attr.inherit || !nbk_sampling(e) || (Long)arg <= 0)
			return -E_INVAL;
		e->limit += (Long)arg;
		nbk_upd_times(e, now);
		e->enabled = True;
		nbk_resched(now);
		return 0;
	case PERF_EVENT_IOC_PERIOD: {
		ULong p;

		if (!nbk_readable(arg, 8))
			return -E_FAULT;
		p = *(const ULong *)arg;
		if (!nbk_sampling(e) || !p || (p >> 63))
			return -E_INVAL;
		for (int i = 0; i < NOBJ; i++)
			if (ko[i].kind == K_PERF && (i == self || ko[i].parent == self)) {
				nbk_sched_out(&ko[i], now);
				ko[i].attr.sample_period = p;   /* sample_freq with freq */
				if (!ko[i].attr.freq)
					ko[i].period = p;
				ko[i].left = 0;        /* __perf_event_period: period_left 0 */
			}
		nbk_resched(now);
		return 0;
	}
	case PERF_EVENT_IOC_ID:
		if (!nbk_writable(arg, 8))
			return -E_FAULT;
		*(ULong *)arg = e->id;
		return 0;
	case PERF_EVENT_IOC_SET_OUTPUT:
	case PERF_EVENT_IOC_SET_FILTER:
	case PERF_EVENT_IOC_SET_BPF:
		return -E_INVAL;               /* not emulated */
	}
	return -E_NOTTY;
}

/* ---- fcntl(2): the overflow signal's owner, number and O_ASYNC ---- */

#define FASYNC_FLAG 020000
Word nbk_perf_fcntl(struct kobj *e, UWord cmd, UWord arg)
{
	switch (cmd) {
	case VKI_F_GETFL:
		return 02 | (Word)e->flags;    /* O_RDWR */
	case VKI_F_SETFL:
		e->flags = arg & (FASYNC_FLAG | 04000 /* O_NONBLOCK */);
		e->async = (arg & FASYNC_FLAG) != 0;
		return 0;
	case 10: /* F_SETSIG */
		if (arg > 64)
			return -E_INVAL;
		e->sig = (Int)arg;
		return 0;
	case 11: /* F_GETSIG */
		return e->sig;
	case VKI_F_SETOWN:
		e->own_type = (Int)arg < 0 ? 2 : 1;   /* F_OWNER_PGRP / F_OWNER_PID */
		e->own = (Int)arg < 0 ? -(Int)arg : (Int)arg;
		return 0;
	case VKI_F_GETOWN:
		return e->own_type == 2 ? -e->own : e->own;
	case 15: /* F_SETOWN_EX */
		if (!nbk_readable(arg, 8))
			return -E_FAULT;
		if (((const Int *)arg)[0] < 0 || ((const Int *)arg)[0] > 2)
			return -E_INVAL;
		e->own_type = ((const Int *)arg)[0];
		e->own = ((const Int *)arg)[1];
		return 0;
	case 16: /* F_GETOWN_EX */
		if (!nbk_writable(arg, 8))
			return -E_FAULT;
		((Int *)arg)[0] = e->own_type;
		((Int *)arg)[1] = e->own;
		return 0;
	}
	return NBSIM_KERN_PASS;
}

