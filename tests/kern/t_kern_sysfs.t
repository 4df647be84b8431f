#!/usr/bin/perl
# The P4 PMU's sysfs description under nbsim (sim/kernel/nb_kern_sysfs.c,
# vg_preload_sysfs.c) as Linux shows it on a NetBurst, and `perf list`
# over it:
#  - /sys/bus/event_source/devices/cpu/events/ is there and empty: the x86
#    core empties its generic-event alias group for a driver without
#    events_sysfs_show (arch/x86/events/core.c init_hw_perf_events:
#    x86_pmu_events_group.attrs = &empty_attrs), and p4.c's p4_pmu sets
#    none; rdpmc 1 and perf_event_mux_interval_ms 4 beside type, format/
#    and caps/;
#  - /sys/bus/event_source/devices lists the PMUs Linux 6.1 registers on
#    a NetBurst (cpu, msr, and the software context's breakpoint, kprobe,
#    software, tracepoint, uprobe: those the host has, whose kernel serves
#    them) and no other host PMU; msr's events/ has only tsc;
#  - perf list (Debian's perf, if installed): the Hardware events are the
#    ten PERF_COUNT_HW_* the driver opens (p4_general_events and the three
#    its event map accepts with no event: ref-cycles, stalled-cycles-*),
#    the Hardware cache events those p4_hw_cache_event_ids maps (L1D,
#    LL, DTLB read misses, DTLB write misses, ITLB read accesses and
#    misses), and no cpu/.../ Kernel PMU event (events/ is empty).
use strict;
use warnings;
use Test::More;

my $nbsim = $ENV{NBSIM} or BAIL_OUT('NBSIM not set (run through make check)');
my $d = '/sys/bus/event_source/devices/cpu';
use File::Temp qw(tempdir);
my $tmp = tempdir(CLEANUP => 1);
open(my $pf, '>', "$tmp/probe.pl") or die;
print $pf <<"EOP";
opendir(L, "/sys/bus/event_source/devices") or die "opendir: \$!\n";
print "devices: [", join(" ", sort grep { !/^\\\./ } readdir L), "]\n";
if (opendir(M, "/sys/bus/event_source/devices/msr/events")) {
	print "msr events: [", join(" ", sort grep { !/^\\\./ } readdir M), "]\n";
}
for my \$h (\@ARGV) {
	print "host-only \$h: ", (-e "/sys/bus/event_source/devices/\$h/type" ? "present" : "absent"), "\n";
}
opendir(D, "$d/events") or die "opendir: \$!\n";
print "events: [", join(" ", grep { !/^\\\./ } readdir D), "]\n";
for my \$f (qw(rdpmc perf_event_mux_interval_ms type format/cccr caps/max_precise)) {
	open(F, "<", "$d/\$f") or die "\$f: \$!\n";
	my \$v = <F>;
	chomp \$v;
	print "\$f: \$v\n";
	close F;
}
EOP
close $pf;
# the host's PMUs: those a P4 has too are shown (cpu always: ours), the
# others must not be
my $hd = '/sys/bus/event_source/devices';
opendir(my $hh, $hd) or die "$hd: $!\n";
my @host = grep { !/^\./ } readdir $hh;
closedir $hh;
my %p4 = map { $_ => 1 } qw(breakpoint cpu kprobe msr software tracepoint uprobe);
my @want = sort { $a cmp $b } 'cpu', grep { $p4{$_} && $_ ne 'cpu' && -e "$hd/$_/type" } @host;
my @other = sort grep { !$p4{$_} } @host;
my $out = `$nbsim --nbsim-warn-unmodelled=no -- /usr/bin/perl $tmp/probe.pl @other 2>&1`;
like($out, qr/^devices: \[\Q@want\E\]$/m, "devices/ lists a P4's PMUs the host has: @want") or diag $out;
SKIP: {
	skip('the host has no msr PMU', 1) unless grep { $_ eq 'msr' } @want;
	like($out, qr/^msr events: \[tsc\]$/m, 'msr/events/: tsc only (the other MSRs fail their probe on a P4)');
}
SKIP: {
	skip('the host has no PMU a P4 lacks', 1) unless @other;
	unlike($out, qr/^host-only \S+: present$/m, "the host's other PMUs are not there (@other)") or diag $out;
}
like($out, qr/^events: \[\]$/m, 'cpu/events/ opens, and lists nothing (as on a NetBurst)') or diag $out;
like($out, qr/^rdpmc: 1$/m, 'cpu/rdpmc: 1');
like($out, qr/^perf_event_mux_interval_ms: 4$/m, 'cpu/perf_event_mux_interval_ms: 4');
like($out, qr/^type: 4$/m, 'cpu/type: 4 (PERF_TYPE_RAW)');
like($out, qr/^format\/cccr: config:0-31$/m, 'cpu/format/cccr: config:0-31');
like($out, qr/^caps\/max_precise: 0$/m, 'cpu/caps/max_precise: 0');

SKIP: {
	my $perf = '/usr/bin/perf';
	skip("no $perf (configure installs linux-perf)", 4) unless -x $perf;
	my $l = `$nbsim --model=northwood --nbsim-warn-unmodelled=no -- $perf list --no-desc 2>&1`;
	my @hw = $l =~ /^\s+(\S.*?)\s+\[Hardware event\]$/mg;
	is(join(',', @hw), join(',', 'branch-instructions OR branches', 'branch-misses', 'bus-cycles',
				'cache-misses', 'cache-references', 'cpu-cycles OR cycles', 'instructions',
				'ref-cycles', 'stalled-cycles-backend OR idle-cycles-backend',
				'stalled-cycles-frontend OR idle-cycles-frontend'),
	   'perf list: the ten hardware events the P4 driver opens') or diag $l;
	my @hc = $l =~ /^\s+(\S+)\s+\[Hardware cache event\]$/mg;
	is("@hc", 'L1-dcache-load-misses LLC-load-misses dTLB-load-misses dTLB-store-misses '
	   . 'iTLB-load-misses iTLB-loads', 'perf list: the cache events p4_hw_cache_event_ids maps');
	unlike($l, qr/^\s+cpu\/[^\s\/]+\/\s+\[Kernel PMU event\]$/m, 'perf list: no cpu/.../ Kernel PMU event');
	my @kp = $l =~ /^\s+(\S+)\s+\[Kernel PMU event\]$/mg;
	is("@kp", (grep { $_ eq 'msr' } @want) ? 'msr/tsc/' : '',
	   "perf list: the Kernel PMU events are a P4's (@kp)") or diag $l;
}
done_testing();
