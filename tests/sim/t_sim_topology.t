#!/usr/bin/perl
# The machine's CPU topology as a program under nbsim sees it: the
# simulated part's (sim/kernel/nb_kern_topo.c), one core of one package
# with one logical processor, or two with --ht=yes, never the host's CPUs
# (this host's cores have one thread each, so its thread_siblings_list
# is one CPU where a Hyper-Threading Pentium 4's is both).
# - libgomp's places (tests/sim/sim_topology.c omp): OMP_PLACES=threads
#   with OMP_PROC_BIND=close puts thread N on CPU N; cores, ll_caches:
#   one place of both CPUs (libgomp groups the CPUs by
#   thread_siblings_list and the caches' shared_cpu_list);
# - the files, read with open/read and with fopen (sim_topology read):
#   cpuN/topology, cpuN/online, cpuN/cache, node/, and a cpuN beyond the
#   simulated ones ENOENT; the cpu directory's listing;
# - PAPI's papi_hardware_avail (sysdetect: CPUID leaf 4 on Prescott,
#   patches/papi-7.0.0-sysdetect-leaf4-mask.patch; the sysfs files on
#   Northwood, whose maximum leaf is 2): 1 socket, 1 core, 1 or 2
#   threads per core, one NUMA node, where it crashed under --ht=yes;
#   and on Prescott the caches of leaf 4 by their type, where it printed
#   the L1 data cache as an L1i of 16 KB and an L1d of 0 KB;
# - hwloc (hwloc-calc): the cores and PUs.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use SimGuest;

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set');
my $papi = $ENV{NB_PAPI_SRC} or BAIL_OUT('NB_PAPI_SRC not set');
my $prog = guest_build('sim_topology', '-fopenmp');

sub run { my $o = `@_ 2>&1`; return ($? >> 8, $o) }
sub sim { my ($env, $opt, @a) = @_; return (run("env $env timeout 60 \"$nbsim\" -q $opt -- $prog @a"))[1] }

# --- libgomp ---
my $bind = 'OMP_PROC_BIND=close';
is(sim("OMP_PLACES=threads $bind", '--ht=yes', 'omp'),
   "places 2: {0} {1}\nthread 0 place 0 cpu 0\nthread 1 place 1 cpu 1\n",
   '--ht=yes, OMP_PLACES=threads, OMP_PROC_BIND=close: 2 places of one CPU; thread N on place N, sched_getcpu N');
like(sim("OMP_PLACES=cores $bind", '--ht=yes', 'omp'),
     qr/\Aplaces 1: \{0,1\}\nthread 0 place 0 cpu [01]\nthread 1 place 0 cpu [01]\n\z/,
     '--ht=yes, OMP_PLACES=cores: one place of both CPUs, the siblings of one core (the host: 2 places)');
like(sim("OMP_PLACES=ll_caches $bind", '--ht=yes', 'omp'),
     qr/\Aplaces 1: \{0,1\}\n/, '--ht=yes, OMP_PLACES=ll_caches: one place (the L2 both share)');
is(sim("OMP_PLACES=threads $bind", '', 'omp'),
   "places 1: {0}\nthread 0 place 0 cpu 0\nthread 1 place 0 cpu 0\n",
   'without HT, OMP_PLACES=threads: one place {0}, both threads on CPU 0');

