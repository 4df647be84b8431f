/*
 * backend_unit.c - the msr and perf backends without NetBurst hardware (TAP).
 *
 * msr: the backend's system calls (nb_msr_sys) are replaced by an
 * in-memory /dev/cpu/N/msr (8 bytes per MSR at offset = MSR address, as the
 * Linux msr driver does); the test reads back what was written where.
 * perf: the backend's system calls (nb_perf_sys) are replaced by recorders;
 * the test checks the perf_event_attr of each event (raw config = the
 * kernel P4 format of nb_perf_raw, group, privilege flags), the ioctls, and
 * the errors.  Natively the probes must refuse this machine unless it is a
 * NetBurst, with a reason.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "nbtap.h"
#include "nb_backend.h"
#include "backend_perf.h"
#include "backend_msr.h"
#include "nb_encode.h"
#include "nb_evsel.h"

#define MODEL 2

/* Parse, schedule and encode NAMES like the component's nb_start. */
/* The perf backend's refuse() of NAME alone, as the component asks it. */
static int refuse_of(const char *name, char *err, size_t len)
{
	struct nb_evsel sel;
	struct nb_sched_cpu sc;
	struct nb_assign a;

	memset(&sel, 0, sizeof(sel));
	memset(&sc, 0, sizeof(sc));
	sc.model = MODEL;
	if (nb_evsel_parse(name, MODEL, 0, &sel, err, len) || nb_sched_run(&sel, 1, &sc, &a, NULL, err, len))
		return -1;
	return nb_backend_perf.refuse(&sel, 1, &a, err, len);
}

static int encode(const char **names, int n, struct nb_regs *r, struct nb_msr_image *x,
		  int *nx)
{
	struct nb_evsel sel[NB_SCHED_MAX];
	struct nb_sched_cpu sc;
	struct nb_assign a;
	char err[512];

	memset(sel, 0, sizeof(sel));
	memset(&sc, 0, sizeof(sc));
	sc.model = MODEL;
	for (int i = 0; i < n; i++) {
		if (nb_evsel_parse(names[i], MODEL, 0, &sel[i], err, sizeof(err))) {
			tap_diag("%s: %s", names[i], err);
			return -1;
		}
	}
	if (nb_sched_run(sel, n, &sc, &a, NULL, err, sizeof(err))) {
		tap_diag("schedule: %s", err);
		return -1;
	}
	for (int i = 0; i < n; i++)
		nb_encode_ex(&sel[i], &a.slot[i], NB_DOM_USER, 0, 0, &r[i]);
	*nx = nb_encode_extra(&a, NB_DOM_USER, 0, x, NB_SCHED_MAX_HELPERS + 2);
	return 0;
}

/* ---- msr ---------------------------------------------------------------- */

/* A stand-in for the msr driver: per CPU, 8 bytes per MSR at offset = MSR. */
#define FAKE_CPUS 64
#define FAKE_MSRS 0x400
static uint64_t fake_msr[FAKE_CPUS][FAKE_MSRS];
static char opened[256];
static int fake_cpu_of_fd[FAKE_CPUS + 3];

static int fake_msr_open(const char *path, int flags, ...)
{
	int cpu;

	snprintf(opened, sizeof(opened), "%s", path);
	if (!(flags & O_RDWR) || sscanf(path, "/fake/cpu%d/msr", &cpu) != 1 || cpu < 0 ||
	    cpu >= FAKE_CPUS) {
		errno = ENOENT;
		return -1;
	}
	fake_cpu_of_fd[3 + cpu] = cpu;
	return 3 + cpu;
}

static ssize_t fake_msr_pread(int fd, void *buf, size_t n, off_t off)
{
	if (n != 8 || off < 0 || off >= FAKE_MSRS || fd < 3 || fd >= FAKE_CPUS + 3)
		return errno = EIO, -1;
	memcpy(buf, &fake_msr[fake_cpu_of_fd[fd]][off], 8);
	return 8;
}

