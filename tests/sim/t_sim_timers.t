#!/usr/bin/perl
# Interval timers on the simulated wall clock (nbsim --nbsim-time=simulated;
# ctests/sim_timers.c): a 2 ms ITIMER_REAL over a loop fires after 2 ms of
# simulated time (1%: expiry is checked every few superblocks as it nears,
# and the signal is delivered at the next one, a few hundred cycles); a
# 30 ms ITIMER_REAL waited for in pause() takes 30 ms (the process is idle:
# the wall time passes to the expiry; 1%: the cycles around the wait), the
# same ns run after run and beside two CPU-bound processes; a 1 ms sleep
# while a 50 ms timer runs takes 1 ms (within 1%), not the host's time;
# waits that run out their time (poll, select, epoll_wait, sigtimedwait,
# an absolute clock_nanosleep) take that time (1%), and an event loop
# polling for the time left until a deadline reaches it in 1-3 waits
# (before, the clock stood still across each and the loop never ended);
# futex waits that run out their time (pthread_cond_timedwait on REALTIME
# and with a MONOTONIC condattr 5 ms, sem_timedwait 5 ms,
# pthread_mutex_timedlock 2 ms, a relative FUTEX_WAIT 3 ms) return
# ETIMEDOUT after that time (1%;
# before, the host's kernel read the simulated deadline as past and
# returned at once, no time passed), and a condition signalled by another
# thread before its deadline returns 0 having waited for the signaller's
# loop only (1 ms: its wake-up and the waiter's return);
# a 0.25 ms periodic timer ticks once per
# 0.25 ms of the loop's wall time (floor, or one fewer: armed after the
# clock is read), the same number of times run after run and beside two
# CPU-bound processes; alarm and ualarm return what Linux returns; a fork's
# child has no timer (POSIX).  POSIX timers (timer_create) the same way: a
# 1 ms MONOTONIC one-shot fires after 1 ms (relative and TIMER_ABSTIME),
# its siginfo as Linux's (si_code SI_TIMER, the sigev_value, the timer's
# id); a 20 ms REALTIME one waited for in sigsuspend takes 20 ms; a 0.2 ms
# periodic PROCESS_CPUTIME_ID one ticks once per 0.2 ms of CPU time; a
# SIGEV_NONE THREAD_CPUTIME_ID one runs down by the thread's CPU time
# (within 0.1%: the clock is read a call away from the timer); a bad value
# or signal is EINVAL; SIGEV_THREAD (the host's timer) runs its function.
# With --nbsim-time=host the host's timers run.
# A parent waiting for a child (sim_timers wait: a fork, an exec of a child
# under its own nbsim that runs a fixed loop, wait4): the parent's
# MONOTONIC moves across waitpid to the child's simulated end, at least the
# child's loop and within 1% of the child's time from the fork to its end;
# the children's user time (getrusage, wait4's rusage, times) is the
# child's simulated CPU time, within 1% (it ran a little past its print);
# no file of theirs is left in $TMPDIR.
# A parent's timer while its child works (sim_timers kin: a 2 ms
# ITIMER_REAL, a fork and an exec of a child that loops until SIGTERM,
# sigsuspend, as timeout(1) waits; kinw: in waitpid, its handler sending
# the SIGTERM; nb_simkin.c): the timer expires when the child's simulated
# clock reaches it, not after the host's 2 ms (in which the child's nbsim
# had not even started its program: it died of the SIGTERM); the parent's
# handler runs at 2 ms of its own clock (1%; in waitpid it read 1.9 us
# before, the wait's time not yet passed); the child's clock as it stops
# is past the expiry; no file is left.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/../lib";
use BusyHost;
use File::Temp qw(tempdir);

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set');
my $prog = "$ENV{NB_BUILD}/tests/sim_timers";
-x $prog or BAIL_OUT("$prog not built");

# (a wall-clock backstop: one run, at load, takes seconds; a run once hung
# in sigsuspend under --nbsim-time=host, its timer's signal never taken,
# and held make check for hours: now it fails, exit status 124)
sub run {
	my $out = `timeout -k 10 600 "$nbsim" @_ -- "$prog" 2>&1`;
	my %v = $out =~ /^(\w+) (\S+)$/mg;
	return ($? >> 8, \%v, $out);
}

