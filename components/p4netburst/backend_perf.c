/*
 * backend_perf.c - the PMU through Linux perf_event_open and the kernel's
 * P4 driver (arch/x86/events/intel/p4.c), with the raw config of
 * nb_perf_raw (PERF_TYPE_RAW; format in nb_encode.h and DESIGN.md).
 *
 * The kernel virtualises the counters per thread and programs the ESCRs,
 * CCCRs and, for replay metrics, IA32_PEBS_ENABLE / MSR_PEBS_MATRIX_VERT
 * itself (from the metric index in CCCR bits 0-6).  It also places the
 * events itself, first-fit over the thread-0 ESCRs and counters: a set that
 * our scheduler places may be refused, and the error says so; check() asks
 * the kernel when the set changes, so that PAPI_add_event refuses it.  It has no
 * interface for the helper ESCRs of front-end and execution tagging, so the
 * metrics that need them cannot be counted here (the msr backend can).
 * One perf group per event set: the leader is the first event.
 *
 * Hardware overflow as PAPI's perf_event component does it: an event whose
 * CCCR asks for an overflow interrupt (OVF_PMI, nb_encode_ex NB_ENC_PMI)
 * opens as a sampling event (sample_period, a one-page ring buffer mapped,
 * wakeup every sample) whose overflow notification is the signal of
 * pmi_signal(), sent to the thread (fcntl O_ASYNC, F_SETSIG, F_SETOWN_EX
 * F_OWNER_TID).  The component presets counters (set_counters) and reads
 * raw 40-bit values; here a counter is the kernel's count plus an offset,
 * and a preset also sets the kernel's period (PERF_EVENT_IOC_PERIOD) to
 * the preset's distance to 2^40, so that the kernel's next overflow comes
 * where the component expects it and the kernel reloads the period itself.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "backend_perf.h"
#include "nb_backend.h"
#include "nb_encode.h"

static int sys_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static int sys_ioctl(int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, arg);
}

struct nb_perf_sys nb_perf_sys = { sys_open, sys_ioctl, read, close };

/* The open events of one event set, by position, as PAPI's perf_event
 * component keeps them in its control state (pe_control_t): a thread may
 * run several sets at once (PAPI's multiattach: two sets, each attached
 * to its own child), and each reads, enables and resets its own.  Per
 * position: the descriptor, the counter our scheduler gave it
 * (set_counters matches on it), the offset added to the kernel's count,
 * the ring buffer. */
struct pset {
	int n;
	int fd[NB_NUM_COUNTERS];
	unsigned ctr[NB_NUM_COUNTERS];
	uint64_t off[NB_NUM_COUNTERS];
	void *ring[NB_NUM_COUNTERS];
};

/* The sets with open events, found by their register array (the
 * control state's: nb_backend.h).  A fixed table, because the overflow
 * handler reads and re-arms a set from a signal handler, where neither
 * malloc nor a lock may be taken: a slot is claimed (CLAIMED) and filled
 * by program() outside any handler, its key published last; a lookup
 * compares keys only, so it never follows another set's pointer while
 * that set is given back in another thread. */
#define NB_PERF_SETS 256
#define CLAIMED ((const struct nb_regs *)&set_key)
static const struct nb_regs *set_key[NB_PERF_SETS];
static struct pset *set_val[NB_PERF_SETS];

static struct pset *set_of(const struct nb_regs *r)
{
	for (int i = 0; i < NB_PERF_SETS; i++)
		if (__atomic_load_n(&set_key[i], __ATOMIC_ACQUIRE) == r)
			return set_val[i];
	return NULL;
}

/* PAPI_INHERIT of the set being programmed (set_inherit): attr.inherit */
static __thread int pinherit;
/* PAPI_attach's task of the set being programmed (set_attach): the pid
 * perf_event_open counts, 0 the calling thread */
static __thread int pattach;
/* the overflow signal (pmi_signal); 0: events do not sample */
static int ovf_sig;
#define RING_BYTES (2 * 4096)     /* header page + one data page */

static void close_set(struct pset *s)
{
	for (int i = 0; i < s->n; i++) {
		if (s->ring[i])
			munmap(s->ring[i], RING_BYTES);
		s->ring[i] = NULL;
		if (s->fd[i] >= 0)
			nb_perf_sys.close(s->fd[i]);
		s->fd[i] = -1;
	}
	s->n = 0;
}

