#!/usr/bin/perl
# Event sets PAPI frees while they run (ctests/running_teardown.c): a
# thread that unregisters without PAPI_stop, or exits without
# unregistering, no longer leaves its registers held in the component's
# per-LP record (under --ht=yes the other logical processor's sets could
# not be placed, even after PAPI_shutdown and PAPI_library_init) nor its
# PMI acquired.  Under --ht=yes on the sim backend (the model and the
# cheap clock), and on the perf backend (no HT there: the freed running
# set is stopped through it; its handler's instructions counted).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run_variants('running_teardown', 120, [sim => ['--ht=yes']],
	[sim => ['--ht=yes', '--nbsim-clock=fast']], [perf => ['--nbsim-warn-unmodelled=no'], ['handler-counted']]);
