#!/bin/sh
# Hyper-Threading through the PAPI API: two threads on LP0/LP1 counting at
# once with exact expectations (ctests/ht_counts.c) under nbsim --ht=yes.
exec "$NBSIM" --ht=yes -- "$NB_BUILD/tests/ht_counts"
