#!/bin/sh
# The timing model against published latencies, throughputs and Sprunt's
# benchmarks, Northwood and Prescott; cycles independent of the event set
# (sim/tests/t_timing.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_timing.sh
