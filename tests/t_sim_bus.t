#!/bin/sh
# Bus model (sim/cpu/nb_bus.c), native unit test (sim/tests/t_bus.c).
exec "$NBSIM_TESTBIN/t_bus"
