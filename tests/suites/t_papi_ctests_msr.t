#!/usr/bin/perl
# PAPI 7.0.0's own ctests, unchanged, on the msr backend under nbsim
# (P4NETBURST_BACKEND=msr: the native backend against nbsim's emulated
# kernel, sim/README.md "Emulated kernel").  Every test of the directory
# has its TAP line: a pass, a TODO with its reason (papi_tests_todo.txt),
# or a skip naming why make check does not run it here (its CPU cost, or
# its wall-clock rate check) that make check-long runs.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

# Added 2026-11-26 (issue 14), measured one at a time (nice, cheap clock,
# CPU seconds of nbsim): the 48 ctests that pass on this backend in under
# 20 s each (98 s together) and 9 that fail in under 5 s each (12 s:
# TODO with their reasons in papi_tests_todo.txt).  Skipped by make
# check (long, below):
# overflow3_pthreads (passes, 30 s), the five that check interrupt rates
# per wall-clock second (child_overflow, exec_overflow, fork_overflow,
# system_child_overflow, system_overflow: they pass alone, but fork_overflow
# failed 1 of 2 runs at a load of 8; t_papi_ctests.t runs them on sim),
# and the long ones of t_papi_ctests.t; attach, p4_lst_ins and the other
# TODOs of every backend run here as TODOs.

PapiSuite::run(suite => 'ctests', dir => "$ENV{NB_PAPI_SRC}/ctests",
	todo => "$FindBin::Bin/papi_tests_todo.txt", backend => 'msr',
	long => {
		%PapiSuite::NATIVE_LONG,
		'overflow3_pthreads' => '30 s of CPU on msr',
		# (2026-12-02: 16,384 rounds of create, add, start, stop,
		# remove and destroy, each start and stop through the msr
		# device; it checks for leaked file descriptors, which the
		# perf backend has and which make check runs it on)
		'destroy' => '14 s of CPU on msr; make check runs it on sim and perf',
	},
	jobs => $ENV{NB_JOBS} || 2, limit => 300);
