#!/usr/bin/perl
# t_sim_coverage.t - the event coverage table (sim/coverage.txt) is complete,
# the README table generated from it is up to date, and nbsim produces
# exactly what it claims: nbsim --nbsim-list-events lists the exact, zero
# and modelled masks; on a workload (sim/tests/guest/t_coverage.c, Prescott and
# Xeon MP) each exact and modelled one counts, each zero one (0 by
# construction) counts 0 without a warning and each not-modelled mask
# counts 0 with nbsim's "not modelled" warning.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $SRC = $ENV{NB_SRC} or die "NB_SRC not set\n";
my $NBSIM = $ENV{NBSIM} or die "NBSIM not set\n";
my $TB = $ENV{NBSIM_TESTBIN} or die "NBSIM_TESTBIN not set\n";
my $GEN = "$SRC/sim/gen_coverage.pl";
my $TMP = tempdir(CLEANUP => 1);

# (a) every event of events.txt has a line; the generator validates masks
my @events;
open my $ef, '<', "$SRC/native_events/events.txt" or die $!;
while (<$ef>) { push @events, $1 if /^event\s+(\S+)/ }
close $ef;
my @list = `perl $GEN --list`;
is($?, 0, 'gen_coverage.pl --list: coverage.txt is consistent with events.txt');
my (%status, %evs);
for (@list) {
	my ($em, $st) = split ' ';
	$status{$em} = $st;
	$evs{(split /:/, $em)[0]} = 1;
}
my @missing = grep { !$evs{$_} } @events;
ok(@events > 40 && !@missing, scalar(@events) . " events of events.txt all have coverage lines")
	or diag("missing: @missing");
my $totals = `perl $GEN --totals`;
chomp $totals;
diag($totals);

# the generator rejects an incomplete file, naming the event
{
	open my $in, '<', "$SRC/sim/coverage.txt" or die $!;
	open my $out, '>', "$TMP/cov.txt" or die $!;
	print $out grep { !/^uop_type / } <$in>;
	close $out;
	my $err = `perl $GEN --list $SRC/native_events/events.txt $TMP/cov.txt 2>&1 >/dev/null`;
	ok($? >> 8 == 2 && $err =~ /no line for event uop_type/,
	   'a coverage file without uop_type is rejected, naming it') or diag($err);
}

# (b) the README table is generated from coverage.txt
system('perl', $GEN, '--check');
is($?, 0, 'sim/README.md Events table is up to date (perl sim/gen_coverage.pl --write)');

# (c) nbsim lists exactly the exact and modelled masks
my @claimed = sort grep { $status{$_} ne 'not-modelled' } keys %status;
my @listed = sort map { /nbsim-event (\S+)/ ? $1 : () } `$NBSIM --nbsim-list-events=yes -- /bin/true 2>&1`;
is_deeply(\@listed, \@claimed, 'nbsim --nbsim-list-events lists the ' . scalar(@claimed) .
	  ' exact/zero/modelled masks of coverage.txt');

# (c, d) each claimed mask counts on the workload; each not-modelled one
# counts 0 and is warned about
open my $lf, '>', "$TMP/list.txt" or die $!;
print $lf @list;
close $lf;
my (%tested, %fails);
for my $model (qw(prescott xeonmp)) {
	my @out = `$NBSIM --model=$model -- $TB/t_coverage < $TMP/list.txt 2>$TMP/err.txt`;
	is($?, 0, "t_coverage under --model=$model ran");
	my $err = do { local (@ARGV, $/) = "$TMP/err.txt"; <> };
	my ($n, @bad) = (0);
	for (@out) {
		if (/^error (.*)/) {
			push @bad, "error: $1";
		} elsif (/^count (\S+) (\d+)/) {
			my ($em, $v) = ($1, $2);
			my ($ev, $m) = split /:/, $em;
			$n++;
			$tested{$em} = 1;
			if ($status{$em} eq 'zero') {
				push @bad, "$em is 0 by construction but counted $v" if $v;
				push @bad, "$em is 0 by construction but nbsim warned about it"
					if $err =~ /warning: \Q$em\E is not modelled/;
			} elsif ($status{$em} eq 'not-modelled') {
				push @bad, "$em is not modelled but counted $v" if $v;
				my $all_nm = !grep { /^\Q$ev\E:/ && $status{$_} ne 'not-modelled' } keys %status;
				my $re = $all_nm ? qr/warning: \Q$ev\E is not modelled/ : qr/warning: \Q$em\E is not modelled/;
				push @bad, "no 'not modelled' warning for $em" unless $err =~ $re;
			} else {
				push @bad, "$em is $status{$em} but counted 0" unless $v;
			}
		}
	}
	ok(!@bad && $n > 100, "--model=$model: $n masks: every exact/modelled one counts, " .
	   "every zero one counts 0 without a warning, every not-modelled one counts 0 " .
	   "with a warning") or diag(join "\n", @bad);
}
my @untested = grep { !$tested{$_} } sort keys %status;
ok(!@untested, 'every mask was tested on some model') or diag("untested: @untested");

done_testing();
