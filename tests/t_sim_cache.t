#!/bin/sh
# nbsim's cache model, unit-tested natively (sim/tests/t_cache.c).
exec "$NBSIM_TESTBIN/t_cache"
