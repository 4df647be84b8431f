#!/bin/sh
# SSE_input_assist and x87_assist under nbsim (sim/tests/t_fpassist.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_fpassist.sh
