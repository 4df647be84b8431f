#!/usr/bin/perl
# The CPUs a program may run on, on the simulated machine
# (sim/kernel/nb_sysinfo.c): sched_getaffinity(2) gives the modelled
# part's logical processors, one, or two with --ht=yes, whatever the
# host has or the process was pinned to (coreutils' nproc and Python's
# os.sched_getaffinity ask it; libgomp sizes its team and its spinning
# by it, GNU sort its threads); and so a program's counts do not move
# with the host's CPUs: nproc's instructions under --ht=yes the same
# pinned to one host CPU (taskset) as not.
# sched_setaffinity(2) binds a guest thread to the simulated CPUs
# (sim/kernel/nb_affinity.c, docs/threads.md "Placement"), never the
# host's: sim/tests/guest/t_affinity.c binds itself, its threads and a
# thread attribute, and reads back the mask and the LP it runs on
# (NBSIM_REQ_INFO running_lp, CPUID's initial APIC ID); the same
# program's counts pinned to host CPU 0, 1 and unpinned.
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
# glibc's sysconf reads the kernel's CPU lists (nb_cpulist.c), not the
# affinity: PAPI's sysdetect binds itself to each online CPU in turn
is(out("\"$nbsim\" -q -- /usr/bin/getconf _NPROCESSORS_ONLN"), '1',
   "getconf _NPROCESSORS_ONLN under nbsim: 1 (the host has $host)");
is(out("\"$nbsim\" -q --ht=yes -- /usr/bin/getconf _NPROCESSORS_CONF"), '2',
   'getconf _NPROCESSORS_CONF under nbsim --ht=yes: 2');
is(out("\"$nbsim\" -q -- /bin/cat /sys/devices/system/cpu/online /sys/devices/system/cpu/possible /sys/devices/system/cpu/present"),
   "0\n0\n0", 'the online, possible and present lists: CPU 0');
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

# --- the binding (sched_setaffinity) ---
my $tb = $ENV{NBSIM_TESTBIN} or BAIL_OUT('NBSIM_TESTBIN not set');
my $aff = "$tb/t_affinity";
-x $aff or BAIL_OUT("$aff missing (make -C sim tests)");
my $hostcpus = `cat /proc/self/status` =~ /^Cpus_allowed_list:\s*(\S+)/m ? $1 : 'unknown';
sub aff { my ($opt, @a) = @_; return out("\"$nbsim\" -q $opt -- $aff @a") }
my $yes = '--ht=yes';

is(aff($yes, 'bind', 1), "main rc=0 errno=0 mask=0x2 lp=1 apic=1\nhost=$hostcpus",
   "--ht=yes: bound to CPU 1, it reads back {1} and runs on LP1 (INFO and CPUID agree); " .
   "its host thread is not pinned (host CPUs $hostcpus)");
is(out("taskset -c $first \"$nbsim\" -q $yes -- $aff bind 1"), "main rc=0 errno=0 mask=0x2 lp=1 apic=1\nhost=$first",
   "... the same with nbsim pinned to host CPU $first: it stays there (the host never sees the mask)");
is(aff('', 'bind', 1), "main rc=-1 errno=EINVAL mask=0x1 lp=0 apic=0\nhost=$hostcpus",
   'without HT: CPU 1 is no CPU of the machine: EINVAL, still on {0}');
is(aff($yes, 'bind', 2), "main rc=-1 errno=EINVAL mask=0x3 lp=0 apic=0\nhost=$hostcpus",
   '--ht=yes: CPU 2 alone: EINVAL, the mask unchanged');
SKIP: {
	skip("the host has no CPU 1 to pin nbsim to ($hostcpus)", 1)
		unless system('taskset -c 1 true >/dev/null 2>&1') == 0;
	is(out("taskset -c 1 \"$nbsim\" -q -- $aff bind 0"), "main rc=0 errno=0 mask=0x1 lp=0 apic=0\nhost=1",
	   'without HT, nbsim pinned to host CPU 1: binding to CPU 0 succeeds, nbsim stays on host CPU 1');
}
is(aff($yes, 'child', 0), "main rc=0 errno=0 mask=0x1 lp=0 apic=0\nchild rc=0 errno=0 mask=0x1 lp=0 apic=0",
   'a thread created after binding to CPU 0 inherits {0} and runs on LP0 (fixed placement: LP1)');
is(aff($yes, 'child', 1), "main rc=0 errno=0 mask=0x2 lp=1 apic=1\nchild rc=0 errno=0 mask=0x2 lp=1 apic=1",
   '... bound to CPU 1: the main thread moves to LP1, its thread is placed there');
is(aff("$yes --nbsim-ht-place=migrate", 'child', 0),
   "main rc=0 errno=0 mask=0x1 lp=0 apic=0\nchild rc=0 errno=0 mask=0x1 lp=0 apic=0",
   '--nbsim-ht-place=migrate: the inherited {0} overrides fork placement (LP1, the idler)');
is(aff($yes, 'attr', 0), "child rc=0 errno=0 mask=0x1 lp=0 apic=0\nmain rc=0 errno=0 mask=0x3 lp=0 apic=0",
   "pthread_attr_setaffinity_np {0}: the thread runs on LP0 (glibc binds it by its id before it runs)");
is(aff($yes, 'other', 0), "setaffinity(other) rc=0\nother rc=0 errno=0 mask=0x1 lp=0 apic=0\n" .
   "main rc=0 errno=0 mask=0x3 lp=0 apic=0", 'pthread_setaffinity_np on another, waiting, thread: it moves to LP0');
is(aff("$yes --nbsim-lockstep=no", 'race', 1), 'race bad=0',
   '4 threads binding themselves at once through one shared mask (no lockstep): every call succeeds, ' .
   'the mask reads back intact, no host thread pinned');
is(out("\"$nbsim\" -q $yes -- /usr/bin/taskset -c 1 $aff show -"), 'main rc=0 errno=0 mask=0x2 lp=1 apic=1',
   'taskset -c 1 under nbsim: the image it execs starts bound to CPU 1, on LP1');
is(out("\"$nbsim\" -q $yes -- /usr/bin/taskset -c 1 $nproc"), '1', '... and nproc there says 1');
{
	my $o = `"$nbsim" -q -- /usr/bin/taskset -c 1 $nproc 2>&1`;
	ok($? != 0 && $o =~ /Invalid argument/ && $o !~ /^\d+$/m, 'without HT, taskset -c 1 fails: EINVAL');
}

# the same program's counts, nbsim pinned to host CPU 0, 1, and not
my @runs;
for my $pin ('', 'taskset -c 0', 'taskset -c 1') {
	my $f = "$dir/t_sim_affinity.w.$$";
	system("$pin env NBSIM=\"$nbsim\" \"$nb_stat\" --ht=yes -x, -o $f -e PAPI_TOT_INS,PAPI_TOT_CYC " .
	       "-- $aff work 1 100000 >/dev/null 2>&1");
	my $c = -r $f ? `cat $f` : '';
	unlink $f;
	push @runs, join(' ', $c =~ /^(\d+),PAPI_TOT_(?:INS|CYC)/mg) || 'none';
}
like($runs[0], qr/^\d+ \d+$/, "two threads bound to CPU 1 under nb_stat --ht=yes: instructions, cycles ($runs[0])");
is($runs[1], $runs[0], '... the same under taskset -c 0');
is($runs[2], $runs[0], '... and under taskset -c 1');
done_testing();
