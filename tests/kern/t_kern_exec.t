#!/bin/sh
# enable_on_exec and events across an exec in nbsim's emulated perf driver
# (tests/kern/kern_exec.c; three images, each a new nbsim).
exec "$NBSIM" --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/kern_exec"