static ssize_t fake_msr_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	if (n != 8 || off < 0 || off >= FAKE_MSRS || fd < 3 || fd >= FAKE_CPUS + 3)
		return errno = EIO, -1;
	memcpy(&fake_msr[fake_cpu_of_fd[fd]][off], buf, 8);
	return 8;
}

static int fake_msr_close(int fd)
{
	(void)fd;
	return 0;
}

static void *msr_missing_device(void *arg)
{
	struct nb_regs *r = arg;
	char err[256] = "";
	int rc;

	setenv("P4NETBURST_MSR_DEV", "/nonexistent/cpu%d/msr", 1);
	rc = nb_backend_msr.program(r, 1, err, sizeof(err));
	tap_ok(rc == -1 && strstr(err, "/nonexistent/cpu") && strstr(err, "modprobe msr"),
	       "msr: a missing device fails with its path and the driver to load (%s)", err);
	return NULL;
}

static void *msr_bad_format(void *arg)
{
	struct nb_regs *r = arg;
	char err[512] = "";
	int rc;

	setenv("P4NETBURST_MSR_DEV", "/dev/cpu/%n%s%d/msr", 1);
	rc = nb_backend_msr.program(r, 1, err, sizeof(err));
	tap_ok(rc == -1 && strstr(err, "P4NETBURST_MSR_DEV='/dev/cpu/%n%s%d/msr' is not accepted"),
	       "msr: program() with a %%n/%%s P4NETBURST_MSR_DEV fails with the reason, "
	       "no device opened (%s)", err);
	return NULL;
}

/* Another thread of the process on CPU *arg programs the same set: the
 * msr backend refuses while the main thread counts there (no per-thread
 * registers without the kernel), accepts once it stopped. */
static int other_cpu, other_rc;
static char other_err[512];
static struct nb_regs *other_regs;

