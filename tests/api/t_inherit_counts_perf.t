#!/bin/sh
# PAPI_INHERIT through the PAPI API on the perf backend: nbsim's emulated
# perf driver's attr.inherit (ctests/inherit_counts.c; exact by the
# difference method).  t_inherit_counts.t: the sim backend refuses it.
P4NETBURST_BACKEND=perf exec "$NBSIM" --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/inherit_counts"
