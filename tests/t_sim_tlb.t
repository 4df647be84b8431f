#!/bin/sh
# TLB model and memory-hierarchy parameters, native unit test (sim/tests/t_tlb.c).
exec "$NBSIM_TESTBIN/t_tlb"
