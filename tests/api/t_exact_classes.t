#!/bin/sh
# Exact counts of the tagged metrics, FP/SIMD classes, moves and branch types
# by the difference method through the PAPI API under nbsim (ctests/exact_classes.c).
exec "$NBSIM" -- "$NB_BUILD/tests/exact_classes"
