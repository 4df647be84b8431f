#!/bin/sh
# t_sched_partition.t - nb_partition (fewest runs) against brute force
# over all set partitions (tests/unit/t_sched_partition.c).
. "$(dirname "$0")/../lib/sched_build.sh"
c=$nb_comp
if ! nb_cc t_sched_partition "$nb_src/tests/unit/t_sched_partition.c" "$c/nb_partition.c" $nb_sched_src "$c/nb_evsel.c"; then
	echo "1..1"; echo "not ok 1 - build t_sched_partition"; exit 1
fi
exec "$nb_out/t_sched_partition" 3000
