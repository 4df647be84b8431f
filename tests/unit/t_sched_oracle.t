#!/bin/sh
# t_sched_oracle.t - the scheduler (nb_sched_run) against an exhaustive
# search oracle on 100,000 random sets of 1..18 requests (events and tagged
# metrics, HT and non-HT; half of them grown to be countable).  See
# tests/unit/t_sched_oracle.c.
. "$(dirname "$0")/../lib/sched_build.sh"
c=$nb_comp
if ! nb_cc t_sched_oracle "$nb_src/tests/unit/t_sched_oracle.c" $nb_sched_src "$c/nb_evsel.c"; then
	echo "1..1"; echo "not ok 1 - build t_sched_oracle"; exit 1
fi
exec "$nb_out/t_sched_oracle" 100000
