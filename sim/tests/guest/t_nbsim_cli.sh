#!/bin/bash
# t_nbsim_cli.sh - the nbsim launcher and CPUID inside the simulation (TAP).
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
probe=$NBSIM_TESTBIN/nb_probe
n=0
fail=0
ok() { # cond-status description
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the source tree, from this script's place (sim/tests/guest), whatever
# the directory prove runs it from
sim=$(cd "$(dirname "$0")/../.." && pwd)

# (two checks per option of the table in nb_opts.c)
nopt=$(grep -c '^[[:space:]]*{ "--nbsim-[a-z-]*", "[a-z, ]*" },$' "$sim/tool/nb_opts.c")
echo "1..$((32 + 4 + 2 + 2 * nopt))"

"$NBSIM" --help >"$tmp/out" 2>&1
ok $? "nbsim --help exits 0"
grep -q "usage: nbsim" "$tmp/out"
ok $? "nbsim --help prints usage"

# Every --nbsim-* option of the tool (its table in nb_opts.c) is in
# nbsim --help with each of its values, and a bad value is refused with
# the values that exist (not valgrind's "Unknown option").
opts=$(sed -n 's/^[[:space:]]*{ "\(--nbsim-[a-z-]*\)", "\([a-z, ]*\)" },$/\1=\2/p' "$sim/tool/nb_opts.c" | sed 's/, /|/g')
[ "$(printf '%s\n' "$opts" | grep -c .)" -ge 5 ]
ok $? "nb_opts.c lists its --nbsim-* options with their values ($(printf '%s\n' "$opts" | grep -c .))"
"$NBSIM" --help >"$tmp/help" 2>&1
miss=
for o in $opts; do
	grep -qF -- "$o" "$tmp/help" || miss="$miss $o"
done
[ -z "$miss" ]
ok $? "nbsim --help lists every --nbsim-* option with its values${miss:+ (missing:$miss)}"

# ... and its man page documents every option --help names (the man page
# once lacked --nbsim-pmu-ctx, --perf-paranoid and --msr-driver).
man=$sim/../man/nbsim.1
miss=
for o in $(grep -o -- '--[a-z][a-z0-9-]*' "$tmp/help" | sort -u); do
	[ "$o" = --help ] && continue
	sed 's/\\-/-/g' "$man" | grep -qF -- "$o" || miss="$miss $o"
done
[ -f "$man" ] && [ -z "$miss" ]
ok $? "man/nbsim.1 documents every option nbsim --help names${miss:+ (missing:$miss)}"
for o in $opts; do
	name=${o%%=*}
	vals=$(printf '%s' "${o#*=}" | sed 's/|/, /g')
	"$NBSIM" "$name=maybe-not" -- /bin/true >"$tmp/out" 2>&1
	rc=$?
	if [ "$vals" = "yes, no" ]; then want="should be 'yes' or 'no'"; else want="values: $vals"; fi
	[ $rc -ne 0 ] && grep -qF -- "$want" "$tmp/out" && ! grep -q "Unknown option" "$tmp/out"
	ok $? "$name=maybe-not refused naming the values ($want; rc $rc)"
	"$NBSIM" "$name" -- /bin/true >"$tmp/out" 2>&1
	rc=$?
	[ $rc -ne 0 ] && ! grep -q "Unknown option" "$tmp/out"
	ok $? "$name without a value refused with a reason (rc $rc)"
done
"$NBSIM" --nbsim-no-such=1 -- /bin/true >"$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "unknown nbsim option (known: --nbsim-stats" "$tmp/out"
ok $? "unknown --nbsim-* option: the known ones are named (rc $rc)"

"$NBSIM" "$tmp/does-not-exist" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 127 ]
ok $? "missing program: exit 127 (got $rc)"
grep -q "does-not-exist" "$tmp/out" && ! grep -q "==[0-9]*==" "$tmp/out"
ok $? "missing program: message names it, before valgrind starts"

"$NBSIM" no-such-program-xyz >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 127 ] && grep -q "no-such-program-xyz" "$tmp/out"
ok $? "program not in PATH: exit 127 with its name (got $rc)"

