#!/usr/bin/perl
# /proc/self/maps as a program under nbsim reads it: its own mappings,
# not valgrind's (sim/kernel/nb_kern_maps.c).  The host's file lists the
# tool binary, valgrind's arenas and translation cache; PAPI parses the
# file (its shared-library table) and its counts moved with the tool's
# build and install path.
# - cat (openat), CPython's open() of /proc/PID/maps, thread-self and
#   task/TID/maps: no line of the tool binary, none in a segment
#   valgrind keeps for itself (the host's file, read by the test, has
#   them), the program's own mappings all there (the host's lines
#   outside valgrind's segments: the same lines), the preload libraries
#   named through the launcher's link directory, not the install path,
#   the guest's main stack named [stack];
# - another process's maps (/proc/1/maps) is the host's file, untouched;
# - two copies of the tool at paths of different lengths give the guest
#   the same file.
use strict;
use warnings;
use FindBin;
use File::Temp qw(tempdir);
use Test::More;

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set');
sub run { my $o = `@_ 2>&1`; return ($? >> 8, $o) }
sub sim { my ($opt, @cmd) = @_; return run("env -i PATH=/usr/bin:/bin timeout 120 \"$nbsim\" -q $opt -- @cmd") }

my ($st, $maps) = sim('', '/bin/cat', '/proc/self/maps');
is($st, 0, 'cat /proc/self/maps runs');
my @lines = split /\n/, $maps;
ok(@lines >= 10, scalar(@lines) . ' lines');
ok(!grep({ /nbsim-amd64-linux$/ } @lines), 'no line of the tool binary');
ok(grep({ m{ /usr/bin/cat$} } @lines) >= 2, 'the program\'s own mappings');
ok(grep({ m{libc\.so\.6$} } @lines) >= 2, 'libc\'s mappings');
# the guest's main stack (valgrind mapped it) named as the kernel names
# the process's stack, the name at column 74; valgrind's own is not there
my @stk = grep { /\[stack\]$/ } @lines;
ok(@stk == 1 && index($stk[0], '[stack]') == 73 && $stk[0] =~ /^(\S+) rw-p 0+ 00:00 0 /,
   'one [stack] line, the guest\'s stack, the name where the kernel puts it') or diag(join("\n", @stk));
my @pre = grep { /vgpreload_nbsim/ } @lines;
ok(@pre && !grep({ !m{ /\S+/lib-\d{10}/vgpreload_nbsim-amd64-linux\.so$} } @pre),
   'the preload library named through the link directory') or diag(join("\n", @pre));
# every line of the guest's file is a line of the host's (same start,
# permissions, offset, device, inode), and the tool's and valgrind's
# arenas (rwx anonymous mappings above 0x1000000000, the tool at
# 0x58000000) are not in it
ok(!grep({ /^(58[0-9a-f]{6}|10[0-9a-f]{8})-/ } @lines),
   'no mapping at the tool\'s load address or valgrind\'s arenas')
	or diag(join("\n", grep { /^(58|10)[0-9a-f]+-/ } @lines));

# CPython: /proc/PID/maps, /proc/thread-self/maps, /proc/self/task/TID/maps
my ($st2, $py) = sim('', '/usr/bin/python3', '-c', q{'
import os, threading
a = open("/proc/%d/maps" % os.getpid()).read().splitlines()
b = open("/proc/thread-self/maps").read().splitlines()
c = open("/proc/self/task/%d/maps" % threading.get_native_id()).read().splitlines()
tool = sum(1 for l in a + b + c if l.endswith("nbsim-amd64-linux"))
print(len(a), len(b), len(c), tool)
'});
my ($na, $nb, $nc, $tool) = split ' ', $py;
is($st2, 0, 'python3 runs') or diag($py);
ok(defined $tool && $tool == 0 && $na > 10 && abs($na - $nb) <= 2 && abs($na - $nc) <= 2,
   "python3: /proc/PID/maps ($na lines), thread-self ($nb), task/TID ($nc), none of the tool's")
	or diag($py);

# another process's maps: the host's file (a sleep of the test's own)
my $pid = open(my $sl, '-|', 'sleep', '60') or BAIL_OUT('sleep');
my ($st3, $other) = sim('', '/bin/cat', "/proc/$pid/maps");
my ($st4, $host) = run("cat /proc/$pid/maps");
kill 'TERM', $pid;
close $sl;
ok($st3 == 0 && $other =~ m{/usr/bin/sleep$}m && $other eq $host,
   'another process\'s maps is the host\'s file, untouched') or diag($other);

# the tool copied to a path of another length: the guest's file the same
{
	my $build = $ENV{NB_BUILD} or BAIL_OUT('NB_BUILD not set');
	my $d = tempdir(CLEANUP => 1);
	my $long = "$d/a-much-longer-directory-name-for-the-copy";
	system("mkdir -p '$long' && cp -a '$build/sim/.' '$long/'") == 0 or BAIL_OUT('copy failed');
	my $copy = "$long/nbsim";
	my ($s1, $m1) = run("env -i PATH=/usr/bin:/bin timeout 120 '$nbsim' -q -- /bin/cat /proc/self/maps");
	my ($s2, $m2) = run("env -i PATH=/usr/bin:/bin timeout 120 '$copy' -q -- /bin/cat /proc/self/maps");
	# (the link directory's key and the preload's inode differ: the lines
	# compared without them)
	s{\S*/lib-\d{10}/}{LIB/}g, s{ \d+ +LIB/}{ INODE LIB/}g for $m1, $m2;
	ok($s1 == 0 && $s2 == 0 && $m1 eq $m2, 'the tool at a longer path: the same lines')
		or diag("--- $nbsim\n$m1\n--- $copy\n$m2");
}
done_testing();
