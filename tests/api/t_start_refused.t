#!/usr/bin/perl
# A PAPI_start that fails harms no other thread's counting
# (ctests/start_refused.c).  PAPI calls the component's stop after a
# failed start; on the msr backend, which refuses a second counting
# thread on a CPU, that stop disabled the counters of the thread that
# held the CPU, whose set then counted almost nothing.  On msr (refused),
# and on sim and perf, where every thread has its counters (accepted).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run_variants('start_refused', 120, [msr => ['--nbsim-clock=fast'], ['refused']],
	[sim => ['--nbsim-clock=fast'], ['ok']], [perf => ['--nbsim-clock=fast', '--nbsim-warn-unmodelled=no'], ['ok']]);
