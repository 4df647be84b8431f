#!/usr/bin/perl
# PAPI's own timer tests, unchanged, on nbsim's default time (simulated:
# docs/simulated-time.md), where the PAPI suites run on the host's
# (lib/PapiSuite.pm).  PAPI's timers (PAPI_get_real_cyc/usec from the TSC
# and clock_gettime, PAPI_get_virt_* from the thread's CPU clock) then tell
# the simulated part's time: the cycles per microsecond they print are the
# model's clock, and the real cycles of a region are its PAPI_TOT_CYC.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;
use Test::More;

my $nbsim = $ENV{NBSIM} or die "NBSIM not set\n";
my $ct = "$ENV{NB_PAPI_SRC}/ctests";

# run a ctest on MODEL with nbsim's default time -> (status, output)
sub ctest {
	my ($model, $name, @args) = @_;
	my ($st, $out) = PapiSuite::run_one($ct, [$nbsim, '-q', "--model=$model",
		'--nbsim-clock=fast', '--', "./$name", @args], 120);
	return ($st, $out);
}

sub near {
	my ($x, $want, $tol) = @_;
	return defined $x && $want && abs($x - $want) <= $tol * $want;
}

for my $m ([prescott => 3400], [northwood => 2800]) {
	my ($model, $mhz) = @$m;
	# zero: 200 M instructions counted with PAPI_TOT_CYC, timed by
	# PAPI's four timers around the same region
	my ($st, $out) = ctest($model, 'zero');
	ok(PapiSuite::passed($st, $out), "$model: zero passes on simulated time") or diag($out);
	my %v = map { /^(PAPI_TOT_CYC|Real usec|Real cycles|Virt usec|Virt cycles)\s*:\s*(\d+)/ ? ($1 => $2) : () }
		split /\n/, $out;
	ok(near($v{'Real cycles'}, $v{PAPI_TOT_CYC}, 0.01),
	   "$model: zero's real cycles ($v{'Real cycles'}) are its PAPI_TOT_CYC ($v{PAPI_TOT_CYC}) within 1%");
	ok(near($v{'Real cycles'} / ($v{'Real usec'} || 1), $mhz, 0.001),
	   "$model: real cycles / real usec ($v{'Real cycles'} / $v{'Real usec'}) is the model's $mhz MHz");
	ok(near($v{'Virt cycles'}, $v{PAPI_TOT_CYC}, 0.01) &&
	   near($v{'Virt cycles'} / ($v{'Virt usec'} || 1), $mhz, 0.001),
	   "$model: virtual cycles ($v{'Virt cycles'}) and usec ($v{'Virt usec'}): the same clock");
	# virttime: a 10 s sleep passes no CPU time
	($st, $out) = ctest($model, 'virttime');
	my ($us, $cyc) = $out =~ /^(\d+) us\. (\d+) cyc\.$/m;
	ok(PapiSuite::passed($st, $out) && defined $us && $us < 100 && $cyc < 100 * $mhz,
	   "$model: virttime: sleep(10) takes no CPU time ($us us, $cyc cycles)") or diag($out);
}

# realtime: a 10 s sleep takes 10 s of wall time at the model's clock
# (the sleep is the host's too: this takes 10 s)
my ($st, $out) = ctest('northwood', 'realtime');
my ($us, $cyc) = $out =~ /^(\d+) us\. (\d+) cyc\.$/m;
my ($mhz) = $out =~ /^([\d.]+) Computed MHz\.$/m;
ok(PapiSuite::passed($st, $out) && near($us, 10_000_000, 0.001) && near($mhz, 2800, 0.001),
   "northwood: realtime: sleep(10) is 10 s ($us us) of real time at 2800 MHz ($mhz)") or diag($out);

# papi_clockres: the latency of PAPI's timers in simulated cycles, the same
# every run (under the host's time a PAPI_get_real_cyc under valgrind
# takes thousands of the host's cycles); the microsecond timers tick once
# per simulated microsecond
{
	my ($st, $out) = PapiSuite::run_one("$ENV{NB_PAPI_SRC}/utils", [$nbsim, '-q',
		'--model=prescott', '--nbsim-clock=fast', '--', './papi_clockres'], 120);
	my ($avg) = $out =~ /^PAPI_get_real_cyc :\s+([\d.]+)/m;
	my ($vmax) = $out =~ /^PAPI_get_virt_cyc :\s+[\d.]+\s+([\d.]+)/m;
	ok($st == 0 && defined $avg && $avg >= 1 && $avg < 100,
	   "papi_clockres: PAPI_get_real_cyc takes $avg simulated cycles") or diag($out);
	ok(defined $vmax && $vmax == 3400,
	   "papi_clockres: PAPI_get_virt_cyc's step is one simulated microsecond ($vmax cycles at 3400 MHz)")
		or diag($out);
	my ($st2, $out2) = PapiSuite::run_one("$ENV{NB_PAPI_SRC}/utils", [$nbsim, '-q',
		'--model=prescott', '--nbsim-clock=fast', '--', './papi_clockres'], 120);
	my ($avg2) = $out2 =~ /^PAPI_get_real_cyc :\s+([\d.]+)/m;
	is($avg2, $avg, 'papi_clockres: the same latency on a second run (simulated, not measured on the host)');
}

# threads and a fork on simulated time: PAPI's own checks
for my $t (qw(zero_pthreads zero_fork)) {
	($st, $out) = ctest('prescott', $t, 'TESTS_QUIET');
	ok(PapiSuite::passed($st, $out), "prescott: $t passes on simulated time") or diag($out);
}
done_testing();
