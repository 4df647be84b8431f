#!/usr/bin/perl
# PAPI's software overflow without PAPI_OVERFLOW_FORCE_SW
# (ctests/overflow_soft.c): on the msr backend, which has no overflow
# interrupt (cmp_info.hardware_intr 0), PAPI_overflow's handler is called
# and PAPI_profil's buffer fills.  The component's dispatch_timer dropped
# every timer tick of a set whose overflow.flags was 0, which plain
# software overflow's are: no overflow, no sample, PAPI_OK everywhere.
# With the model clock and the cheap one (the timer ticks on CPU time).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use PapiSuite;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $prog = "$ENV{NB_BUILD}/tests/overflow_soft";
my @opts = ([], ['--nbsim-clock=fast']);
print '1..' . scalar(@opts) . "\n";
my $n = 0;
local $ENV{P4NETBURST_BACKEND} = 'msr';
for my $o (@opts) {
	my ($st, $out, $secs) = PapiSuite::run_one('.',
		[$nbsim, '-q', '--nbsim-warn-unmodelled=no', @$o, '--', $prog], 120);
	my ($good, $ok, $plan) = PapiSuite::tap_result($st, $out);
	printf "%sok %d - overflow_soft msr backend %s: %d/%d [%.1fs]\n", $good ? '' : 'not ', ++$n,
		"@$o" || 'default', $ok, $plan, $secs;
	print STDERR "#   $_\n" for $good ? () : split /\n/, $out;
}
