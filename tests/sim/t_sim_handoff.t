#!/usr/bin/perl
# The lockstep's hand-off on one host CPU (sim/tool/nb_lshand.c,
# docs/threads.md "Lockstep"): at a turn the next thread is allowed the
# waker's host CPU alone, so two threads under --ht=yes take their turns
# on one CPU.  What must not follow from it: a process the program starts
# at such a time inheriting that one CPU.  sim/tests/guest/t_handoff.c
# forks while its two threads take turns and prints the forked child's
# and an exec'd grep's host CPUs (/proc/self/status Cpus_allowed_list,
# the host kernel's line): both are the CPUs nbsim itself was started
# on, unpinned and under taskset.  And a threaded program's fork under
# --ht=yes finishes: the child has one thread, the lockstep's other
# threads are not waited for there (it hung before).
use strict;
use warnings;
use Test::More;

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set');
my $tb = $ENV{NBSIM_TESTBIN} or BAIL_OUT('NBSIM_TESTBIN not set');
my $prog = "$tb/t_handoff";
-x $prog or BAIL_OUT("$prog not built");

sub allowed { my ($pre) = @_; my $o = `$pre grep Cpus_allowed_list /proc/self/status`; $o =~ /:\s*(\S+)/ ? $1 : '?' }
my $first = `taskset -pc \$\$ 2>/dev/null` =~ /:\s*(\d+)/ ? $1 : 0;

for my $case (['', 'unpinned'], ["taskset -c $first", "under taskset -c $first"]) {
	my ($pre, $name) = @$case;
	my $want = allowed($pre);
	my $out = `timeout 120 $pre "$nbsim" -q --ht=yes --nbsim-stats=yes -- "$prog" 2>&1`;
	my $rc = $? >> 8;
	is($rc, 0, "$name: the threaded program's fork and exec under --ht=yes finish (status $rc)");
	my ($hand, $pins) = $out =~ /==\d+== nbsim: lockstep: (\d+) hand-offs, (\d+) of them moved/;
	ok(defined $hand && $hand > 50 && $pins >= 1,
	   "$name: the threads took turns on one CPU (" . ($hand // '?') . ' hand-offs, '
	   . ($pins // '?') . ' pins)');
	my ($fork) = $out =~ /^fork Cpus_allowed_list:\s*(\S+)/m;
	my ($exec) = $out =~ /^Cpus_allowed_list:\s*(\S+)/m;
	is($fork // '?', $want, "$name: the forked child may run on nbsim's host CPUs ($want)");
	is($exec // '?', $want, "$name: the exec'd grep may run on them too");
}
diag("one host CPU: the pins cannot narrow anything here, the checks pass vacuously")
	if allowed('') !~ /[-,]/;
done_testing();
