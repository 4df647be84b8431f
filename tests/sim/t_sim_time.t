#!/usr/bin/perl
# Simulated time (nbsim --nbsim-time=simulated): a program
# that times one loop with RDTSC, clock_gettime (vDSO and system call),
# gettimeofday, clock(), getrusage and PAPI's timers reads, through each,
# the cycles PAPI_TOT_CYC counts around the same loop, at the modelled
# part's clock (ctests/sim_time.c).  Tolerance 1%: the clocks are read a
# few hundred instructions apart from the counter's start and stop (PAPI's
# own calls), at most 0.1% of the 12 M-cycle loop; RDTSC on family 15
# counts the core clock on models 0-2 and a constant rate on models 3 and
# later, which nbsim (no frequency changes) models as the nominal clock.
# A 1 ms ITIMER_PROF ticks once per simulated ms of CPU time (floor(ms), or
# one fewer: it is armed after the CPU clock is read).  A 10 ms nanosleep
# passes 10 ms on the wall clock; a STREAM triad timed by
# the program stays under the modelled front-side bus (800 MT/s x 8 bytes,
# sim/cpu/nb_bus.c); the figures are the same run after run and with the host
# loaded (they depend on the simulated cycles only); the default is the
# simulated time, the same figures; --nbsim-time=host gives the host's.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/../lib";
use BusyHost;

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set');
my $prog = "$ENV{NB_BUILD}/tests/sim_time";
-x $prog or BAIL_OUT("$prog not built");

sub run {
	my $out = `"$nbsim" --nbsim-time=simulated @_ -- "$prog" 2>&1`;
	my %v = $out =~ /^(\w+) (\S+)$/mg;
	return ($? >> 8, \%v, $out);
}

my @clocks = qw(rdtsc monotonic realtime thread_cputime process_cputime gettimeofday clock
		getrusage syscall_monotonic PAPI_get_real_cyc PAPI_get_real_nsec PAPI_get_virt_usec);
my %mhz = (northwood => 2800, prescott => 3400, willamette => 2000, cedarmill => 3600,
	   xeonmp => 2800);
# each part's front-side bus: 8 bytes x its transfer rate (sim/cpu/nb_bus.c:
# 400 MT/s on Willamette and Gallatin, 800 MT/s on the others)
my %bus = (willamette => 3.2e9, northwood => 6.4e9, prescott => 6.4e9, cedarmill => 6.4e9,
	   xeonmp => 3.2e9);
my %first;
for my $model (qw(willamette northwood prescott cedarmill xeonmp)) {
	for my $ht ('no', 'yes') {
		my $tag = "--model=$model --ht=$ht";
		my ($rc, $v, $out) = run("--model=$model", "--ht=$ht");
		is($rc, 0, "$tag: runs") or diag($out);
		is($v->{mhz}, $mhz{$model}, "$tag: PAPI reports the part's clock");
		my $cyc = $v->{PAPI_TOT_CYC} // 0;
		cmp_ok($cyc, '>', 1e7, "$tag: the loop's PAPI_TOT_CYC ($cyc)");
		for my $c (@clocks) {
			my $x = $v->{$c} // -1;
			ok(abs($x - $cyc) <= $cyc / 100,
			   "$tag: $c reads the simulated cycles within 1% ($x against $cyc)");
		}
		my ($tk, $cpu) = ($v->{itimer_ticks} // -9, $v->{itimer_cpu_ns} // 0);
		# floor(ms) ticks, or one fewer: the timer is armed a few
		# hundred cycles after the CPU clock is read
		ok($tk == int($cpu / 1e6) || $tk == int($cpu / 1e6) - 1,
		   "$tag: a 1 ms ITIMER_PROF ticked $tk times in " . ($cpu / 1e6) . ' ms of CPU');
		my $sl = $v->{sleep_ns} // 0;
		ok($sl >= 10e6 && $sl < 10.5e6, "$tag: a 10 ms sleep takes 10 ms of wall time ($sl ns)");
		my $bw = $v->{triad_bytes_per_second} // 0;
		ok($bw > 0.5e9 && $bw < $bus{$model},
		   "$tag: the triad's bandwidth ($bw B/s) is under the bus's $bus{$model} B/s");
		$first{$tag} = $out;
	}
}

# the same figures again with two CPU-bound processes beside it
{
	my ($rc, $v, $out) = beside_busy_loops(sub { run('--model=prescott', '--ht=no') });
	my (undef, $w) = run('--model=prescott', '--ht=no');   # (unloaded, again)
	# every figure exactly: the loop's cycles, and the clocks' readings,
	# whose phase within their second is the simulated cycles' alone
	# (each clock starts at a whole second; the program's maps, which
	# PAPI's start-up parses, are the same every run: nbsim --aslr=no)
	for my $k (qw(PAPI_TOT_CYC phase_mono_ns phase_real_ns phase_tsc itimer_ticks sleep_ns), @clocks) {
		is($v->{$k}, $w->{$k}, "loaded host: $k the same (" . ($v->{$k} // '?') . ')');
	}
}

# the default is the simulated time: the same figures as
# --nbsim-time=simulated's (they depend on the simulated cycles only)
{
	my ($st, $v, $out) = run();
	my $d = `"$nbsim" -- "$prog" 2>&1`;
	my %w = $d =~ /^(\w+) (\S+)$/mg;
	is($? >> 8, 0, 'the default: runs') or diag($d);
	# (exactly, but for the rounding of absolute times to whole ns: above)
	for my $k (qw(rdtsc PAPI_TOT_CYC)) {
		is($w{$k}, $v->{$k}, "the default is simulated time: $k as under --nbsim-time=simulated");
	}
	for my $k (qw(monotonic sleep_ns)) {
		ok(abs(($w{$k} // -1e9) - ($v->{$k} // 1e9)) <= 2 * 3.4 + 1,
		   "the default is simulated time: $k as under --nbsim-time=simulated, within its rounding "
		   . "($w{$k} and $v->{$k})");
	}
}

# --nbsim-time=host: the host's clocks (valgrind runs the loop many times
# slower than the simulated part would)
for my $o ('--nbsim-time=host') {
	my $out = `"$nbsim" $o -- "$prog" 2>&1`;
	my %v = $out =~ /^(\w+) (\S+)$/mg;
	my $tag = $o;
	is($? >> 8, 0, "$tag: runs") or diag($out);
	cmp_ok($v{monotonic} // 0, '>', 1.5 * ($v{PAPI_TOT_CYC} // 1e18),
	       "$tag: CLOCK_MONOTONIC is the host's");
	cmp_ok($v{sleep_ns} // 0, '>=', 10e6, "$tag: the sleep is the host's");
	cmp_ok($v{rdtsc} // 0, '>', 1.5 * ($v{PAPI_TOT_CYC} // 1e18),
	       "$tag: RDTSC is the host's TSC (it once read a constant)");
}
my $bad = `"$nbsim" --nbsim-time=later -- /bin/true 2>&1`;
isnt($? >> 8, 0, '--nbsim-time=later: refused');
like($bad, qr/host, simulated/, '--nbsim-time=later: the values named');
done_testing();
