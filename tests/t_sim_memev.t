#!/bin/sh
# Memory events of the cache and TLB model (sim/tests/t_memev.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_memev.sh
