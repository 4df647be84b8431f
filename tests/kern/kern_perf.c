/*
 * kern_perf.c - nbsim's emulated kernel against the facts (run under
 * nbsim; tests/kern/t_kern_perf.t): the Linux P4 perf driver's raw-config
 * validation and its placement (the shared model nb_linux_sched.c, from
 * kernel_p4.txt) on random sets, counting by the difference method, group
 * reads with the enabled/running times and ids, the ioctls, sampling with
 * the overflow signal and the ring buffer, error returns; the msr device's
 * access rules.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "nbtap.h"
#include "nb_linux_sched.h"
#include "nbsim_client.h"

/* raw configs [perf_event_p4.h]: ESCR event index << 25 | mask << 9 */
#define RAW(ev, mask) ((uint64_t)(((uint32_t)(ev) << 25) | ((uint32_t)(mask) << 9)) << 32)
#define K_INSTR_RETIRED 38       /* masks NBOGUSNTAG 0, NBOGUSTAG 1 */
#define K_UOPS_RETIRED 39
#define K_BRANCH_RETIRED 41      /* MMNP..MMTM 0-3 */
#define K_INSTR_COMPLETED 45

static long perf_open(struct perf_event_attr *a, int group)
{
	return syscall(SYS_perf_event_open, a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

static void attr(struct perf_event_attr *a, uint64_t config, int disabled)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_RAW;
	a->config = config;
	a->disabled = disabled;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

/* 2N instructions, N branches (N-1 taken) */
static void __attribute__((noinline)) loop(long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

static uint64_t rd1(int fd)
{
	uint64_t v = ~0ull;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return ~0ull;
	return v;
}

/* the count of a loop of N between ENABLE and DISABLE */
static uint64_t count_loop(int fd, long n)
{
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return rd1(fd);
}

static volatile int nsig, badsig;
static volatile int sig_fd;

static void on_sig(int s, siginfo_t *si, void *uc)
{
	(void)s;
	(void)uc;
	nsig++;
	if (si->si_code != POLL_IN || si->si_fd != sig_fd)
		badsig++;
}

static uint64_t rnd_state = 88172645463325252ull;
static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

int main(void)
{
	struct nbsim_info info;
	struct perf_event_attr a;
	unsigned model;
	int fd, fd2, g[18];
	uint64_t c1, c2;

	memset(&info, 0, sizeof(info));
	if (nbsim_info(&info) != NBSIM_OK)
		tap_bail("not under nbsim");
	model = info.model;

	/* ---- counting by the difference method ---- */
	attr(&a, RAW(K_INSTR_RETIRED, 3), 1);
	fd = (int)perf_open(&a, -1);
	tap_ok(fd >= 0, "perf_event_open of INSTR_RETIRED:NBOGUSNTAG:NBOGUSTAG (raw)");
	c1 = count_loop(fd, 1000);
	c2 = count_loop(fd, 3000);
	tap_is(c2 - c1, 4000, "instructions of 2000 more iterations (2 each)");
	loop(5000);
	tap_is(rd1(fd), c2, "a disabled event does not count");
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	tap_is(rd1(fd), 0, "PERF_EVENT_IOC_RESET zeroes the count");
	{
		uint64_t id = 0;

		tap_ok(ioctl(fd, PERF_EVENT_IOC_ID, &id) == 0 && id != 0, "PERF_EVENT_IOC_ID gives an id");
	}
	tap_ok(ioctl(fd, 0x2499, 0) == -1 && errno == ENOTTY, "an unknown ioctl: ENOTTY");
	{
		uint64_t p = 100;

		tap_ok(ioctl(fd, PERF_EVENT_IOC_PERIOD, &p) == -1 && errno == EINVAL,
		       "PERF_EVENT_IOC_PERIOD of a counting event: EINVAL");
	}
	{
		uint32_t small;

		tap_ok(read(fd, &small, sizeof(small)) == -1 && errno == ENOSPC,
		       "read into a buffer smaller than the format: ENOSPC");
	}

	/* ---- groups ---- */
	attr(&a, RAW(K_UOPS_RETIRED, 1), 0);
	fd2 = (int)perf_open(&a, fd);
	tap_ok(fd2 == -1 && errno == EINVAL,
	       "UOPS_RETIRED beside INSTR_RETIRED in a group: EINVAL (both need CRU_ESCR0)");
	attr(&a, RAW(K_BRANCH_RETIRED, 0xf), 0);
	fd2 = (int)perf_open(&a, fd);
	tap_ok(fd2 >= 0, "BRANCH_RETIRED joins the group (CRU_ESCR2)");
	close(fd);
	{
		/* FD2, now a singleton (perf_group_detach), holds CRU_ESCR2: a new
		 * group needing it opens (it fits alone) but is not scheduled */
		uint64_t v[8] = { 0 }, w[8] = { 0 };
		int l, m;
		ssize_t g1, g2;

		attr(&a, RAW(K_INSTR_RETIRED, 3), 0);
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		l = (int)perf_open(&a, -1);
		attr(&a, RAW(K_BRANCH_RETIRED, 0xf), 0);
		m = (int)perf_open(&a, l);
		g1 = read(l, v, sizeof(v));
		loop(1000);
		g2 = read(l, w, sizeof(w));
		tap_ok(m >= 0 && g1 == 5 * 8 && g2 == g1 && w[1] > v[1] && w[2] == v[2] && w[3] == v[3],
		       "a group that does not fit beside an older event opens but does not run: "
		       "enabled %llu -> %llu, running %llu -> %llu, count %llu -> %llu",
		       (unsigned long long)v[1], (unsigned long long)w[1], (unsigned long long)v[2],
		       (unsigned long long)w[2], (unsigned long long)v[3], (unsigned long long)w[3]);
		close(m);
		close(l);
	}
	close(fd2);
	attr(&a, RAW(K_INSTR_RETIRED, 3), 1);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	fd = (int)perf_open(&a, -1);
	attr(&a, RAW(K_BRANCH_RETIRED, 0xf), 0);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	fd2 = (int)perf_open(&a, fd);
	{
		uint64_t v1[8], v2[8], id1 = 0, id2 = 0;
		ssize_t n1, n2;

		ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		loop(1000);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		n1 = read(fd, v1, sizeof(v1));
		ioctl(fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		loop(4000);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		n2 = read(fd, v2, sizeof(v2));
		ioctl(fd, PERF_EVENT_IOC_ID, &id1);
		ioctl(fd2, PERF_EVENT_IOC_ID, &id2);
		/* nr, enabled, running, {value, id} x 2 */
		tap_is(n1, 7 * 8, "group read: nr, enabled, running and two (value, id)");
		tap_is(n2 == n1 ? v2[0] : 0, 2, "group read: nr = 2");
		tap_ok(v2[1] > 0 && v2[1] == v2[2], "group read: time enabled = time running > 0 (%llu, %llu)",
		       (unsigned long long)v2[1], (unsigned long long)v2[2]);
		tap_ok(v2[4] == id1 && v2[6] == id2 && id1 != id2, "group read: the members' ids in open order");
		tap_is(v2[3] - v1[3], 6000, "group read: the leader's instructions (difference)");
		tap_is(v2[5] - v1[5], 3000, "group read: the member's retired branches (difference)");
	}
	close(fd2);
	close(fd);

	/* ---- raw-config validation [p4.c p4_validate_raw_event] ---- */
	attr(&a, RAW(46, 0), 0);
	tap_ok(perf_open(&a, -1) == -1 && errno == EINVAL, "event index 46 (beyond P4_EVENTS): EINVAL");
	attr(&a, RAW(K_INSTR_RETIRED, 1u << 4), 0);
	tap_ok(perf_open(&a, -1) == -1 && errno == EINVAL, "INSTR_RETIRED mask bit 4 (outside .escr_emask): EINVAL");
	attr(&a, RAW(K_INSTR_RETIRED, 1) | 0x80, 0);
	tap_ok(perf_open(&a, -1) == -1 && errno == EINVAL, "P4_PEBS_CONFIG_ENABLE set: EINVAL");
	attr(&a, RAW(K_INSTR_RETIRED, 1) | 10, 0);
	tap_ok(perf_open(&a, -1) == -1 && errno == EINVAL, "replay metric index 10: EINVAL");
	attr(&a, RAW(K_INSTR_COMPLETED, 1), 0);
	fd = (int)perf_open(&a, -1);
	tap_ok((model == 3 || model == 4 || model == 6) ? fd >= 0 : fd == -1 && errno == EINVAL,
	       "INSTR_COMPLETED only on models 3, 4, 6 (this is model %u)", model);
	if (fd >= 0)
		close(fd);
	attr(&a, RAW(K_INSTR_RETIRED, 1) | (1ull << 63) | 0x40000000u /* Cascade */, 0);
	fd = (int)perf_open(&a, -1);
	tap_ok(fd >= 0, "the HT and Cascade bits are the kernel's: cleared, not refused");
	if (fd >= 0)
		close(fd);
	attr(&a, RAW(K_INSTR_RETIRED, 1), 0);
	tap_ok(syscall(SYS_perf_event_open, &a, 0, -1, 0, 0x4ul /* FD_OUTPUT */) == -1 && errno == EINVAL,
	       "unknown flags: EINVAL");
	tap_ok(syscall(SYS_perf_event_open, &a, getpid() + 100000, -1, -1, 0) == -1 && errno == ESRCH,
	       "another task: ESRCH (not emulated)");

	/* ---- placement against the shared model, random sets ---- */
	{
		int agree = 0, sets = 150, placed_some = 0, refused_some = 0;

		for (int s = 0; s < sets; s++) {
			uint64_t cfg[18], acc[18];
			int n = 2 + (int)(rnd() % 6), na = 0, ok = 1, as[18];
			uint32_t es[18];

			for (int i = 0; i < n; i++) {
				unsigned ev;
				uint32_t m = 0;

				do
					ev = (unsigned)(rnd() % NB_KP4_NEVENTS);
				while (nb_kp4_events[ev].models &&
				       !((nb_kp4_events[ev].models >> model) & 1));
				if (nb_kp4_events[ev].emask) {
					do
						m = 1u << (rnd() % 16);
					while (!(m & nb_kp4_events[ev].emask));
				}
				cfg[i] = RAW(ev, m);
			}
			for (int i = 0; i < n; i++) {
				int want, got;

				attr(&a, cfg[i], i == 0);
				g[i] = (int)perf_open(&a, na ? g[0] : -1);
				got = g[i] >= 0;
				acc[na] = cfg[i];
				want = nb_kp4_place(acc, na + 1, 0, as, es) == na + 1;
				if (got != want || (!got && errno != EINVAL))
					ok = 0;
				if (got)
					na++;
				if (!got && na == 0)
					ok = 0;       /* a leader alone always fits */
				if (!got)
					refused_some = 1;
				else if (i)
					placed_some = 1;
			}
			for (int i = 0; i < n; i++)
				if (g[i] >= 0)
					close(g[i]);
			agree += ok;
		}
		tap_is(agree, sets, "the emulated driver places %d random groups as the shared model of p4.c", sets);
		tap_ok(placed_some && refused_some, "the random groups include accepted and refused members");
	}

	/* ---- sampling: the overflow signal and the ring buffer ---- */
	{
		struct sigaction sa;
		struct f_owner_ex own = { F_OWNER_TID, (pid_t)syscall(SYS_gettid) };
		const uint64_t period = 997;
		struct perf_event_mmap_page *h;
		uint64_t cnt;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sig;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigaction(SIGRTMIN + 2, &sa, NULL);
		attr(&a, RAW(K_INSTR_RETIRED, 3), 1);
		a.sample_period = period;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
		a.wakeup_events = 1;
		fd = (int)perf_open(&a, -1);
		sig_fd = fd;
		h = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		tap_ok(h == MAP_FAILED && errno == EINVAL, "a ring buffer of 1 + 3 pages: EINVAL (1 + 2^n)");
		h = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		tap_ok(h != MAP_FAILED && h->data_offset == 4096 && h->data_size == 4096,
		       "the ring buffer's header: data at 4096, 4096 bytes");
		fcntl(fd, F_SETFL, O_RDWR | O_NONBLOCK | O_ASYNC);
		fcntl(fd, F_SETSIG, SIGRTMIN + 2);
		fcntl(fd, F_SETOWN_EX, &own);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		loop(50000);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		loop(100);                    /* a pending signal arrives */
		cnt = rd1(fd);
		tap_is(nsig, cnt / period, "overflow signals = floor(count %llu / period %llu)",
		       (unsigned long long)cnt, (unsigned long long)period);
		tap_is(badsig, 0, "each signal has si_code POLL_IN and si_fd of the event");
		tap_is(h != MAP_FAILED ? h->data_head : 0, (cnt / period) * 32,
		       "one 32-byte sample record (header, IP, TID, PERIOD) per overflow");
		if (h != MAP_FAILED && h->data_head >= 32) {
			const uint64_t *rec = (const uint64_t *)((const char *)h + 4096);

			tap_ok((rec[0] & 0xffffffff) == PERF_RECORD_SAMPLE && (rec[0] >> 48) == 32 &&
			       rec[3] == period && (uint32_t)rec[2] == (uint32_t)getpid(),
			       "the first record: PERF_RECORD_SAMPLE, size 32, pid, period");
		} else {
			tap_ok(0, "the first record: PERF_RECORD_SAMPLE, size 32, pid, period");
		}
		close(fd);
	}

	/* ---- a full ring buffer: records lost, then PERF_RECORD_LOST ---- */
	{
		const uint64_t period = 997;
		struct perf_event_mmap_page *h;
		uint64_t v[2] = { 0, 0 }, id = 0, s1, head0;

		attr(&a, RAW(K_INSTR_RETIRED, 3), 1);
		a.sample_period = period;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
		a.read_format = PERF_FORMAT_LOST;
		fd = (int)perf_open(&a, -1);
		ioctl(fd, PERF_EVENT_IOC_ID, &id);
		h = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (h == MAP_FAILED)
			tap_bail("mmap of the ring buffer");
		/* 128 records of 32 bytes fit in 4096: the others are lost */
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		loop(150000);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		tap_ok(read(fd, v, sizeof(v)) == sizeof(v), "read_format LOST: count and lost");
		s1 = v[0] / period;
		tap_ok(s1 > 128 && h->data_head == 128 * 32 && v[1] == s1 - 128,
		       "a full buffer: 128 records, the other %llu samples lost (read_format LOST %llu)",
		       (unsigned long long)(s1 - 128), (unsigned long long)v[1]);
		/* perf consumes the buffer; the next record that fits comes
		 * after a PERF_RECORD_LOST of those lost (__perf_output_begin) */
		head0 = h->data_head;
		h->data_tail = head0;
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		loop(5000);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd, v, sizeof(v)) != sizeof(v))
			v[0] = 0;
		{
			const uint64_t *rec = (const uint64_t *)((const char *)h + 4096 + (head0 & 4095));

			tap_ok(h->data_head - head0 == 24 + (v[0] / period - s1) * 32 &&
			       (rec[0] & 0xffffffff) == PERF_RECORD_LOST && (rec[0] >> 48) == 24 &&
			       rec[1] == id && rec[2] == s1 - 128 &&
			       (((const uint64_t *)((const char *)h + 4096 + ((head0 + 24) & 4095)))[0] &
				0xffffffff) == PERF_RECORD_SAMPLE,
			       "then PERF_RECORD_LOST (size 24, the event's id, %llu lost), the samples after it",
			       (unsigned long long)(s1 - 128));
		}
		munmap(h, 2 * 4096);
		close(fd);
	}

	/* ---- the msr device and the paranoid file ---- */
	{
		int m = open("/dev/cpu/0/msr", O_RDWR);
		uint64_t v = 0;
		char b[16] = { 0 };
		int p = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY);

		tap_ok(m >= 0, "/dev/cpu/0/msr opens (root with CAP_SYS_RAWIO)");
		tap_ok(pread(m, &v, 4, 0x3b8) == -1 && errno == EINVAL, "msr: a 4-byte read: EINVAL");
		tap_ok(pread(m, &v, 8, 0x12345) == -1 && errno == EIO, "msr: an MSR the CPU does not have: EIO");
		v = 0x123456789ull;
		tap_ok(pwrite(m, &v, 8, 0x300) == 8 && pread(m, &v, 8, 0x300) == 8 && v == 0x123456789ull,
		       "msr: a counter written and read back");
		tap_ok(read(p, b, sizeof(b) - 1) == 2 && !strcmp(b, "2\n"),
		       "perf_event_paranoid reads the emulated level (2)");
		close(m);
		close(p);
	}
	return tap_done_plan();
}