static void *msr_other_thread(void *arg)
{
	cpu_set_t set;
	(void)arg;

	CPU_ZERO(&set);
	CPU_SET(other_cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return NULL;
	other_rc = nb_backend_msr.program(other_regs, 3, other_err, sizeof(other_err));
	if (other_rc == 0)
		(void)nb_backend_msr.enable(other_regs, 3, 0, other_err, sizeof(other_err));
	return NULL;
}

static void test_msr(void)
{
	const char *names[] = { "instr_retired:NBOGUSNTAG", "branch_retired:MMTP:MMTM",
				"Memory_loads" };
	struct nb_regs r[3];
	struct nb_msr_image x[NB_SCHED_MAX_HELPERS + 2];
	char err[256] = "", want[64];
	uint64_t raw[6], *m;   /* 2n: room for cascaded pairs' alternates */
	int nx, cpu, ok;
	cpu_set_t set;
	pthread_t t;

	nb_msr_sys.open = fake_msr_open;
	nb_msr_sys.pread = fake_msr_pread;
	nb_msr_sys.pwrite = fake_msr_pwrite;
	nb_msr_sys.close = fake_msr_close;
	setenv("P4NETBURST_MSR_DEV", "/fake/cpu%d/msr", 1);
	if (encode(names, 3, r, x, &nx))
		tap_bail("cannot encode the msr test set");
	for (int i = 0; i < FAKE_CPUS; i++)           /* stale values to overwrite */
		for (int j = 0; j < FAKE_MSRS; j++)
			fake_msr[i][j] = 0x5555;

	ok = nb_backend_msr.program(r, 3, err, sizeof(err)) == 0;
	tap_ok(ok, "msr: program (%s)", err);
	cpu = sched_getcpu();
	if (cpu < 0 || cpu >= FAKE_CPUS)
		tap_bail("CPU %d outside the fake device", cpu);
	m = fake_msr[cpu];
	snprintf(want, sizeof(want), "/fake/cpu%d/msr", cpu);
	tap_ok(!strcmp(opened, want), "msr: P4NETBURST_MSR_DEV gives the device path (%s)", opened);
	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(set), &set);
	tap_ok(CPU_COUNT(&set) == 1 && CPU_ISSET(cpu, &set),
	       "msr: the thread is bound to the CPU it programmed (%d)", cpu);
	for (int i = 0; i < 3; i++) {
		TAP_EQ(m[r[i].escr_msr], r[i].escr, "msr: ESCR 0x%x of event %d written",
		       r[i].escr_msr, i);
		TAP_EQ(m[r[i].cccr_msr], r[i].cccr & ~NB_CCCR_ENABLE,
		       "msr: CCCR 0x%x written with Enable clear", r[i].cccr_msr);
		TAP_EQ(m[nb_counters[r[i].counter].msr], 0, "msr: counter %u zeroed", r[i].counter);
	}
	tap_ok(nx >= 1 && nb_backend_msr.write_msrs(x, nx, err, sizeof(err)) == 0,
	       "msr: the metric's helper MSRs written (%d)", nx);
	for (int i = 0; i < nx; i++)
		TAP_EQ(m[x[i].msr], x[i].value, "msr: helper MSR 0x%x", x[i].msr);
	tap_ok(nb_backend_msr.enable(r, 3, 1, err, sizeof(err)) == 0, "msr: enable");
	for (int i = 0; i < 3; i++)
		TAP_EQ(m[r[i].cccr_msr], r[i].cccr, "msr: CCCR 0x%x enabled", r[i].cccr_msr);
	/* counters are 40 bits; the driver returns the whole MSR */
	m[nb_counters[r[0].counter].msr] = 0xffffff123456789aULL;
	m[nb_counters[r[1].counter].msr] = 42;
	tap_ok(nb_backend_msr.read(r, 3, raw, err, sizeof(err)) == 0, "msr: read");
	TAP_EQ(raw[0], 0x123456789aULL, "msr: a counter reads as its 40 bits");
	TAP_EQ(raw[1], 42, "msr: second counter");
	other_cpu = cpu;
	other_regs = r;
	other_rc = 99;
	pthread_create(&t, NULL, msr_other_thread, NULL);
	pthread_join(t, NULL);
	tap_ok(other_rc == -1 && strstr(other_err, "already counts for thread") &&
	       strstr(other_err, "distinct CPUs"),
	       "msr: a second thread counting on the same CPU is refused (%s)", other_err);
	tap_ok(nb_backend_msr.enable(r, 3, 0, err, sizeof(err)) == 0, "msr: disable");
	other_rc = 99;
	pthread_create(&t, NULL, msr_other_thread, NULL);
	pthread_join(t, NULL);
	tap_ok(other_rc == 0, "msr: once the first stopped, the CPU is the second thread's (%s)",
	       other_rc ? other_err : "ok");
	TAP_EQ(m[r[2].cccr_msr], r[2].cccr & ~NB_CCCR_ENABLE, "msr: CCCR disabled");
	tap_ok(nb_backend_msr.zero(r, 3, err, sizeof(err)) == 0, "msr: zero");
	TAP_EQ(m[nb_counters[r[0].counter].msr], 0, "msr: counter zeroed again");
	/* a driver error (the hardware's #GP becomes EIO) names the MSR */
	m = NULL;
	{
		struct nb_msr_image bad = { FAKE_MSRS + 5, 1 };

		tap_ok(nb_backend_msr.write_msrs(&bad, 1, err, sizeof(err)) == -1 &&
		       strstr(err, "WRMSR 0x405"), "msr: a refused write names the MSR (%s)", err);
	}

	/* a fresh thread (its own device handle) with a missing device */
	pthread_create(&t, NULL, msr_missing_device, r);
	pthread_join(t, NULL);
	/* and one with a format-string attack in the variable */
	pthread_create(&t, NULL, msr_bad_format, r);
	pthread_join(t, NULL);
	unsetenv("P4NETBURST_MSR_DEV");
}

/* ---- perf ---------------------------------------------------------------- */

