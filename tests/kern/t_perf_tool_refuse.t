#!/bin/sh
# perf_event_open on another task, and what Linux refuses an unprivileged
# user at perf_event_paranoid 2 (tests/kern/kern_task.c), under nbsim's
# emulated perf driver; then perf itself, which falls back to user-mode
# counting on EACCES for kernel counting.
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	echo "1..0 # SKIP needs root and setpriv (to drop privileges)"
	exit 0
fi
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp"
cd /tmp || exit 1
$nobody "$NBSIM" --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/kern_task" "$NB_BUILD/tests/stat/k_loop" "$NB_BUILD/tests/stat/k_loop_2x"
