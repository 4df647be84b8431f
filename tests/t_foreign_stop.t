#!/usr/bin/perl
# PAPI_stop, PAPI_read and PAPI_reset of a set another thread started
# (ctests/foreign_stop.c): refused, and neither thread's counting harmed.
# Before, the component acted on the calling thread's counters: PAPI_OK
# with the caller's counts, the caller's own set stopped, the owner's
# counts lost.  On the sim backend (the model, the cheap clock, --ht=yes)
# and the perf backend.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use PapiSuite;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $prog = "$ENV{NB_BUILD}/tests/foreign_stop";
my @opts = ([], ['--nbsim-clock=fast'], ['--ht=yes'], ['perf']);
print '1..' . scalar(@opts) . "\n";
my $n = 0;
for my $o (@opts) {
	my $perf = "@$o" eq 'perf';
	local $ENV{P4NETBURST_BACKEND} = $perf ? 'perf' : 'sim';
	my ($st, $out, $secs) = PapiSuite::run_one('.', $perf ?
		[$nbsim, '-q', '--nbsim-warn-unmodelled=no', '--', $prog] :
		[$nbsim, '-q', @$o, '--', $prog], 120);
	my ($good, $ok, $plan) = PapiSuite::tap_result($st, $out);
	printf "%sok %d - foreign_stop %s: %d/%d [%.1fs]\n", $good ? '' : 'not ', ++$n, $perf ? 'perf backend' : "@$o" || 'default',
		$ok, $plan, $secs;
	print STDERR "#   $_\n" for $good ? () : split /\n/, $out;
}
