#!/usr/bin/perl
# PAPI 7.0.0's own ctests, unchanged, under nbsim (see lib/PapiSuite.pm).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run(suite => 'ctests', dir => "$ENV{NB_PAPI_SRC}/ctests",
	todo => "$FindBin::Bin/papi_tests_todo.txt",
	jobs => $ENV{NB_JOBS} || 2, limit => 600,
	# wall seconds in this suite (2 jobs, cheap clock, idle 2-core host,
	# 2026-11-25); together a third of the suite's time
	long => {
		'multiplex3_pthreads' => '237 s under nbsim',
		'overflow_allcounters' => '186 s under nbsim: every counter counting, the store buffer model on each load',
		'sdsc4-mpx' => '159 s under nbsim',
		'multiplex1_pthreads' => '135 s under nbsim',
		'profile_pthreads' => '102 s under nbsim',
		'clockres_pthreads' => '73 s under nbsim',
		# (2026-12-02, CPU seconds on a 2-core EPYC at 2.1 GHz; its
		# threads' overflows are overflow_pthreads', which runs here)
		'overflow3_pthreads' => '78 s of CPU under nbsim',
	});
