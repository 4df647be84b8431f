#!/bin/bash
# t_cachegrind.sh - nbsim's cache model against valgrind's cachegrind (TAP).
#
# Programs (cg_prog.c): stride, random, chase, matmul, each at 1 and 3
# kernel repetitions between two passes over a 4 MB buffer that flush every
# level; every figure is the difference of the two runs' whole-program
# totals (set-up, start-up and exit cancel), so it is the kernel's.
# Model: prescott (L1D 16 KB 8-way 64 B, L2 1 MB 8-way, 128-byte sectors).
#
#  1. --nbsim-cache=cachegrind (test mode: cachegrind's policies: write-
#     allocate L1D, 64-byte L2 lines) against cachegrind --D1=16384,8,64
#     --LL=1048576,8,64: L1D load and store misses equal exactly; L2 misses
#     within 0.01%: cachegrind's LL is unified (its I1 misses fill it too)
#     and nbsim's L2 holds data only, so the instruction lines of start-up
#     and exit can move a handful of data misses (0 to 4 seen, depending on
#     the environment's size).
#  2. the NetBurst model (no-write-allocate write-through L1D; L2 misses
#     fetch the whole 128-byte sector) against cachegrind
#     --LL=1048576,8,128: L1D load misses and L2 load and store misses agree
#     within 1%.  L1D store misses differ by policy (no write-allocate: a
#     store to a line not in the L1D misses every time); printed only.
#
#   NBSIM=... NBSIM_TESTBIN=... ./t_cachegrind.sh
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
VALGRIND=${VALGRIND:-valgrind}
PROG=$NBSIM_TESTBIN/cg_prog
PROGRAMS="stride random chase matmul"
R1=1 R2=3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
echo "1..$((4 * 7))"
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }

# cachegrind totals "D1mr D1mw DLmr DLmw" of one run: $1 LL line size, $2 program, $3 reps
cg() {
	"$VALGRIND" -q --tool=cachegrind --cache-sim=yes --branch-sim=no --I1=16384,8,64 \
		--D1=16384,8,64 --LL=1048576,8,"$1" --cachegrind-out-file="$tmp/cg.out" \
		"$PROG" "$2" "$3" >/dev/null 2>"$tmp/cg.err" || { cat "$tmp/cg.err" >&2; echo "x x x x"; return; }
	awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i }
	     /^summary:/ { print $col["D1mr"], $col["D1mw"], $col["DLmr"], $col["DLmw"] }' "$tmp/cg.out"
}
# nbsim totals "L1ld L1st L2ld L2st" (--nbsim-stats=yes runs the cache model from the start)
nb() {
	"$NBSIM" --nbsim-stats=yes "$@" >/dev/null 2>"$tmp/nb.err"
	sed -n 's/.*cache model: L1D load misses \([0-9]*\), store misses \([0-9]*\); L2 load misses \([0-9]*\), store misses \([0-9]*\);.*/\1 \2 \3 \4/p' "$tmp/nb.err"
}
# difference of two "a b c d" lines
dif() { awk -v x="$1" -v y="$2" 'BEGIN { split(x, a); split(y, b); for (i = 1; i <= 4; i++) printf "%s%s", (i > 1 ? " " : ""), b[i] - a[i]; print "" }'; }
# within 1%: $1 nbsim, $2 cachegrind
# within 0.01%
near4() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b / 10000) }'; }
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 ? d <= b / 100 : a == 0) }'; }

command -v "$VALGRIND" >/dev/null || echo "# cachegrind not found: every test below fails"
for p in $PROGRAMS; do
	c64=$(dif "$(cg 64 $p $R1)" "$(cg 64 $p $R2)")
	c128=$(dif "$(cg 128 $p $R1)" "$(cg 128 $p $R2)")
	nc=$(dif "$(nb --nbsim-cache=cachegrind -- "$PROG" $p $R1)" "$(nb --nbsim-cache=cachegrind -- "$PROG" $p $R2)")
	nn=$(dif "$(nb -- "$PROG" $p $R1)" "$(nb -- "$PROG" $p $R2)")
	read -r g1r g1w g2r g2w <<<"$c64"
	read -r h1r h1w h2r h2w <<<"$c128"
	read -r a1r a1w a2r a2w <<<"$nc"
	read -r b1r b1w b2r b2w <<<"$nn"
	echo "# $p: cachegrind LL 64 B: D1mr $g1r D1mw $g1w DLmr $g2r DLmw $g2w"
	echo "# $p: nbsim --nbsim-cache=cachegrind: L1D ld $a1r st $a1w, L2 ld $a2r st $a2w"
	echo "# $p: cachegrind LL 128 B: D1mr $h1r D1mw $h1w DLmr $h2r DLmw $h2w"
	echo "# $p: nbsim (NetBurst): L1D ld $b1r st $b1w, L2 ld $b2r st $b2w"
	[ -n "$g1r" ] && [ "$a1r" = "$g1r" ] && [ "$a1w" = "$g1w" ]
	ok $? "$p, cachegrind policies: L1D load/store misses equal ($a1r/$a1w vs $g1r/$g1w)"
	[ -n "$g2r" ] && near4 "$a2r" "$g2r"
	ok $? "$p, cachegrind policies: L2 load misses within 0.01% ($a2r vs $g2r)"
	[ -n "$g2w" ] && near4 "$a2w" "$g2w"
	ok $? "$p, cachegrind policies: L2 store misses within 0.01% ($a2w vs $g2w)"
	[ "$g1r" != 0 ] || [ "$p" = matmul ]
	ok $? "$p: the kernel misses the L1D ($g1r load misses)"
	[ -n "$h1r" ] && near "$b1r" "$h1r"
	ok $? "$p, NetBurst model: L1D load misses within 1% ($b1r vs $h1r)"
	[ -n "$h2r" ] && near "$b2r" "$h2r"
	ok $? "$p, NetBurst model: L2 load misses within 1% ($b2r vs $h2r)"
	[ -n "$h2w" ] && near "$b2w" "$h2w"
	ok $? "$p, NetBurst model: L2 store misses within 1% ($b2w vs $h2w)"
done
