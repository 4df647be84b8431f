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

/* Some perf event samples (PMIs go to nb_kern_pmi); declared to the tool
 * with set_sampling. */
static Bool nb_kern_sampling;

struct kobj ko[NOBJ];
int fd_obj[NBSIM_KERN_MAXFD];   /* object index + 1, 0 none */
ULong next_seq = 1, next_id = 1;
int nperf;                      /* open perf events          */
ThreadId on_pmu;                /* thread whose events are on */

/* ---- helpers ---- */

static Bool readable(Addr a, SizeT n)
{
	return a != 0 && VG_(am_is_valid_for_client)(a, n, VKI_PROT_READ);
}

static Bool writable(Addr a, SizeT n)
{
	return a != 0 && VG_(am_is_valid_for_client)(a, n, VKI_PROT_WRITE);
}

/* The enabled/running times: the host's CLOCK_MONOTONIC (the kernel's
 * times are task-clock times; simulated cycles advance only while some
 * counter needs them). */
ULong nbk_now_ns(void)
{
	struct vki_timespec ts;
	SysRes r = VG_(do_syscall)(__NR_clock_gettime, VKI_CLOCK_MONOTONIC, (UWord)&ts, 0, 0, 0, 0, 0, 0);

	if (sr_isError(r))
		return 0;
	return (ULong)ts.tv_sec * 1000000000ULL + (ULong)ts.tv_nsec;
}

/* CapEff of this process (/proc/self/status). */
static ULong cap_eff(void)
{
	static HChar buf[4096];
	SysRes r = VG_(open)("/proc/self/status", VKI_O_RDONLY, 0);
	Int fd, n;
	const HChar *p;
	ULong v = 0;

	if (sr_isError(r))
		return 0;
	fd = (Int)sr_Res(r);
	n = VG_(read)(fd, buf, sizeof buf - 1);
	VG_(close)(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = VG_(strstr)(buf, "CapEff:");
	if (!p)
		return 0;
	for (p += 7; *p == ' ' || *p == '\t'; p++)
		;
	for (; *p; p++) {
		Int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
		if (d < 0)
			break;
		v = v << 4 | (ULong)d;
	}
	return v;
}

#define CAP_SYS_RAWIO 17
#define CAP_SYS_ADMIN 21
#define CAP_PERFMON 38

/* perfmon_capable(): CAP_PERFMON or CAP_SYS_ADMIN */
static Bool perfmon_capable(void)
{
	ULong c = cap_eff();

	return ((c >> CAP_PERFMON) & 1) || ((c >> CAP_SYS_ADMIN) & 1);
}

static unsigned ncpus(void)
{
	return clo_ht ? 2 : 1;
}

int nbk_new_obj(int kind)
{
	/* The guest programs the PMU through the emulated kernel: the msr
	 * driver has no per-thread registers, and the perf driver switches
	 * its events itself (nb_kern_switch).  So nbsim's per-thread contexts
	 * of the sim backend (nb_ctx.c) step aside, as --nbsim-pmu-ctx=cpu. */
	clo_ctx_cpu = True;
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_FREE) {
			VG_(memset)(&ko[i], 0, sizeof ko[i]);
			ko[i].kind = kind;
			ko[i].fd = -1;
			ko[i].parent = -1;
			return i;
		}
	return -1;
}

Bool nbk_ko_any(void)
{
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind != K_FREE)
			return True;
	return False;
}

static struct kobj *obj_of_fd(UWord fd)
{
	if (fd >= NBSIM_KERN_MAXFD || !fd_obj[fd])
		return NULL;
	return &ko[fd_obj[fd] - 1];
}

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
	if (!clo_msr_driver || cpu >= ncpus())
		return -E_NOENT;                /* no module, or no such CPU: no node */
	(void)flags;
	if (VG_(geteuid)() != 0)
		return -E_ACCES;                /* crw------- root root */
	if (!((cap_eff() >> CAP_SYS_RAWIO) & 1))
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
	if (!(wr ? readable(buf, n) : writable(buf, n)))
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

/* ---- the perf driver: the PMU side ---- */

static void kwr(uint32_t msr, uint64_t v)
{
	(void)nb_wrmsr_req(msr, v);
}

static uint64_t krd(uint32_t msr)
{
	uint64_t v = 0;

	(void)nb_rdmsr_req(msr, &v);
	return v;
}

