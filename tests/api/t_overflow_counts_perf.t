#!/bin/sh
# Hardware overflow through the PAPI API on the perf backend: the kernel's
# sampling path of nbsim's emulated P4 perf driver (ctests/overflow_counts.c;
# t_overflow_counts.t is the sim backend).  Here PAPI's handler runs in user
# mode, as the kernel's overflow signal makes it, so its instructions are
# counted: the test measures them per overflow (difference method) and
# checks they are the same for every overflow.
P4NETBURST_BACKEND=perf exec "$NBSIM" --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/overflow_counts"
