/*
 * nb_tsv.h - the one way nb_record and nb_report read a line of their
 * tab-separated files (nbsim's sample files, the profile): fields split
 * in place, the line's newline dropped.
 */
#ifndef NB_TSV_H
#define NB_TSV_H

#include <string.h>

/* split LINE at tabs into at most MAX fields (the last keeps any further
 * tabs); returns how many */
static inline int nb_tsv_split(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = 0;
	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = 0;
	}
	return n;
}

#endif
