#!/usr/bin/perl
# PAPI 7.0.0's own Fortran tests, unchanged, on the msr backend under nbsim
# (P4NETBURST_BACKEND=msr; sim/README.md "Emulated kernel").  Every test
# of the directory, as t_papi_ftests.t on the sim backend; TODOs with their
# reasons in papi_tests_todo.txt.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run(suite => 'ftests', dir => "$ENV{NB_PAPI_SRC}/ftests",
	todo => "$FindBin::Bin/papi_tests_todo.txt", backend => 'msr',
	jobs => $ENV{NB_JOBS} || 2, limit => 300);
