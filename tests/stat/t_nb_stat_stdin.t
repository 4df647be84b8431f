#!/usr/bin/perl
# nb_stat's standard input when the events take several runs: every run
# reads the same bytes.  The program (tests/stat/k_stdin.S) reads stdin to
# its end, a loop iteration per byte, and exits with the byte count mod
# 256: exact instructions 11 + 10R + 2B for B bytes in R reads, branches
# B + 2R + 1, conditional ones B + R + 1.  nb_stat
# once let the first run read a pipe to its end and the others read
# nothing (other counts, another exit status, "the runs diverged"); then
# read a pipe to its end before the first run, which never came when the
# pipe's writer kept it open (mpirun does, for the ranks other than 0).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use File::Temp qw(tempdir);
use NbStat;

my $dir = tempdir(CLEANUP => 1);
my $prog = "$st/k_stdin";
-x $prog or BAIL_OUT("$prog not built");
open(my $fh, '>', "$dir/in") or die;
print $fh 'x' x 10000;
close $fh;

# events that take several runs (first fit: PAPI_BR_INS in run 3)
my $events = 'PAPI_L1_LDM,PAPI_L2_LDM,PAPI_TLB_DM,PAPI_LD_INS,PAPI_SR_INS,PAPI_BR_INS,'
	. 'retired_branch_type:CONDITIONAL,PAPI_TOT_INS';

# -> (status, text, { event => [count, run] })
sub split_run {
	my ($in) = @_;
	my ($rc, $text) = run_nb_stat($in, '-x', ',', '-o', "$dir/c.csv", '-e', $events, '--', $prog);
	my %c;
	if (open(my $c, '<', "$dir/c.csv")) {
		while (<$c>) {
			my @f = split /,/;
			$c{$f[1]} = [ $f[0], $f[2] ] if @f >= 3;
		}
	}
	unlink "$dir/c.csv";
	return ($rc, $text, \%c);
}

for my $case ([ 'a pipe', { pipe => 'x' x 10000 }, 10000, 3 ],
	      [ 'a file', { stdin => "$dir/in" }, 10000, 3 ],
	      [ 'a file read from offset 1000', { stdin => "$dir/in", skip => 1000 }, 9000, 3 ]) {
	my ($name, $in, $bytes, $reads) = @$case;
	my ($rc, $text, $c) = split_run($in);
	my %runs = map { $_->[1] => 1 } values %$c;
	cmp_ok(scalar(keys %runs), '>', 1, "$name: the events take several runs");
	is($rc, $bytes % 256, "$name: exit status (bytes read mod 256) as every run read them");
	unlike($text, qr/diverged/, "$name: the runs agree") or diag($text);
	is($c->{PAPI_TOT_INS}[0], 11 + 10 * $reads + 2 * $bytes, "$name: exact instructions");
	is($c->{'retired_branch_type:CONDITIONAL'}[0], $reads + 1 + $bytes,
	   "$name: exact conditional branches");
	my $br = $c->{PAPI_BR_INS} // [ -1, 0 ];
	cmp_ok($br->[1], '>', 1, "$name: PAPI_BR_INS is counted in a later run ($br->[1])");
	is($br->[0], $bytes + 2 * $reads + 1, "$name: exact branches in that run");
}

# one run: standard input is not read ahead (a pipe streams to the program)
{
	my ($rc, $text) = run_nb_stat({ pipe => 'y' x 300 }, '-x', ',', '-e', 'PAPI_TOT_INS', '--', $prog);
	is($rc, 300 % 256, 'one run from a pipe: exit status');
	like($text, qr/^${\(11 + 10 + 600)},PAPI_TOT_INS,1,,$/m, 'one run from a pipe: exact instructions');
}

# a pipe whose writer never closes it, several runs, a program that does
# not read standard input: it runs (before, nb_stat read the pipe to its
# end first and waited for ever)
{
	pipe(my $r, my $w) or die "pipe: $!";
	my $holder = fork() // die "fork: $!";
	if (!$holder) {
		close $r;
		sleep 300;              # holds the write end open
		exit 0;
	}
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		close $w;
		open(STDERR, '>&', \*STDOUT);
		open(STDIN, '<&', $r) or exit 250;
		exec $nb_stat, '-x', ',', '-e', $events, '--', "$st/k_loop_exit7" or exit 250;
	}
	close $r;
	close $w;
	my $text = eval {
		local $SIG{ALRM} = sub { die "timeout\n" };
		alarm 120;
		my $t = do { local $/; <$fh> } // '';
		alarm 0;
		$t;
	};
	my $timeout = !defined $text;
	kill 'KILL', $pid if $timeout;
	close $fh;
	my $rc = $? >> 8;
	kill 'KILL', $holder;
	waitpid($holder, 0);
	ok(!$timeout, 'a pipe that is never closed, several runs: nb_stat ends (120 s bound)');
	is($rc, 7, 'a pipe that is never closed: PROGRAM\'s exit status') or diag($text // '');
	my %runs = map { (split /,/)[2] => 1 } grep { /^\d+,/ } split /\n/, $text // '';
	cmp_ok(scalar(keys %runs), '>', 1, 'a pipe that is never closed: the events took several runs');
	like($text // '', qr/^2004,PAPI_TOT_INS,\d+,,$/m, 'a pipe that is never closed: exact instructions');
}

done_testing();
