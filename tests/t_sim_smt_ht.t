#!/bin/sh
# Sprunt's fp_add_latency and l1_miss in one and two threads under nbsim
# --model=northwood --ht=yes (sim/tests/t_smt_ht.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_smt_ht.sh
