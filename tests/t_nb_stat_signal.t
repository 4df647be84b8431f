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
use lib "$FindBin::Bin/lib";
use Test::More;
use File::Temp qw(tempdir);
use POSIX qw(WNOHANG WIFSIGNALED WTERMSIG WIFEXITED WEXITSTATUS);
use Time::HiRes qw(sleep time);
use NbStat;

my $prog = "$st/k_spin";
-x $prog or BAIL_OUT("$prog not built");

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
		exec $nb_stat, @args, '--', $prog or exit 250;
	}
	my $t0 = time;
	sleep 0.1 until procs_in("$dir/") || time - $t0 > 60;
	sleep 1;                          # nbsim is in the guest
	kill $sig, $to_sim ? procs_in("$dir/") : $pid;
	my $w;
	for (1 .. 600) {
		last if waitpid($pid, WNOHANG) == $pid && defined($w = $?);
		sleep 0.1;
	}
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

done_testing();
