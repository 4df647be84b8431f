#!/usr/bin/perl
# A set the kernel's P4 perf driver cannot place: PAPI_add_event returns
# PAPI_ECNFLCT with the reason on stderr, also without PAPI_VERBOSE, and
# the set counts the events it had (ctests/perf_refused.c; first PAPI_ESYS
# at PAPI_start and silence, then PAPI_ECNFLCT at PAPI_start, which PAPI's
# software multiplexing does not expect: t_mpx_cost_perf.t).  The sim and
# msr backends place and count the same set.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

delete $ENV{PAPI_VERBOSE};
PapiSuite::run_variants('perf_refused', 120,
	[perf => ['--nbsim-clock=fast', '--nbsim-warn-unmodelled=no'], ['refused']],
	[sim => ['--nbsim-clock=fast'], ['ok']], [msr => ['--nbsim-clock=fast'], ['ok']]);
