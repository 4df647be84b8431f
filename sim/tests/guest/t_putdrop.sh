#!/bin/sh
# t_putdrop.sh - run the t_putdrop guest (TAP) under nbsim: the registers
# at a fault inside a superblock while something is counted
# (sim/tool/nb_putdrop.c), under simulated time (the cache model's calls
# beside each access) and under --nbsim-time=host (none); tests 3 and 6:
# the pass dropped writes in that run (--nbsim-stats).
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
echo "1..6"
for time in simulated host; do
	case $time in simulated) first=1 ;; host) first=4 ;; esac
	t=$((first + 2))
	"$NBSIM" --ht=no --nbsim-time=$time -- "$NBSIM_TESTBIN/t_putdrop" $first
	# (apart: --nbsim-stats adds calls of its own beside the loads,
	# which would keep the state exact there by themselves)
	"$NBSIM" --ht=no --nbsim-time=$time --nbsim-stats=yes -- "$NBSIM_TESTBIN/t_putdrop" $first \
		>/dev/null 2>"$err"
	n=$(sed -n 's/.*guest-state writes dropped from translations (nb_putdrop.c): \([0-9]*\).*/\1/p' "$err")
	if [ -n "$n" ] && [ "$n" -gt 0 ]; then
		echo "ok $t - $time time: the pass dropped $n writes"
	else
		echo "not ok $t - $time time: the pass dropped writes (stats: '${n:-none}')"
		tail -5 "$err" | sed 's/^/# /'
	fi
done
