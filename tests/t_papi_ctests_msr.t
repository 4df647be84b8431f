#!/usr/bin/perl
# PAPI 7.0.0's own ctests, unchanged, on the msr backend under nbsim
# (P4NETBURST_BACKEND=msr: the native backend against nbsim's emulated
# kernel, sim/README.md "Emulated kernel").  A representative subset
# (counting, reset, multiplexing, the overflow family, profiling, threads,
# fork, attach), not the whole directory: t_papi_ctests.t runs all of them
# on the sim backend, and the whole suite on three backends would add tens
# of minutes on 2 cores.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use PapiSuite;

PapiSuite::run(suite => 'ctests', dir => "$ENV{NB_PAPI_SRC}/ctests",
	todo => "$FindBin::Bin/papi_tests_todo.txt", backend => 'msr',
	only => [qw(zero first second low-level reset zero_named tenth case1 derived
		    overflow overflow2 overflow_single_event overflow_twoevents overflow_index
		    overflow_force_software overflow_one_and_read profile sprofile
		    zero_pthreads multiplex1 inherit zero_fork attach2)],
	jobs => $ENV{NB_JOBS} || 2, limit => 300);
