#!/bin/sh
# The msr backend restores the PMU registers when the counting thread
# crashes (SIGSEGV) with a set running (tests/kern/msr_restore.c).
P4NETBURST_BACKEND=msr exec "$NBSIM" -- "$NB_BUILD/tests/msr_restore" segv
