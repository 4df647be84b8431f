#!/bin/sh
# The msr backend restores the PMU registers it changed at exit, with a set
# still running (tests/kern/msr_restore.c, atexit).
P4NETBURST_BACKEND=msr exec "$NBSIM" -- "$NB_BUILD/tests/msr_restore" exit
