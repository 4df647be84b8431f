/*
 * cputime - run a command and print the CPU time (user + system) of it and
 * of the descendants it waited for, in microseconds, from wait4's rusage:
 * /usr/bin/time prints it in hundredths, too coarse for a ratio of two
 * 0.3-second runs (sim/bench/run.sh).  The command's output goes where
 * ours goes; exit status 1 if it could not run or did not exit 0.  With
 * -m, also the peak resident set size in KB (ru_maxrss: the largest of the
 * run and its descendants), after the time, on a line of its own (the
 * command's output may end without a newline: gzip -c): the memory column
 * of sim/bench/thirdparty.sh.
 *
 *   cputime [-m] PROGRAM [ARGS...]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;
	int mem = argc > 1 && strcmp(argv[1], "-m") == 0;

	argc -= mem;
	argv += mem;
	if (argc < 2) {
		fprintf(stderr, "usage: cputime [-m] PROGRAM [ARGS...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("cputime: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("cputime: wait4");
		return 1;
	}
	if (mem)
		printf("\n");
	printf("%lld", (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
	       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	if (mem)
		printf(" %ld", ru.ru_maxrss);
	printf("\n");
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
