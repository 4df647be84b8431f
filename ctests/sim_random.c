/*
 * sim_random.c - the kernel's random bytes as a program sees them
 * (tests/sim/t_sim_random.t), printed as "name hex":
 *   getrandom   16 bytes of getrandom(2), then
 *   getrandom2  16 more;
 *   urandom     16 bytes read(2) from /dev/urandom,
 *   urandom_dup 16 from a dup(2) of that descriptor,
 *   random      16 from /dev/random;
 *   child       in a fork's child, 16 bytes of getrandom;
 *   after_fork  the parent's next 16;
 *   at_random   the 16 bytes at auxv AT_RANDOM (the kernel's at exec).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static void show(const char *name, const unsigned char *b, ssize_t n)
{
	printf("%s ", name);
	if (n != 16) {
		printf("short:%zd\n", n);
		return;
	}
	for (int i = 0; i < 16; i++)
		printf("%02x", b[i]);
	printf("\n");
	fflush(stdout);
}

static void from_file(const char *name, const char *path, int dup_too)
{
	unsigned char b[16];
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		printf("%s none\n", name);
		return;
	}
	show(name, b, read(fd, b, sizeof b));
	if (dup_too) {
		int d = dup(fd);

		show("urandom_dup", b, read(d, b, sizeof b));
		close(d);
	}
	close(fd);
}

int main(void)
{
	unsigned char b[16];
	pid_t pid;

	show("getrandom", b, getrandom(b, sizeof b, 0));
	show("getrandom2", b, getrandom(b, sizeof b, 0));
	from_file("urandom", "/dev/urandom", 1);
	from_file("random", "/dev/random", 0);
	pid = fork();
	if (pid == 0) {
		show("child", b, getrandom(b, sizeof b, 0));
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	show("after_fork", b, getrandom(b, sizeof b, 0));
	show("at_random", (const unsigned char *)getauxval(AT_RANDOM), getauxval(AT_RANDOM) ? 16 : 0);
	return 0;
}
