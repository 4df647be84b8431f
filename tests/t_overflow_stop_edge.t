#!/usr/bin/perl
# Overflows whose PMI comes while PAPI_stop runs (ctests/overflow_stop_edge.c):
# for 201 ends of the count around an overflow, overflows ==
# floor(count / threshold) exactly.  The sim backend on Prescott (the
# model and the cheap clock), Northwood and --ht=yes; the perf backend
# against nbsim's emulated perf driver.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use PapiSuite;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $prog = "$ENV{NB_BUILD}/tests/overflow_stop_edge";
my @runs = ([sim => []], [sim => ['--nbsim-clock=fast']], [sim => ['--model=northwood']],
	    [sim => ['--ht=yes']], [perf => ['--nbsim-warn-unmodelled=no']]);
print '1..' . scalar(@runs) . "\n";
my $n = 0;
for my $r (@runs) {
	my ($backend, $o) = @$r;
	local $ENV{P4NETBURST_BACKEND} = $backend;
	my ($st, $out, $secs) = PapiSuite::run_one('.', [$nbsim, '-q', @$o, '--', $prog], 300);
	my ($good, $ok, $plan) = PapiSuite::tap_result($st, $out);
	printf "%sok %d - overflow_stop_edge, %s backend %s: %d/%d [%.1fs]\n", $good ? '' : 'not ', ++$n,
		$backend, "@$o", $ok, $plan, $secs;
	print STDERR "#   $_\n" for $good ? () : split /\n/, $out;
}
