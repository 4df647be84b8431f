#!/bin/sh
# Hardware overflow with thresholds 1..1000 on three events under nbsim
# (ctests/overflow_sweep.c): no livelock, no lost PMI, coalescing below the skid.
exec timeout -k 10 600 "$NBSIM" --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/overflow_sweep"
