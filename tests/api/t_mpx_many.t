#!/usr/bin/perl
# Software multiplexing of more events than the 18 counters
# (ctests/mpx_many.c): 26 events in one multiplexed set.  Before, the 19th
# PAPI_add_event returned PAPI_ECNFLCT (the component's num_mpx_cntrs was
# its counter count).  On the three backends; on perf the 4 events the
# kernel cannot count beside PAPI_TOT_CYC are refused.  Also
# global_power_events:RUNNING's estimate equals PAPI_TOT_CYC's, exactly
# (patches/papi-7.0.0-mpx-short-slice.patch: it was 5.7 M to 8.6 M beside
# 26.7 M).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

# Under simulated time (docs/simulated-time.md): the multiplexing timer
# ticks every 0.5 simulated ms (ctests/nbmpx.h), the same slices every run.
PapiSuite::run_variants('mpx_many', 240, [sim => ['--nbsim-clock=fast', '--nbsim-time=simulated']],
	[msr => ['--nbsim-clock=fast', '--nbsim-time=simulated']],
	[perf => ['--nbsim-clock=fast', '--nbsim-time=simulated', '--nbsim-warn-unmodelled=no'], ['perf']]);