#define MAXREC 32
static struct perf_event_attr attrs[MAXREC];
static int groups[MAXREC], nopen, nclose, fail_at = -1, fail_errno;
static unsigned long ioctls[MAXREC][3];
static int nioctl;

static int fake_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
		     unsigned long flags)
{
	(void)flags;
	if (pid != 0 || cpu != -1)
		return errno = EINVAL, -1;
	if (nopen == fail_at) {
		errno = fail_errno;
		return -1;
	}
	attrs[nopen] = *a;
	groups[nopen] = group_fd;
	return 100 + nopen++;
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	if (nioctl < MAXREC) {
		ioctls[nioctl][0] = (unsigned long)fd;
		ioctls[nioctl][1] = req;
		ioctls[nioctl][2] = arg;
		nioctl++;
	}
	return 0;
}

static ssize_t fake_read(int fd, void *buf, size_t n)
{
	uint64_t v = ((uint64_t)1 << 40) + 1000u * (unsigned)(fd - 99);  /* 64-bit counts */

	if (n != sizeof(v))
		return errno = EINVAL, -1;
	memcpy(buf, &v, sizeof(v));
	return sizeof(v);
}

static int fake_close(int fd)
{
	(void)fd;
	nclose++;
	return 0;
}

static void reset_fakes(void)
{
	nopen = nclose = nioctl = 0;
	fail_at = -1;
}

