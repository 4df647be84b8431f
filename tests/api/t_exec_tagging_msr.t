#!/bin/sh
# libpfm4's execution-tagging idiom on the msr backend (/dev/cpu/N/msr of
# nbsim's emulated kernel): the same sets and counts as t_exec_tagging.t
# (ctests/exec_tagging.c), the registers written by backend_msr.c.
P4NETBURST_BACKEND=msr exec "$NBSIM" -- "$NB_BUILD/tests/exec_tagging"
