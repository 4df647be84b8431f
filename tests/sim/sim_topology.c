/*
 * sim_topology.c - what a program learns of the machine's CPU topology
 * (tests/sim/t_sim_topology.t runs it under nbsim).
 *
 *   sim_topology omp       libgomp's places (OMP_PLACES, OMP_PROC_BIND from
 *                          the environment) and, in a parallel region of
 *                          one thread per place, each thread's place and
 *                          sched_getcpu
 *   sim_topology read P..  each file P read with open/read and with
 *                          fopen/fgets ("P: open=TEXT fopen=TEXT", or the
 *                          errno's name)
 *   sim_topology list D    the cpuN / nodeN entries of directory D, sorted
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *ename(int e)
{
	return e == ENOENT ? "ENOENT" : e == EACCES ? "EACCES" : strerror(e);
}

/* TEXT without its trailing newline */
static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '\n')
		s[--n] = 0;
}

static void read_one(const char *p)
{
	char a[256] = "", b[256] = "";
	int fd = open(p, O_RDONLY);

	if (fd < 0) {
		snprintf(a, sizeof a, "%s", ename(errno));
	} else {
		ssize_t n = read(fd, a, sizeof a - 1);

		a[n > 0 ? n : 0] = 0;
		chomp(a);
		close(fd);
	}
	FILE *f = fopen(p, "r");
	if (!f) {
		snprintf(b, sizeof b, "%s", ename(errno));
	} else {
		if (!fgets(b, sizeof b, f))
			b[0] = 0;
		chomp(b);
		fclose(f);
	}
	printf("%s: open=%s fopen=%s\n", p, a, b);
}

static int cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static int list(const char *d)
{
	DIR *dir = opendir(d);
	char *names[256];
	int n = 0;
	struct dirent *e;

	if (!dir) {
		printf("%s: %s\n", d, ename(errno));
		return 0;
	}
	while ((e = readdir(dir)) && n < 256) {
		const char *s = e->d_name;
		size_t k = !strncmp(s, "cpu", 3) ? 3 : !strncmp(s, "node", 4) ? 4 : 0;

		if (k && s[k] >= '0' && s[k] <= '9')
			names[n++] = strdup(s);
	}
	closedir(dir);
	qsort(names, n, sizeof names[0], cmp);
	printf("%s:", d);
	for (int i = 0; i < n; i++)
		printf(" %s", names[i]);
	printf("\n");
	return 0;
}

static int omp(void)
{
	int np = omp_get_num_places();
	int cpu[64], place[64];

	printf("places %d:", np);
	for (int p = 0; p < np; p++) {
		int ids[64], k = omp_get_place_num_procs(p);

		omp_get_place_proc_ids(p, ids);
		printf(" {");
		for (int i = 0; i < k && i < 64; i++)
			printf(i ? ",%d" : "%d", ids[i]);
		printf("}");
	}
	printf("\n");
	/* one thread per place (two, if there is one place) */
	int nt = np > 1 ? np : 2;
#pragma omp parallel num_threads(nt)
	{
		int t = omp_get_thread_num();

		if (t < 64) {
			cpu[t] = sched_getcpu();
			place[t] = omp_get_place_num();
		}
	}
	for (int t = 0; t < nt && t < 64; t++)
		printf("thread %d place %d cpu %d\n", t, place[t], cpu[t]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "omp"))
		return omp();
	if (argc >= 3 && !strcmp(argv[1], "list"))
		return list(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "read")) {
		for (int i = 2; i < argc; i++)
			read_one(argv[i]);
		return 0;
	}
	fprintf(stderr, "usage: %s omp | read PATH... | list DIR\n", argv[0]);
	return 2;
}
