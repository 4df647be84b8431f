#!/bin/sh
# Overflow interrupts for logical processor 1 (OVF_PMI_T1) under nbsim --ht=yes (sim/tests/t_pmi_ht.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_pmi_ht.sh
