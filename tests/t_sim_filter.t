#!/bin/sh
# CCCR filtering, counter wrap/OVF and cascade alternates on synthetic
# per-cycle streams (sim/pmu/nb_filter.c, native unit test sim/tests/t_filter.c).
exec "$NBSIM_TESTBIN/t_filter"
