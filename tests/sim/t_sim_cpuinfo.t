#!/usr/bin/perl
# /proc/cpuinfo as a program under nbsim reads it: the modelled part
# (sim/kernel/nb_kern_cpuinfo.c), never the host's CPUs.
# - per model, with and without --ht=yes (cat: openat of the absolute
#   path): one block per logical processor; vendor, family, model,
#   stepping and model name those the guest's own CPUID instruction gives
#   (tests/sim/sim_cpuinfo.c); the flags line as Linux 6.1 prints it for
#   the part's CPUID bits (the expected lines below: the bits of the
#   parts' CPUID dumps cited in sim/cpu/nb_cpu.c, named after Linux's
#   cpufeatures.h); the cache size (the L2, the Xeon MP's L3); the MHz
#   and BogoMIPS of the model's clock; the APIC IDs;
# - stdio's fopen (sim_cpuinfo.c) and CPython's open();
# - lscpu (util-linux), which opens "cpuinfo" relative to a descriptor
#   of /proc (the preload's openat of a relative path).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use SimGuest;

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set');
my $prog = guest_build('sim_cpuinfo');

sub run { my $o = `@_ 2>&1`; return ($? >> 8, $o) }
sub sim { my ($opt, @cmd) = @_; return run("timeout 120 \"$nbsim\" -q $opt -- @cmd") }

my $base = 'fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi ' .
	   'mmx fxsr sse sse2 ss';
my %want = (
	# model => [model, MHz, cache KB, the flags after "ss" (HT's "ht" goes first)]
	willamette => [1, 2000, 256, 'tm syscall lm pebs bts nopl cpuid pti'],
	northwood  => [2, 2800, 512, 'tm pbe syscall lm pebs bts nopl cpuid cid pti'],
	prescott   => [3, 3400, 1024, 'tm pbe syscall nx lm constant_tsc pebs bts nopl cpuid pni dtes64 ' .
		       'monitor ds_cpl cid cx16 xtpr pti'],
	cedarmill  => [6, 3600, 2048, 'tm pbe syscall nx lm constant_tsc pebs bts nopl cpuid pni dtes64 ' .
		       'monitor ds_cpl cid cx16 xtpr lahf_lm pti'],
	xeonmp     => [2, 2800, 2048, 'tm pbe syscall lm pebs bts nopl cpuid cid pti'],
);

for my $model (sort keys %want) {
	my ($mnum, $mhz, $kb, $flags) = @{$want{$model}};
	my ($st, $id) = sim("--model=$model", $prog);
	is($st, 0, "$model: the CPUID probe ran");
	my ($fam, $mod, $step) = $id =~ /^cpuid family (\d+) model (\d+) stepping (\d+)$/m;
	my ($brand) = $id =~ /^cpuid brand (.*)$/m;
	is($mod, $mnum, "$model: CPUID's model is $mnum");
	is(($id =~ /^fopen model name\t: (.*)$/m)[0], $brand, "$model: fopen reads CPUID's brand string");
	for my $ht (0, 1) {
		my $lps = $ht ? 2 : 1;
		my $name = $model . ($ht ? ' --ht=yes' : '');
		my ($s, $o) = sim("--model=$model" . ($ht ? ' --ht=yes' : ''), '/bin/cat', '/proc/cpuinfo');
		is($s, 0, "$name: cat /proc/cpuinfo exits 0");
		my @blocks = grep { /\S/ } split /\n\n/, $o;
		is(scalar @blocks, $lps, "$name: $lps processor block(s)");
		for my $lp (0 .. $#blocks) {
			my %f = $blocks[$lp] =~ /^([^\t\n]+?)\t*: ?(.*)$/mg;
			my $got = join('|', map { $f{$_} // '?' } 'processor', 'vendor_id', 'cpu family', 'model',
				       'stepping', 'model name', 'apicid', 'initial apicid', 'siblings');
			is($got, join('|', $lp, 'GenuineIntel', $fam, $mod, $step, $brand, $lp, $lp, $lps),
			   "$name, processor $lp: the ids CPUID gives (family $fam, model $mod, stepping $step)");
			is($f{flags}, "$base " . ($ht ? 'ht ' : '') . $flags, "$name, processor $lp: the flags");
			is(join('|', map { $f{$_} // '?' } 'cpu MHz', 'bogomips', 'cache size', 'cpu cores'),
			   sprintf('%d.000|%d.00|%d KB|1', $mhz, 2 * $mhz, $kb),
			   "$name, processor $lp: MHz, BogoMIPS, cache size ($kb KB), one core");
		}
	}
}

my ($s, $o) = sim('--model=prescott --ht=yes', '/usr/bin/lscpu');
my %l = $o =~ /^([^:\n]+):\s+(.*?)\s*$/mg;
is(join('|', map { $l{$_} // '?' } 'Vendor ID', 'Model name', 'CPU family', 'Thread(s) per core', 'Address sizes'),
   'GenuineIntel|Intel(R) Pentium(R) 4 CPU 3.40GHz|15|2|36 bits physical, 48 bits virtual',
   'lscpu (/proc/cpuinfo opened relative to a descriptor of /proc): the simulated part');
like($l{Flags} // '', qr/ pni .* xtpr pti$/, 'lscpu: the flags end with the part\'s');
($s, $o) = sim('--model=cedarmill', '/usr/bin/python3', '-c',
	       q{"print(sum(l.startswith('model\t') and l.split(':')[1].strip() == '6' for l in open('/proc/cpuinfo')))"});
is($o, "1\n", "CPython's open(): one processor of model 6");

done_testing();
