#!/bin/sh
# t_sim_replods.t - REP LODS as the CPU runs it (sim/tool/nb_replods.c;
# sim/tests/guest/t_replods.c's cases: RCX elements loaded, RCX 0, RSI moved, the last
# element in RAX; RCX = 0 loads nothing; DF set; F2), as one TAP stream,
# under the three ways nbsim translates code: nothing counted (VEX's
# looser register-update policy for code in files), PAPI_TOT_INS alone
# (the same policy: nb_need.c), and cycles (every update kept); then the
# counts by the difference method on Northwood and Cedar Mill (the
# Pentium D's rule: one load a REP LODS element, docs/counting-rules.md):
# 1000 REP LODSB of 200 bytes against 1000 of 100 retire as many
# instructions and 100,000 more loads.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory (make check)}"
: "${NB_BUILD:?set NB_BUILD to the build directory}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
P="$NBSIM_TESTBIN/t_replods"
stat="$NB_BUILD/utils/nb_stat"
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
# cases: the guest's own TAP, renumbered, per way of running it
cases() { # LABEL CMD...
	label=$1; shift
	"$@" > "$tmp/out" 2>"$tmp/err" || sed 's/^/# /' "$tmp/err"
	c=$(grep -c '^ok' "$tmp/out")
	grep '^not ok' "$tmp/out" | sed 's/^/# /'
	[ "$c" = 8 ] && ! grep -q '^not ok' "$tmp/out"
	ok $? "$label: the 8 cases as the SDM gives them ($c passed)"
}
cases "nothing counted" "$NBSIM" --nbsim-time=host -- "$P"
cases "nb_stat -e PAPI_TOT_INS" "$stat" -e PAPI_TOT_INS -o "$tmp/c" -- "$P"
cases "nb_stat -e PAPI_TOT_CYC" "$stat" -e PAPI_TOT_CYC -o "$tmp/c" -- "$P"
for m in northwood cedarmill; do
	for e in 100 200; do
		"$stat" --model=$m -x, -o "$tmp/$e" -e PAPI_TOT_INS,PAPI_LD_INS -- "$P" count $e 1000 \
			2>"$tmp/err" || sed 's/^/# /' "$tmp/err"
	done
	d=$(paste -d, "$tmp/100" "$tmp/200" | awk -F, '
		$2 == "PAPI_TOT_INS" { i = $6 - $1 } $2 == "PAPI_LD_INS" { l = $6 - $1 }
		END { printf "%s %s\n", (i == "" ? "?" : i), (l == "" ? "?" : l) }')
	set -- $d
	[ "$1" = 0 ]
	ok $? "$m: 100 more elements a REP LODSB, 1000 times: as many instructions (+$1)"
	[ "$2" = 100000 ]
	ok $? "$m: ... and 100,000 more loads, one an element (+$2)"
done
echo "1..$n"
