#!/usr/bin/perl
# PAPI's software multiplexing keeps the cycles before an event's first
# slice when that slice is too short to measure a rate
# (ctests/mpx_estimate.c, patches/papi-7.0.0-mpx-short-slice.patch):
# global_power_events:RUNNING's estimate equals PAPI_TOT_CYC's exactly, and
# both are within 1% of the loop's unmultiplexed cycles.  Before, RUNNING
# lost the first slice's cycles (24.5 M beside 26.7 M).  On the three
# backends.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

# Under simulated time (docs/simulated-time.md): the multiplexing timer
# ticks every 0.5 simulated ms (ctests/nbmpx.h), the same slices every run.
PapiSuite::run_variants('mpx_estimate', 120, [sim => ['--nbsim-clock=fast', '--nbsim-time=simulated']],
	[msr => ['--nbsim-clock=fast', '--nbsim-time=simulated']],
	[perf => ['--nbsim-clock=fast', '--nbsim-time=simulated', '--nbsim-warn-unmodelled=no']]);