printf '#!/bin/sh\necho hi\n' >"$tmp/noexec"
chmod 644 "$tmp/noexec"
"$NBSIM" "$tmp/noexec" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 126 ] && grep -q "noexec" "$tmp/out"
ok $? "non-executable file: exit 126 with its name (got $rc)"

"$NBSIM" "$tmp" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 126 ]
ok $? "directory as program: exit 126 (got $rc)"

"$NBSIM" --model=pentium3 "$probe" >"$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "unknown model 'pentium3'" "$tmp/out"
ok $? "unknown --model rejected with a message (rc $rc)"

"$NBSIM" --ht=maybe "$probe" >"$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q "ht" "$tmp/out"
ok $? "bad --ht value rejected"

"$NBSIM" "$probe" >"$tmp/def" 2>&1
ok $? "probe runs under nbsim (default model)"
val() { sed -n "s/^$1 //p" "$2"; }
[ "$(val vendor "$tmp/def")" = GenuineIntel ]
ok $? "CPUID vendor GenuineIntel"
[ "$(val family "$tmp/def")" = 15 ]
ok $? "CPUID family 15"
[ "$(val model "$tmp/def")" = 3 ] && [ "$(val info_name "$tmp/def")" = prescott ]
ok $? "default model: prescott, CPUID model 3"
[ "$(val sse2 "$tmp/def")$(val sse3 "$tmp/def")$(val ssse3 "$tmp/def")$(val sse41 "$tmp/def")$(val avx "$tmp/def")" = 11000 ]
ok $? "prescott: SSE2 and SSE3, no SSSE3/SSE4.1/AVX"
[ "$(val lm "$tmp/def")" = 1 ]
ok $? "long mode reported (x86-64 guests)"
val brand "$tmp/def" | grep -q "Intel(R) Pentium(R) 4 CPU 3.40GHz"
ok $? "brand string: $(val brand "$tmp/def" | sed 's/^ *//')"
[ "$(val leaf2 "$tmp/def")" = "605b5001 00000000 00000000 007c7040" ]
ok $? "prescott leaf 2: 16 KB L1D (0x60), 1 MB L2 (0x7c), trace cache (0x70)"
[ "$(val htt "$tmp/def")" = 0 ] && [ "$(val info_ht "$tmp/def")" = 0 ]
ok $? "HT off by default: HTT clear"

"$NBSIM" --model=northwood "$probe" >"$tmp/nw" 2>&1
[ "$(val model "$tmp/nw")" = 2 ] && [ "$(val family "$tmp/nw")" = 15 ]
ok $? "--model=northwood: CPUID family 15 model 2"
[ "$(val sse3 "$tmp/nw")" = 0 ] && [ "$(val leaf2 "$tmp/nw")" = "665b5001 00000000 00000000 007b7040" ]
ok $? "northwood: no SSE3; 8 KB L1D (0x66), 512 KB L2 (0x7b)"

for m in willamette:1 cedarmill:6 xeonmp:2; do
	"$NBSIM" --model=${m%:*} "$probe" >"$tmp/m" 2>&1
	[ "$(val model "$tmp/m")" = "${m#*:}" ] && [ "$(val info_name "$tmp/m")" = "${m%:*}" ]
	ok $? "--model=${m%:*}: CPUID model ${m#*:}"
done

"$NBSIM" --model=xeonmp "$probe" >"$tmp/xm" 2>&1
[ "$(val info_l3_kb "$tmp/xm")" = 2048 ] && [ "$(val leaf2 "$tmp/xm")" = "665b5001 00000000 00000000 007b7025" ]
ok $? "xeonmp: INFO l3_kb 2048, leaf 2 L3 descriptor 0x25"
[ "$(val info_l3_kb "$tmp/def")" = 0 ]
ok $? "prescott: INFO l3_kb 0"

"$NBSIM" --model=northwood --ht=yes "$probe" >"$tmp/ht" 2>&1
[ "$(val htt "$tmp/ht")" = 1 ] && [ "$(val info_ht "$tmp/ht")" = 1 ]
ok $? "--ht=yes: HTT set, INFO reports HT"

