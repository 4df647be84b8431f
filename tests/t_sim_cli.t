#!/bin/sh
# The nbsim launcher: errors, models, CPUID (sim/tests/t_nbsim_cli.sh).
cd "$NB_SRC/sim/tests" && exec bash ./t_nbsim_cli.sh
