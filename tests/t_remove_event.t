#!/usr/bin/perl
# PAPI_remove_event (ctests/remove_event.c,
# patches/papi-7.0.0-remove-positions.patch): the events left read their
# own counts (PAPI 7.0.0 left them at their old positions: stale counts),
# and overflow on an event after the removed one is put back (before:
# PAPI_EINVAL, the set half removed).  On the sim backend (the model, the
# cheap clock) and the perf backend (its handler's instructions counted).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use PapiSuite;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $prog = "$ENV{NB_BUILD}/tests/remove_event";
my @opts = ([], ['--nbsim-clock=fast'], ['perf']);
print '1..' . scalar(@opts) . "\n";
my $n = 0;
for my $o (@opts) {
	my $perf = "@$o" eq 'perf';
	local $ENV{P4NETBURST_BACKEND} = $perf ? 'perf' : 'sim';
	my ($st, $out, $secs) = PapiSuite::run_one('.', $perf ?
		[$nbsim, '-q', '--nbsim-warn-unmodelled=no', '--', $prog, 'handler-counted'] :
		[$nbsim, '-q', @$o, '--', $prog], 120);
	my ($good, $ok, $plan) = PapiSuite::tap_result($st, $out);
	printf "%sok %d - remove_event %s: %d/%d [%.1fs]\n", $good ? '' : 'not ', ++$n, $perf ? 'perf backend' : "@$o" || 'default',
		$ok, $plan, $secs;
	print STDERR "#   $_\n" for $good ? () : split /\n/, $out;
}
