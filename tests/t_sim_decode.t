#!/bin/sh
# nbsim's opcode classification (branch kinds, FP/SIMD classes, moves, MS ROM),
# unit-tested natively (sim/tests/t_decode.c).
exec "$NBSIM_TESTBIN/t_decode"
