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
# thread's set of that LP still ran: 4 threads, two of them short; and a
# stop wrote the package's IA32_PEBS_ENABLE 0 before it wrote the LPs'
# bits back: 8 threads, two short in 1 run of 4).  Then `thread_pebs
# stops' (below), and the control with --nbsim-pmu-ctx=cpu
# (shared registers), where some check must fail.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;
use File::Temp ();

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $prog = "$ENV{NB_BUILD}/tests/thread_pebs";
my @runs = map { my $ht = $_; map { [$ht, $_] } (2, 4, 8) } qw(no yes);
print '1..' . (@runs + 3) . "\n";
my $n = 0;
for my $r (@runs) {
	my ($ht, $t) = @$r;
	my ($st, $out, $secs) = PapiSuite::run_one('.', [$nbsim, '-q', "--ht=$ht", '--nbsim-warn-unmodelled=no',
							 '--', $prog, $t], 300);
	my ($good, $ok, $plan) = PapiSuite::tap_result($st, $out);
	printf "%sok %d - %d threads, --ht=%s (%s), each its own PEBS: %d/%d [%.1fs]\n", $good ? '' : 'not ',
		++$n, $t, $ht, $ht eq 'no' ? 'all on LP0' : 'half on each LP', $ok, $plan, $secs;
	print STDERR "#   $_\n" for $good ? () : (split /\n/, $out)[-20 .. -1];
}
# thread_pebs stops (--ht=yes): thread 0 on LP0 counts its loads while
# thread 1 on LP1 starts and stops its own set of the event over and
# over (no PMI: the lockstep orders the threads, a turn every 50,000
# instructions, and turns fall inside stops).  Before, a stop wrote the
# package's IA32_PEBS_ENABLE 0 for a moment: 301,154 of 400,000 in every
# run, where the 8-thread run above, ordered by the host, failed 1 in 4.
# Each of the two runs in a pid namespace of its own where one can be had
# (root), its files under a TMPDIR of this test's: the guest's pid moves
# PAPI's allocations, and a busy machine's pids cross a power of 10
# between two runs (once in a make check beside two busy loops, test 8
# read another count; t_sim_determ.t does the same).
my @ns;
if (system('unshare --pid --fork --mount-proc true 2>/dev/null') == 0) {
	my $tmp = File::Temp::tempdir('t_thread_pebs.XXXXXX', TMPDIR => 1, CLEANUP => 1);
	@ns = ('env', "TMPDIR=$tmp", 'unshare', '--pid', '--fork', '--mount-proc');
}
{
	my ($st, $out, $secs) = PapiSuite::run_one('.', [@ns, $nbsim, '-q', '--ht=yes', '--nbsim-warn-unmodelled=no',
							 '--', $prog, 'stops'], 300);
	my ($good, $ok, $plan) = PapiSuite::tap_result($st, $out);
	printf "%sok %d - stops: one LP's loads counted while the other LP's thread starts and stops its set: "
		. "%d/%d [%.1fs]\n", $good ? '' : 'not ', ++$n, $ok, $plan, $secs;
	print STDERR "#   $_\n" for $good ? () : (split /\n/, $out)[-20 .. -1];
	# the lockstep orders the threads by simulated time: a second run
	# starts and stops as many times, and thread 0 counts the same (the
	# host's start time, ASLR and gdbserver file once moved them: 3,913
	# to 3,980 stops)
	my ($st2, $out2) = PapiSuite::run_one('.', [@ns, $nbsim, '-q', '--ht=yes', '--nbsim-warn-unmodelled=no',
						    '--', $prog, 'stops'], 300);
	my @a = $out =~ /its set (\d+) times|count (\d+)/g;
	my @b = $out2 =~ /its set (\d+) times|count (\d+)/g;
	my ($sa, $sb) = (join(' ', grep { defined } @a), join(' ', grep { defined } @b));
	printf "%sok %d - stops, a second run: the same stops and count (%s; %s)\n",
		$sa ne '' && $sa eq $sb ? '' : 'not ', ++$n, $sa, $sb;
}
{
	my ($st, $out) = PapiSuite::run_one('.', [$nbsim, '-q', '--nbsim-warn-unmodelled=no', '--nbsim-pmu-ctx=cpu',
						  '--', $prog, 2], 300);
	my $bad = () = $out =~ /^not ok \d+ - thread \d+/mg;
	printf "%sok %d - control: with --nbsim-pmu-ctx=cpu %d of 6 per-thread PEBS checks fail (at least 1)\n",
		$bad >= 1 ? '' : 'not ', ++$n, $bad;
	print STDERR "#   $_\n" for $bad >= 1 ? () : split /\n/, $out;
}