/* The set of R, made (with no events) if it has none; NULL if the table
 * is full or there is no memory. */
static struct pset *set_new(const struct nb_regs *r)
{
	struct pset *s = set_of(r);

	if (s) {
		close_set(s);
		return s;
	}
	if (!(s = calloc(1, sizeof(*s))))
		return NULL;
	for (int i = 0; i < NB_PERF_SETS; i++) {
		const struct nb_regs *none = NULL;

		if (__atomic_compare_exchange_n(&set_key[i], &none, CLAIMED, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			set_val[i] = s;
			__atomic_store_n(&set_key[i], r, __ATOMIC_RELEASE);
			return s;
		}
	}
	free(s);
	return NULL;
}

/* The set of R closed and forgotten. */
static void perf_release(const struct nb_regs *r, int n)
{
	(void)n;
	for (int i = 0; i < NB_PERF_SETS; i++) {
		if (__atomic_load_n(&set_key[i], __ATOMIC_ACQUIRE) != r)
			continue;
		struct pset *s = set_val[i];

		/* the key first: a slot claimed again writes its own set_val */
		__atomic_store_n(&set_key[i], NULL, __ATOMIC_RELEASE);
		close_set(s);
		free(s);
		return;
	}
}

static void attr_of(const struct nb_regs *r, struct perf_event_attr *a, int leader)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_RAW;
	a->config = r->perf;
	a->disabled = leader;      /* members follow their leader */
	/* the kernel sets the ESCR's OS/USR bits from these flags */
	a->exclude_user = !(r->escr & (NB_ESCR_T0_USR | NB_ESCR_T1_USR));
	a->exclude_kernel = !(r->escr & (NB_ESCR_T0_OS | NB_ESCR_T1_OS));
	a->exclude_hv = 1;
	/* children created from now on count too, into these events
	 * (PAPI_INHERIT: PAPI's perf_event component does the same) */
	a->inherit = pinherit != 0;
	if (ovf_sig && (r->cccr & (NB_CCCR_OVF_PMI_T0 | NB_CCCR_OVF_PMI_T1))) {
		/* a sampling event; the real period comes with the preset */
		a->sample_period = (UINT64_C(1) << 39) - 1;
		a->sample_type = PERF_SAMPLE_IP;
		a->wakeup_events = 1;
	}
}

/* Overflow notification of sampling event I of set S: its ring buffer,
 * and the signal to this thread. */
static int arm_signal(struct pset *s, int i, char *err, size_t len)
{
	struct f_owner_ex own = { F_OWNER_TID, (pid_t)syscall(SYS_gettid) };
	void *ring = mmap(NULL, RING_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd[i], 0);

	if (ring == MAP_FAILED) {
		snprintf(err, len, "mmap of the perf ring buffer of event %d: %s", i + 1,
			 strerror(errno));
		return -1;
	}
	s->ring[i] = ring;
	if (fcntl(s->fd[i], F_SETFL, O_RDWR | O_NONBLOCK | O_ASYNC) < 0 ||
	    fcntl(s->fd[i], F_SETSIG, ovf_sig) < 0 || fcntl(s->fd[i], F_SETOWN_EX, &own) < 0) {
		snprintf(err, len, "fcntl (overflow signal %d) of perf event %d: %s", ovf_sig,
			 i + 1, strerror(errno));
		return -1;
	}
	return 0;
}

/* The event a raw config counts (the ESCR event select is the kernel's
 * P4_EVENTS index), for error messages. */
static const char *kname(uint64_t perf)
{
	unsigned k = (unsigned)(perf >> (32 + NB_ESCR_EVSEL_SHIFT)) & 0x3f;

	for (unsigned e = 0; e < nb_num_events; e++)
		if (nb_events[e].kernel_idx == k)
			return nb_events[e].name;
	return "an unknown event";
}

/* Why perf_event_open refused event I of R[0..n-1] with errno E: a
 * member refused with EINVAL is the kernel's placement (its group
 * validation), the leader refused with EINVAL its event table
 * (p4_validate_raw_event: the event mask or the CPU model); both are
 * conflicts, said with what would count the set. */
