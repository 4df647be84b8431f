#!/usr/bin/perl
# PAPI 7.0.0's own Fortran tests, unchanged, on the msr backend under nbsim
# (P4NETBURST_BACKEND=msr; sim/README.md "Emulated kernel").  A subset
# (t_papi_ftests.t runs all of them on the sim backend).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use PapiSuite;

PapiSuite::run(suite => 'ftests', dir => "$ENV{NB_PAPI_SRC}/ftests",
	todo => "$FindBin::Bin/papi_tests_todo.txt", backend => 'msr',
	only => [qw(zero first second tenth case1 accum fmultiplex1 johnmay2)],
	jobs => $ENV{NB_JOBS} || 2, limit => 300);
