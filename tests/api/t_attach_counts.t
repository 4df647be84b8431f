#!/bin/sh
# PAPI_attach on the sim backend (ctests/attach_counts.c): nbsim's client
# requests reach the calling process's PMU only, so the component does not
# attach there (cmp_info.attach 0: PAPI_ECMP); the perf backend does
# (t_attach_counts_perf.t).
exec "$NBSIM" --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/attach_counts"
