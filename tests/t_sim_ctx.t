#!/bin/sh
# nbsim per-thread PMU contexts, unit-tested natively (sim/tests/t_ctx.c).
exec "$NBSIM_TESTBIN/t_ctx"
