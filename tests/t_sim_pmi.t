#!/bin/sh
# Counter-overflow interrupts (PMI) with the PMU programmed directly (sim/tests/t_pmi.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_pmi.sh
