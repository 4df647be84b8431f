/*
 * replay_main.c - run the fuzz target over files without libFuzzer (for
 * make check, built with gcc -fsanitize=address,undefined): every file
 * named, and every file in every directory named, is one input.  TAP out.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int n, failed;

static void run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t buf[1 << 16];
	size_t len;

	if (!f) {
		printf("not ok %d - cannot open %s\n", ++n, path);
		failed++;
		return;
	}
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);   /* aborts on a broken invariant */
	printf("ok %d - %s\n", ++n, path);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct stat st;
		struct dirent **ents;
		int k;

		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			k = scandir(argv[i], &ents, NULL, by_name);
			for (int j = 0; j < k; j++) {
				char p[4096];

				if (ents[j]->d_name[0] != '.') {
					snprintf(p, sizeof(p), "%s/%s", argv[i], ents[j]->d_name);
					run_file(p);
				}
				free(ents[j]);
			}
			if (k >= 0)
				free(ents);
		} else {
			run_file(argv[i]);
		}
	}
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
