#!/usr/bin/perl
# PAPI_stop, PAPI_read and PAPI_reset of a set another thread started
# (ctests/foreign_stop.c): refused, and neither thread's counting harmed.
# Before, the component acted on the calling thread's counters: PAPI_OK
# with the caller's counts, the caller's own set stopped, the owner's
# counts lost.  On the sim backend (the model, the cheap clock, --ht=yes)
# and the perf backend.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run_variants('foreign_stop', 120, [sim => []], [sim => ['--nbsim-clock=fast']],
	[sim => ['--ht=yes']], [perf => ['--nbsim-warn-unmodelled=no']]);
