#!/bin/sh
# The build as a newcomer meets it: `make` builds everything (also when it
# had to run configure first), and a make with nothing to do neither
# rebuilds PAPI nor relinks the test programs (PAPI's build is a stamp file
# depending on the component's sources, the tables and the configuration).
cd "$NB_SRC" || exit 1
unset MAKEFLAGS MFLAGS MAKELEVEL
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
goal=$(make -pn -f Makefile nothing-at-all 2>/dev/null | sed -n 's/^\.DEFAULT_GOAL := //p' | tail -1)
[ "$goal" = all ]; ok $? "make's default goal is all, not config.mk (got '$goal')"
out=$(make -n all 2>&1)
printf '%s\n' "$out" | grep -q 'libpapi.a\|papi-make.log'; [ $? = 1 ]; ok $? "an up-to-date tree: make -n all neither builds PAPI nor links against libpapi.a"
[ -f "$NB_BUILD/papi.stamp" ]; ok $? "the PAPI build stamp exists ($NB_BUILD/papi.stamp)"
out=$(make -n "$NB_BUILD/papi.stamp" 2>&1)
printf '%s\n' "$out" | grep -q 'log: .*papi-make.log'; [ $? = 1 ]; ok $? "the stamp is up to date"
out=$(make -n -W components/p4netburst/p4netburst.c "$NB_BUILD/papi.stamp" 2>&1)
printf '%s\n' "$out" | grep -q 'log: .*papi-make.log'; ok $? "a changed component source rebuilds PAPI, announcing the log"
printf '%s\n' "$out" | grep -q 'PAPI: %d files compiled'; ok $? "the PAPI build reports its progress (files compiled)"
# The stamp carries the time the build started, not the time it ended: a
# source edited while PAPI builds must be newer than the stamp.  (A stamp
# touched at the end once hid such an edit: the next make did nothing and
# the library kept the old code.)
first=$(printf '%s\n' "$out" | grep -n -m1 'papi\.stamp\.start' | cut -d: -f1)
build=$(printf '%s\n' "$out" | grep -n -m1 'Building PAPI' | cut -d: -f1)
last=$(printf '%s\n' "$out" | grep -n 'mv -f .*papi\.stamp\.start .*papi\.stamp$' | cut -d: -f1)
[ -n "$first" ] && [ -n "$build" ] && [ -n "$last" ] && [ "$first" -lt "$build" ] && [ "$build" -lt "$last" ] &&
	! printf '%s\n' "$out" | grep -q 'touch .*papi\.stamp$'
ok $? "the stamp is dated at the build's start (touched before, renamed after; lines $first, $build, $last)"
echo "1..$n"
