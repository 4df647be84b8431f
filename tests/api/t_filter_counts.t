#!/bin/sh
# CCCR filtering and the cycles alias through the PAPI API under nbsim
# (ctests/filter_counts.c): exact, by the difference method.
exec "$NBSIM" -- "$NB_BUILD/tests/filter_counts"
