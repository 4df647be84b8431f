#!/bin/sh
# Exact counts by the difference method through the PAPI API under nbsim.
exec "$NBSIM" -- "$NB_BUILD/tests/exact_counts"