static void test_perf(void)
{
	const char *names[] = { "global_power_events:RUNNING", "instr_retired:NBOGUSNTAG:u=1:k=1",
				"1stL_cache_load_miss_retired" };
	const char *tagged[] = { "Memory_loads" };
	struct nb_regs r[3];
	struct nb_msr_image x[NB_SCHED_MAX_HELPERS + 2];
	char err[256] = "";
	uint64_t raw[6];
	int nx;

	nb_perf_sys.open = fake_open;
	nb_perf_sys.ioctl = fake_ioctl;
	nb_perf_sys.read = fake_read;
	nb_perf_sys.close = fake_close;
	reset_fakes();
	if (encode(names, 3, r, x, &nx))
		tap_bail("cannot encode the perf test set");
	tap_ok(nb_backend_perf.program(r, 3, err, sizeof(err)) == 0, "perf: program (%s)", err);
	TAP_EQ(nopen, 3, "perf: one perf event per counter");
	for (int i = 0; i < 3 && i < nopen; i++) {
		TAP_EQ(attrs[i].type, PERF_TYPE_RAW, "perf: event %d is PERF_TYPE_RAW", i);
		TAP_EQ(attrs[i].config, r[i].perf, "perf: event %d config is nb_perf_raw's", i);
		tap_ok(attrs[i].config != 0, "perf: event %d has a raw config", i);
		TAP_EQ(groups[i], i ? 100 : -1, "perf: event %d in the leader's group", i);
		TAP_EQ(attrs[i].disabled, i == 0, "perf: only the leader starts disabled (%d)", i);
		TAP_EQ(attrs[i].exclude_user, 0, "perf: event %d counts user mode", i);
	}
	TAP_EQ(attrs[0].exclude_kernel, 1, "perf: default domain user: kernel excluded");
	TAP_EQ(attrs[1].exclude_kernel, 0, "perf: k=1: kernel counted");
	/* the replay metric's index travels in CCCR bits 0-6 [kernel_p4.txt] */
	tap_ok((attrs[2].config & 0x7f) != 0, "perf: the replay metric carries its index "
	       "(config 0x%016llx)", (unsigned long long)attrs[2].config);
	tap_ok(nb_backend_perf.write_msrs(x, nx, err, sizeof(err)) == 0,
	       "perf: the replay metric's PEBS MSRs are left to the kernel");
	nioctl = 0;
	tap_ok(nb_backend_perf.enable(r, 3, 1, err, sizeof(err)) == 0, "perf: enable");
	tap_ok(nioctl == 1 && ioctls[0][0] == 100 && ioctls[0][1] == PERF_EVENT_IOC_ENABLE &&
	       ioctls[0][2] == PERF_IOC_FLAG_GROUP, "perf: one group ENABLE on the leader");
	tap_ok(nb_backend_perf.read(r, 3, raw, err, sizeof(err)) == 0, "perf: read");
	TAP_EQ(raw[0], 1000, "perf: 64-bit count reduced to the 40 bits the component widens");
	TAP_EQ(raw[2], 3000, "perf: third event's count");
	nioctl = 0;
	tap_ok(nb_backend_perf.zero(r, 3, err, sizeof(err)) == 0 && nioctl == 1 &&
	       ioctls[0][1] == PERF_EVENT_IOC_RESET, "perf: zero is a group RESET");
	nioctl = 0;
	tap_ok(nb_backend_perf.enable(r, 3, 0, err, sizeof(err)) == 0 && nioctl == 1 &&
	       ioctls[0][1] == PERF_EVENT_IOC_DISABLE, "perf: disable");

	/* two sets in one thread (PAPI's multiattach: each attached to its
	 * own child): each its own events, found by its register array */
	{
		struct nb_regs r2[3];
		int closed = nclose;

		memcpy(r2, r, sizeof(r2));
		tap_ok(nb_backend_perf.program(r2, 3, err, sizeof(err)) == 0 && nopen == 6 &&
		       nclose == closed, "perf: a second set opens its own 3 events, the first's "
		       "stay open (%d opened, %d closed)", nopen, nclose - closed);
		tap_ok(nb_backend_perf.read(r, 3, raw, err, sizeof(err)) == 0 && raw[0] == 1000,
		       "perf: the first set reads its own events (%llu)", (unsigned long long)raw[0]);
		tap_ok(nb_backend_perf.read(r2, 3, raw, err, sizeof(err)) == 0 && raw[0] == 4000,
		       "perf: the second set reads its own events (%llu)", (unsigned long long)raw[0]);
		nioctl = 0;
		tap_ok(nb_backend_perf.enable(r2, 3, 1, err, sizeof(err)) == 0 && nioctl == 1 &&
		       ioctls[0][0] == 103, "perf: the second set's ENABLE goes to its leader");
		nb_backend_perf.release(r2, 3);
		tap_ok(nclose == closed + 3 &&
		       nb_backend_perf.read(r, 3, raw, err, sizeof(err)) == 0 && raw[0] == 1000,
		       "perf: release closes the second set's 3 events, the first counts on");
		tap_ok(nb_backend_perf.read(r2, 3, raw, err, sizeof(err)) == -1 &&
		       strstr(err, "not open"), "perf: a released set has no events (%s)", err);
	}

	/* check(): the kernel asked when a set changes, on descriptors of its
	 * own (the programmed set above stays open) */
	reset_fakes();
	tap_ok(nb_backend_perf.check(r, 3, err, sizeof(err)) == 0, "perf: check of a set the kernel takes");
	tap_ok(nopen == 3 && nclose == 3 && groups[1] == 100 && groups[2] == 100 && attrs[0].disabled,
	       "perf: check opens the group, leader disabled, and closes its 3 events (%d, %d)",
	       nopen, nclose);
	reset_fakes();
	fail_at = 2;
	fail_errno = EINVAL;
	tap_ok(nb_backend_perf.check(r, 3, err, sizeof(err)) == NB_BACKEND_CONFLICT &&
	       strstr(err, "first-fit") && nclose == 2,
	       "perf: check of a member the kernel refuses: a conflict, the 2 opened closed (%s)", err);
	reset_fakes();
	fail_at = 0;
	fail_errno = EACCES;
	tap_ok(nb_backend_perf.check(r, 3, err, sizeof(err)) == NB_BACKEND_CONFLICT && nclose == 0 &&
	       strstr(err, "perf_event_paranoid"),
	       "perf: check refuses what program would refuse, a leader the kernel does not "
	       "open too (%s)", err);
	reset_fakes();
	fail_at = 0;
	fail_errno = EINVAL;
	tap_ok(nb_backend_perf.check(r, 3, err, sizeof(err)) == NB_BACKEND_CONFLICT &&
	       strstr(err, "event table") && strstr(err, "P4NETBURST_BACKEND=msr"),
	       "perf: a leader the kernel's event table refuses: a conflict naming another "
	       "backend (%s)", err);

	/* a set the kernel's scheduler refuses: all opened events closed */
	reset_fakes();
	fail_at = 1;
	fail_errno = EINVAL;
	tap_ok(nb_backend_perf.program(r, 3, err, sizeof(err)) == NB_BACKEND_CONFLICT && strstr(err, "first-fit"),
	       "perf: a refused member says the kernel's scheduler could not place it, a conflict (%s)", err);
	TAP_EQ(nclose, 3 + 1, "perf: the previous set's 3 events and the opened leader closed");

	reset_fakes();
	fail_at = 0;
	fail_errno = EACCES;
	tap_ok(nb_backend_perf.program(r, 1, err, sizeof(err)) == -1 &&
	       strstr(err, "perf_event_paranoid"), "perf: EACCES names perf_event_paranoid (%s)", err);

	/* front-end tagging needs a helper ESCR: not expressible */
	reset_fakes();
	if (encode(tagged, 1, r, x, &nx))
		tap_bail("cannot encode Memory_loads");
	tap_ok(nx >= 1 && nb_backend_perf.write_msrs(x, nx, err, sizeof(err)) == -1 &&
	       strstr(err, "P4NETBURST_BACKEND=msr"), "perf: a helper ESCR is refused, naming the msr backend (%s)",
	       err);
	/* what the perf backend refuses whatever the set, at PAPI_add_event
	 * and PAPI_start alike (issue 32) */
	{
		static const struct { const char *name, *why; } rf[] = {
			{ "Memory_loads", "front-end tagging needs a helper ESCR" },
			{ "split_load_retired", "helper ESCR SAAT_ESCR1" },
			{ "packed_SP_retired", "execution tagging needs helper ESCRs" },
			{ "x87_SIMD_moves_uop", "does not know this event" },
			{ "ITLB_reference:cascade", "CCCR Cascade bit" },
			{ "global_power_events:RUNNING", NULL },
			{ "instr_retired:NBOGUSNTAG", NULL },
		};

		for (unsigned k = 0; k < sizeof(rf) / sizeof(rf[0]); k++) {
			int rc = refuse_of(rf[k].name, err, sizeof(err));

			if (rf[k].why)
				tap_ok(rc == NB_BACKEND_CONFLICT && strstr(err, rf[k].why) &&
				       strstr(err, "P4NETBURST_BACKEND=msr"),
				       "perf refuse: %s, with the reason and another backend (%s)",
				       rf[k].name, err);
			else
				tap_ok(rc == 0, "perf refuse: %s is countable (%d)", rf[k].name, rc);
		}
	}
}

