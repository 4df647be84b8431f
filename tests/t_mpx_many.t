#!/usr/bin/perl
# Software multiplexing of more events than the 18 counters
# (ctests/mpx_many.c): 26 events in one multiplexed set.  Before, the 19th
# PAPI_add_event returned PAPI_ECNFLCT (the component's num_mpx_cntrs was
# its counter count).  On the three backends.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use PapiSuite;

PapiSuite::run_variants('mpx_many', 240, [sim => ['--nbsim-clock=fast']],
	[msr => ['--nbsim-clock=fast']], [perf => ['--nbsim-clock=fast', '--nbsim-warn-unmodelled=no']]);