static Bool sampling(const struct kobj *e)
{
	return e->attr.sample_period != 0 && !e->attr.freq;
}

static Bool counts(const struct kobj *e)
{
	return e->enabled && ko[e->leader].enabled && e->counter >= 0 && !e->throttled;
}

void nbk_upd_times(struct kobj *e, ULong now)
{
	if (e->enabled && ko[e->leader].enabled) {
		e->t_enabled += now - e->t_stamp;
		if (e->active)
			e->t_running += now - e->t_stamp;
	}
	e->t_stamp = now;
}

/* Fold the counter into the count (an active event). */
void nbk_sync(struct kobj *e)
{
	ULong cur, d;

	if (!e->active)
		return;
	cur = krd(nb_counters[e->counter].msr) & CTR_MASK;
	d = (cur - e->prev) & CTR_MASK;
	e->count += d;
	e->left -= (Long)d;
	e->prev = cur;
}

static uint32_t cccr_of(const struct kobj *e)
{
	const struct nb_kp4_event *b = &nb_kp4_events[NB_KP4_EVENT(e->config)];
	/* p4_default_cccr_conf: ActiveThread ANY; the reserved bits 0-11 (the
	 * metric) never reach the register; Enable set by the caller */
	uint32_t c = (NB_KP4_CCCR(e->config) & ~0xfffu) | 0x30000u | ((uint32_t)b->escrsel << 13);

	/* the kernel always sets OVF_PMI (max period 2^39 - 1 when counting);
	 * here only sampling events interrupt */
	if (sampling(e))
		c |= e->thread ? NB_CCCR_OVF_PMI_T1 : NB_CCCR_OVF_PMI_T0;
	return c;
}

/* The tool must send PMIs without NBSIM_REQ_PMI_SIGNAL while an event
 * samples, and count retired instructions for the tick (throttling). */
static void set_sampling(Bool on)
{
	nb_kern_sampling = on;
	nb_pmi_front = on;
	nb_need_front = on ? NEED_INSTR : 0;
}

static void sched_in(struct kobj *e, ULong now)
{
	const struct nb_kp4_event *b = &nb_kp4_events[NB_KP4_EVENT(e->config)];
	uint32_t escr = NB_KP4_ESCR(e->config) & ~(0x7e000000u | 0xfu);
	unsigned m = NB_KP4_METRIC(e->config);
	ULong v = 0;

	nbk_upd_times(e, now);
	if (sampling(e))
		set_sampling(True);             /* before the writes: nb_pmu_written */
	escr |= (uint32_t)b->select << 25;      /* the real event select */
	if (!e->attr.exclude_user)
		escr |= e->thread ? NB_ESCR_T1_USR : NB_ESCR_T0_USR;
	if (!e->attr.exclude_kernel)
		escr |= e->thread ? NB_ESCR_T1_OS : NB_ESCR_T0_OS;
	if (sampling(e)) {
		/* x86_perf_event_set_period */
		if (e->left <= -(Long)e->attr.sample_period)
			e->left = (Long)e->attr.sample_period;
		else if (e->left <= 0)
			e->left += (Long)e->attr.sample_period;
		if ((ULong)e->left > MAX_PERIOD)
			e->left = (Long)MAX_PERIOD;
		v = (ULong)(-e->left) & CTR_MASK;
	}
	kwr(nb_counters[e->counter].msr, v);
	kwr(nb_counters[e->counter].msr, v);    /* erratum N15: twice, as p4_pmu_set_period */
	if (m) {
		kwr(NB_MSR_IA32_PEBS_ENABLE, nb_kp4_pebs[m].pebs_enable);
		kwr(NB_MSR_MSR_PEBS_MATRIX_VERT, nb_kp4_pebs[m].matrix_vert);
	}
	kwr(e->escr, escr);
	kwr(nb_counters[e->counter].cccr_msr, cccr_of(e) | NB_CCCR_ENABLE);
	e->prev = v;
	e->active = True;
}

void nbk_sched_out(struct kobj *e, ULong now)
{
	if (!e->active)
		return;
	nbk_sync(e);
	nbk_upd_times(e, now);
	/* p4_pmu_disable_event: Enable and OVF clear */
	kwr(nb_counters[e->counter].cccr_msr, cccr_of(e) & ~(NB_CCCR_ENABLE | NB_CCCR_OVF));
	e->active = False;
}

