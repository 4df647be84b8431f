#!/bin/sh
# Hyper-Threading placement of guest threads and LP qualification
# (sim/pmu/nb_ht.c, pmu.c; native unit test sim/tests/t_ht.c).
exec "$NBSIM_TESTBIN/t_ht"
