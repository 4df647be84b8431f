/*
 * cputime - run a command and print the CPU time (user + system) of it and
 * of the descendants it waited for, in microseconds, from wait4's rusage:
 * /usr/bin/time prints it in hundredths, too coarse for a ratio of two
 * 0.3-second runs (sim/bench/run.sh).  The command's output goes where
 * ours goes; exit status 1 if it could not run or did not exit 0.
 *
 *   cputime PROGRAM [ARGS...]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: cputime PROGRAM [ARGS...]\n");
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
	printf("%lld\n", (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
	       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
