#!/usr/bin/perl
# nb_stat stopped by a signal (Ctrl-C, kill) while PROGRAM runs: the
# signal goes on to PROGRAM, nb_stat waits for it, removes its temporary
# files and, with the last run, reports the counts so far with PROGRAM's
# status (128 + N); with runs left it starts none and dies of the signal.
# nb_stat once died at once, leaving the simulated program running (an
# orphan looping for ever here) and its temporary directory behind.
# nbsim itself killed from outside: 128 + N and the signal named.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use File::Temp qw(tempdir);
use POSIX qw(WNOHANG WIFSIGNALED WTERMSIG WIFEXITED WEXITSTATUS);
use Time::HiRes qw(sleep time);
use NbStat;

# PROGRAM says when it runs (under nbsim: the simulated CPU runs it) by
# creating the file its first argument names, then spins.  The test once
# sent the signal "one second after the launcher appeared": on a busy
# machine nbsim.sh or valgrind's start-up took longer, so the signal came
# before the program existed (and a SIGINT that came while nbsim.sh waited
# for a helper command was lost, the program spinning on: issue 27).
my @prog = ('/bin/sh', '-c', ': > "$1"; while :; do :; done', 'sh');

# processes whose command line names DIR (nbsim's --nbsim-counts=DIR/...)
sub procs_in {
	my ($dir) = @_;
	my @p;
	for my $c (glob('/proc/[0-9]*/cmdline')) {
		open(my $fh, '<', $c) or next;
		my $l = do { local $/; <$fh> } // '';
		push @p, $c =~ m{/proc/(\d+)/} if index($l, $dir) >= 0;
	}
	return @p;
}

# start nb_stat ARGS with TMPDIR=DIR, send SIG once PROGRAM runs under
# nbsim (to nb_stat; 'nbsim:SIG': to nbsim, from outside);
# -> (wait status, output, orphans left, files left in DIR)
sub interrupt {
	my ($sig, @args) = @_;
	my $to_sim = $sig =~ s/^nbsim://;
	my $dir = tempdir(CLEANUP => 1);
	my $pid = fork() // die;
	if (!$pid) {
		$SIG{$_} = 'DEFAULT' for qw(INT TERM HUP);
		$ENV{TMPDIR} = $dir;
		open(STDIN, '<', '/dev/null');
		open(STDOUT, '>', "$dir.out");
		open(STDERR, '>&', \*STDOUT);
		exec $nb_stat, @args, '--', @prog, "$dir.ready" or exit 250;
	}
	# a bound on the wait, not on the time a start takes: a hang guard
	for (1 .. 6000) {
		last if -e "$dir.ready";
		sleep 0.1;
	}
	ok(-e "$dir.ready", "$sig: the program ran");
	unlink "$dir.ready";
	kill $sig, $to_sim ? procs_in("$dir/") : $pid;
	# nb_stat's end is waited for; the alarm is a guard against a hang
	# (nb_stat once waited for ever for a program the signal never reached)
	my $w;
	eval {
		local $SIG{ALRM} = sub { die "timeout\n" };
		alarm 300;
		$w = $? if waitpid($pid, 0) == $pid;
		alarm 0;
	};
	if (!defined $w) {
		kill 'KILL', $pid;
		waitpid($pid, 0);
		$w = -1;
	}
	my @orphans = procs_in("$dir/");
	kill 'KILL', @orphans if @orphans;
	open(my $fh, '<', "$dir.out");
	my $text = do { local $/; <$fh> } // '';
	unlink "$dir.out";
	my @left = glob("$dir/nb_stat.*");
	return ($w, $text, scalar @orphans, scalar @left);
}

# one run: the counts so far, PROGRAM's status
for my $sig (qw(INT TERM)) {
	my ($w, $text, $orphans, $left) = interrupt($sig, '-x', ',', '-e', 'PAPI_TOT_INS');
	my $n = $sig eq 'INT' ? 2 : 15;
	ok($w >= 0 && WIFEXITED($w), "SIG$sig, one run: nb_stat exits") or diag("wait status $w");
	is($w >= 0 && WIFEXITED($w) ? WEXITSTATUS($w) : -1, 128 + $n,
	   "SIG$sig, one run: PROGRAM's status, 128 + $n");
	like($text, qr/^[1-9]\d*,PAPI_TOT_INS,1,,$/m, "SIG$sig, one run: the counts so far")
		or diag($text);
	is($orphans, 0, "SIG$sig, one run: no simulated program left running");
	is($left, 0, "SIG$sig, one run: no temporary directory left");
}

