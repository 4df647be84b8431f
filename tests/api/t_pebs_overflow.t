#!/bin/sh
# Precise overflow (PEBS) through the PAPI API under nbsim (ctests/pebs_overflow.c).
exec "$NBSIM" --model=prescott --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/pebs_overflow"
