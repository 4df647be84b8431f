#!/bin/sh
# nbsim's emulated Linux P4 perf driver and msr device against the facts
# (tests/kern/kern_perf.c): validation, placement = the shared model of
# p4.c on random groups, counting, group reads, ioctls, sampling.
exec "$NBSIM" --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/kern_perf"