# runs left: none started, nb_stat dies of the signal, says so
{
	my ($w, $text, $orphans, $left) = interrupt('INT', '-x', ',', '-e',
		'PAPI_L1_LDM,PAPI_L2_LDM,PAPI_TLB_DM,PAPI_TOT_INS');
	ok($w >= 0 && WIFSIGNALED($w) && WTERMSIG($w) == 2, 'SIGINT in run 1 of several: nb_stat dies of SIGINT')
		or diag("wait status $w");
	like($text, qr/interrupted by SIGINT in run 1 of [2-9]/, 'SIGINT in run 1 of several: says so')
		or diag($text);
	unlike($text, qr/PAPI_TOT_INS/, 'SIGINT in run 1 of several: no partial counts');
	is($orphans, 0, 'SIGINT in run 1 of several: no simulated program left running');
	is($left, 0, 'SIGINT in run 1 of several: no temporary directory left');
}

# nbsim killed from outside (kill -9) before it wrote any counts: the
# status a shell gives, 128 + 9, and the signal named (it was 121, "nbsim
# wrote no counts")
{
	my ($w, $text, $orphans, $left) = interrupt('nbsim:KILL', '-x', ',', '-e', 'PAPI_TOT_INS');
	is($w >= 0 && WIFEXITED($w) ? WEXITSTATUS($w) : -1, 137, 'nbsim killed by SIGKILL: status 137')
		or diag("wait status $w: $text");
	like($text, qr/run 1: killed by SIGKILL \(signal 9\) before it wrote any counts/,
	     'nbsim killed by SIGKILL: says so') or diag($text);
	is($left, 0, 'nbsim killed by SIGKILL: no temporary directory left');
}

# --follow, a script with background jobs (a simulated busy loop, a
# simulated sleep), SIGTERM to nb_stat: every process the run started gets
# it and is waited for, their counts read; none is left running.  nb_stat
# once signalled PROGRAM alone and exited 143 with both jobs' valgrind
# running on, and then warned that they "exec'd a program nbsim did not
# run".  The processes are found by a mark in their environment.
sub marked {
	my ($mark) = @_;
	my @p;
	for my $e (glob('/proc/[0-9]*/environ')) {
		open(my $fh, '<', $e) or next;
		my $l = do { local $/; <$fh> } // '';
		push @p, $e =~ m{/proc/(\d+)/} if index($l, $mark) >= 0;
	}
	return @p;
}
{
	my $dir = tempdir(CLEANUP => 1);
	my $tag = "follow-$$";            # (taken before the fork: $$ is the child's there)
	my $mark = "NB_STAT_SIGNAL_MARK=$tag";
	open(my $fh, '>', "$dir/jobs.sh") or die;
	print $fh "#!/bin/sh\n( while :; do :; done ) &\nsleep 1000 &\n: > \"\$1\"\nwait\n";
	close $fh;
	chmod 0755, "$dir/jobs.sh";
	my $pid = fork() // die;
	if (!$pid) {
		$SIG{$_} = 'DEFAULT' for qw(INT TERM HUP);
		$ENV{TMPDIR} = $dir;
		$ENV{NB_STAT_SIGNAL_MARK} = $tag;
		open(STDIN, '<', '/dev/null');
		open(STDOUT, '>', "$dir.out");
		open(STDERR, '>&', \*STDOUT);
		exec $nb_stat, '--follow', '-x', ',', '-e', 'PAPI_TOT_INS', '--', "$dir/jobs.sh",
			"$dir.ready" or exit 250;
	}
	for (1 .. 6000) {                 # a hang guard
		last if -e "$dir.ready";
		sleep 0.1;
	}
	ok(-e "$dir.ready", '--follow, background jobs: the script started them');
	kill 'TERM', $pid;
	my $w;
	eval {
		local $SIG{ALRM} = sub { die "timeout\n" };
		alarm 300;
		$w = $? if waitpid($pid, 0) == $pid;
		alarm 0;
	};
	if (!defined $w) {
		kill 'KILL', $pid;
		waitpid($pid, 0);
		$w = -1;
	}
	my @left = marked($mark);
	kill 'KILL', @left if @left;
	open($fh, '<', "$dir.out");
	my $text = do { local $/; <$fh> } // '';
	unlink "$dir.out", "$dir.ready";
	is($w >= 0 && WIFEXITED($w) ? WEXITSTATUS($w) : -1, 143,
	   '--follow, background jobs, SIGTERM: PROGRAM\'s status, 143') or diag("wait status $w: $text");
	is(scalar(@left), 0, '--follow, background jobs, SIGTERM: no process of the run left running')
		or diag("left: @left");
	unlike($text, qr/exec'd a program nbsim did not run/,
	       '--follow, background jobs, SIGTERM: no warning about a program nbsim did not run') or diag($text);
	like($text, qr/^[1-9]\d*,PAPI_TOT_INS,1,,$/m, '--follow, background jobs, SIGTERM: the counts')
		or diag($text);
}

done_testing();
