#!/bin/sh
# A cascaded event counts as the plain one: difference method through the
# PAPI API under nbsim (ctests/cascade_counts.c).
exec "$NBSIM" -- "$NB_BUILD/tests/cascade_counts"
