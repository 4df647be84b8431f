#!/usr/bin/perl
# Overflow per thread (ctests/thread_overflow.c): each thread's
# PAPI_overflow on PAPI_TOT_INS gets the overflows and the count of the
# same work done alone, floor(count / T), all delivered to itself, while
# the threads are switched out and back between overflows.  2, 4, 8
# threads, with and without --ht=yes; then the control with
# --nbsim-pmu-ctx=cpu (shared counters), where they must not.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $prog = "$ENV{NB_BUILD}/tests/thread_overflow";
my @runs = map { my $ht = $_; map { [$ht, $_] } (2, 4, 8) } qw(no yes);
print '1..' . (@runs + 1) . "\n";
my $n = 0;
for my $r (@runs) {
	my ($ht, $t) = @$r;
	my ($st, $out, $secs) = PapiSuite::run_one('.', [$nbsim, '-q', "--ht=$ht", '--', $prog, $t], 300);
	my ($good, $ok, $plan) = PapiSuite::tap_result($st, $out);
	printf "%sok %d - %d threads, --ht=%s: %d/%d [%.1fs]\n", $good ? '' : 'not ', ++$n, $t, $ht,
		$ok, $plan, $secs;
	print STDERR "#   $_\n" for $good ? () : (split /\n/, $out)[-20 .. -1];
}
{
	my ($st, $out) = PapiSuite::run_one('.', [$nbsim, '-q', '--nbsim-pmu-ctx=cpu', '--', $prog, 2], 300);
	my $bad = () = $out =~ /^not ok \d+ - thread \d+ \(LP/mg;
	# how many differ depends on the host's interleaving of the threads
	# (t_thread_counts.t says why); that any does is the point
	printf "%sok %d - control: with --nbsim-pmu-ctx=cpu %d of 2 threads' overflow counts differ from alone "
		. "(at least 1)\n", $bad >= 1 ? '' : 'not ', ++$n, $bad;
	print STDERR "#   $_\n" for $bad >= 1 ? () : split /\n/, $out;
}
