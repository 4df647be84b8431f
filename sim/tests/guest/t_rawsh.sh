#!/bin/sh
# t_rawsh.sh - run the t_rawsh guest (TAP) under nbsim: exact counts of a
# signal handler, an exiting thread and beside a forked child, whose
# superblocks keep their counts in the shadow guest state (nb_rawsh.c).
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
# (--nbsim-pmu-ctx=cpu: the counters are the LP's, shared by its threads)
exec "$NBSIM" --ht=no --nbsim-pmu-ctx=cpu -- "$NBSIM_TESTBIN/t_rawsh"
