/*
 * kern_stime.c - the TIME of the emulated perf driver's samples
 * (tests/kern/t_kern_stime.t): an instructions sampling event with
 * PERF_SAMPLE_TIME over a loop, its ring buffer's records printed with the
 * program's own CLOCK_MONOTONIC read before the event is enabled (t0) and
 * after it is disabled (t1):
 *   count N / enabled NS / running NS / t0 NS / t1 NS / time NS (one per
 *   sample)
 * (enabled and running: the read's PERF_FORMAT_TOTAL_TIME_ENABLED and
 * _RUNNING, on the same clock as TIME).
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void __attribute__((noinline)) loop(long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

static uint64_t mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(void)
{
	struct perf_event_attr a;
	struct perf_event_mmap_page *h;
	uint64_t t0, t1, rv[3] = { 0, 0, 0 }, head;
	const unsigned char *data;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.sample_period = 100003;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	h = mmap(NULL, 9 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	t0 = mono();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop(1000000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	t1 = mono();
	if (read(fd, rv, sizeof(rv)) != sizeof(rv))
		return 1;
	head = __atomic_load_n(&h->data_head, __ATOMIC_ACQUIRE);
	data = (const unsigned char *)h + h->data_offset;
	printf("count %llu\nenabled %llu\nrunning %llu\nt0 %llu\nt1 %llu\n", (unsigned long long)rv[0],
	       (unsigned long long)rv[1], (unsigned long long)rv[2], (unsigned long long)t0,
	       (unsigned long long)t1);
	/* header, IP, TIME: 24 bytes each */
	for (uint64_t at = 0; at + sizeof(struct perf_event_header) <= head;) {
		const struct perf_event_header *r = (const void *)(data + at);
		uint64_t tm;

		if (r->type == PERF_RECORD_SAMPLE && r->size == 24) {
			memcpy(&tm, data + at + 16, 8);
			printf("time %llu\n", (unsigned long long)tm);
		}
		at += r->size ? r->size : 8;
	}
	return 0;
}