static void open_error(const struct nb_regs *r, int i, int n, int e, char *err, size_t len)
{
	char before[160] = "";

	for (int j = 0; j < i && strlen(before) + 40 < sizeof(before); j++)
		snprintf(before + strlen(before), sizeof(before) - strlen(before), "%s%s",
			 j ? ", " : "", kname(r[j].perf));
	if (i && e == EINVAL)
		snprintf(err, len, "the kernel's P4 perf driver refused %s (event %d of %d, raw "
			 "0x%016llx) beside %s: its first-fit scheduler (thread-0 half, no "
			 "shared ESCR) cannot place the set; count them in separate runs "
			 "(nb_schedule --policy=linux shows what the kernel places), "
			 "or %s", kname(r[i].perf), i + 1, n, (unsigned long long)r[i].perf, before,
			 NB_PERF_CURE);
	else if (e == EINVAL)
		snprintf(err, len, "the kernel's P4 perf driver refused %s (raw 0x%016llx): its "
			 "event table (p4_validate_raw_event) does not take this event mask on this "
			 "CPU model; %s", kname(r[i].perf), (unsigned long long)r[i].perf, NB_PERF_CURE);
	else
		snprintf(err, len, "perf_event_open of %s (raw 0x%016llx, event %d of %d): %s%s",
			 kname(r[i].perf), (unsigned long long)r[i].perf, i + 1, n, strerror(e),
			 e == EACCES || e == EPERM ? " (see /proc/sys/kernel/perf_event_paranoid; "
			 "with Hyper-Threading on, an event the kernel marks shared needs "
			 "CAP_PERFMON or a level of 0 or less)" : "");
}

/* What the kernel cannot be given at all: a cascaded pair, no raw
 * config.  nb_perf_raw_why said why at PAPI_add_event (perf_refuse);
 * this is the register-level guard of program() and check(). */
static int unencodable(const struct nb_regs *r, int i, char *err, size_t len)
{
	if (r[i].cascade)
		snprintf(err, len, "the event on counter %u is cascaded: the kernel's P4 raw "
			 "config has no CCCR Cascade bit; %s", r[i].counter, NB_PERF_CURE);
	else if (!r[i].perf)
		snprintf(err, len, "the event on counter %u (ESCR 0x%x) has no Linux perf raw "
			 "config: the kernel's P4 driver does not know it; %s", r[i].counter,
			 r[i].escr_msr, NB_PERF_CURE);
	else
		return 0;
	return 1;
}

/* The kernel's answer for the group R[0..n-1], asked as PAPI's perf_event
 * component asks it when a set changes: open the group (disabled, on
 * descriptors of its own: the thread's running set keeps its own) and
 * close it.  The kernel validates a group alone (validate_group), so what
 * it accepts here it accepts at program(); what it refuses here, for any
 * reason, program() would refuse too, so it is refused now. */
static int perf_check(const struct nb_regs *r, int n, char *err, size_t len)
{
	int fd[NB_NUM_COUNTERS], k = 0, ret = 0;

	while (k < n && k < NB_NUM_COUNTERS) {
		struct perf_event_attr a;

		if (unencodable(r, k, err, len)) {
			ret = NB_BACKEND_CONFLICT;
			break;
		}
		attr_of(&r[k], &a, k == 0);
		a.inherit = 0;
		a.sample_period = 0;
		a.sample_type = 0;
		a.wakeup_events = 0;
		fd[k] = nb_perf_sys.open(&a, 0, -1, k ? fd[0] : -1, PERF_FLAG_FD_CLOEXEC);
		if (fd[k] < 0) {
			open_error(r, k, n, errno, err, len);
			ret = NB_BACKEND_CONFLICT;
			break;
		}
		k++;
	}
	while (k-- > 0)
		nb_perf_sys.close(fd[k]);
	return ret;
}

/* What the kernel cannot count whatever the set: a selection without a
 * raw config (nb_perf_raw_why: cascade, front-end and execution tagging,
 * a metric or an event the driver lacks), and a helper ESCR the
 * scheduler gave a metric (the driver writes only IA32_PEBS_ENABLE and
 * MSR_PEBS_MATRIX_VERT, from the metric index [Linux p4_pmu_enable_pebs];
 * perf_write_msrs refuses the rest at start). */
