#!/bin/sh
# nbsim's native unit tests (sim/tests/unit/t_*.c: the PMU, CPUID, caches, TLB,
# decoder, ...) built again with AddressSanitizer and UBSan (sim/Makefile,
# $(BUILD)/san): each must pass with no sanitizer report.
san=$NBSIM_TESTBIN/../san
n=0
fail=0
list=$(ls "$san"/t_* 2>/dev/null)
[ -n "$list" ] || { echo "1..1"; echo "not ok 1 - no sanitizer build in $san (make -C sim tests)"; exit 1; }
echo "1..$(echo "$list" | wc -l)"
for t in $list; do
	n=$((n + 1))
	out=$("$t" 2>&1)
	rc=$?
	# a failed check fails it; a failed TODO check (TAP "# TODO") does not
	if [ $rc -eq 0 ] && ! printf '%s\n' "$out" | grep -v '^not ok.* # TODO ' |
			grep -q -e '^not ok' -e 'Sanitizer' -e 'runtime error'; then
		echo "ok $n - $(basename "$t") under ASan/UBSan"
	else
		echo "not ok $n - $(basename "$t") under ASan/UBSan (exit $rc)"
		printf '%s\n' "$out" | grep -e '^not ok' -e 'Sanitizer' -e 'runtime error' -e 'SUMMARY' | head -20 | sed 's/^/# /'
		fail=1
	fi
done
exit $fail
