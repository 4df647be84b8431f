#!/usr/bin/perl
# PAPI 7.0.0's own ctests, unchanged, under nbsim (see lib/PapiSuite.pm).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use PapiSuite;

PapiSuite::run(suite => 'ctests', dir => "$ENV{NB_PAPI_SRC}/ctests",
	todo => "$FindBin::Bin/papi_tests_todo.txt",
	jobs => $ENV{NB_JOBS} || 2, limit => 600);
