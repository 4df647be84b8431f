#!/usr/bin/perl
# Interval timers on the simulated wall clock (nbsim --nbsim-time=simulated;
# ctests/sim_timers.c): a 2 ms ITIMER_REAL over a loop fires after 2 ms of
# simulated time (1%: expiry is checked every few superblocks as it nears,
# and the signal is delivered at the next one, a few hundred cycles); a
# 30 ms ITIMER_REAL waited for in pause() takes 30 ms (the host's timer
# stands in while nothing runs; 1%); a 0.25 ms periodic timer ticks once per
# 0.25 ms of the loop's wall time (floor, or one fewer: armed after the
# clock is read), the same number of times run after run and beside two
# CPU-bound processes; alarm and ualarm return what Linux returns; a fork's
# child has no timer (POSIX); with --nbsim-time=host the host's timers run.
use strict;
use warnings;
use Test::More;

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set');
my $prog = "$ENV{NB_BUILD}/tests/sim_timers";
-x $prog or BAIL_OUT("$prog not built");

sub run {
	my $out = `"$nbsim" @_ -- "$prog" 2>&1`;
	my %v = $out =~ /^(\w+) (\S+)$/mg;
	return ($? >> 8, \%v, $out);
}

sub near { my ($x, $want, $tol) = @_; return defined $x && abs($x - $want) <= $want * $tol }

my %ticks;
for my $model (qw(northwood prescott)) {
	my $tag = "--model=$model";
	my ($rc, $v, $out) = run("--model=$model", '--nbsim-time=simulated');
	is($rc, 0, "$tag: runs") or diag($out);
	ok(near($v->{real_ns}, 2e6, 0.01),
	   "$tag: a 2 ms ITIMER_REAL fires after 2 ms of simulated time (" . ($v->{real_ns} // '?') . ' ns)');
	ok(near($v->{pause_ns}, 30e6, 0.01),
	   "$tag: a 30 ms ITIMER_REAL waited for in pause() takes 30 ms (" . ($v->{pause_ns} // '?') . ' ns)');
	my ($tk, $w) = ($v->{ticks} // -9, $v->{ticks_wall_ns} // 0);
	cmp_ok($w, '>', 2e6, "$tag: the periodic timer's loop runs over 2 ms ($w ns)");
	ok($tk == int($w / 250e3) || $tk == int($w / 250e3) - 1,
	   "$tag: a 0.25 ms ITIMER_REAL ticked $tk times in " . ($w / 1e6) . ' ms');
	$ticks{$model} = $tk;
	is($v->{alarm_first}, 0, "$tag: alarm(5) with none armed returns 0");
	is($v->{alarm_second}, 5, "$tag: alarm(3) returns the 5 s left of alarm(5)");
	is($v->{alarm_cancel}, 3, "$tag: alarm(0) returns the 3 s left");
	is($v->{alarm_after_cancel_us}, 0, "$tag: getitimer after alarm(0): disarmed");
	is($v->{ualarm_first}, 0, "$tag: ualarm(200000, 0) with none armed returns 0");
	ok(($v->{ualarm_cancel} // 0) > 199000 && $v->{ualarm_cancel} <= 200000,
	   "$tag: ualarm(0, 0) returns the microseconds left ($v->{ualarm_cancel})");
	is($v->{child_real_us}, 0, "$tag: a fork's child inherits no ITIMER_REAL");
}

# the same ticks beside two CPU-bound processes (simulated time only)
{
	my @burn;
	for (1 .. 2) {
		my $p = fork() // die "fork: $!";
		if (!$p) { my $x = 0; $x++ while 1; exit 0 }
		push @burn, $p;
	}
	my ($rc, $v) = run('--model=northwood', '--nbsim-time=simulated');
	kill 'KILL', @burn;
	waitpid($_, 0) for @burn;
	is($v->{ticks}, $ticks{northwood}, 'loaded host: the periodic timer ticks the same number of times');
	ok(near($v->{real_ns}, 2e6, 0.01), 'loaded host: the one-shot timer still fires after 2 ms');
}

# --nbsim-time=host: the host's timers
{
	my ($rc, $v, $out) = run('--model=northwood', '--nbsim-time=host');
	is($rc, 0, '--nbsim-time=host: runs') or diag($out);
	cmp_ok($v->{pause_ns} // 0, '>=', 30e6, "--nbsim-time=host: pause() waits for the host's 30 ms timer");
	is($v->{alarm_second}, 5, "--nbsim-time=host: alarm(3) returns the 5 s left (the host's alarm)");
}

done_testing();
