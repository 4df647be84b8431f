#!/bin/sh
# Determinism: a program's event set (cycles, instructions, uops,
# branches, mispredictions: what one run of nb_stat counts; per thread
# too) is the same in every run, 5 alone and 5 beside two CPU-bound
# processes: one thread (--ht=no), two threads (--ht=no and
# --ht=yes) meeting at a barrier, a mutex, a condition variable, a yield
# and a join (sim/tests/guest/t_determ.c; docs/threads.md "Lockstep").
# And with an overflow interrupt armed: nb_record's samples of the two
# threads (--ht=yes), each sample's thread and IP, the same in a run alone
# and one beside two busy loops (the lockstep once stood aside while a
# PMI could be sent, and the IPs moved from run to run).  And with
# PAPI_overflow's PMI signals: ctests/thread_pebs.c's 4 threads under
# --ht=yes, whose counts include PAPI's own L1D misses, which depend on
# the threads' order (valgrind's order gave 135-140, 160-161, 177-187 and
# 203-254 in three runs), and ctests/thread_overflow.c's 4 threads on
# PAPI's perf backend (the emulated driver's sampling: the counts include
# its tail, which moved with the order, 823,573-824,569 for thread 0):
# the same output in two runs alone (test 5) and two beside two busy
# loops (test 6), each run in a pid namespace of its own (the guest's
# pid is an input of the program: below).  And a hold runs nothing:
# valgrind counts the slice a lockstep hold ends as run (its blocks_done,
# on which the cold phase ends), and how many holds there are follows the
# host's timing; nbsim's count leaves them out (test 7, from the
# lockstep's trace).
: "${NBSIM:?}" "${NB_BUILD:?}" "${NBSIM_TESTBIN:?}"
stat="$NB_BUILD/utils/nb_stat"
record="$NB_BUILD/utils/nb_record"
prog="$NBSIM_TESTBIN/t_determ"
ev=PAPI_TOT_CYC,PAPI_TOT_INS,uops_retired:NBOGUS,PAPI_BR_INS,PAPI_BR_MSP
tmp=$(mktemp -d) || exit 1
busy=""
cleanup() { [ -n "$busy" ] && kill $busy 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP      # (the busy loops go with the test)
echo "1..7"
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
# (sample lines without the process id, field 5: the host's)
samples() {
	"$record" --ht=yes --no-precise -e PAPI_TOT_INS/1009 -o "$tmp/prof" -- "$prog" 2 \
		>/dev/null 2>"$tmp/err" && grep '^sample' "$tmp/prof" | cut -f1-4,6- > "$1" ||
		sed 's/^/# /' "$tmp/err" >&2
}
samples "$tmp/rec.alone"
sh -c 'while :; do :; done' & busy="$!"
sh -c 'while :; do :; done' & busy="$busy $!"
samples "$tmp/rec.busy"
kill $busy 2>/dev/null
busy=""
t1=$(awk '$4 == 1' "$tmp/rec.alone" 2>/dev/null | wc -l)
t2=$(awk '$4 == 2' "$tmp/rec.alone" 2>/dev/null | wc -l)
if [ "$t1" -gt 0 ] && [ "$t2" -gt 0 ] && cmp -s "$tmp/rec.alone" "$tmp/rec.busy"; then
	echo "ok 4 - nb_record --ht=yes t_determ 2: the same samples ($t1 of thread 1, $t2 of thread 2; threads and IPs) alone and beside two busy loops"
else
	echo "not ok 4 - nb_record --ht=yes t_determ 2: samples differ between runs (or a thread has none: $t1, $t2)"
	diff "$tmp/rec.alone" "$tmp/rec.busy" 2>&1 | head -20 | sed 's/^/# /' >&2
fi
# The guest's process id is one of its inputs: PAPI formats it
# (/proc/PID/exe, linux-common.c), and a pid of another length moves its
# allocations and so its own L1D misses (thread_pebs's thread 2 read 77
# with 4-digit pids and 150 with 5-digit ones, each in every run; with
# another build of the tool 85, 90 and 92 with 3, 4 and 5 digits).  The
# host's pids are not the program's to choose, so each run gets a pid
# namespace of its own (unshare(1), root: CLONE_NEWPID with a private
# /proc): its shell is pid 1, the program pid 2, its threads 3 and up, in
# every run; its files under a TMPDIR of the test's own (nbsim names its
# per-process files by pid).  Where no pid namespace can be had, the runs
# are compared at one pid length instead (the set run again, at most 3
# times, when the host's pids wrapped or crossed a power of 10), and
# test 6 is a TODO: a busy machine's pids can wrap within every set.
ns=""
if unshare --pid --fork --mount-proc true 2>/dev/null; then
	ns="unshare --pid --fork --mount-proc"
	mkdir "$tmp/t" || exit 1
fi
run1() { # OUT CMD...: run CMD, stdin /dev/null; its pid into $pids
	out=$1; shift
	if [ -n "$ns" ]; then
		# (sh forks the program: pid 1 would ignore default signals)
		TMPDIR="$tmp/t" $ns sh -c '"$@"; exit $?' sh "$@" < /dev/null > "$out" 2>&1
		return
	fi
	"$@" < /dev/null > "$out" 2>&1 & p=$!
	wait $p
	st=$?
	pids="$pids $p $((p + 64))"
	return $st
}
pebs() {
	run1 "$1" "$NBSIM" -q --ht=yes -- "$NB_BUILD/tests/thread_pebs" 4 ||
		echo "# thread_pebs 4 failed" >> "$1"
	# (its checks are the sim backend's: on perf the counts include the
	# driver's tail, so only that they repeat is asked)
	run1 "$1.perfout" env P4NETBURST_BACKEND=perf "$NBSIM" -q --ht=yes -- \
		"$NB_BUILD/tests/thread_overflow" 4
	grep -o 'count [0-9]*, as' "$1.perfout" > "$1.perf"
}
one_len() { # 0 if the pids in $pids have one length (it in plen)
	plen=""
	for p in $pids; do
		[ -n "$plen" ] || plen=${#p}
		[ "${#p}" -eq "$plen" ] || return 1
	done
}
for set in 1 2 3; do
	pids=""
	pebs "$tmp/pebs.alone1"
	pebs "$tmp/pebs.alone2"
	sh -c 'while :; do :; done' & busy="$!"
	sh -c 'while :; do :; done' & busy="$busy $!"
	pebs "$tmp/pebs.busy1"
	pebs "$tmp/pebs.busy2"
	kill $busy 2>/dev/null
	busy=""
	one_len && break
	echo "# (the set's pids have different lengths:$pids; run again)" >&2
done
if [ -n "$ns" ]; then
	where="in pid namespaces: pid 2"
	todo=""
else
	where="pids of $plen digits"
	todo=" # TODO no pid namespace here (unshare -p refused: not root?); the runs agree at one pid length, which a set cannot always get"
fi
own=$(grep -o '+ [0-9]* of PAPI' "$tmp/pebs.alone1" | cut -d' ' -f2 | tr '\n' ' ' | sed 's/ $//')
perfc=$(cut -d' ' -f2 "$tmp/pebs.alone1.perf" | tr -d ',' | tr '\n' ' ' | sed 's/ $//')
# same FILE...: 1 if each of the runs named gives alone1's output
same() {
	grep -q '^not ok\|failed' "$tmp/pebs.alone1" && return 1
	[ "$(grep -c '^ok' "$tmp/pebs.alone1")" -eq 12 ] || return 1
	[ "$(wc -l < "$tmp/pebs.alone1.perf")" -eq 4 ] || return 1
	for f in "$@"; do
		cmp -s "$tmp/pebs.alone1" "$tmp/pebs.$f" && cmp -s "$tmp/pebs.alone1.perf" "$tmp/pebs.$f.perf" ||
			return 1
	done
}
differ() {
	for f in "$@"; do
		diff "$tmp/pebs.alone1" "$tmp/pebs.$f" | sed "s/^/# $f: /"
		diff "$tmp/pebs.alone1.perf" "$tmp/pebs.$f.perf" | sed "s/^/# perf $f: /"
	done >&2
	grep -v '^ok' "$tmp/pebs.alone1" | sed 's/^/# /' >&2
}
if same alone2; then
	echo "ok 5 - PAPI_overflow in threads, --ht=yes: thread_pebs 4 the same 12 results (PAPI's own misses: $own), thread_overflow 4 on the perf backend the same counts ($perfc), in 2 runs alone ($where)"
else
	echo "not ok 5 - PAPI_overflow in threads, --ht=yes: the output differs between 2 runs alone or a check failed"
	differ alone2
fi
if same busy1 busy2; then
	echo "ok 6 - ... and the same in 2 runs beside two busy loops ($where)$todo"
else
	echo "not ok 6 - ... and the same in 2 runs beside two busy loops ($where)$todo"
	differ busy1 busy2
fi
# A hold (a start of a thread's slice the lockstep ends at once: no
# "runs" line of that thread before its stop) runs nothing: the
# superblock count nbsim decides on (the cold phase's end) does not move
# across it, and never goes back.  It moved by the slice's 100,000 when
# valgrind's count was used, and sort's counts then changed with the
# host's load (1 run in 5 at a load of 7); counted at the hold, not at
# the slice's end, it went back while the held thread was parked.
# (After the second thread starts: the lockstep's first decision.  A
# wrapper's no-redirect call runs its one superblock with no decision.)
"$NBSIM" -v -v -v --ht=yes -- "$prog" 2 2>&1 >/dev/null | sed -n 's/.*lstrace: //p' > "$tmp/trace"
res=$(awk '$1 == "runs" { on = 1; ran[$2] = 1 }
	($1 == "start" || $1 == "stop") && $4 < last { back++ }
	$1 == "start" { ran[$2] = 0; open[$2] = 1; last = $4 }
	$1 == "stop" { if (open[$2] && on && !ran[$2]) { holds++; if ($4 - last > 1) moved++ }
		open[$2] = 0; last = $4 }
	END { printf "%d %d %d\n", holds, moved, back }' "$tmp/trace")
set -- $res
if [ "${1:-0}" -gt 10 ] && [ "${2:-1}" -eq 0 ] && [ "${3:-1}" -eq 0 ]; then
	echo "ok 7 - t_determ 2 --ht=yes: $1 holds, none counted as superblocks run; the count never goes back"
else
	echo "not ok 7 - t_determ 2 --ht=yes: holds ${1:-none}, ${2:-?} of them counted as run, the count went back ${3:-?} times"
fi
