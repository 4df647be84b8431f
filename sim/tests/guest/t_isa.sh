#!/bin/sh
# t_isa.sh - instructions the model lacks raise #UD (t_isa.c, TAP) on
# Northwood, Prescott and Cedar Mill, and run with --nbsim-isa=host
# (on Northwood, the SSE3, CMPXCHG16B and LAHF probes), as one TAP stream.
: "${NBSIM:?set NBSIM to the nbsim launcher}"
: "${NBSIM_TESTBIN:?set NBSIM_TESTBIN to the test binary directory}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
for m in northwood prescott cedarmill; do
	"$NBSIM" --model=$m -- "$NBSIM_TESTBIN/t_isa" $m > "$tmp/$m" 2> "$tmp/$m.err" || rc=1
done
"$NBSIM" --model=northwood --nbsim-isa=host -- "$NBSIM_TESTBIN/t_isa" host \
	> "$tmp/host" 2> "$tmp/host.err" || rc=1
n=2
for m in northwood prescott cedarmill host; do
	k=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$tmp/$m")
	n=$((n + ${k:-0}))
done
echo "1..$n"
for m in northwood prescott cedarmill host; do
	grep -v '^1\.\.' "$tmp/$m" | sed "s/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 - $m: /"
done
# the message names the extension and the model, once per extension
c=$(grep -c 'needs SSSE3/SSE4/MOVBE/CRC32/AES/SHA (0F 38 opcode map), which northwood does not have: #UD' "$tmp/northwood.err")
[ "$c" = 1 ] && echo "ok - northwood: one message for the 0F 38 map, naming it" ||
	{ echo "not ok - northwood: one message for the 0F 38 map, naming it (got $c)"; rc=1; }
grep -q 'needs LAHF/SAHF in 64-bit mode, which northwood.* (--nbsim-isa=host), a Pentium 4 would raise #UD' "$tmp/host.err" &&
	echo "ok - host: the warning names the extension and the model" ||
	{ echo "not ok - host: the warning names the extension and the model"; rc=1; }
exit $rc
