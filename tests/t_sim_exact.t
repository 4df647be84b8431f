#!/bin/sh
# Exact counts with the PMU programmed directly (sim/tests/t_exact.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_exact.sh
