#!/bin/sh
# t_sampled.sh - the sampled clock (the default, nb_tmsample.c)
# on a whole program under nbsim (t_sampled.c: 16 regions of a mixed
# kernel with mispredictions, L2 hits and memory misses, each read by a
# serializing RDMSR), on Northwood and Prescott, against the model's walk
# (--nbsim-clock=model), as one TAP stream:
#  - each region's cycles within 2% of the walk's, the first too (each
#    learns its costs afresh, from a long measure phase after the read
#    before it, nb_tms_anchor), the total within 2% (measured: regions
#    -1.22% to +1.04%, totals within 0.16%, over the three sets and two
#    models; before the anchors, the first region read 3.2-4.1% over;
#    README "Timing model", "The sampled clock");
#  - each region's instructions exactly the walk's (the clock changes no
#    count but the cycles);
#  - the same cycles from run to run (deterministic); with the four-preset
#    set or the FP assists (which change the blocks' IR) counted, within
#    the same bounds, and regions 1-15 the same cycles as with cycles
#    alone: the clock is anchored at each read (nb_tms_anchor), so a
#    region's cycles depend on the code run from the read before it, not
#    on the set-up before region 0 (which differs: the walk's region 0
#    differs by about 1,000 cycles among the three sets, so does the
#    sampled clock's);
#  - most superblock runs skipped (--nbsim-stats), else the checks above
#    would hold for a clock that walks every run;
#  - a program that reads its input (a read(2) every 200
#    iterations, 3,200 in all: t_sampled_reads) is sampled as one that does not: the
#    emulated kernel's bookkeeping after each read is no PMU access and
#    does not anchor the clock (each anchor measured 8,192 runs: almost
#    every run walked); its regions within 2% of the walk's;
#  - forgetting without an anchor (--nbsim-sample-forget=N: the costs
#    learned are dropped after N runs without a PMU access): forgotten
#    in the regions, which still read within 2% of the walk's;
#  - a bad --nbsim-sample refused with a message, and so is one given
#    with another clock (which would silently sample nothing); alone it
#    is taken (the default clock samples); the limits (1 and 1000000)
#    run, with the walk's instructions.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
P="$NBSIM_TESTBIN/t_sampled"
echo "1..31"
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
for m in northwood prescott; do
	"$NBSIM" --model=$m --nbsim-clock=model -- "$P" cyc > "$tmp/model" 2>"$tmp/err" || cat "$tmp/err" | sed 's/^/# /'
	"$NBSIM" --model=$m --nbsim-clock=sampled --nbsim-stats=yes -- "$P" cyc > "$tmp/st" \
		2>"$tmp/stats" || sed 's/^/# /' "$tmp/stats"
	"$NBSIM" --model=$m --nbsim-clock=sampled -- "$P" cyc > "$tmp/cyc" 2>"$tmp/err" ||
		sed 's/^/# /' "$tmp/err"
	for s in cyc pre fpa; do
		"$NBSIM" --model=$m --nbsim-clock=sampled -- "$P" $s > "$tmp/$s.2" 2>"$tmp/err" ||
			sed 's/^/# /' "$tmp/err"
	done
	# regions and total against the walk
	r=$(paste "$tmp/model" "$tmp/cyc" | awk '
		$1 == "region" { n++; e = ($10 - $4) / $4; if (e < 0) e = -e
			if (e / 0.02 * 0.06 > w) w = e / 0.02 * 0.06
			if ($6 != $12) bad = 1 }
		$1 == "total" { t = ($11 - $3) / $3; if (t < 0) t = -t }
		END { printf "%d %.4f %.4f %d\n", n, w, t, bad }')
	set -- $r
	[ "$1" = 16 ] && awk -v w="$2" 'BEGIN { exit !(w <= 0.06) }'
	ok $? "$m: each region's cycles within 2% of the walk's, the first too"
	[ "$1" = 16 ] && awk -v t="$3" 'BEGIN { exit !(t < 0.02) }'
	ok $? "$m: the total within 2% of the walk's ($(awk -v t="$3" 'BEGIN { printf "%.2f", 100 * t }')%)"
	[ "$1" = 16 ] && [ "$4" = 0 ]
	ok $? "$m: each region's instructions exactly the walk's"
	[ -s "$tmp/cyc" ] && cmp -s "$tmp/cyc" "$tmp/cyc.2"
	ok $? "$m: the same cycles again (deterministic)"
	w=$(for s in pre fpa; do paste "$tmp/model" "$tmp/$s.2"; done | awk '
		$1 == "region" { n++; e = ($10 - $4) / $4; if (e < 0) e = -e
			if (e / 0.02 * 0.06 > w) w = e / 0.02 * 0.06 }
		END { printf "%d %.4f", n, w }')
	set -- $w
	[ "$1" = 32 ] && awk -v w="$2" 'BEGIN { exit !(w <= 0.06) }'
	ok $? "$m: with the four-preset set or the FP assists counted, each region within 2% of the walk's, the first too"
	# anchored at each read (nb_tms_anchor): in regions 1-15, which the
	# same code runs from a read to a read, another set changes the
	# sampled cycles exactly as much as the walk's (region 1 starts from
	# the caches and predictor region 0 left, whose set-up differs: the
	# walk's region 1 moves by up to 20 cycles; the others by none)
	d=$(for s in pre fpa; do
		"$NBSIM" --model=$m --nbsim-clock=model -- "$P" $s > "$tmp/$s.m" 2>"$tmp/err" || sed 's/^/# /' "$tmp/err"
		paste "$tmp/cyc" "$tmp/$s.2" "$tmp/model" "$tmp/$s.m"
	done | awk '$1 == "region" && $2 > 0 { n++; if ($10 - $4 != $22 - $16) d++ }
		END { printf "%d %d", n, d }')
	set -- $d
	[ "$1" = 30 ] && [ "$2" = 0 ]
	ok $? "$m: with the four-preset set or the FP assists counted, regions 1-15 move by what the walk's move (${2:-?} of ${1:-?} differ)"
	sk=$(sed -n 's/.*superblock runs skipped \([0-9]*\), walked \([0-9]*\).*/\1 \2/p' "$tmp/stats")
	set -- $sk
	[ -n "$1" ] && [ -n "$2" ] && [ "$1" -gt $((4 * $2)) ]
	ok $? "$m: most superblock runs skipped (${1:-?} skipped, ${2:-?} walked)"
	[ $m = northwood ] && cp "$tmp/cyc" "$tmp/nw"
done
# within2 MODEL RUN WHAT: each of RUN's 16 regions within 2% of MODEL's
# cycles, with its instructions
within2() {
	set -- "$3" $(paste "$1" "$2" | awk '$1 == "region" { n++; e = ($10 - $4) / $4; if (e < 0) e = -e
		if (e > w) w = e; if ($6 != $12) bad = 1 } END { printf "%d %.4f %d", n, w, bad }')
	[ "$2" = 16 ] && [ "$4" = 0 ] && awk -v w="$3" 'BEGIN { exit !(w < 0.02) }'
	ok $? "$1: each region within 2% of the walk's, instructions exact (worst $(awk -v w="${3:-1}" 'BEGIN { printf "%.2f", 100 * w }')%)"
}
# reads: the bookkeeping after each read(2) anchors nothing (prescott)
"$NBSIM" --model=prescott --nbsim-clock=model -- "$P"_reads cyc > "$tmp/rmodel" 2>"$tmp/err" ||
	sed 's/^/# /' "$tmp/err"
"$NBSIM" --model=prescott --nbsim-clock=sampled --nbsim-stats=yes -- "$P"_reads cyc > "$tmp/rcyc" \
	2>"$tmp/rstats" || sed 's/^/# /' "$tmp/rstats"
within2 "$tmp/rmodel" "$tmp/rcyc" "prescott, a read(2) every 200 iterations"
sk=$(sed -n 's/.*superblock runs skipped \([0-9]*\), walked \([0-9]*\).*/\1 \2/p' "$tmp/rstats")
set -- $sk
[ -n "$1" ] && [ -n "$2" ] && [ "$1" -gt $((4 * $2)) ]
ok $? "prescott, 3,200 reads: most superblock runs skipped all the same (${1:-?} skipped, ${2:-?} walked)"
# forgetting: often (every 20,000 runs), the regions as close to the walk
# ($tmp/model: prescott's, the loop's last pass)
"$NBSIM" --model=prescott --nbsim-sample-forget=20000 --nbsim-stats=yes -- "$P" cyc > "$tmp/fg" \
	2>"$tmp/fgstats" || sed 's/^/# /' "$tmp/fgstats"
within2 "$tmp/model" "$tmp/fg" "prescott, --nbsim-sample-forget=20000"
f=$(sed -n 's/.*costs forgotten without an anchor \([0-9]*\) times.*/\1/p' "$tmp/fgstats")
f0=$(sed -n 's/.*costs forgotten without an anchor \([0-9]*\) times.*/\1/p' "$tmp/stats")
[ -n "$f" ] && [ "$f" -gt 16 ] && [ "$f0" = 0 ]
ok $? "prescott: forgotten ${f:-?} times with --nbsim-sample-forget=20000, ${f0:-?} by default (regions of ~150,000 runs, each anchored)"
"$NBSIM" --nbsim-sample-forget=x -- /bin/true 2>"$tmp/err" >/dev/null
rc=$?
[ $rc != 0 ] && grep -q "nbsim-sample-forget" "$tmp/err"
ok $? "--nbsim-sample-forget=x refused, naming the option (status $rc)"
"$NBSIM" --nbsim-sample-forget=1000 --nbsim-clock=model -- /bin/true 2>"$tmp/err" >/dev/null
rc=$?
[ $rc != 0 ] && grep -q "nbsim-sample-forget is for --nbsim-clock=sampled" "$tmp/err"
ok $? "--nbsim-sample-forget with --nbsim-clock=model refused, naming the option (status $rc)"
"$NBSIM" --nbsim-sample-forget=0 -- /bin/true 2>"$tmp/err" >/dev/null
ok $? "--nbsim-sample-forget=0 (never) taken"
# the models differ (a check that the runs above are not all one figure)
cmp -s "$tmp/nw" "$tmp/cyc"
[ $? = 1 ]
ok $? "the two models' cycles differ"
"$NBSIM" --nbsim-clock=sampled --nbsim-sample=0 -- /bin/true 2>"$tmp/err" >/dev/null
rc=$?
[ $rc != 0 ] && grep -q "nbsim-sample" "$tmp/err"
ok $? "--nbsim-sample=0 refused, naming the option (status $rc)"
"$NBSIM" --nbsim-clock=sampled --nbsim-sample=x -- /bin/true 2>"$tmp/err" >/dev/null
rc=$?
[ $rc != 0 ] && grep -q "nbsim-sample" "$tmp/err"
ok $? "--nbsim-sample=x refused, naming the option (status $rc)"
"$NBSIM" --model=prescott --nbsim-clock=sampled --nbsim-sample=100 -- "$P" cyc > "$tmp/s100" 2>&1
r=$(paste "$tmp/model" "$tmp/s100" | awk '$1 == "region" { n++; e = ($10 - $4) / $4; if (e < 0) e = -e; if (e > w) w = e } END { printf "%d %.4f", n, w }')
set -- $r
[ "$1" = 16 ] && awk -v w="$2" 'BEGIN { exit !(w < 0.02) }'
ok $? "prescott, --nbsim-sample=100 (more walked): each region within 2%, the first too (worst $(awk -v w="$2" 'BEGIN { printf "%.2f", 100 * w }')%)"
# the sample size with a clock that does not sample: refused, naming
# it (it was accepted and ignored before)
for c in model fast walk; do
	"$NBSIM" --nbsim-sample=100 --nbsim-clock=$c -- /bin/true 2>"$tmp/err" >/dev/null
	rc=$?
	[ $rc != 0 ] && grep -q "nbsim-sample is for --nbsim-clock=sampled" "$tmp/err"
	ok $? "--nbsim-sample with --nbsim-clock=$c refused, naming the option (status $rc)"
done
# the default clock samples: the sample size alone is taken
"$NBSIM" --nbsim-sample=100 --nbsim-stats=yes -- /bin/true 2>"$tmp/err" >/dev/null
rc=$?
[ $rc = 0 ] && grep -q "sampled clock: superblock runs skipped" "$tmp/err"
ok $? "--nbsim-sample with the default clock (sampled) taken (status $rc)"
# the limits: every region's instructions the walk's, cycles counted
for k in 1 1000000; do
	"$NBSIM" --model=prescott --nbsim-clock=sampled --nbsim-sample=$k -- "$P" cyc > "$tmp/k" 2>&1
	rc=$?
	r=$(paste "$tmp/model" "$tmp/k" | awk '$1 == "region" { n++; if ($6 != $12 || $10 <= 0) bad = 1 }
		END { print n + 0, bad + 0 }')
	[ $rc = 0 ] && [ "$r" = "16 0" ]
	ok $? "--nbsim-sample=$k: runs (status $rc), 16 regions with the walk's instructions and cycles counted ($r)"
done
