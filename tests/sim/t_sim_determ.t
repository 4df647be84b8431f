#!/bin/sh
# Determinism: a program's event set (cycles, instructions, uops,
# branches, mispredictions: what one run of nb_stat counts; per thread
# too) is the same in every run, 5 alone and 5 beside two CPU-bound
# processes: one thread (--ht=no), two threads (--ht=no and
# --ht=yes) meeting at a barrier, a mutex, a condition variable, a yield
# and a join (sim/tests/guest/t_determ.c; docs/threads.md "Lockstep").
: "${NBSIM:?}" "${NB_BUILD:?}" "${NBSIM_TESTBIN:?}"
stat="$NB_BUILD/utils/nb_stat"
prog="$NBSIM_TESTBIN/t_determ"
ev=PAPI_TOT_CYC,PAPI_TOT_INS,uops_retired:NBOGUS,PAPI_BR_INS,PAPI_BR_MSP
tmp=$(mktemp -d) || exit 1
busy=""
cleanup() { [ -n "$busy" ] && kill $busy 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP      # (the busy loops go with the test)
echo "1..3"
n=0
for cfg in "1 no" "2 no" "2 yes"; do
	set -- $cfg
	for load in alone busy; do
		if [ $load = busy ]; then
			sh -c 'while :; do :; done' & busy="$!"
			sh -c 'while :; do :; done' & busy="$busy $!"
		fi
		for r in 1 2 3 4 5; do
			# (count, event, run: the pid and tid columns differ)
			"$stat" --ht=$2 --per-thread -x, -o "$tmp/raw" -e "$ev" -- "$prog" $1 \
				2>"$tmp/err" >/dev/null && cut -d, -f1-3 "$tmp/raw" > "$tmp/$load.$r" ||
				{ echo "$load run $r failed:"; cat "$tmp/err"; } >> "$tmp/diverged"
			grep -h 'diverged' "$tmp/err" >> "$tmp/diverged"
		done
		if [ $load = busy ]; then
			kill $busy 2>/dev/null
			busy=""
		fi
	done
	n=$((n + 1))
	same=1
	for f in alone.2 alone.3 alone.4 alone.5 busy.1 busy.2 busy.3 busy.4 busy.5; do
		cmp -s "$tmp/alone.1" "$tmp/$f" || same=0
	done
	[ -s "$tmp/alone.1" ] || same=0
	[ -s "$tmp/diverged" ] && same=0
	if [ $same = 1 ]; then
		echo "ok $n - t_determ $1 --ht=$2: the same $(wc -l < "$tmp/alone.1") counts in 5 runs alone and 5 beside two busy loops"
	else
		echo "not ok $n - t_determ $1 --ht=$2: the counts differ between runs"
		# (on stderr: prove shows it without -v, so a failure in CI
		# says which counts moved)
		for f in alone.2 alone.3 alone.4 alone.5 busy.1 busy.2 busy.3 busy.4 busy.5; do
			diff "$tmp/alone.1" "$tmp/$f" | sed "s/^/# $f: /"
		done >&2
		sed 's/^/# /' "$tmp/diverged" 2>/dev/null >&2
	fi
	rm -f "$tmp/diverged"
done
