#!/usr/bin/perl
# PEBS per thread (ctests/thread_pebs.c): 2, 4 and 8 threads on the one
# logical processor (no --ht), each with its own precise event set
# (1stL_cache_load_miss_retired:precise, PAPI_overflow) around its own
# chase: each gets floor(count / T) samples, every one at its own load for
# its own set, and counts its own loads, also after the first thread's
# PAPI_stop (before IA32_PEBS_ENABLE and MATRIX_VERT were the thread's,
# that stop turned the others' tagging off: 4 threads' last three counted
# 18116 for 24000-32000 loads).  Then the control with --nbsim-pmu-ctx=cpu
# (shared registers), where some check must fail.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use PapiSuite;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $prog = "$ENV{NB_BUILD}/tests/thread_pebs";
my @runs = (2, 4, 8);
print '1..' . (@runs + 1) . "\n";
my $n = 0;
for my $t (@runs) {
	my ($st, $out, $secs) = PapiSuite::run_one('.', [$nbsim, '-q', '--nbsim-warn-unmodelled=no', '--',
							 $prog, $t], 300);
	my ($plan) = $out =~ /^1\.\.(\d+)$/m;
	my $ok = () = $out =~ /^ok \d+/mg;
	my $good = $st == 0 && $plan && $ok == $plan && $out !~ /^(not ok|Bail out)/m;
	printf "%sok %d - %d threads on one LP, each its own PEBS: %d/%d [%.1fs]\n", $good ? '' : 'not ', ++$n,
		$t, $ok, $plan // 0, $secs;
	print STDERR "#   $_\n" for $good ? () : (split /\n/, $out)[-20 .. -1];
}
{
	my ($st, $out) = PapiSuite::run_one('.', [$nbsim, '-q', '--nbsim-warn-unmodelled=no', '--nbsim-pmu-ctx=cpu',
						  '--', $prog, 2], 300);
	my $bad = () = $out =~ /^not ok \d+ - thread \d+/mg;
	printf "%sok %d - control: with --nbsim-pmu-ctx=cpu %d of 6 per-thread PEBS checks fail (at least 1)\n",
		$bad >= 1 ? '' : 'not ', ++$n, $bad;
	print STDERR "#   $_\n" for $bad >= 1 ? () : split /\n/, $out;
}