void nbk_sched_out_all(ULong now)
{
	for (int i = 0; i < NOBJ; i++)
		if (ko[i].kind == K_PERF)
			nbk_sched_out(&ko[i], now);
	set_sampling(False);
}

void nbk_sched_in_thread(ThreadId tid, ULong now)
{
	for (int i = 0; i < NOBJ; i++) {
		struct kobj *e = &ko[i];

		if (e->kind == K_PERF) {
			nbk_upd_times(e, now);
			if (e->owner == tid && (e->parent >= 0 || e->rpid))
				e->lwpid = VG_(gettid)();   /* a copy: its thread's */
			if (e->owner == tid && counts(e))
				sched_in(e, now);
		}
	}
	on_pmu = tid;
}

/* Take the running thread's events off the PMU and put them back (after
 * a change of state or placement). */
static void resched(ULong now)
{
	ThreadId t = VG_(get_running_tid)();

	nbk_sched_out_all(now);
	nbk_sched_in_thread(t, now);
	nb_pmu_written(NB_PMU_NO_WRITE);
}

void nb_kern_switch(ThreadId tid)
{
	if (!nperf || tid == on_pmu)
		return;
	nb_pmu_access();
	{
		ULong now = nbk_now_ns();

		nbk_sched_out_all(now);
		nbk_sched_in_thread(tid, now);
	}
	nb_pmu_written(NB_PMU_NO_WRITE);
}

/* Place all events of thread OWNER group by group in open order: a group
 * that does not fit beside the groups before it gets no counters (it is
 * enabled but never runs; the kernel would rotate it in). */
void nbk_place_thread(ThreadId owner)
{
	uint64_t cfg[NB_NUM_COUNTERS];
	int assign[NB_NUM_COUNTERS], who[NB_NUM_COUNTERS], n = 0;
	uint32_t escr[NB_NUM_COUNTERS];
	ULong last = 0;

	for (;;) {
		int l = -1, k = n;

		/* the next leader in open order */
		for (int i = 0; i < NOBJ; i++)
			if (ko[i].kind == K_PERF && ko[i].owner == owner && ko[i].leader == i &&
			    ko[i].seq > last && (l < 0 || ko[i].seq < ko[l].seq))
				l = i;
		if (l < 0)
			break;
		last = ko[l].seq;
		for (ULong s = 0, done = 0; !done;) {   /* leader then members by seq */
			int m = -1;

			for (int i = 0; i < NOBJ; i++)
				if (ko[i].kind == K_PERF && ko[i].leader == l && ko[i].seq > s &&
				    (m < 0 || ko[i].seq < ko[m].seq))
					m = i;
			if (m < 0) {
				done = 1;
				break;
			}
			s = ko[m].seq;
			ko[m].counter = -1;
			if (k < NB_NUM_COUNTERS) {
				cfg[k] = ko[m].config;
				who[k++] = m;
			}
		}
		if (nb_kp4_place(cfg, k, ko[l].thread, assign, escr) == k) {
			for (int j = n; j < k; j++) {
				ko[who[j]].counter = assign[j];
				ko[who[j]].escr = escr[j];
			}
			n = k;
		}
	}
}


/* ---- perf_event_open ---- */

