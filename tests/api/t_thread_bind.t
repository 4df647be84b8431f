#!/usr/bin/perl
# Threads bound to a simulated CPU before they count (nbsim --ht=yes,
# sched_setaffinity; docs/threads.md "Placement": the binding):
# ctests/thread_bind.c binds the main thread to CPU 0 or 1, creates a
# thread (which inherits the mask), and both count PAPI_TOT_INS and
# PAPI_BR_INS at once around their own loops.  Bound, both run on the
# CPU named (sched_getcpu, the simulated LP), whichever LP the placement
# would have given them, and each counts exactly what it counts unbound
# (its home LP moved with it: the component encodes for the LP it runs
# on), under fixed and migrate placement.
use strict;
use warnings;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $prog = "$ENV{NB_BUILD}/tests/thread_bind";
-x $prog or die "$prog missing\n";
print "1..6\n";
my $n = 0;

sub run {
	my $out = `"$nbsim" -q --ht=yes @_ 2>&1`;
	my %r;
	for (split /\n/, $out) {
		$r{$1} = { cpu => $2, counts => $3 } if /^(main|thread) cpu=(\d+) (ins=\S+ br=\S+)$/;
	}
	$r{out} = $out;
	return \%r;
}

sub ok {
	my ($good, $what, $out) = @_;
	printf "%sok %d - %s\n", $good ? '' : 'not ', ++$n, $what;
	print STDERR map { "#   $_\n" } split /\n/, $out unless $good;
}

for my $place ('fixed', 'migrate') {
	my $base = run("--nbsim-ht-place=$place", '--', $prog);
	my $good = $base->{main} && $base->{thread} && $base->{main}{cpu} == 0 && $base->{thread}{cpu} == 1 &&
		$base->{main}{counts} =~ /^ins=[1-9]/;
	ok($good, "$place, unbound: main on LP0, its thread on LP1, each counts "
	   . ($base->{main} ? "main $base->{main}{counts}" : 'nothing'), $base->{out});
	for my $cpu (0, 1) {
		my $b = run("--nbsim-ht-place=$place", '--', $prog, $cpu);
		my $g = $good && $b->{out} =~ /^bind 0$/m && $b->{main} && $b->{thread} &&
			$b->{main}{cpu} == $cpu && $b->{thread}{cpu} == $cpu &&
			$b->{main}{counts} eq $base->{main}{counts} && $b->{thread}{counts} eq $base->{thread}{counts};
		ok($g, "$place, bound to CPU $cpu: both threads run on LP$cpu and count exactly as unbound", $b->{out});
	}
}
