#!/bin/sh
# Replay tagging and the cache model (sim/tests/t_replay.sh).
cd "$NB_SRC/sim/tests" && exec sh ./t_replay.sh
