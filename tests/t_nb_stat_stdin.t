#!/usr/bin/perl
# nb_stat's standard input when the events take several runs: every run
# reads the same bytes.  The program (tests/stat/k_stdin.S) reads stdin to
# its end, a loop iteration per byte, and exits with the byte count mod
# 256: exact instructions 11 + 10R + 2B for B bytes in R reads, branches
# B + 2R + 1, conditional ones B + R + 1.  nb_stat
# once let the first run read a pipe to its end and the others read
# nothing (other counts, another exit status, "the runs diverged").
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
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

done_testing();
