#!/bin/sh
# nbsim's CPUID per model, unit-tested natively (sim/tests/t_cpuid.c).
exec "$NBSIM_TESTBIN/t_cpuid"
