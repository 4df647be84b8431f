#!/usr/bin/perl
# Event sets PAPI frees while they run (ctests/running_teardown.c): a
# thread that unregisters without PAPI_stop, or exits without
# unregistering, no longer leaves its registers held in the component's
# per-LP record (under --ht=yes the other logical processor's sets could
# not be placed, even after PAPI_shutdown and PAPI_library_init) nor its
# PMI acquired.  Under --ht=yes on the sim backend (the model and the
# cheap clock), and on the perf backend (no HT there: the freed running
# set is stopped through it; its handler's instructions counted).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use PapiSuite;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $prog = "$ENV{NB_BUILD}/tests/running_teardown";
my @opts = (['--ht=yes'], ['--ht=yes', '--nbsim-clock=fast'], ['perf']);
print '1..' . scalar(@opts) . "\n";
my $n = 0;
for my $o (@opts) {
	my $perf = "@$o" eq 'perf';
	local $ENV{P4NETBURST_BACKEND} = $perf ? 'perf' : 'sim';
	my ($st, $out, $secs) = PapiSuite::run_one('.', $perf ?
		[$nbsim, '-q', '--nbsim-warn-unmodelled=no', '--', $prog, 'handler-counted'] :
		[$nbsim, '-q', @$o, '--', $prog], 120);
	my ($good, $ok, $plan) = PapiSuite::tap_result($st, $out);
	printf "%sok %d - running_teardown %s: %d/%d [%.1fs]\n", $good ? '' : 'not ', ++$n, $perf ? 'perf backend' : "@$o" || 'default',
		$ok, $plan, $secs;
	print STDERR "#   $_\n" for $good ? () : split /\n/, $out;
}