/* ---- probes ----------------------------------------------------------------- */

static void test_probes(void)
{
	unsigned a = 0, b = 0, c = 0, d = 0;
	int netburst;
	struct nb_cpu cpu;
	char why[256] = "";

	__get_cpuid(0, &a, &b, &c, &d);
	netburst = b == 0x756e6547 && __get_cpuid(1, &a, &b, &c, &d) && ((a >> 8) & 0xf) == 15 &&
		   !((a >> 20) & 0xff);
	TAP_EQ(nb_native_cpu(&cpu, why, sizeof(why)) == 0, netburst,
	       "native CPUID: NetBurst iff Intel family 15 (%s)", why[0] ? why : "yes");
	if (!netburst)
		tap_ok(strstr(why, "not a NetBurst") != NULL, "the reason says why (%s)", why);
	else
		tap_ok(cpu.family == 15, "a NetBurst reports family 15");
	why[0] = 0;
	tap_ok((nb_backend_msr.probe(&cpu, why, sizeof(why)) == 0) == 0 || netburst,
	       "msr probe refuses a non-NetBurst (%s)", why);
	tap_ok((nb_backend_perf.probe(&cpu, why, sizeof(why)) == 0) == 0 || netburst,
	       "perf probe refuses a non-NetBurst (%s)", why);
}