static Word perf_open(ThreadId tid, Addr uattr, UWord pidcpu, UWord group_fd, UWord flags)
{
	struct perf_event_attr a;
	Int pid = (Int)(uint32_t)pidcpu, cpu = (Int)(uint32_t)(pidcpu >> 32);
	uint32_t size;
	Bool priv = VG_(geteuid)() == 0 || perfmon_capable();
	int leader = -1, i, err;
	uint64_t cfg;
	const uint64_t known = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_STREAM_ID;

	if (!readable(uattr, 8))
		return -E_FAULT;
	size = ((const struct perf_event_attr *)uattr)->size;
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > PAGE)
		return -E_2BIG;
	if (!readable(uattr, size))
		return -E_FAULT;
	VG_(memset)(&a, 0, sizeof a);
	VG_(memcpy)(&a, (const void *)uattr, size < sizeof a ? size : sizeof a);
	for (uint32_t b = sizeof a; b < size; b++)
		if (((const UChar *)uattr)[b])
			return -E_2BIG;
	if (a.type != PERF_TYPE_RAW && a.type != PERF_TYPE_HARDWARE && a.type != PERF_TYPE_HW_CACHE)
		return NBSIM_KERN_PASS;         /* software events: the host kernel's */
	/* the driver's paranoia (kernel/events/core.c perf_event_open) */
	if (clo_perf_paranoid > 2 && !priv)
		return -E_ACCES;                /* Debian's perf_event_paranoid 3 */
	if (!a.exclude_kernel && clo_perf_paranoid > 1 && !priv)
		return -E_ACCES;
	if (flags & ~(UWord)PERF_FLAG_FD_CLOEXEC)
		return -E_INVAL;                /* FD_NO_GROUP, FD_OUTPUT, PID_CGROUP: not emulated */
	if (pid == -1) {
		if (clo_perf_paranoid > 0 && !priv)
			return -E_ACCES;
		return -E_OPNOTSUPP;            /* CPU-wide events: not emulated */
	}
	if (pid != 0 && pid != VG_(gettid)())
		return -E_SRCH;                 /* other tasks: not emulated (sim/README) */
	if (cpu < -1 || cpu >= (Int)ncpus())
		return -E_INVAL;
	if (a.type != PERF_TYPE_RAW)
		return -E_NOENT;                /* generic events: not emulated */
	if (a.freq || (a.sample_type & ~known) || a.read_format & ~(uint64_t)(PERF_FORMAT_TOTAL_TIME_ENABLED |
		PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST))
		return -E_OPNOTSUPP;
	if (a.sample_period >> 63)
		return -E_INVAL;
	/* perf_copy_attr (5.13+) */
	if ((a.inherit_thread && !a.inherit) || (a.remove_on_exec && a.enable_on_exec))
		return -E_INVAL;
	if (a.sigtrap)
		return -E_OPNOTSUPP;            /* synchronous SIGTRAP: not emulated */
	if (a.inherit)
		nbk_inherit_open();
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
	if ((Word)group_fd != -1 && (Int)group_fd != -1) {
		struct kobj *g = obj_of_fd(group_fd);

		if (!g)
			return -E_BADF;                 /* not an open perf event */
		if (g->kind != K_PERF || g->leader != g - ko || g->owner != tid)
			return -E_INVAL;
		leader = (int)(g - ko);
	}
	i = nbk_new_obj(K_PERF);
	if (i < 0)
		return -E_MFILE;
	ko[i].seq = next_seq++;
	ko[i].id = next_id++;
	ko[i].owner = tid;
	ko[i].lwpid = VG_(gettid)();
	ko[i].leader = leader >= 0 ? leader : i;
	ko[i].config = cfg;
	ko[i].attr = a;
	ko[i].thread = clo_ht ? nb_lp_of(tid) & 1 : 0;
	ko[i].enabled = !a.disabled;
	ko[i].limit = 0;
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
	nbk_place_thread(tid);
	resched(nbk_now_ns());
	return i + 1;
}

/* ---- read(2) of a perf event ---- */

static Word perf_read(struct kobj *e, Addr buf, UWord n)
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
	if (!writable(buf, k * 8))
		return -E_FAULT;
	VG_(memcpy)((void *)buf, v, k * 8);
	return (Word)(k * 8);
}

/* ---- ioctl(2) ---- */

