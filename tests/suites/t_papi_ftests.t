#!/usr/bin/perl
# PAPI 7.0.0's own Fortran ftests, unchanged, under nbsim (see lib/PapiSuite.pm).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run(suite => 'ftests', dir => "$ENV{NB_PAPI_SRC}/ftests",
	todo => "$FindBin::Bin/papi_tests_todo.txt",
	jobs => $ENV{NB_JOBS} || 2, limit => 600);
