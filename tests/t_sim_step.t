#!/bin/sh
# Step mode (per-cycle CCCR filters): per-cycle identities, the lazy
# folding against folding every cycle and against the previous tool's
# recorded counts, Northwood and Prescott (sim/tests/t_step.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_step.sh