static Word perf_ioctl(struct kobj *e, UWord req, UWord arg)
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
			else
				x->enabled = req == PERF_EVENT_IOC_ENABLE;
		}
		if (req != PERF_EVENT_IOC_RESET)
			resched(now);
		return 0;
	case PERF_EVENT_IOC_REFRESH:
		if (e->attr.inherit || !sampling(e) || (Long)arg <= 0)
			return -E_INVAL;
		e->limit += (Long)arg;
		nbk_upd_times(e, now);
		e->enabled = True;
		resched(now);
		return 0;
	case PERF_EVENT_IOC_PERIOD: {
		ULong p;

		if (!readable(arg, 8))
			return -E_FAULT;
		p = *(const ULong *)arg;
		if (!sampling(e) || !p || (p >> 63))
			return -E_INVAL;
		for (int i = 0; i < NOBJ; i++)
			if (ko[i].kind == K_PERF && (i == self || ko[i].parent == self)) {
				nbk_sched_out(&ko[i], now);
				ko[i].attr.sample_period = p;
				ko[i].left = 0;        /* __perf_event_period: period_left 0 */
			}
		resched(now);
		return 0;
	}
	case PERF_EVENT_IOC_ID:
		if (!writable(arg, 8))
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
static Word perf_fcntl(struct kobj *e, UWord cmd, UWord arg)
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
		if (!readable(arg, 8))
			return -E_FAULT;
		if (((const Int *)arg)[0] < 0 || ((const Int *)arg)[0] > 2)
			return -E_INVAL;
		e->own_type = ((const Int *)arg)[0];
		e->own = ((const Int *)arg)[1];
		return 0;
	case 16: /* F_GETOWN_EX */
		if (!writable(arg, 8))
			return -E_FAULT;
		((Int *)arg)[0] = e->own_type;
		((Int *)arg)[1] = e->own;
		return 0;
	}
	return NBSIM_KERN_PASS;
}

/* ---- sampling: the PMI ---- */

static void rb_put(struct kobj *e, const ULong *w, unsigned nw)
{
	struct perf_event_mmap_page *h = (struct perf_event_mmap_page *)e->rb;
	ULong size = e->rb_len - PAGE, head, tail;
	UChar *data = (UChar *)(e->rb + PAGE);
	const UChar *src = (const UChar *)w;

	if (!e->rb || !size)
		return;
	head = h->data_head;
	tail = h->data_tail;
	if (size - (head - tail) < nw * 8ULL) {
		e->lost++;
		return;
	}
	for (unsigned b = 0; b < nw * 8; b++)
		data[(head + b) & (size - 1)] = src[b];
	h->data_head = head + nw * 8;
}

/* A sample of event E; an inherited copy's goes to its original's ring
 * buffer (perf_output_begin writes a child's output to the parent's),
 * with the original's id as PERF_SAMPLE_ID (primary_event_id) and its
 * own as STREAM_ID.  A forked child's copies have no buffer here. */
static void sample(struct kobj *e, Addr ip)
{
	struct kobj *o = e->parent >= 0 ? &ko[e->parent] : e;
	ULong w[16];
	unsigned k = 1;
	uint64_t st = e->attr.sample_type;

	if (st & PERF_SAMPLE_IP)
		w[k++] = ip;
	if (st & PERF_SAMPLE_TID)
		w[k++] = (ULong)(UInt)VG_(getpid)() | (ULong)(UInt)e->lwpid << 32;
	if (st & PERF_SAMPLE_TIME)
		w[k++] = nbk_now_ns();
	if (st & PERF_SAMPLE_ADDR)
		w[k++] = 0;
	if (st & PERF_SAMPLE_ID)
		w[k++] = o->id;
	if (st & PERF_SAMPLE_STREAM_ID)
		w[k++] = e->id;
	if (st & PERF_SAMPLE_CPU)
		w[k++] = e->thread;
	if (st & PERF_SAMPLE_PERIOD)
		w[k++] = e->attr.sample_period;
	/* struct perf_event_header: type, misc (PERF_RECORD_MISC_USER), size */
	w[0] = PERF_RECORD_SAMPLE | (ULong)PERF_RECORD_MISC_USER << 32 | (ULong)(k * 8) << 48;
	if (e->rpid)
		e->lost++;
	else
		rb_put(o, w, k);
}

/* ---- throttling: at most NBK_MAX_TICK interrupts of a sampling event
 * per tick (kernel/events/core.c: __perf_event_account_interrupt stops an
 * event past max_samples_per_tick, perf_adjust_freq_unthr_context starts
 * it again at the next tick; the default perf_event_max_sample_rate
 * 100000 at HZ 250 gives 400).  Without it a period shorter than the
 * user-mode signal handler's own count (PAPI's overflow handler, about
 * 270 instructions, on an event of instructions) interrupts again at every
 * return from the handler, and the program never gets further; Linux
 * stops such an event and the program goes on.  The tick is simulated
 * time: NBK_TICK_INS retired instructions (counted while an event samples,
 * nb_need.c), checked at each interrupt and between scheduler slices.
 * Linux's 4 ms are about 10 M instructions of a 2.8 GHz part at one per
 * cycle; a tick of 1 M makes the emulated limit ten times Linux's rate, so
 * that the tests' periods of 10,007 instructions (about 100 interrupts a
 * tick) are not throttled, as they were not before. ---- */