/* ---- cascaded pairs ------------------------------------------------------ */

static void test_cascade(void)
{
	const char *names[] = { "instr_retired:NBOGUSNTAG:cascade" };
	struct nb_regs r[1];
	struct nb_msr_image x[NB_SCHED_MAX_HELPERS + 2];
	char err[256] = "";
	uint64_t raw[2], *m;
	int nx, cpu;
	struct nb_cascade_state st;
	const uint64_t T40 = UINT64_C(1) << 40;

	if (encode(names, 1, r, x, &nx))
		tap_bail("cannot encode the cascade test set");
	tap_ok(r[0].cascade && r[0].hi_counter != r[0].counter, "cascade: a pair, counters %u and %u",
	       r[0].counter, r[0].hi_counter);
	tap_ok(nb_backend_msr.program(r, 1, err, sizeof(err)) == 0, "cascade msr: program (%s)", err);
	cpu = sched_getcpu();
	m = fake_msr[cpu];
	TAP_EQ(m[r[0].hi_escr_msr], r[0].escr, "cascade msr: the alternate's ESCR has the same value");
	TAP_EQ(m[r[0].hi_cccr_msr], r[0].hi_cccr & ~NB_CCCR_CASCADE,
	       "cascade msr: the alternate's CCCR written with Cascade clear");
	TAP_EQ(m[nb_counters[r[0].hi_counter].msr], 0, "cascade msr: the alternate zeroed");
	tap_ok(nb_backend_msr.enable(r, 1, 1, err, sizeof(err)) == 0, "cascade msr: enable");
	TAP_EQ(m[r[0].hi_cccr_msr], r[0].hi_cccr, "cascade msr: alternate's CCCR: Cascade set");
	TAP_EQ(m[r[0].cccr_msr], r[0].cccr, "cascade msr: low CCCR: Enable set");
	m[nb_counters[r[0].counter].msr] = 7;
	m[nb_counters[r[0].hi_counter].msr] = 5;
	tap_ok(nb_backend_msr.read(r, 1, raw, err, sizeof(err)) == 0 && raw[0] == 7 && raw[1] == 5,
	       "cascade msr: read gives the low counter, then the alternate at raw[n + i]");
	m[r[0].cccr_msr] |= NB_CCCR_OVF;
	tap_ok(nb_backend_msr.zero(r, 1, err, sizeof(err)) == 0 &&
	       m[nb_counters[r[0].hi_counter].msr] == 0 && !(m[r[0].cccr_msr] & NB_CCCR_OVF) &&
	       !(m[r[0].hi_cccr_msr] & NB_CCCR_CASCADE),
	       "cascade msr: zero clears both counters and the low OVF, stops the pair");
	tap_ok(nb_backend_msr.enable(r, 1, 0, err, sizeof(err)) == 0 &&
	       !(m[r[0].hi_cccr_msr] & NB_CCCR_CASCADE) && !(m[r[0].cccr_msr] & NB_CCCR_ENABLE),
	       "cascade msr: disable clears Enable and Cascade");
	/* perf: the kernel's P4 config has no Cascade bit */
	tap_ok(r[0].perf == 0, "cascade: no perf raw config");
	tap_ok(nb_backend_perf.program(r, 1, err, sizeof(err)) == NB_BACKEND_CONFLICT &&
	       strstr(err, "Cascade"), "cascade perf: refused with the reason (%s)", err);

	/* folding reads: both counters count the same events, the alternate
	 * from the low counter's overflow on (SDM 18.15.5.6) */
	memset(&st, 0, sizeof(st));
	TAP_EQ(nb_cascade_fold(&st, 1000, 0), 1000, "fold: below 2^40, the low counter");
	TAP_EQ(nb_cascade_fold(&st, 5000, 0), 5000, "fold: deltas");
	TAP_EQ(nb_cascade_fold(&st, 77, 77), T40 + 77,
	       "fold: more than 2^40 events between reads: 2^40 + alternate");
	TAP_EQ(nb_cascade_fold(&st, 100, 100), T40 + 100, "fold: then deltas again");
	TAP_EQ(nb_cascade_fold(&st, 10, 10), 2 * T40 + 10,
	       "fold: later low wraps (reads < 2^40 apart) are deltas");
	memset(&st, 0, sizeof(st));
	TAP_EQ(nb_cascade_fold(&st, T40 - 3, 0), T40 - 3, "fold: just below 2^40");
	TAP_EQ(nb_cascade_fold(&st, 4, 4), T40 + 4, "fold: past 2^40 between two reads");
	memset(&st, 0, sizeof(st));
	TAP_EQ(nb_cascade_fold(&st, T40 - 1, T40 - 1), 2 * T40 - 1,
	       "fold: first read at 2^41 - 1 events: exact (the pair's range)");
}

