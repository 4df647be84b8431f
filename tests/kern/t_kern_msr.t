#!/bin/sh
# The msr backend on nbsim's emulated msr device: the PMU registers as it
# found them after stop, cleanup and PAPI_shutdown; its whitelist
# (tests/kern/msr_restore.c; the exit path: t_kern_msr_exit.t).
P4NETBURST_BACKEND=msr exec "$NBSIM" -- "$NB_BUILD/tests/msr_restore"
