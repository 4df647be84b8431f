#!/usr/bin/perl
# The exec hand-off file of nbsim's emulated perf driver
# (sim/kernel/nb_kern_exec.c): before an execve the events that outlive it
# go to $TMPDIR/nbsim-kern-UID-PID.exec for the new image's nbsim.  An
# exec into a program nbsim does not run leaves that file behind; a later
# process that gets the same pid must not take those events as its own
# (on Linux they went with the old process).  The file names its process
# by the pid and its start time (/proc/PID/stat field 22), which an exec
# keeps and a new process with the same pid does not (the check used to
# be "under a minute old", a guess about the host's speed).
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set');
my $prog = "$ENV{NB_BUILD}/tests/kern_stale";
-x $prog or BAIL_OUT("$prog not built");
my $dir = tempdir(CLEANUP => 1);
local $ENV{TMPDIR} = $dir;

# A: opens an event and execs cp, which nbsim does not run (skipped): the
# file stays
my $out = `"$nbsim" -q --trace-children-skip='*/cp' -- "$prog" leave /bin/cp /dev/null "$dir/cp.done" 2>&1`;
my ($fd) = $out =~ /^fd (\d+)$/m;
ok(defined $fd && -e "$dir/cp.done", 'a process opens an event and execs a program nbsim does not run')
	or diag($out);
my @left = glob("$dir/nbsim-kern-$>-*.exec");
is(scalar @left, 1, 'its hand-off file is left behind') or diag(`ls -la $dir`);
my $bytes = do { local (@ARGV, $/) = $left[0]; <> } // '';
unlink @left;
my $start_a = length($bytes) >= 48 ? unpack('Q<', substr($bytes, 40, 8)) : 0;
ok($start_a > 0, "the file names its process's start time ($start_a)");

# the start time of process PID in clock ticks since boot (proc(5))
sub start_of {
	my ($pid) = @_;
	open(my $f, '<', "/proc/$pid/stat") or return 0;
	my $s = <$f>;
	$s =~ s/^.*\)\s+//s;
	return (split ' ', $s)[19];
}

# B: a new process; the file planted under its pid, with A's start time or
# with its own; it then execs nbsim, which keeps its pid and start time
sub probe {
	my ($own_start) = @_;
	pipe(my $r, my $w) or die "pipe: $!";
	my $pid = fork() // die "fork: $!";
	if (!$pid) {
		close $r;
		my $b = $bytes;
		substr($b, 40, 8) = pack('Q<', start_of($$)) if $own_start;
		my $path = "$dir/nbsim-kern-$>-$$.exec";
		open(my $f, '>', $path) or die "$path: $!";
		print $f $b;
		close $f;
		open(STDOUT, '>&', $w) or die;
		open(STDERR, '>&', $w) or die;
		exec $nbsim, '-q', '--', $prog, 'probe', $fd or die "exec: $!";
	}
	close $w;
	local $/;
	my $o = <$r> // '';
	waitpid($pid, 0);
	my $gone = !-e "$dir/nbsim-kern-$>-$pid.exec";
	unlink "$dir/nbsim-kern-$>-$pid.exec";
	return ($o, $gone);
}

my ($o, $gone) = probe(0);
like($o, qr/^probe $fd errno 9$/m,
     "another process with the planted file (A's start time): descriptor $fd is not an event (EBADF)");
ok($gone, '... and the stale file is removed');
($o, $gone) = probe(1);
like($o, qr/^probe $fd count$/m,
     "the same file naming this process's start time: the event is there (the check is the start time)");
ok($gone, '... and the file is consumed');
done_testing();