/* P4NETBURST_MSR_DEV is a path with one %d, never a format; anything else
 * is refused with the reason (and the backend then refuses to probe). */
static void test_msr_dev(void)
{
	static const struct { const char *v, *want; } good[] = {
		{ NULL, "/dev/cpu/3/msr" },
		{ "", "/dev/cpu/3/msr" },
		{ "/dev/cpu/%d/msr_safe", "/dev/cpu/3/msr_safe" },
		{ "/x/%d", "/x/3" },
	};
	static const char *const bad[] = {
		"/dev/cpu/%n/msr", "/dev/cpu/%s/msr", "/dev/cpu/%x%x%x%x/msr",
		"/dev/cpu/%d/%d", "/dev/cpu/%d/msr%", "/dev/cpu/msr",
		"dev/cpu/%d/msr", "%d/msr", "/dev/cpu/%%d/msr", "/dev/cpu/%5d/msr",
		"/dev/cpu/%ld/msr",
	};
	char path[256], err[512], big[400];
	int ok = 1;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (good[i].v)
			setenv("P4NETBURST_MSR_DEV", good[i].v, 1);
		else
			unsetenv("P4NETBURST_MSR_DEV");
		err[0] = '\0';
		tap_ok(nb_msr_dev_path(3, path, sizeof(path), err, sizeof(err)) == 0 &&
		       strcmp(path, good[i].want) == 0, "msr: P4NETBURST_MSR_DEV=%s gives %s (%s)",
		       good[i].v ? good[i].v : "(unset)", good[i].want, err);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("P4NETBURST_MSR_DEV", bad[i], 1);
		err[0] = '\0';
		ok = nb_msr_dev_path(3, path, sizeof(path), err, sizeof(err)) == -1 &&
		     strstr(err, "is not accepted") && strstr(err, "exactly one %d");
		tap_ok(ok, "msr: P4NETBURST_MSR_DEV=%s is refused with the reason", bad[i]);
	}
	memset(big, 'a', sizeof(big) - 1);
	big[0] = '/';
	big[sizeof(big) - 1] = '\0';
	big[10] = '%';
	big[11] = 'd';
	setenv("P4NETBURST_MSR_DEV", big, 1);
	tap_ok(nb_msr_dev_path(3, path, sizeof(path), err, sizeof(err)) == -1 &&
	       strstr(err, "at most 200"), "msr: a 399-character P4NETBURST_MSR_DEV is refused");
	unsetenv("P4NETBURST_MSR_DEV");
}

int main(void)
{
	test_msr_dev();
	test_probes();
	test_msr();
	test_perf();
	test_cascade();
	tap_plan(tap_n);
	return tap_done();
}
