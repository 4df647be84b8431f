# Shared by tests/unit/t_sched_*.t, tests/sim/t_sim_cascade.t and
# tests/repo/t_sanitized.t: compile a program against
# the pure modules (scheduler, encoder, names) and the generated tables,
# with AddressSanitizer and UndefinedBehaviorSanitizer (NB_SAN overrides).
#   . tests/lib/sched_build.sh; nb_cc NAME SOURCE...   (binary: $nb_out/NAME)
nb_src=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
nb_gen=${NB_GEN:-$nb_src/build/gen}
nb_out=${NB_BUILD:-$nb_src/build}/tests
nb_comp=$nb_src/components/p4netburst
# the scheduler's files (nb_sched_int.h lists them); unquoted where used
nb_sched_src="$nb_comp/nb_sched.c $nb_comp/nb_sched_base.c $nb_comp/nb_sched_tags.c $nb_comp/nb_sched_rules.c $nb_comp/nb_sched_search.c $nb_comp/nb_sched_fill.c $nb_comp/nb_sched_explain.c"
nb_cc() {
	name=$1; shift
	mkdir -p "$nb_out"
	[ -f "$nb_gen/nb_tables.c" ] || make -s -C "$nb_src/native_events" OUT="$nb_gen" >/dev/null
	# under ASan/UBSan (issue 15): NB_SAN= (empty) builds without
	${CC:-cc} -std=gnu11 -O1 -Wall -Wextra -Werror ${NB_SAN--fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer} \
		-I"$nb_comp" -I"$nb_src/native_events" \
		-I"$nb_gen" -I"$nb_src/tests/unit" -o "$nb_out/$name" "$@" "$nb_gen/nb_tables.c" >"$nb_out/$name.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/# /' "$nb_out/$name.log"
	return $rc
}
