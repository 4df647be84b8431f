#!/usr/bin/perl
# Debian's hpcc (HPC Challenge) under nb_stat with 2 MPI ranks (Open MPI,
# as Debian builds hpcc) and the program's clocks simulated
# (--time=simulated), on a small problem (HPL N = 200, the other tests sized
# from it): it reports Success, and the figures it computes from its own
# clocks are the simulated part's: HPL's time within the rank's simulated
# seconds (cycles / MHz), DGEMM under the part's peak (2 double-precision
# flops per cycle: SSE2's one packed add and one packed multiply issue...
# per two cycles each, so at most 2 a cycle), STREAM's triad under the
# L1's 16 bytes per cycle (the arrays fit the caches at this size), and
# both above lower bounds (a tenth of the peak, 2 GB/s: 1.78 Gflop/s and
# 38 GB/s simulated) that figures taken from the host's clocks would miss
# by the slowdown of valgrind, 20-100 times.  (--time=host is not run: its
# run took 8 times the CPU.)  About 15 CPU-s; configure installs hpcc.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $stat = "$ENV{NB_UTILS_BIN}/nb_stat";
-x '/usr/bin/hpcc' or BAIL_OUT('hpcc is not installed (configure installs it)');
-x '/usr/bin/mpirun.openmpi' or BAIL_OUT('Open MPI\'s mpirun is not installed (hpcc depends on it)');
my $dir = tempdir(CLEANUP => 1);

# the example input with N = 200, NB = 40, a 1 x 2 grid
open(my $in, '<', '/usr/share/doc/hpcc/examples/_hpccinf.txt') or BAIL_OUT("hpcc's example input: $!");
open(my $out, '>', "$dir/hpccinf.txt") or die;
while (<$in>) {
	s/^1000(\s+Ns)/200$1/ if $. == 6;
	s/^80(\s+NBs)/40$1/ if $. == 8;
	s/^2(\s+Ps)/1$1/ if $. == 11;
	print $out $_;
}
close $out;

$ENV{OMPI_ALLOW_RUN_AS_ROOT} = 1;
$ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} = 1;

# one run of hpcc on 2 ranks: (exit status, hpcc's results, rank -> cycles, log)
sub hpcc {
	my ($time) = @_;
	unlink glob("$dir/hpccoutf.txt $dir/nb.*");
	my $cmd = "cd $dir && mpirun.openmpi --oversubscribe -np 2 $stat --model=prescott --time=$time "
		. "-x , -o 'nb.%r' -e PAPI_TOT_CYC,PAPI_TOT_INS,PAPI_FP_OPS -- hpcc 2>&1";
	my $log = `$cmd`;
	my $st = $? >> 8;
	my (%h, %cyc);
	if (open(my $f, '<', "$dir/hpccoutf.txt")) {
		while (<$f>) {
			$h{$1} = $2 if /^(\w+)=(\S+)$/;
		}
	}
	for my $r (0, 1) {
		next unless open(my $f, '<', "$dir/nb.$r");
		while (<$f>) {
			$cyc{$r} = $1 if /^(\d+),PAPI_TOT_CYC,/;
		}
	}
	return ($st, \%h, \%cyc, $log);
}

my ($st, $h, $cyc, $log) = hpcc('simulated');
is($st, 0, 'mpirun -np 2 nb_stat --time=simulated -- hpcc') or diag($log);
is($h->{Success}, 1, 'hpcc: Success=1');
cmp_ok($cyc->{$_} // 0, '>', 1e8, "rank $_: its simulated cycles (" . ($cyc->{$_} // '?') . ')') for 0, 1;
my $mhz = 3400;
my $secs = ($cyc->{0} // 0) / ($mhz * 1e6);
my ($hpl, $dgemm, $triad) = map { $h->{$_} // 0 } qw(HPL_time SingleDGEMM_Gflops SingleSTREAM_Triad);
ok($hpl > 0 && $hpl < $secs, "HPL's time ($hpl s) within rank 0's simulated seconds ($secs)");
ok($dgemm >= 0.1 * 2 * $mhz / 1000 && $dgemm <= 2 * $mhz / 1000,
   "DGEMM ($dgemm Gflop/s) between a tenth of the part's peak and the peak, 2 flops a cycle");
ok($triad >= 2 && $triad <= 16 * $mhz / 1000,
   "STREAM triad ($triad GB/s) between 2 GB/s and the L1's 16 bytes a cycle");

done_testing();
