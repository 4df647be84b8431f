#!/usr/bin/perl
# Event sets PAPI frees with overflow still on (ctests/overflow_teardown.c):
# PAPI_unregister_thread and PAPI_shutdown return (the component once
# turned the overflow signal off under PAPI's own lock there and spun for
# ever), and overflow works for the sets that follow.  On the sim backend
# (the model, the cheap clock, --ht=yes) and the perf backend against
# nbsim's emulated perf driver (its handler's instructions counted); not
# the msr backend, where PAPI emulates overflow with a timer (no hardware
# interrupt, no set_overflow call: no such path).  A hang is a failure
# after the timeout.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use PapiSuite;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $prog = "$ENV{NB_BUILD}/tests/overflow_teardown";
my @opts = ([], ['--nbsim-clock=fast'], ['--ht=yes'], ['perf']);
print '1..' . scalar(@opts) . "\n";
my $n = 0;
for my $o (@opts) {
	my $perf = "@$o" eq 'perf';
	local $ENV{P4NETBURST_BACKEND} = $perf ? 'perf' : 'sim';
	my ($st, $out, $secs) = PapiSuite::run_one('.', $perf ?
		[$nbsim, '-q', '--nbsim-warn-unmodelled=no', '--', $prog, 'handler-counted'] :
		[$nbsim, '-q', @$o, '--', $prog], 120);
	my ($good, $ok, $plan) = PapiSuite::tap_result($st, $out);
	printf "%sok %d - overflow_teardown %s: %d/%d [%.1fs]\n", $good ? '' : 'not ', ++$n, $perf ? 'perf backend' : "@$o" || 'default',
		$ok, $plan, $secs;
	print STDERR "#   $_\n" for $good ? () : split /\n/, $out;
}
