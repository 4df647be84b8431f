#!/bin/sh
# PEBS records through the DS save area, PMU programmed directly (sim/tests/t_pebs.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_pebs.sh
