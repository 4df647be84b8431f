#!/bin/sh
# The msr backend puts every PMU register back when the counting process
# dies of a signal it can catch (SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE,
# SIGUSR1: the default action, re-raised) and leaves the program's own
# handlers alone; what _exit() and SIGKILL leave, nb_msr_clear (the
# nb_msr_reset command) clears (tests/kern/msr_signal.c, a stand-in device
# shared with the parent, which checks after the child's end).  Then
# nb_msr_reset itself on the emulated msr device, and refusing a CPU that
# is not a NetBurst.
"$NBSIM" -- "$NB_BUILD/tests/msr_signal" > "${TMPDIR:-/tmp}/msr_signal.$$" 2>&1
rc=$?
n=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "${TMPDIR:-/tmp}/msr_signal.$$")
echo "1..$((${n:-0} + 3))"
grep -v '^1\.\.' "${TMPDIR:-/tmp}/msr_signal.$$"
rm -f "${TMPDIR:-/tmp}/msr_signal.$$"
[ -n "$n" ] || echo "not ok - msr_signal gave no plan (status $rc)"
out=$(P4NETBURST_BACKEND=msr "$NBSIM" -- "$NB_BUILD/utils/nb_msr_reset" 2>&1)
rc=$?
if [ $rc = 0 ] && echo "$out" | grep -q '^cpu 0: 0 PMU registers cleared$'; then
	echo "ok - nb_msr_reset under nbsim: cpu 0, nothing to clear on a fresh PMU"
else
	echo "not ok - nb_msr_reset under nbsim: cpu 0, nothing to clear on a fresh PMU"
	echo "$out" | sed 's/^/# /'
fi
out=$("$NB_BUILD/utils/nb_msr_reset" 2>&1)
rc=$?
if [ $rc = 1 ] && echo "$out" | grep -q 'not resetting'; then
	echo "ok - nb_msr_reset on the host (not a NetBurst): refused, status 1"
else
	echo "not ok - nb_msr_reset on the host (not a NetBurst): refused, status 1 (got $rc)"
	echo "$out" | sed 's/^/# /'
fi
out=$("$NB_BUILD/utils/nb_msr_reset" --bogus 2>&1)
if [ $? = 2 ]; then echo "ok - nb_msr_reset --bogus: status 2"; else echo "not ok - nb_msr_reset --bogus: status 2"; fi
