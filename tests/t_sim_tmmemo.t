#!/bin/sh
# nbsim's replay of recorded schedules against the timing model's walk,
# differentially on random uop blocks (sim/tests/t_tmmemo.c).
exec "$NBSIM_TESTBIN/t_tmmemo"
