#!/usr/bin/perl
# PAPI's software overflow without PAPI_OVERFLOW_FORCE_SW
# (ctests/overflow_soft.c): on the msr backend, which has no overflow
# interrupt (cmp_info.hardware_intr 0), PAPI_overflow's handler is called
# and PAPI_profil's buffer fills.  The component's dispatch_timer dropped
# every timer tick of a set whose overflow.flags was 0, which plain
# software overflow's are: no overflow, no sample, PAPI_OK everywhere.
# With the model clock and the cheap one (the timer ticks on CPU time).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

# Host time (the default) and simulated time, where the timer ticks every
# 0.5 simulated ms (ctests/overflow_soft.c).
PapiSuite::run_variants('overflow_soft', 120, [msr => ['--nbsim-warn-unmodelled=no']],
	[msr => ['--nbsim-warn-unmodelled=no', '--nbsim-clock=fast']],
	[msr => ['--nbsim-warn-unmodelled=no', '--nbsim-time=simulated']]);
