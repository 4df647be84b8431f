#!/bin/sh
# t_sched_perfraw.t - Linux perf raw configs (nb_perf_raw) against
# libpfm4 4.13 and the kernel's replay-metric facts (t_sched_perfraw.c);
# differences must be exactly those reasoned in t_sched_perfraw.known.
. "$(dirname "$0")/../lib/sched_build.sh"
c=$nb_comp
if ! nb_cc t_sched_perfraw "$nb_src/tests/unit/t_sched_perfraw.c" "$c/nb_encode.c" $nb_sched_src "$c/nb_evsel.c" -lpfm; then
	echo "1..1"; echo "not ok 1 - build t_sched_perfraw"; exit 1
fi
out=$("$nb_out/t_sched_perfraw")
echo "$out" | grep -v '^[DM] ' | grep -v '^1\.\.'
n=$(echo "$out" | sed -n 's/^1\.\.//p')
got=$(echo "$out" | grep '^[DM] ' | awk '{print $1, $2}' | sort)
want=$(grep -v '^#' "$nb_src/tests/unit/t_sched_perfraw.known" | grep . | sort)
if [ "$got" = "$want" ]; then
	echo "ok $((n + 1)) - differences from libpfm4 are exactly the reasoned ones"
else
	echo "not ok $((n + 1)) - differences from libpfm4 changed"
	echo "# want: $want"; echo "# got: $got"
	echo "$out" | grep '^[DM] ' | sed 's/^/# /'
fi
echo "1..$((n + 1))"
