#!/bin/sh
# PAPI_attach to a forked child through the PAPI API on the perf backend:
# nbsim's emulated perf driver counts the child under its own nbsim and
# PAPI_stop reads it (ctests/attach_counts.c; exact by the difference
# method).  The sim backend refuses PAPI_attach (PAPI_ECMP): t_attach_counts.t.
P4NETBURST_BACKEND=perf exec "$NBSIM" --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/attach_counts"
