#!/bin/sh
# t_smt_sampled.sh - the sampled clock while both logical processors run
# (nbsim --ht=yes; t_smt_sampled.c: two threads released by a barrier,
# each counting its own cycles and uops around 16 regions of a mixed
# kernel on data of its own), on Northwood and Prescott, against the
# model's walk (--nbsim-clock=model), as one TAP stream:
#  - each thread's cycles within 2% of the walk's, the sampled clock's
#    bound on a whole program (measured: -0.80% to +0.09%);
#  - each thread's uops exactly the walk's (the clock changes only cycles);
#  - most superblock runs skipped (--nbsim-stats): before, every run was
#    walked once both LPs had run at once, and the checks above would
#    hold for that clock too;
#  - the lockstep's turns as threads.md "Lockstep" says, under the
#    sampled clock as under the model: an LP leads the other by at most
#    the bound (--nbsim-lockstep-bound, 100,000 cycles) plus one
#    superblock run (--nbsim-stats' largest lead at a turn, the clock's
#    streak of skipped runs read; allowed 5,000 over: the kernel's runs
#    are short.  Before the guard read the streak, at a bound of 20,000:
#    150,856 and 167,391);
#  - the same output from run to run (deterministic: two runs alike; a
#    run with --nbsim-stats=yes, every model on from the start, has the
#    lockstep's time in cycles before the program counts, and another
#    interleaving there);
# and a bad --nbsim-smt-clock refused, naming the values.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
P="$NBSIM_TESTBIN/t_smt_sampled"
echo "1..12"
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
for m in northwood prescott; do
	"$NBSIM" --model=$m --ht=yes --nbsim-clock=model -- "$P" > "$tmp/model" 2>"$tmp/err" ||
		sed 's/^/# /' "$tmp/err"
	"$NBSIM" --model=$m --ht=yes -- "$P" > "$tmp/smp" 2>"$tmp/err" || sed 's/^/# /' "$tmp/err"
	"$NBSIM" --model=$m --ht=yes -- "$P" > "$tmp/smp2" 2>"$tmp/err" || sed 's/^/# /' "$tmp/err"
	# (--nbsim-stats=yes runs every model from the program's start: the
	# lockstep's time is then cycles before the program counts, not
	# instructions, another interleaving; its figures are not compared)
	"$NBSIM" --model=$m --ht=yes --nbsim-stats=yes -- "$P" > "$tmp/smps" 2>"$tmp/stats" ||
		sed 's/^/# /' "$tmp/stats"
	sed 's/^/# model:   /' "$tmp/model"
	sed 's/^/# sampled: /' "$tmp/smp"
	r=$(paste "$tmp/model" "$tmp/smp" | awk '
		$1 == "lp" { n++; e = ($10 - $4) / $4; if (e < 0) e = -e; if (e > w) w = e
			if ($6 != $12) bad = 1; if ($2 != $8) bad = 1 }
		END { printf "%d %.4f %d\n", n, w, bad }')
	set -- $r
	[ "$1" = 2 ] && awk -v w="$2" 'BEGIN { exit !(w < 0.02) }'
	ok $? "$m: each thread's cycles within 2% of the walk's ($(awk -v w="$2" 'BEGIN { printf "%.2f", 100 * w }')% at most)"
	[ "$1" = 2 ] && [ "$3" = 0 ]
	ok $? "$m: each thread's uops exactly the walk's, on the same LPs"
	s=$(sed -n 's/.*superblock runs skipped \([0-9]*\), walked \([0-9]*\).*/\1 \2/p' "$tmp/stats")
	set -- $s
	[ -n "$2" ] && [ "$1" -gt $((10 * $2)) ]
	ok $? "$m: most superblock runs skipped (skipped ${1:-?}, walked ${2:-?})"
	l=$(sed -n 's/.*the largest lead at a turn \([0-9]*\) (bound \([0-9]*\) cycles).*/\1 \2/p' "$tmp/stats")
	set -- $l
	[ -n "$2" ] && [ "$2" = 100000 ] && [ "$1" -ge 100000 ] && [ "$1" -le 105000 ]
	ok $? "$m: the lockstep's turns under the sampled clock: the largest lead at a turn ${1:-?} cycles, within 100000 plus one superblock run"
	[ -s "$tmp/smp" ] && cmp -s "$tmp/smp" "$tmp/smp2"
	ok $? "$m: the same output again (deterministic)"
done
"$NBSIM" --ht=yes --nbsim-smt-clock=sampled -- "$P" > "$tmp/o" 2>"$tmp/err"
[ $? = 0 ] && [ -s "$tmp/o" ]
ok $? "--nbsim-smt-clock=sampled taken"
"$NBSIM" --ht=yes --nbsim-smt-clock=often -- "$P" > "$tmp/o" 2>"$tmp/err"
st=$?
[ $st != 0 ] && grep -q 'sampled, walk' "$tmp/err"
ok $? "--nbsim-smt-clock=often refused (status $st), naming sampled and walk"