static int perf_refuse(const struct nb_evsel *sel, int n, const struct nb_assign *a,
		       char *why, size_t len)
{
	char nm[NB_NAME_MAX];

	for (int i = 0; i < n; i++)
		if (!nb_perf_raw_why(&sel[i], NB_DOM_USER, why, len))
			return NB_BACKEND_CONFLICT;
	if (a && a->nhelpers > 0) {
		const struct nb_helper_slot *h = &a->helper[0];

		nb_sched_name(&sel[h->owner < n ? h->owner : 0], nm, sizeof(nm));
		snprintf(why, len, "%s: its tagging needs helper ESCR %s (%s), which Linux's P4 "
			 "perf driver does not program (it writes only IA32_PEBS_ENABLE and "
			 "MSR_PEBS_MATRIX_VERT, from the metric index); %s", nm,
			 nb_escrs[h->escr].name, nb_events[h->event].name, NB_PERF_CURE);
		return NB_BACKEND_CONFLICT;
	}
	return 0;
}

static int perf_program(const struct nb_regs *r, int n, char *err, size_t len)
{
	struct pset *s = set_new(r);

	if (!s) {
		snprintf(err, len, "perf backend: more than %d event sets started at once",
			 NB_PERF_SETS);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct perf_event_attr a;

		if (unencodable(r, i, err, len)) {
			perf_release(r, n);
			return NB_BACKEND_CONFLICT;
		}
		attr_of(&r[i], &a, i == 0);
		s->fd[i] = nb_perf_sys.open(&a, pattach, -1, i ? s->fd[0] : -1, PERF_FLAG_FD_CLOEXEC);
		if (s->fd[i] < 0) {
			int e = errno;

			open_error(r, i, n, e, err, len);
			perf_release(r, n);
			return e == EINVAL ? NB_BACKEND_CONFLICT : -1;
		}
		s->n = i + 1;
		s->ctr[i] = r[i].counter;
		s->off[i] = 0;
		if (a.sample_period && arm_signal(s, i, err, len)) {
			perf_release(r, n);
			return -1;
		}
	}
	return 0;
}

static int perf_enable(const struct nb_regs *r, int n, int on, char *err, size_t len)
{
	struct pset *s = set_of(r);

	if (n == 0 || !s || s->n == 0)
		return 0;
	if (nb_perf_sys.ioctl(s->fd[0], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE,
			      PERF_IOC_FLAG_GROUP) < 0) {
		snprintf(err, len, "perf %s: %s", on ? "enable" : "disable", strerror(errno));
		return -1;
	}
	return 0;
}

static int perf_read(const struct nb_regs *r, int n, uint64_t *raw, char *err, size_t len)
{
	struct pset *s = set_of(r);
	int nopen = s ? s->n : 0;

	for (int i = 0; i < n; i++) {
		raw[n + i] = 0;        /* no cascaded pairs here (perf_program) */
		if (i >= nopen || nb_perf_sys.read(s->fd[i], &raw[i], sizeof(raw[i])) !=
				     (ssize_t)sizeof(raw[i])) {
			snprintf(err, len, "perf read of event %d: %s", i + 1,
				 i >= nopen ? "not open" : strerror(errno));
			return -1;
		}
		raw[i] = (raw[i] + s->off[i]) & NB_COUNTER_MASK;   /* the component widens 40-bit deltas */
	}
	return 0;
}

static int perf_zero(const struct nb_regs *r, int n, char *err, size_t len)
{
	struct pset *s = set_of(r);

	if (!s)
		return 0;
	if (n && s->n && nb_perf_sys.ioctl(s->fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) < 0) {
		snprintf(err, len, "perf reset: %s", strerror(errno));
		return -1;
	}
	for (int i = 0; i < s->n; i++)
		s->off[i] = 0;
	return 0;
}

static void perf_set_inherit(int on)
{
	pinherit = on;
}

static void perf_set_attach(int tid)
{
	pattach = tid;
}

static int perf_pmi_signal(int sig, char *err, size_t len)
{
	(void)err;
	(void)len;
	ovf_sig = sig;
	return 0;
}

/* A counter's raw value V: the offset to the kernel's count; for a
 * sampling event also the kernel's period, the distance from V to 2^40. */
