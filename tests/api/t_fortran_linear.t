#!/bin/sh
# Exact counts through PAPI's Fortran API under nbsim (ftests/linear.F90).
exec "$NBSIM" -- "$NB_BUILD/tests/f_linear"
