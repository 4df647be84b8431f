#!/bin/sh
# Hyper-Threading in simulated time: two threads released by a barrier,
# each counting its own cycles, both start orders, LD_BIND_NOW unset and
# set (sim/tests/t_smt_lock.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_smt_lock.sh
