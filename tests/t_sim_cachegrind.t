#!/bin/sh
# nbsim's cache model against cachegrind (sim/tests/t_cachegrind.sh).
cd "$NB_SRC/sim/tests" && exec bash ./t_cachegrind.sh
