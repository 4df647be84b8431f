#!/usr/bin/perl
# PAPI 7.0.0's own ctests, unchanged, on nbsim's default clock (the sampled
# clock: the timing model's costs learned per superblock and walked where
# they change; sim/README.md "The sampled clock").  The whole-directory
# suites run on the cheap clock (lib/PapiSuite.pm says why); this is the
# set that shows the same tests hold on the clock a user gets by default:
# counting with cycles, overflow and profiling on cycles, multiplexing, the
# high-level API, threads.  (Until 2026-12-02 it ran the full model,
# --nbsim-clock=model, the default before the sampled clock: 188 s of CPU
# against 46 s for the same tests on the sampled clock, profile 56 s and
# serial_hl 41 s of it; the model clock's own tests are sim/tests/guest's
# t_timing and t_sampled and tests/sim's.)
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run(suite => 'ctests', dir => "$ENV{NB_PAPI_SRC}/ctests",
	todo => "$FindBin::Bin/papi_tests_todo.txt", clock => 'sampled',
	only => [qw(zero branches case1 case2 calibrate overflow overflow_single_event
		    profile multiplex2 serial_hl zero_pthreads)],
	jobs => $ENV{NB_JOBS} || 2, limit => 600);
