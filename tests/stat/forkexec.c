/* forkexec: fork; the child execs PROGRAM (argv[1]), the parent waits and
 * exits with the child's status + 1. */
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int st = 0;
	pid_t p;

	if (argc < 2)
		return 100;
	p = fork();
	if (p < 0)
		return 101;
	if (p == 0) {
		execv(argv[1], argv + 1);
		_exit(102);
	}
	if (waitpid(p, &st, 0) != p || !WIFEXITED(st))
		return 103;
	return WEXITSTATUS(st) + 1;
}
