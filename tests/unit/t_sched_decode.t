#!/bin/sh
# t_sched_decode.t - decoding inverts encoding (tests/unit/t_sched_decode.c).
. "$(dirname "$0")/../lib/sched_build.sh"
c=$nb_comp
if ! nb_cc t_sched_decode "$nb_src/tests/unit/t_sched_decode.c" "$c/nb_decode.c" "$c/nb_encode.c" $nb_sched_src "$c/nb_evsel.c"; then
	echo "1..1"; echo "not ok 1 - build t_sched_decode"; exit 1
fi
exec "$nb_out/t_sched_decode" 20000
