#!/usr/bin/perl
# The TIME of the emulated perf driver's samples (PERF_SAMPLE_TIME;
# sim/kernel/nb_kern_perfmmap.c rec_ns): with --nbsim-time=simulated the
# simulated machine's CLOCK_MONOTONIC (sim/kernel/nb_simtime.c), the clock
# the program itself reads; else the host's.  tests/kern/kern_stime.c
# samples instructions every 100003 over a 2 M-instruction loop between
# two readings of its own CLOCK_MONOTONIC, t0 and t1, and reads the
# event's enabled and running times (PERF_FORMAT_TOTAL_TIME_*: on the same
# clock, sim/kernel/nb_kern_base.c nbk_now_ns; the host's before, 20-100
# times the program's own t1 - t0, and different every run).
use strict;
use warnings;
use Test::More;

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set (run through make check)');
my $prog = "$ENV{NB_BUILD}/tests/kern_stime";
-x $prog or BAIL_OUT("$prog not built");

sub run {
	my ($time) = @_;
	my $out = `$nbsim --model=northwood --nbsim-time=$time --nbsim-warn-unmodelled=no -- $prog 2>&1`;
	my %r = (times => []);
	for (split /\n/, $out) {
		if (/^(count|enabled|running|t0|t1) (\d+)$/) {
			$r{$1} = $2;
		} elsif (/^time (\d+)$/) {
			push @{$r{times}}, $1;
		}
	}
	diag($out) unless defined $r{count};
	return \%r;
}

sub check {
	my ($r, $what) = @_;
	my @t = @{$r->{times}};
	is(scalar(@t), int(($r->{count} // 0) / 100003), "$what: floor(count / 100003) samples");
	my $in = grep { $_ >= ($r->{t0} // 0) && $_ <= ($r->{t1} // 0) } @t;
	is($in, scalar(@t), "$what: every sample's TIME between the program's own clock readings t0 and t1");
	is(scalar(grep { $t[$_] < $t[$_ - 1] } 1 .. $#t), 0, "$what: in time order");
}

my $s1 = run('simulated');
my $s2 = run('simulated');
check($s1, 'simulated time');
my @o1 = map { $_ - ($s1->{t0} // 0) } @{$s1->{times}};
my @o2 = map { $_ - ($s2->{t0} // 0) } @{$s2->{times}};
ok(@o1 > 10 && "@o1" eq "@o2", 'simulated time: the same TIMEs (from t0) in two runs, whatever the host\'s load')
	or diag("@o1\n@o2");
# the loop's samples a period apart: 100003 instructions of a dec/jnz loop
# on Northwood's 2800 MHz clock (measured: 14.7 us, 0.82 cycles an
# iteration)
my ($en, $span) = ($s1->{enabled} // 0, ($s1->{t1} // 0) - ($s1->{t0} // 0));
ok($en > 0 && $en == ($s1->{running} // -1), "simulated time: time enabled = time running > 0 ($en ns)");
ok($en <= $span && $en >= ($o1[-1] // 0) - ($o1[0] // 0),
   "simulated time: ... within the program's own t0..t1 ($span ns) and over its samples' span");
is($s2->{enabled}, $en, 'simulated time: the same time enabled in two runs');
my @d = map { $o1[$_] - $o1[$_ - 1] } 2 .. $#o1;
is(scalar(grep { $_ < 10000 || $_ > 40000 } @d), 0, 'simulated time: samples 10 to 40 us apart (a period of the loop at 2.8 GHz)')
	or diag("@d");
my $h = run('host');
check($h, 'host time');
ok(($h->{enabled} // 0) > 0 && $h->{enabled} == ($h->{running} // -1), 'host time: time enabled = time running > 0');
done_testing();