# sysinfo(2) as the simulated, otherwise idle machine's (nb_sysinfo.c):
# no load, half its memory free, its swap unused, sysconf(_SC_AVPHYS_PAGES)
# from that, its uptime the simulated boot time; the same beside a loaded
# host (GNU sort sizes its buffer by the available memory).
my $machine;
sub machine_ok {
	my ($tag, $v) = @_;
	my $total = $v->{si_totalram} // 0;
	cmp_ok($total, '>', 0, "$tag: sysinfo reports the memory ($total)");
	is($v->{si_freeram}, int($total / 2), "$tag: sysinfo: half of it free");
	is($v->{si_loads}, '0,0,0', "$tag: sysinfo: no load");
	is($v->{si_freeswap}, $v->{si_totalswap}, "$tag: sysinfo: the swap unused");
	is($v->{si_bufferram}, 0, "$tag: sysinfo: no buffers");
	my $pages = int(int($total / 2) * ($v->{si_mem_unit} // 0) / ($v->{page_size} || 1));
	is($v->{avphys_pages}, $pages, "$tag: sysconf(_SC_AVPHYS_PAGES) follows ($pages)");
	is($v->{si_uptime}, $v->{boottime_s}, "$tag: sysinfo's uptime is the simulated CLOCK_BOOTTIME");
	$machine = join(' ', map { $v->{$_} // '?' } qw(si_freeram si_loads avphys_pages));
}

sub near { my ($x, $want, $tol) = @_; return defined $x && abs($x - $want) <= $want * $tol }

my (%ticks, %pticks, %waits);
for my $model (qw(northwood prescott)) {
	my $tag = "--model=$model";
	my ($rc, $v, $out) = run("--model=$model", '--nbsim-time=simulated');
	is($rc, 0, "$tag: runs") or diag($out);
	ok(near($v->{real_ns}, 2e6, 0.01),
	   "$tag: a 2 ms ITIMER_REAL fires after 2 ms of simulated time (" . ($v->{real_ns} // '?') . ' ns)');
	ok(near($v->{pause_ns}, 30e6, 0.01),
	   "$tag: a 30 ms ITIMER_REAL waited for in pause() takes 30 ms (" . ($v->{pause_ns} // '?') . ' ns)');
	ok(near($v->{sleep_armed_ns}, 1e6, 0.01),
	   "$tag: a 1 ms sleep while a 50 ms ITIMER_REAL runs takes 1 ms (" . ($v->{sleep_armed_ns} // '?') . ' ns)');
	for ([to_poll_ns => 5e6, 'poll 5 ms'], [to_select_ns => 3e6, 'select 3 ms'],
	     [to_epoll_ns => 2e6, 'epoll_wait 2 ms'], [to_sigwait_ns => 1e6, 'sigtimedwait 1 ms'],
	     [to_abs_ns => 4e6, 'clock_nanosleep to MONOTONIC + 4 ms (TIMER_ABSTIME)']) {
		my ($k, $want, $what) = @$_;
		ok(near($v->{$k}, $want, 0.01),
		   "$tag: $what that runs out its time takes its time (" . ($v->{$k} // '?') . ' ns)');
	}
	for ([fx_cond_real => 5e6, 'pthread_cond_timedwait to REALTIME + 5 ms'],
	     [fx_cond_mono => 5e6, 'pthread_cond_timedwait to MONOTONIC + 5 ms (condattr)'],
	     [fx_sem => 5e6, 'sem_timedwait to REALTIME + 5 ms'],
	     [fx_mutex => 2e6, 'pthread_mutex_timedlock of a held mutex to REALTIME + 2 ms'],
	     [fx_rel => 3e6, 'FUTEX_WAIT (relative) for 3 ms']) {
		my ($k, $want, $what) = @$_;
		is($v->{"${k}_rc"}, 110, "$tag: $what returns ETIMEDOUT");
		ok(near($v->{"${k}_ns"}, $want, 0.01),
		   "$tag: ... after its time (" . ($v->{"${k}_ns"} // '?') . ' ns)');
	}
	is($v->{fx_signalled_rc}, 0,
	   "$tag: pthread_cond_timedwait signalled by another thread before its deadline returns 0");
	my ($sw, $sl) = ($v->{fx_signalled_ns} // 0, $v->{fx_signaller_ns} // 0);
	ok($sl > 0 && $sw >= $sl && $sw < $sl + 1e6,
	   "$tag: ... having waited for the signaller's loop, none of its 60 s ($sw ns, the loop $sl)");
	ok(($v->{deadline_waits} // -1) >= 1 && $v->{deadline_waits} <= 3,
	   "$tag: polling until a deadline 10 ms ahead (an event loop) reaches it in a few waits ("
	   . ($v->{deadline_waits} // '?') . ')');
	$waits{$model} = join(' ', map { $v->{$_} // '?' } qw(pause_ns pt_wait_ns sleep_armed_ns to_poll_ns to_abs_ns
							     fx_cond_real_ns fx_cond_mono_ns fx_sem_ns fx_mutex_ns fx_rel_ns));
	my ($tk, $w) = ($v->{ticks} // -9, $v->{ticks_wall_ns} // 0);
	cmp_ok($w, '>', 2e6, "$tag: the periodic timer's loop runs over 2 ms ($w ns)");
	ok($tk == int($w / 250e3) || $tk == int($w / 250e3) - 1,
	   "$tag: a 0.25 ms ITIMER_REAL ticked $tk times in " . ($w / 1e6) . ' ms');
	$ticks{$model} = $tk;
	$pticks{$model} = $v->{pt_ticks};
	machine_ok($tag, $v) if $model eq 'northwood';
	is($v->{alarm_first}, 0, "$tag: alarm(5) with none armed returns 0");
	is($v->{alarm_second}, 5, "$tag: alarm(3) returns the 5 s left of alarm(5)");
	is($v->{alarm_cancel}, 3, "$tag: alarm(0) returns the 3 s left");
	is($v->{alarm_after_cancel_us}, 0, "$tag: getitimer after alarm(0): disarmed");
	is($v->{ualarm_first}, 0, "$tag: ualarm(200000, 0) with none armed returns 0");
	ok(($v->{ualarm_cancel} // 0) > 199000 && $v->{ualarm_cancel} <= 200000,
	   "$tag: ualarm(0, 0) returns the microseconds left ($v->{ualarm_cancel})");
	is($v->{child_real_us}, 0, "$tag: a fork's child inherits no ITIMER_REAL");
	ok(near($v->{pt_mono_ns}, 1e6, 0.01),
	   "$tag: a 1 ms MONOTONIC timer_create timer fires after 1 ms (" . ($v->{pt_mono_ns} // '?') . ' ns)');
	ok(near($v->{pt_abs_ns}, 1e6, 0.01),
	   "$tag: ... armed with TIMER_ABSTIME too (" . ($v->{pt_abs_ns} // '?') . ' ns)');
	is($v->{pt_code}, -2, "$tag: its siginfo's si_code is SI_TIMER");
	is($v->{pt_value}, 42, "$tag: its siginfo carries the sigev_value");
	is($v->{pt_id_matches}, 1, "$tag: its siginfo names the timer");
	ok(near($v->{pt_wait_ns}, 20e6, 0.01),
	   "$tag: a 20 ms REALTIME timer waited for in sigsuspend takes 20 ms (" . ($v->{pt_wait_ns} // '?') . ' ns)');
	my ($pk, $pc) = ($v->{pt_ticks} // -9, $v->{pt_cpu_ns} // 0);
	cmp_ok($pc, '>', 2e6, "$tag: the CPU-time timer's loop runs over 2 ms of CPU ($pc ns)");
	ok($pk == int($pc / 200e3) || $pk == int($pc / 200e3) - 1,
	   "$tag: a 0.2 ms PROCESS_CPUTIME_ID timer ticked $pk times in " . ($pc / 1e6) . ' ms of CPU');
	my ($ran, $th) = ($v->{pt_none_ran_ns} // 0, $v->{pt_thread_cpu_ns} // 0);
	ok($th > 1e6 && near($ran, $th, 0.001),
	   "$tag: a SIGEV_NONE THREAD_CPUTIME_ID timer ran down by the thread's CPU time ($ran against $th ns)");
	is($v->{pt_bad_value}, 22, "$tag: timer_settime with tv_nsec 2e9: EINVAL");
	is($v->{pt_bad_signal}, 22, "$tag: timer_create with signal 0: EINVAL");
	is($v->{pt_thread_fn}, 5, "$tag: a SIGEV_THREAD timer (the host's) runs its function");
}

# the same ticks beside two CPU-bound processes (simulated time only)
{
	my ($rc, $v) = beside_busy_loops(sub { run('--model=northwood', '--nbsim-time=simulated') });
	is($v->{ticks}, $ticks{northwood}, 'loaded host: the periodic timer ticks the same number of times');
	ok(near($v->{real_ns}, 2e6, 0.01), 'loaded host: the one-shot timer still fires after 2 ms');
	is($v->{pt_ticks}, $pticks{northwood}, 'loaded host: the CPU-time POSIX timer ticks the same number of times');
	is(join(' ', map { $v->{$_} // '?' } qw(pause_ns pt_wait_ns sleep_armed_ns to_poll_ns to_abs_ns
							     fx_cond_real_ns fx_cond_mono_ns fx_sem_ns fx_mutex_ns fx_rel_ns)), $waits{northwood},
	   'loaded host: the waits in pause(), sigsuspend, a sleep under a timer and the futex waits take the same ns');
	is(join(' ', map { $v->{$_} // '?' } qw(si_freeram si_loads avphys_pages)), $machine,
	   'loaded host: sysinfo\'s free memory and load and sysconf\'s available pages are the same');
}

# a parent's clock while it waits for a child under nbsim (one more nbsim)
{
	my $tmp = tempdir(CLEANUP => 1);
	my $out = `TMPDIR="$tmp" timeout -k 10 600 "$nbsim" --model=northwood -- "$prog" wait 2>&1`;
	my %v = $out =~ /^(\w+) (\S+)$/mg;
	is($? >> 8, 0, 'wait: the parent and its exec\'d child run') or diag($out);
	my ($w, $loop) = ($v{wait_ns} // 0, $v{child_loop_ns} // 0);
	my $child = ($v{child_end_ns} // 0) - ($v{wait_t0_ns} // 0);
	cmp_ok($loop, '>', 2e6, "wait: the child's loop takes over 2 ms ($loop ns)");
	cmp_ok($w, '>=', $loop, "wait: the parent's MONOTONIC across waitpid passes the child's loop ($w ns)");
	ok($child > 0 && $w >= $child && $w <= $child * 1.01,
	   "wait: ... and reaches the child's end, within 1% ($w ns against $child from the fork)");
	my $cpu = $v{child_cpu_ns} // 0;
	ok($cpu > 0 && near(($v{wait_cutime_us} // 0) * 1e3, $cpu, 0.01),
	   "wait: getrusage(RUSAGE_CHILDREN) is the child's simulated CPU time ($v{wait_cutime_us} us, child $cpu ns)");
	ok(near(($v{wait_ru_us} // 0) * 1e3, $cpu, 0.01), "wait: so is wait4's rusage ($v{wait_ru_us} us)");
	my $tck = $v{clk_tck} || 100;
	my $ticks = int(($v{wait_cutime_us} // 0) * $tck / 1e6);
	is($v{wait_tms_cutime}, $ticks, "wait: times()' tms_cutime is that time in ticks ($ticks)");
	my @left = glob("$tmp/nbsim-time-*");
	is("@left", '', 'wait: no exec or children\'s file is left in $TMPDIR');
}

# a parent's timer on its child's simulated time (a pair of nbsims each;
# the child runs a little over 2 ms of simulated time): waiting in
# sigsuspend (kin), in waitpid with the handler killing the child (kinw)
for my $mode (qw(kin kinw)) {
	my $tmp = tempdir(CLEANUP => 1);
	my $out = `TMPDIR="$tmp" timeout -k 10 600 "$nbsim" --model=northwood -- "$prog" $mode 2>&1`;
	my %v = $out =~ /^(\w+) (\S+)$/mg;
	is($? >> 8, 0, "$mode: the parent and its exec'd child run") or diag($out);
	is($v{kin_status}, 3, "$mode: the child was running its loop when the parent's 2 ms timer expired (exit status 3: stopped by its SIGTERM handler)")
		or diag($out);
	ok(near($v{kin_fire_ns}, 2e6, 0.01), "$mode: the parent's handler runs 2 ms after it armed the timer, by its clock (" . ($v{kin_fire_ns} // '?') . ' ns)');
	my $child = ($v{kin_child_ns} // 0) - ($v{kin_t0_ns} // 0);
	cmp_ok($child, '>=', 2e6, "$mode: the child's simulated clock had passed the expiry when it stopped ($child ns from the arming)");
	my @left = glob("$tmp/nbsim-time-*");
	is("@left", '', "$mode: no file of theirs is left in \$TMPDIR");
}

# a process waiting in sigsuspend with a timer armed is not idle while it
# has a child: coreutils' timeout(1) must let its command finish (when the
# timer's expiry was taken at once, the command was killed: status 124)
{
	my $out = `timeout -k 10 300 "$nbsim" -- timeout 30 /bin/sh -c 'echo finished' 2>&1`;
	my $st = $? >> 8;
	ok($st == 0 && $out =~ /^finished$/m,
	   "timeout 30 sh -c 'echo finished' under nbsim: the command finishes (status $st)") or diag($out);
}

# --nbsim-time=host: the host's timers
{
	my ($rc, $v, $out) = run('--model=northwood', '--nbsim-time=host');
	is($rc, 0, '--nbsim-time=host: runs') or diag($out);
	cmp_ok($v->{pause_ns} // 0, '>=', 30e6, "--nbsim-time=host: pause() waits for the host's 30 ms timer");
	is($v->{alarm_second}, 5, "--nbsim-time=host: alarm(3) returns the 5 s left (the host's alarm)");
}

done_testing();
