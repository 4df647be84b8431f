#!/bin/sh
# attr.inherit in nbsim's emulated perf driver (tests/kern/kern_inherit.c):
# threads' and forked processes' copies, their counts in the original's
# read, RESET, inherit_thread; exact by the difference method.
exec "$NBSIM" --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/kern_inherit"
