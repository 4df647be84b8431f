#!/usr/bin/perl
# The kernel's P4 placement policy, one shared model (nb_linux_sched.c):
# nb_schedule --policy=linux prints it; the perf backend meets it in nbsim's
# emulated driver and names what the kernel refused; the msr backend and
# our scheduler place what Linux refuses.  (t_kern_perf.t checks the
# emulated driver against the model on random groups.)
use strict;
use warnings;
use Test::More;

my $s = "$ENV{NB_UTILS_BIN}/nb_schedule";
my $u = "$ENV{NB_PAPI_SRC}/utils";
my $nbsim = $ENV{NBSIM};
sub run { my $out = `@_ 2>&1`; return ($? >> 8, $out); }

my ($st, $out) = run("$s --policy=linux instr_retired:NBOGUSNTAG global_power_events:RUNNING branch_retired:MMNP");
is($st, 0, '--policy=linux: a set the kernel places');
is($out, "instr_retired:NBOGUSNTAG                 CRU_ESCR0  IQ_COUNTER0\n"
	. "global_power_events:RUNNING              FSB_ESCR0  BPU_COUNTER0\n"
	. "branch_retired:MMNP                      CRU_ESCR2  IQ_COUNTER1\n",
   '--policy=linux: first fit on the thread-0 ESCRs and counters [kernel_p4.txt]');
($st, $out) = run("$s --policy=linux instr_retired:NBOGUSNTAG uops_retired:NBOGUS");
is($st, 1, '--policy=linux: instr_retired + uops_retired refused (exit 1)');
like($out, qr/^instr_retired:NBOGUSNTAG\s+CRU_ESCR0\s+IQ_COUNTER0\nlinux: refuses uops_retired:NBOGUS: its thread-0 ESCR or counters are taken/,
     '--policy=linux: names the refused event after the placed one');
($st, $out) = run("$s instr_retired:NBOGUSNTAG uops_retired:NBOGUS");
like($out, qr/uops_retired:NBOGUS\s+CRU_ESCR1/, 'our scheduler places the set (CRU_ESCR1 for uops_retired)');
($st, $out) = run("$s --policy=linux x87_SIMD_moves_uop:ALLP0");
like($out, qr/linux: refuses x87_SIMD_moves_uop:ALLP0: no raw config/, '--policy=linux: an event the kernel does not know');

my $ev = 'p4netburst:::instr_retired:NBOGUSNTAG p4netburst:::uops_retired:NBOGUS';
($st, $out) = run("P4NETBURST_BACKEND=perf PAPI_VERBOSE=1 $nbsim -- $u/papi_command_line $ev");
like($out, qr/the kernel's P4 perf driver refused uops_retired \(event 2 of 2, raw 0x[0-9a-f]+\) beside instr_retired: .*P4NETBURST_BACKEND=msr/,
     'perf backend under the emulated driver: the refused event named, the msr backend suggested');
($st, $out) = run("P4NETBURST_BACKEND=msr $nbsim -- $u/papi_command_line $ev");
like($out, qr/instr_retired:NBOGUSNTAG : \s*\d+\s*\n.*uops_retired:NBOGUS : \s*\d+/s, 'the msr backend counts the set');
done_testing();