# installed layout: PREFIX/bin/nbsim finds PREFIX/lib/nbsim/nbsim-amd64-linux
tool=$(dirname "$(readlink -f "$NBSIM")")/nbsim-amd64-linux
mkdir -p "$tmp/pfx/bin" "$tmp/pfx/lib/nbsim"
cp "$NBSIM" "$tmp/pfx/bin/nbsim" && cp "$tool" "$(dirname "$tool")/vgpreload_nbsim-amd64-linux.so" "$tmp/pfx/lib/nbsim/"
"$tmp/pfx/bin/nbsim" --model=cedarmill "$probe" >"$tmp/inst" 2>&1
[ "$(val model "$tmp/inst")" = 6 ]
ok $? "installed layout (bin/nbsim + lib/nbsim/): tool found, model 6"

# the tool itself rejects an unknown model (when run without the launcher)
VALGRIND_LIB=$(dirname "$tool") valgrind --tool=nbsim --model=pentium3 "$probe" >"$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "unknown NetBurst model 'pentium3'" "$tmp/out"
ok $? "tool: --model=pentium3 rejected (rc $rc)"

# an event the model does not produce is announced, not silently zero
"$NBSIM" "$probe" unmodelled >"$tmp/out" 2>&1
grep -q "programmed 0" "$tmp/out" && grep -q "response is not modelled yet" "$tmp/out"
ok $? "programming an unmodelled event warns once, naming it"
"$NBSIM" --nbsim-warn-unmodelled=no "$probe" unmodelled >"$tmp/out" 2>&1
grep -q "programmed 0" "$tmp/out" && ! grep -q "not modelled" "$tmp/out"
ok $? "--nbsim-warn-unmodelled=no silences it"

# the cold phase (--nbsim-cold, nb_need.c): code translated before the
# first counter is enabled calls the cache model per access instead of
# its inline hit path; the cache model ends the start-up in the same state
# (its misses, the stores that skip the model after a store miss to the
# same L2 line included), or later counts would depend on the phase
"$NBSIM" "$probe" memstats >"$tmp/cold" 2>&1
"$NBSIM" --nbsim-cold=no "$probe" memstats >"$tmp/warm" 2>&1
grep -q '^memstats 0 l1ld [1-9][0-9]* l1st [1-9]' "$tmp/cold" && cmp -s "$tmp/cold" "$tmp/warm"
ok $? "start-up's cache misses the same with and without the cold phase ($(cat "$tmp/cold"))"

# ... and cold translations (nb_need.c's tiers): the loop's superblock is
# translated first with the cache model as calls and a count of its runs,
# then again with the inline path (more translations than with
# --nbsim-cold=no, valgrind's --stats); the cycles (the hot translation
# takes over what the sampled clock learned) and the cache model's totals
# are the same.  Host time: no cold phase, whose end translates again too.
ntrans() { sed -n 's/.*transtab: new *\([0-9,]*\) .*/\1/p' "$1" | tr -d ,; }
"$NBSIM" --stats=yes --nbsim-time=host "$probe" tier >"$tmp/tier" 2>"$tmp/tier.err"
"$NBSIM" --stats=yes --nbsim-time=host --nbsim-cold=no "$probe" tier >"$tmp/tierno" 2>"$tmp/tierno.err"
a=$(ntrans "$tmp/tier.err") b=$(ntrans "$tmp/tierno.err")
grep -q '^tier 0 cycles [1-9]' "$tmp/tier" && cmp -s "$tmp/tier" "$tmp/tierno" &&
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -gt "$b" ]
ok $? "a hot loop's cold translation made hot: the same cycles and misses, $a translations against $b ($(cat "$tmp/tier"))"

# What a program reads of its own process is the same every run
# (--aslr=no, the default: the host's randomisation off, no gdbserver
# file named by the pid): PAPI parses /proc/self/maps at its start, and
# its instruction counts followed the vDSO's and stack's addresses.
"$NBSIM" -- /bin/cat /proc/self/maps >"$tmp/maps1" 2>&1
"$NBSIM" -- /bin/cat /proc/self/maps >"$tmp/maps2" 2>&1
grep -q '\[stack\]' "$tmp/maps1" && cmp -s "$tmp/maps1" "$tmp/maps2"
ok $? "/proc/self/maps is the same in two runs ($(grep -c . "$tmp/maps1") lines)"
"$NBSIM" --aslr=maybe -- /bin/true >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "bad value for --aslr: 'maybe' (yes or no)" "$tmp/out"
ok $? "--aslr=maybe refused naming the values"

exit $fail
