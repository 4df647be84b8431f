#!/usr/bin/perl
# PAPI 7.0.0's own ctests, unchanged, on nbsim's default clock (the timing
# model, --nbsim-clock=model).  The whole-directory suites run on the cheap
# clock (lib/PapiSuite.pm says why: the model costs about 50 host cycles
# per uop, and some ctests run 2 billion instructions); this is the set that
# shows the same tests hold on the clock a user gets by default: counting
# with cycles, overflow and profiling on cycles, multiplexing, the
# high-level API, threads.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run(suite => 'ctests', dir => "$ENV{NB_PAPI_SRC}/ctests",
	todo => "$FindBin::Bin/papi_tests_todo.txt", clock => 'model',
	only => [qw(zero branches case1 case2 calibrate overflow overflow_single_event
		    profile multiplex2 serial_hl zero_pthreads)],
	jobs => $ENV{NB_JOBS} || 2, limit => 600);
