/*
 * nb_report_html.h - nb_report's views that show the code
 * (nb_report_html.c): the annotated disassembly and the HTML report.
 */
#ifndef NB_REPORT_HTML_H
#define NB_REPORT_HTML_H

#include "nb_report_views.h"

/* --annotate=FN of event EV, FROM 0 or the address distances are from */
int annotate(int ev, const char *fn, uint64_t from);
/* --html=DIR; ONLY: one event's index, or -1 */
int html(const char *dir, int only);

#endif