#define NBK_MAX_TICK 400u
#define NBK_TICK_INS 1000000u

ULong nbk_throttles, nbk_interrupts, nbk_ticks;  /* (statistics) */
static ULong tick_next;         /* instructions at which the next tick comes */

/* PERF_RECORD_THROTTLE / UNTHROTTLE: time, id, stream_id (perf_log_throttle) */
static void log_throttle(struct kobj *e, ULong now, Bool enable)
{
	struct kobj *o = e->parent >= 0 ? &ko[e->parent] : e;
	ULong w[4];

	w[0] = (ULong)(enable ? 6 /* PERF_RECORD_UNTHROTTLE */ : 5 /* PERF_RECORD_THROTTLE */) |
	       (ULong)(4 * 8) << 48;
	w[1] = now;
	w[2] = o->id;
	w[3] = e->id;
	if (!e->rpid)
		rb_put(o, w, 4);
}

/* instructions retired so far (the tick's clock) */
static ULong tick_clock(void)
{
	nb_derive();
	return (ULong)(nb_sig[SIG_INSTR] + nb_sig[SIG_INSTR_TAG]);
}

/* A tick when the clock has passed it: interrupt counts start again, and
 * throttled events come back (those of the thread on the PMU at once, the
 * others when their thread runs).  1 if one came back. */
static Bool tick(ThreadId tid, ULong now)
{
	ULong ins = tick_clock();
	Bool back = False;

	if (ins < tick_next)
		return False;
	tick_next = ins + NBK_TICK_INS;
	nbk_ticks++;
	for (int i = 0; i < NOBJ; i++) {
		struct kobj *e = &ko[i];
		if (e->kind != K_PERF)
			continue;
		e->interrupts = 0;
		if (!e->throttled)
			continue;
		e->throttled = False;
		back = True;
		log_throttle(e, now, True);
		if (e->owner == tid && on_pmu == tid && counts(e))
			sched_in(e, now);
	}
	return back;
}

static void throttle(struct kobj *e, ULong now)
{
	nbk_interrupts++;
	(void)tick(VG_(get_running_tid)(), now);
	if (++e->interrupts <= NBK_MAX_TICK || e->throttled)
		return;
	log_throttle(e, now, False);
	nbk_sched_out(e, now);
	e->throttled = True;
	nbk_throttles++;
}

void nb_kern_tick(ThreadId tid)
{
	Bool any = False;

	if (!nperf)
		return;
	for (int i = 0; i < NOBJ && !any; i++)
		any = ko[i].kind == K_PERF && ko[i].throttled;
	if (any && tick(tid, nbk_now_ns())) {
		nb_pmu_written(NB_PMU_NO_WRITE);
	}
}

/* kill_fasync: the F_SETSIG signal with si_fd (rt_tgsigqueueinfo to this
 * process, where any si_code is allowed); SIGIO without F_SETSIG. */
static Bool signal_owner(struct kobj *e, Int code)
{
	vki_siginfo_t si;
	Int sig = e->sig ? e->sig : VKI_SIGIO;
	Int pid = VG_(getpid)();
	Int tid = e->own_type == 0 ? e->own : e->lwpid;

	if (!e->async || !e->own)
		return False;
	VG_(memset)(&si, 0, sizeof si);
	si.si_signo = sig;
	si.si_code = code;
	si._sifields._sigpoll._band = code == 1 ? 0x41 /* POLLIN|POLLRDNORM */ : 0x10 /* POLLHUP */;
	si._sifields._sigpoll._fd = e->fd;
	(void)VG_(do_syscall)(297 /* rt_tgsigqueueinfo */, (UWord)pid, (UWord)tid, (UWord)sig,
			      (UWord)&si, 0, 0, 0, 0);
	return tid == VG_(gettid)();
}

