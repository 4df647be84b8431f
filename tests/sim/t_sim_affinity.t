#!/usr/bin/perl
# The CPUs a program may run on, on the simulated machine
# (sim/kernel/nb_sysinfo.c): sched_getaffinity(2) gives the modelled
# part's logical processors, one, or two with --ht=yes, whatever the
# host has or the process was pinned to (coreutils' nproc and Python's
# os.sched_getaffinity ask it; libgomp sizes its team and its spinning
# by it, GNU sort its threads); and so a program's counts do not move
# with the host's CPUs: nproc's instructions under --ht=yes the same
# pinned to one host CPU (taskset) as not.
use strict;
use warnings;
use Test::More;

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set');
my $bin = $ENV{NB_UTILS_BIN} or BAIL_OUT('NB_UTILS_BIN not set');
my $nb_stat = "$bin/nb_stat";
my $nproc = '/usr/bin/nproc';
-x $nproc or BAIL_OUT("$nproc missing (coreutils)");
my $host = `$nproc`;
chomp $host;
my $first = `taskset -pc \$\$ 2>/dev/null` =~ /:\s*(\d+)/ ? $1 : 0;

sub out { my $o = `@_ 2>/dev/null`; chomp $o; return $o }

is(out("\"$nbsim\" -q -- $nproc"), '1', "nproc under nbsim: 1 (the host has $host)");
is(out("\"$nbsim\" -q --ht=yes -- $nproc"), '2', 'nproc under nbsim --ht=yes: 2');
is(out("taskset -c $first \"$nbsim\" -q --ht=yes -- $nproc"), '2',
   "pinned to host CPU $first: still 2 with --ht=yes");
is(out("\"$nbsim\" -q --ht=yes -- /usr/bin/python3 -c 'import os; print(sorted(os.sched_getaffinity(0)))'"),
   '[0, 1]', "Python's os.sched_getaffinity under --ht=yes: CPUs 0 and 1");
is(out("\"$nbsim\" -q -- /usr/bin/python3 -c 'import os; print(sorted(os.sched_getaffinity(0)))'"),
   '[0]', "... without: CPU 0");
my $dir = $ENV{TMPDIR} || '/tmp';
my @ins;
for my $pin ('', "taskset -c $first") {
	my $f = "$dir/t_sim_affinity.$$";
	system("$pin env NBSIM=\"$nbsim\" \"$nb_stat\" --ht=yes -x, -o $f -e PAPI_TOT_INS -- $nproc >/dev/null 2>&1");
	my $c = -r $f ? `cat $f` : '';
	unlink $f;
	push @ins, $c =~ /^(\d+),PAPI_TOT_INS/m ? $1 : 'none';
}
like($ins[0], qr/^\d+$/, "nb_stat --ht=yes counts nproc's instructions ($ins[0])");
is($ins[1], $ins[0], 'the same instructions pinned to one host CPU');
done_testing();