# --- the files, with open/read and with fopen ---
my $c = '/sys/devices/system/cpu';
my %ht = (
	"$c/cpu0/topology/thread_siblings_list" => '0-1',
	"$c/cpu0/topology/thread_siblings" => '3',
	"$c/cpu1/topology/thread_siblings_list" => '0-1',
	"$c/cpu0/topology/core_siblings_list" => '0-1',
	"$c/cpu0/topology/core_siblings" => '3',
	"$c/cpu1/topology/core_cpus_list" => '0-1',
	"$c/cpu1/topology/package_cpus_list" => '0-1',
	"$c/cpu1/topology/core_id" => '0',
	"$c/cpu1/topology/physical_package_id" => '0',
	"$c/cpu1/topology/die_id" => '0',
	"$c/cpu0/topology/cluster_id" => '0',
	"$c/cpu0/online" => 'ENOENT',
	"$c/cpu1/online" => '1',
	"$c/cpu2/topology/core_id" => 'ENOENT',
	"$c/cpu0/cache/index0/size" => '16K',
	"$c/cpu0/cache/index0/type" => 'Data',
	"$c/cpu1/cache/index1/size" => '1024K',
	"$c/cpu1/cache/index1/shared_cpu_list" => '0-1',
	"$c/cpu0/cache/index2/level" => 'ENOENT',
	'/sys/devices/system/node/online' => '0',
	'/sys/devices/system/node/node0/cpulist' => '0-1',
	'/sys/devices/system/node/node1/cpulist' => 'ENOENT',
	'/sys/devices/system//cpu/cpu1/topology/core_id' => '0',
	"$c/smt/active" => '1',
);
my %one = (
	"$c/cpu0/topology/thread_siblings_list" => '0',
	"$c/cpu0/topology/core_siblings_list" => '0',
	"$c/cpu0/topology/package_cpus" => '1',
	"$c/cpu0/topology/core_id" => '0',
	"$c/cpu1/topology/core_id" => 'ENOENT',
	"$c/cpu1/online" => 'ENOENT',
	"$c/cpu0/cache/index1/shared_cpu_list" => '0',
	'/sys/devices/system/node/node0/cpulist' => '0',
	"$c/smt/control" => 'notsupported',
);
my %nw = (
	"$c/cpu0/topology/cluster_id" => '65535',
	"$c/cpu0/cache/index0/level" => 'ENOENT',
	"$c/cpu1/topology/thread_siblings_list" => '0-1',
);
for my $case (['--ht=yes', \%ht, '--ht=yes'], ['', \%one, 'without HT'],
	      ['--ht=yes --model=northwood', \%nw, 'northwood --ht=yes']) {
	my ($opt, $want, $name) = @$case;
	my @p = sort keys %$want;
	my $o = sim('', $opt, 'read', @p);
	my $exp = join('', map { "$_: open=$want->{$_} fopen=$want->{$_}\n" } @p);
	is($o, $exp, "$name: " . scalar(@p) . ' topology files read with open/read and fopen');
}
is(sim('', '--ht=yes', 'list', $c), "$c: cpu0 cpu1\n", '--ht=yes: the cpu directory lists cpu0 and cpu1');
is(sim('', '', 'list', $c), "$c: cpu0\n", 'without HT: cpu0 alone (the host has more)');
is(sim('', '', 'list', '/sys/devices/system/node'), "/sys/devices/system/node: node0\n", 'one NUMA node');

# --- papi_hardware_avail ---
for my $model (qw(prescott northwood)) {
	for my $ht (0, 1) {
		my ($st, $o) = run("timeout 120 \"$nbsim\" -q --model=$model" . ($ht ? ' --ht=yes' : '') .
				   " -- $papi/utils/papi_hardware_avail");
		my %f = $o =~ /^(Sockets|Numa regions|Cores per socket|SMT threads per core|Numa Node 0 Threads)\s*: *(.*?)\s*$/mg;
		my $got = join(', ', map { "$_ " . ($f{$_} // '?') }
			       ('Sockets', 'Numa regions', 'Cores per socket', 'SMT threads per core', 'Numa Node 0 Threads'));
		my $want = 'Sockets 1, Numa regions 1, Cores per socket 1, SMT threads per core ' . ($ht ? 2 : 1) .
			   ', Numa Node 0 Threads ' . ($ht ? '0 1' : '0');
		is("$st: $got", "0: $want", "papi_hardware_avail, $model" . ($ht ? ' --ht=yes' : '') . ": exits 0, $want");
		next unless $model eq 'prescott';
		# CPUID leaf 4: an L1 data cache and the L2, no L1 instruction
		# cache (patches/papi-7.0.0-sysdetect-cache-type.patch)
		my @c = map { s/\s+/ /gr } $o =~ /^(L\d\w? Cache\s*: .*?)\s*$/mg;
		is(join(' | ', @c), 'L1d Cache : Size/LineSize/Lines/Assoc 16KB/64B/256/8 | ' .
		   'L2 Cache : Size/LineSize/Lines/Assoc 1024KB/64B/16384/8',
		   "papi_hardware_avail, prescott" . ($ht ? ' --ht=yes' : '') . ': the L1d (no L1i: the trace cache) and the L2');
	}
}

# --- hwloc ---
SKIP: {
	skip('hwloc-calc not installed (Debian package hwloc-nox)', 2) unless -x '/usr/bin/hwloc-calc';
	my $n = join(' ', map { (run("\"$nbsim\" -q --ht=yes -- /usr/bin/hwloc-calc --number-of $_ all"))[1] =~ /^(\d+)$/m ? $1 : '?' }
		     qw(package core pu));
	is($n, '1 1 2', 'hwloc under --ht=yes: 1 package, 1 core, 2 PUs');
	$n = join(' ', map { (run("\"$nbsim\" -q -- /usr/bin/hwloc-calc --number-of $_ all"))[1] =~ /^(\d+)$/m ? $1 : '?' }
		  qw(package core pu));
	is($n, '1 1 1', 'hwloc without HT: 1 package, 1 core, 1 PU');
}
done_testing();
