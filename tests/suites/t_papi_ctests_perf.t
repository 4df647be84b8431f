#!/usr/bin/perl
# PAPI 7.0.0's own ctests, unchanged, on the perf backend under nbsim
# (P4NETBURST_BACKEND=perf: the native backend against nbsim's emulated
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
# CPU seconds of nbsim): the 45 ctests that pass on this backend in under
# 20 s each (80 s together) and 10 that failed in under 5 s each (12 s),
# most of them for PAPI_FP_INS, which the perf backend no longer offers
# (they pass now, or skip: TODO with their reasons in
# papi_tests_todo.txt).  Skipped by make
# check (long, below): overflow3_pthreads (passes, 32 s),
# kufrin (passes, 43 s; it aborted in sw_multiplex.c's MPX_start before
# the component refused at PAPI_add_event what the kernel cannot place),
# the five that check interrupt rates per wall-clock second
# (child_overflow, exec_overflow, fork_overflow, system_child_overflow,
# system_overflow: they pass alone, but
# fork_overflow failed 1 of 2 runs at a load of 8; t_papi_ctests.t runs
# them on sim), and the long ones of
# t_papi_ctests.t; p4_lst_ins and the other TODOs of every backend run
# here as TODOs.  The attach ctests (attach2, attach3, attach_validate,
# multiattach, multiattach2, zero_attach: 1-5 s of CPU each, 2026-11-29;
# their children count only while attached) pass: nbsim emulates their
# PTRACE_TRACEME across valgrind's execs (nb_kern_ptrace.c), and the
# backend keeps each event set's descriptors (multiattach runs two
# attached sets in one thread).

PapiSuite::run(suite => 'ctests', dir => "$ENV{NB_PAPI_SRC}/ctests",
	todo => "$FindBin::Bin/papi_tests_todo.txt", backend => 'perf',
	long => {
		%PapiSuite::NATIVE_LONG,
		'overflow3_pthreads' => '32 s of CPU on perf',
		'kufrin' => '43 s of CPU on perf',
		# (2026-12-02, over 10 s of CPU on perf; the backend's paths
		# run in cheaper tests: overflow_single_event and
		# overflow_twoevents, profile and sprofile, zero_pthreads and
		# krentel_pthreads)
		'overflow_force_software' => '14 s of CPU on perf (PAPI\'s own timer-driven overflow); make check runs it on sim and msr',
		'byte_profile' => '11 s of CPU on perf; make check runs it on sim and msr',
		'pthread_hl' => '11 s of CPU on perf; make check runs it on sim',
	},
	jobs => $ENV{NB_JOBS} || 2, limit => 300);
