#!/bin/sh
# t_presets_plan.t - preset alternatives per event set (nb_plan_run)
# against a plain search of every combination, and known cases
# (tests/unit/t_presets_plan.c).
. "$(dirname "$0")/../lib/sched_build.sh"
c=$nb_comp
if ! nb_cc t_presets_plan "$nb_src/tests/unit/t_presets_plan.c" "$c/nb_presets.c" $nb_sched_src "$c/nb_evsel.c"; then
	echo "1..1"; echo "not ok 1 - build t_presets_plan"; exit 1
fi
exec "$nb_out/t_presets_plan" 20000