uint32_t nb_kern_pmi(uint32_t pend, unsigned lp, Addr ip, int *here)
{
	uint32_t took = 0;
	ULong now;

	if (!nb_kern_sampling || !pend)
		return 0;
	now = nbk_now_ns();
	for (int i = 0; i < NOBJ; i++) {
		struct kobj *e = &ko[i];
		/* an inherited copy wakes and signals through its original
		 * (perf_event_fasync: only the parent has fasync state) */
		struct kobj *o = e->parent >= 0 ? &ko[e->parent] : e;
		Int code = 1;                  /* POLL_IN */

		if (e->kind != K_PERF || !e->active || !sampling(e) || e->thread != lp ||
		    !((pend >> e->counter) & 1))
			continue;
		took |= 1u << e->counter;
		/* p4_pmu_handle_irq: clear OVF, update the count, set the next
		 * period (the counter reloaded with -left), then the overflow */
		nbk_sync(e);
		kwr(nb_counters[e->counter].cccr_msr,
		    krd(nb_counters[e->counter].cccr_msr) & ~(uint64_t)NB_CCCR_OVF);
		if (e->left > 0)
			continue;              /* not this one's period yet */
		if (e->left <= -(Long)e->attr.sample_period)
			e->left = (Long)e->attr.sample_period;
		else
			e->left += (Long)e->attr.sample_period;
		e->prev = (ULong)(-e->left) & CTR_MASK;
		kwr(nb_counters[e->counter].msr, e->prev);
		kwr(nb_counters[e->counter].msr, e->prev);
		sample(e, ip);
		throttle(e, now);
		if (e->limit > 0 && --e->limit == 0) {
			code = 6;              /* POLL_HUP: the event is disabled */
			nbk_sched_out(e, now);
			e->enabled = False;
		}
		/* a wakeup (and its signal) needs the ring buffer; the refresh limit
		 * signals without */
		if (code == 6 || (o->rb && !e->rpid &&
				  ++o->wakeups >= (o->attr.wakeup_events ? o->attr.wakeup_events : 1))) {
			o->wakeups = 0;
			if (!e->rpid && signal_owner(o, code))
				*here = 1;
		}
	}
	nb_pmu_written(NB_PMU_NO_WRITE);
	return took;
}

/* ---- the request ---- */

static Word kopen(Addr path, UWord flags)
{
	const HChar *p = (const HChar *)path;

	if (!readable(path, 1))
		return -E_FAULT;
	if (!VG_(strncmp)(p, "/dev/cpu/", 9))
		return msr_open(p, flags);
	if (!VG_(strcmp)(p, "/proc/sys/kernel/perf_event_paranoid")) {
		if ((flags & 3) != 0)
			return VG_(geteuid)() == 0 ? -E_ROFS : -E_ACCES;
		return NBSIM_KERN_FILE;
	}
	return NBSIM_KERN_PASS;
}

static void kclose(UWord fd)
{
	struct kobj *o = obj_of_fd(fd);
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
		if (owner)
			nbk_place_thread(owner);
		resched(now);
	}
	o->kind = K_FREE;
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
			resched(nbk_now_ns());
			return 0;
		}
		kclose(a);
		return 0;
	case KOP_PREAD:
	case KOP_PWRITE:
		o = obj_of_fd(a);
		if (!o)
			return -E_BADF;
		if (o->kind == K_MSR)            /* read(2): at the file position (0: no lseek) */
			return msr_rw(o, b, c, d, arg[1] == KOP_PWRITE);
		if (arg[1] == KOP_PWRITE || d != (UWord)-1)
			return arg[1] == KOP_PWRITE ? -E_INVAL : -E_SPIPE;
		return perf_read(o, b, c);
	case KOP_PERF_OPEN:
		return perf_open(tid, a, b, c, d);
	case KOP_IOCTL:
		o = obj_of_fd(a);
		if (!o)
			return -E_BADF;
		return o->kind == K_PERF ? perf_ioctl(o, b, c) : -E_NOTTY;
	case KOP_FCNTL:
		o = obj_of_fd(a);
		return o && o->kind == K_PERF ? perf_fcntl(o, b, c) : NBSIM_KERN_PASS;
	case KOP_MMAP: {
		ULong pages;

		o = obj_of_fd(a);
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
		if (!writable(a, b))
			return -E_FAULT;
		for (UWord k = 0; k < b && k < NBSIM_KERN_MAXFD; k++)
			((UChar *)a)[k] = fd_obj[k] != 0;
		return 0;
	case KOP_FILE:
		if (!writable(a, b) || b < 16)
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
