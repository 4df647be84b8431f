#!/bin/sh
# README's Quick start as a newcomer runs it: exactly two commands, the
# first (make stat) counts a real program (Debian's sort) on the simulated
# NetBurst through nb_stat and prints what it promises; the second is
# make check (this suite).
cd "$NB_SRC" || exit 1
unset MAKEFLAGS MFLAGS MAKELEVEL
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
cmds=$(sed -n '/^## Quick start/,/^## /p' README.md | grep '^    make ' | awk '{ print $1, $2 }')
[ "$(printf '%s\n' "$cmds" | wc -l)" = 2 ]; ok $? "Quick start has exactly two commands ($(printf '%s' "$cmds" | tr '\n' ';'))"
[ "$(printf '%s\n' "$cmds" | head -1)" = "make stat" ] && [ "$(printf '%s\n' "$cmds" | tail -1)" = "make check" ]
ok $? "they are make stat (the main job) and make check (the tests)"
out=$(make -s stat 2>&1); rc=$?
[ $rc = 0 ]; ok $? "make stat succeeds (status $rc)"
printf '%s\n' "$out" | grep -q 'sort'; ok $? "it names the program it counted"
printf '%s\n' "$out" | grep -Eiq 'prescott'; ok $? "it names the model"
printf '%s\n' "$out" | grep -Eq '[1-9][0-9]{0,2}(,[0-9]{3}){2,} +PAPI_TOT_INS'; ok $? "instructions: millions, with thousands separators"
printf '%s\n' "$out" | grep -Eiq 'IPC'; ok $? "a derived IPC line"
printf '%s\n' "$out" | grep -Eiq 'diverge'; [ $? = 1 ]; ok $? "the runs agree (no divergence reported)"
sort -n -C "$NB_BUILD/stat-sorted.txt"; ok $? "and sort did its job under nbsim (its output is sorted)"
[ "$(wc -l < "$NB_BUILD/stat-sorted.txt")" = 20000 ]; ok $? "all 20000 lines"
[ $rc = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
echo "1..$n"
