/* readloop N: one read(2) of standard input through libc (under nbsim,
 * the preload library's read wrapper, where the emulated kernel takes the
 * events opened on this process), then N iterations of a dec/jnz loop: 2N
 * instructions after the read, N >= 1.  Dynamic, as Debian's programs. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[256];
	long n = argc > 1 ? atol(argv[1]) : 1;

	if (n < 1 || read(0, buf, sizeof buf) < 0)
		return 1;
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
	return 0;
}
