#!/bin/sh
# WC_Buffer of the write-combining buffer model under nbsim, Northwood (sim/tests/t_wc.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_wc.sh
