#!/bin/sh
# The timing model against latencies measured on real parts (InstLatX64's
# Northwood, Prescott, Willamette and Presler tables): dependent chains of
# each instruction class, L2 and memory load to use (sim/tests/t_measured.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_measured.sh
