#!/bin/sh
# libpfm4's execution-tagging idiom on the perf backend, against nbsim's
# emulated Linux P4 perf driver: the tag bits travel in the raw config's
# ESCR half (ctests/exec_tagging.c; its sets with a tagged metric are left
# out there, as the kernel cannot program a metric's helper ESCR).
P4NETBURST_BACKEND=perf exec "$NBSIM" -- "$NB_BUILD/tests/exec_tagging"