static int perf_set_counters(const struct nb_regs *r, int n, uint32_t mask, const uint64_t *raw,
			     char *err, size_t len)
{
	struct pset *s = set_of(r);
	int nopen = s ? s->n : 0;

	for (int k = 0; k < n; k++) {
		uint64_t cur, per = (NB_COUNTER_MASK + 1 - (raw[k] & NB_COUNTER_MASK)) & NB_COUNTER_MASK;
		int i = 0;

		if (!((mask >> k) & 1))
			continue;
		while (i < nopen && s->ctr[i] != r[k].counter)
			i++;
		if (i == nopen || nb_perf_sys.read(s->fd[i], &cur, sizeof(cur)) != (ssize_t)sizeof(cur)) {
			snprintf(err, len, "perf: counter %u: %s", r[k].counter,
				 i == nopen ? "no open event" : strerror(errno));
			return -1;
		}
		s->off[i] = (raw[k] - cur) & NB_COUNTER_MASK;
		if (s->ring[i] && per &&
		    nb_perf_sys.ioctl(s->fd[i], PERF_EVENT_IOC_PERIOD, (unsigned long)(uintptr_t)&per) < 0) {
			snprintf(err, len, "perf period %llu of event %d: %s", (unsigned long long)per,
				 i + 1, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* IA32_PEBS_ENABLE and MSR_PEBS_MATRIX_VERT: the kernel writes them from
 * the metric index; clearing anything is a no-op (the kernel does it when
 * the events close).  A helper ESCR cannot be expressed. */
static int perf_write_msrs(const struct nb_msr_image *w, int n, char *err, size_t len)
{
	for (int i = 0; i < n; i++) {
		if (w[i].msr == NB_MSR_PEBS_ENABLE || w[i].msr == NB_MSR_MATRIX_VERT || !w[i].value)
			continue;
		snprintf(err, len, "helper ESCR 0x%x (a tagged metric's): the kernel's P4 driver "
			 "has no interface for it; %s", w[i].msr, NB_PERF_CURE);
		return -1;
	}
	return 0;
}

/* /proc/sys/kernel/perf_event_paranoid, for the refusal's message; -2 if
 * it cannot be read. */
static int paranoid_level(void)
{
	char b[16] = { 0 };
	int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, b, sizeof(b) - 1) : -1;

	if (fd >= 0)
		close(fd);
	return n > 0 ? atoi(b) : -2;
}

static int perf_probe(struct nb_cpu *cpu, char *why, size_t len)
{
	struct nb_regs r;
	struct nb_evsel sel;
	struct perf_event_attr a;
	int fd;

	if (nb_native_cpu(cpu, why, len))
		return -1;
	/* global_power_events:RUNNING: perf_event_paranoid and the P4 driver */
	memset(&r, 0, sizeof(r));
	memset(&sel, 0, sizeof(sel));
	if (nb_evsel_parse("global_power_events:RUNNING", cpu->model, 0, &sel, why, len))
		return -1;
	r.escr = NB_ESCR_T0_USR;
	r.perf = nb_perf_raw(&sel, NB_DOM_USER);
	attr_of(&r, &a, 1);
	fd = nb_perf_sys.open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno, lvl = paranoid_level();

		snprintf(why, len, "perf_event_open of a raw P4 event: %s", strerror(e));
		if ((e == EACCES || e == EPERM) && lvl > -2)
			snprintf(why + strlen(why), len - strlen(why),
				 " (/proc/sys/kernel/perf_event_paranoid is %d: needs CAP_PERFMON "
				 "or a lower level)", lvl);
		return -1;
	}
	nb_perf_sys.close(fd);
	return 0;
}

const struct nb_backend nb_backend_perf = {
	.name = "perf",
	.probe = perf_probe,
	.program = perf_program,
	.check = perf_check,
	.refuse = perf_refuse,
	.enable = perf_enable,
	.read = perf_read,
	.zero = perf_zero,
	.write_msrs = perf_write_msrs,
	.pmi_signal = perf_pmi_signal,
	.set_counters = perf_set_counters,
	.release = perf_release,
	.set_inherit = perf_set_inherit,
	.set_attach = perf_set_attach,
};
