#!/bin/sh
# The sampled clock (--nbsim-clock=sampled) on a whole program under
# nbsim against the model's walk, Northwood and Prescott: regions within
# 3%, exact counts, deterministic, most runs skipped
# (sim/tests/t_sampled.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_sampled.sh
