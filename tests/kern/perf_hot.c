/*
 * perf_hot.c - a program for perf record under nbsim
 * (tests/kern/t_perf_tool_record.t): main calls outer, which calls hot, a
 * loop of 2 * N instructions; hot is the hottest function and every
 * sample in it has outer and main above it on the stack (frame pointers
 * kept: built with -fno-omit-frame-pointer).
 */
#define N 1000000L

__attribute__((noinline)) void hot(long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

__attribute__((noinline)) void outer(long n)
{
	hot(n);
	__asm__ volatile("" ::: "memory");
}

int main(void)
{
	outer(N);
	return 0;
}
