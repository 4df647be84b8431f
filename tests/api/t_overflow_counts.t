#!/bin/sh
# Hardware overflow (PMI) counts through the PAPI API under nbsim
# (ctests/overflow_counts.c).
exec "$NBSIM" --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/overflow_counts"
