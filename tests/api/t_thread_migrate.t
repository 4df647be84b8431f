#!/usr/bin/perl
# Threads that move between the logical processors while they count
# (nbsim --ht=yes --nbsim-ht-place=migrate; sim/README.md
# "Hyper-Threading"): ctests/thread_migrate.c (a thread counting before,
# across and after its move, exactly, beside threads counting on both LPs),
# nbsim's list of the moves (which thread, to which LP, after which exit:
# the policy is deterministic here), its overflow mode (the moved thread's
# overflows all its own, floor(count / T)), and ctests/thread_counts.c (2, 4, 8
# pthreads, the quitter's exit moving a counting thread) under the same
# placement; then the placement's other half: with --nbsim-ht-place=fixed
# the same program's thread does not move and its first check fails.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $bin = "$ENV{NB_BUILD}/tests";
my @mig = ('--ht=yes', '--nbsim-ht-place=migrate');
print "1..10\n";
my $counts = "/tmp/t_thread_migrate.$$.counts";
END { unlink $counts if defined $counts }

# the lp lines of an nbsim --nbsim-counts file: { ThreadId => "FIRST LAST" }
sub lp_lines {
	my %lp;
	open(my $fh, '<', $counts) or return {};
	while (<$fh>) {
		$lp{$1} = "$2 $3" if /^lp (\d+) (\d) (\d)$/;
	}
	return \%lp;
}
my $n = 0;

sub tap_of {
	my ($out) = @_;
	my ($plan) = $out =~ /^1\.\.(\d+)$/m;
	my @ok = $out =~ /^ok \d+/mg;
	my @bad = grep { /^not ok/ || /^Bail out/ } split /\n/, $out;
	return ($plan // -1, scalar(@ok), @bad);
}

sub report {
	my ($good, $what, $out) = @_;
	printf "%sok %d - %s\n", $good ? '' : 'not ', ++$n, $what;
	return if $good;
	my @l = split /\n/, $out;
	@l = @l[-25 .. -1] if @l > 25;
	print STDERR "#   $_\n" for @l;
}

{
	unlink $counts;
	my ($st, $out, $secs) = PapiSuite::run_one('.', [$nbsim, '-q', @mig, '--nbsim-stats=yes',
							"--nbsim-counts=$counts", '--', "$bin/thread_migrate"], 300);
	my ($plan, $ok, @bad) = tap_of($out);
	report($st == 0 && $plan > 0 && $ok == $plan && !@bad,
	       sprintf("thread_migrate: %d/%d checks (a thread counts exactly before, across and after "
		       . "its move; the others on both LPs exactly) [%.1fs]", $ok, $plan, $secs), $out);
	# A (ThreadId 2) exits first: LP1 has C alone, LP0 main, B and D (5)
	report($out =~ /nbsim:\s+thread 5 moved to LP1 when thread 2 exited/,
	       'nbsim --nbsim-stats: "thread 5 moved to LP1 when thread 2 exited" (the policy: '
	       . 'LP0 3 threads to LP1 1, the highest ThreadId of LP0 moves)', $out);
	my ($lp0) = $out =~ /^(?:==\d+== )?nbsim: LP0 ran threads ([\d ]+)/m;
	my ($lp1) = $out =~ /^(?:==\d+== )?nbsim: LP1 ran threads ([\d ]+)/m;
	report(defined $lp0 && defined $lp1 && $lp0 =~ /^1 3 5\s*$/ && $lp1 =~ /^2 4\s*$/,
	       sprintf('placement at creation: LP0 threads %s, LP1 threads %s (want 1 3 5 and 2 4: '
		       . 'fewer live first, ties (t-1) mod 2)', $lp0 // '?', $lp1 // '?'), $out);
	# nb_stat's per-thread rows name the LP from these lines: each
	# thread's first LP is its placement, its last the LP of its last move
	# in the list --nbsim-stats printed (thread 5's after thread 2's exit;
	# a later exit may move B, thread 3, too: which thread exits first
	# then depends on the host)
	my $lp = lp_lines();
	my %want = (1 => 0, 2 => 1, 3 => 0, 4 => 1, 5 => 0);
	$want{$_} .= ' ' . $want{$_} for keys %want;
	while ($out =~ /nbsim:\s+thread (\d+) moved to LP(\d) when/g) {
		substr($want{$1}, -1) = $2 if exists $want{$1};
	}
	my $got = join ', ', map { "$_: $lp->{$_}" } sort keys %$lp;
	my $exp = join ', ', map { "$_: $want{$_}" } sort keys %want;
	report($got eq $exp && $lp->{5} eq '0 1',
	       "--nbsim-counts lp lines (ThreadId: first LP, last LP): $got (want $exp: placement, then "
	       . 'the moves --nbsim-stats listed; thread 5 LP0 then LP1)', $out);
}

{
	my ($st, $out, $secs) = PapiSuite::run_one('.', [$nbsim, '-q', @mig, '--', "$bin/thread_migrate", 'ovf'], 300);
	my ($plan, $ok, @bad) = tap_of($out);
	report($st == 0 && $plan > 0 && $ok == $plan && !@bad,
	       sprintf("thread_migrate ovf: %d/%d checks (a thread's overflows through its move: "
		       . "floor(count / T), all delivered to itself) [%.1fs]", $ok, $plan, $secs), $out);
}

for my $t (2, 4, 8) {
	my ($st, $out, $secs) = PapiSuite::run_one('.', [$nbsim, '-q', @mig, '--nbsim-stats=yes', '--',
							"$bin/thread_counts", $t], 300);
	my ($plan, $ok, @bad) = tap_of($out);
	my ($moves) = $out =~ /threads moved between logical processors: (\d+)/;
	report($st == 0 && $plan > 0 && $ok == $plan && !@bad && defined $moves,
	       sprintf("thread_counts %d pthreads, --nbsim-ht-place=migrate: %d/%d checks exact "
		       . "(%s threads moved) [%.1fs]", $t, $ok, $plan, $moves // '?', $secs), $out);
}

{
	unlink $counts;
	my ($st, $out) = PapiSuite::run_one('.', [$nbsim, '-q', '--ht=yes', '--nbsim-ht-place=fixed',
						  "--nbsim-counts=$counts", '--', "$bin/thread_migrate"], 300);
	my ($plan, $ok, @bad) = tap_of($out);
	report($plan == 9 && $ok == 8 && @bad == 1 && $bad[0] =~ /^not ok 1 - D ran on LP0, then on LP1 \(INFO running_lp 0 -> 0\)/,
	       "control: under --nbsim-ht-place=fixed thread D stays on LP0: exactly the move check fails "
	       . "($ok/$plan pass)", $out);
	my $lp = lp_lines();
	my $got = join ', ', map { "$_: $lp->{$_}" } sort keys %$lp;
	report($got eq '1: 0 0, 2: 1 1, 3: 0 0, 4: 1 1, 5: 0 0',
	       "control's --nbsim-counts lp lines: $got (thread 5 stays on LP0)", $out);
}
