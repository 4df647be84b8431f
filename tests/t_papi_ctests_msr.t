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

# Added 2026-11-26 (issue 14), measured one at a time (nice, cheap clock,
# CPU seconds of nbsim): the 48 ctests that pass on this backend in under
# 20 s each (98 s together) and 9 that fail in under 5 s each (12 s:
# TODO with their reasons in papi_tests_todo.txt).  Left out:
# overflow3_pthreads (passes, 30 s), the five that check interrupt rates
# per wall-clock second (child_overflow, exec_overflow, fork_overflow,
# system_child_overflow, system_overflow: they pass alone, but fork_overflow
# failed 1 of 2 runs at a load of 8; t_papi_ctests.t runs them on sim),
# p4_lst_ins (a TODO everywhere), the long ones of t_papi_ctests.t, attach
# and the other environment TODOs.

PapiSuite::run(suite => 'ctests', dir => "$ENV{NB_PAPI_SRC}/ctests",
	todo => "$FindBin::Bin/papi_tests_todo.txt", backend => 'msr',
	only => [qw(zero first second low-level reset zero_named tenth case1 derived
		 overflow overflow2 overflow_single_event overflow_twoevents overflow_index
		 overflow_force_software overflow_one_and_read profile sprofile
		 zero_pthreads multiplex1 inherit zero_fork attach2
		 all_events all_native_events branches calibrate case2 cmpinfo
		 code2name describe destroy disable_component dmem_info eventname exec exec2
		 exeinfo failed_events fork fork2 forkexec forkexec2
		 forkexec3 forkexec4 get_event_component hwinfo johnmay2 locks_pthreads max_multiplex
		 memory mendes-alt mpi_hl mpifirst multiplex2 omptough profile_force_software
		 pthrtough pthrtough2 realtime remove_events reset_multiplex sdsc-mpx sdsc2-mpx
		 sdsc2-mpx-noreset serial_hl thrspecific
		 version virttime
		 byte_profile profile_twoevents krentel_pthreads kufrin mpi_omp_hl omp_hl pthread_hl overflow_pthreads
		 zero_flip zero_smp zero_omp)],
	jobs => $ENV{NB_JOBS} || 2, limit => 300);
