#!/bin/sh
# WC_Buffer of the write-combining buffer model under nbsim, Prescott (sim/tests/t_wc_prescott.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_wc_prescott.sh
