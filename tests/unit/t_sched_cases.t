#!/bin/sh
# t_sched_cases.t - scheduler and encoder cases with known answers
# (tests/unit/t_sched_cases.c).
. "$(dirname "$0")/../lib/sched_build.sh"
c=$nb_comp
if ! nb_cc t_sched_cases "$nb_src/tests/unit/t_sched_cases.c" $nb_sched_src "$c/nb_encode.c" "$c/nb_evsel.c"; then
	echo "1..1"; echo "not ok 1 - build t_sched_cases"; exit 1
fi
exec "$nb_out/t_sched_cases"
