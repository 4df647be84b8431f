#!/usr/bin/perl
# Debian's perf (linux-perf, /usr/bin/perf) unchanged under nbsim: perf
# stat opens its events on the child it forks (pid = child, disabled,
# enable_on_exec, inherit, read_format TOTAL_TIME_ENABLED|RUNNING), the
# child's own nbsim counts them and the counts reach perf's read(2)
# (sim/kernel/nb_kern_attach.c); generic events go through the P4
# driver's tables (nb_kern_generic.c).  Counts against nb_stat's for the
# same static program (tests/stat/k_branch.S) and the same encoding.
use strict;
use warnings;
use Test::More;
use lib "$ENV{NB_BUILD}/../tests/lib", 'tests/lib';
use NbStat;

my $nbsim = $ENV{NBSIM} // die "NBSIM not set (run through make)\n";
my $perf = '/usr/bin/perf';
plan skip_all => "no $perf (configure installs linux-perf)" unless -x $perf;
my $prog = "$st/k_branch";

# perf stat -x';' under nbsim (a cpu/.../ name holds commas): { event => count } ('<not counted>' and
# '<not supported>' kept as text), and the whole output
sub perf_stat {
	my ($model, @args) = @_;
	my $out = `cd /tmp && $nbsim --model=$model --nbsim-warn-unmodelled=no -- $perf stat -x';' @args -- $prog 2>&1`;
	my %c;
	for (split /\n/, $out) {
		my @f = split /;/;
		next unless @f >= 3 && $f[2] =~ /\S/;
		$c{$f[2]} = $f[0];
	}
	return (\%c, $out);
}

sub nb {
	my ($model, $ev) = @_;
	my ($rc, $out) = run_nb_stat("--model=$model", '-x', ',', '-e', $ev, '--', $prog);
	return $out =~ /^(\d+),\Q$ev\E,/m ? $1 : "nb_stat failed: $out";
}

for my $model (qw(northwood prescott)) {
	my $ins = nb($model, 'instr_retired:NBOGUSNTAG:BOGUSNTAG');
	my $br = nb($model, 'retired_branch_type:CONDITIONAL:CALL:RETURN:INDIRECT');
	my $cyc = nb($model, 'PAPI_TOT_CYC');
	my ($c, $out) = perf_stat($model, '-e instructions:u,cycles:u,branches:u,branch-misses:u');
	is($c->{'instructions:u'}, $ins, "$model: perf stat instructions:u = nb_stat's INSTR_RETIRED NBOGUSNTAG|BOGUSNTAG ($ins)")
		or diag $out;
	is($c->{'branches:u'}, $br, "$model: branches:u = nb_stat's RETIRED_BRANCH_TYPE, all four masks ($br)");
	ok(($c->{'cycles:u'} // 0) =~ /^\d+$/ && abs($c->{'cycles:u'} - $cyc) <= 0.02 * $cyc,
	   "$model: cycles:u ($c->{'cycles:u'}) within 2% of nb_stat's PAPI_TOT_CYC ($cyc)");
	# MISPRED_BRANCH_RETIRED needs CRU_ESCR0, which INSTR_RETIRED holds:
	# the kernel's first fit leaves it off, and a program shorter than
	# one rotation interval never has it on the PMU (Linux's too)
	is($c->{'branch-misses:u'}, '<not counted>', "$model: branch-misses beside instructions: <not counted>");
}

my ($c, $out);
for my $model (qw(northwood prescott)) {
	my $msp = nb($model, 'mispred_branch_retired:NBOGUS');
	($c, $out) = perf_stat($model, '-e branch-misses:u');
	is($c->{'branch-misses:u'}, $msp, "$model: branch-misses:u alone = nb_stat's MISPRED_BRANCH_RETIRED NBOGUS ($msp)") or diag $out;
}

# no -e: perf's default set (software events go to the host kernel, the
# hardware ones to the emulated driver); as root, user and kernel mode:
# the kernel is not simulated, so the counts are the user-mode ones
my $ins;
for my $model (qw(northwood prescott)) {
	$ins = nb($model, 'instr_retired:NBOGUSNTAG:BOGUSNTAG');
	my $br = nb($model, 'retired_branch_type:CONDITIONAL:CALL:RETURN:INDIRECT');
	($c, $out) = perf_stat($model);
	is($c->{instructions}, $ins, "$model: perf stat with no -e: instructions = $ins") or diag $out;
	is($c->{branches}, $br, "$model: perf stat with no -e: branches = $br");
	ok(($c->{'task-clock'} // '') =~ /^[\d.]+$/, "$model: perf stat with no -e: task-clock from the host kernel");
}
$ins = nb('northwood', 'instr_retired:NBOGUSNTAG:BOGUSNTAG');

# raw: INSTR_RETIRED (P4_EVENTS index 38) NBOGUSNTAG, ESCR << 32
my $raw = nb('northwood', 'instr_retired:NBOGUSNTAG');
($c, $out) = perf_stat('northwood', '-e r4c00020000000000:u');
is($c->{'r4c00020000000000:u'}, $raw, "raw -e r4c00020000000000:u = nb_stat's instr_retired:NBOGUSNTAG ($raw)") or diag $out;

# PERF_TYPE_HW_CACHE: L1D read access is 0 in p4_hw_cache_event_ids
# (ENOENT: <not supported>); ref-cycles is absent from
# p4_general_events, which p4_pmu_event_map turns into event 0 with no
# mask: opened, counts 0
($c, $out) = perf_stat('northwood', '-e L1-dcache-loads:u,ref-cycles:u');
is($c->{'L1-dcache-loads'}, '<not supported>', 'L1-dcache-loads: ENOENT from the P4 table, <not supported>') or diag $out;
is($c->{'ref-cycles:u'}, '0', 'ref-cycles: accepted as event 0 without a mask, as p4_pmu_event_map makes it; 0');

# the PMU's sysfs description (sim/kernel/nb_kern_sysfs.c): the P4
# driver's format fields, so that perf parses cpu/escr=...,cccr=.../
my $cat = `cd /tmp && $nbsim -- cat /sys/bus/event_source/devices/cpu/type /sys/bus/event_source/devices/cpu/format/cccr /sys/bus/event_source/devices/cpu/format/escr /sys/devices/cpu/format/ht 2>&1`;
is($cat, "4\nconfig:0-31\nconfig:32-62\nconfig:63\n", 'sysfs under nbsim: cpu type 4 (PERF_TYPE_RAW), format cccr, escr, ht as p4.c');
($c, $out) = perf_stat('northwood', '-e cpu/escr=0x4c000200,cccr=0/u');
is($c->{'cpu/escr=0x4c000200,cccr=0/u'}, $raw, "cpu/escr=0x4c000200,cccr=0/u (INSTR_RETIRED NBOGUSNTAG) = $raw") or diag $out;
($c, $out) = perf_stat('northwood', '-e cpu/config=0x4c00020000000000/u');
is($c->{'cpu/config=0x4c00020000000000/u'}, $raw, "cpu/config=.../u, perf's own term: the raw count ($raw)") or diag $out;
# a cache event with its PEBS metric (p4_hw_cache_event_ids: L1D read
# miss is REPLAY_EVENT NBOGUS, metric 1stl_cache_load_miss_retired)
my $l1m = nb('northwood', '1stL_cache_load_miss_retired');
($c, $out) = perf_stat('northwood', '-e L1-dcache-load-misses:u');
is($c->{'L1-dcache-load-misses'}, $l1m, "L1-dcache-load-misses = nb_stat's 1stL_cache_load_miss_retired ($l1m)") or diag $out;
($c, $out) = perf_stat('northwood', '-e cpu/event=0x3c/u');
like($out, qr/unknown term 'event' for pmu 'cpu'.*valid terms: escr,ht,cccr/s,
     "cpu/event=.../: perf refuses the architectural term, lists the P4 driver's");

# a dynamic program that reads: its read(2) goes through the preload
# library, where the child's nbsim looks at the events opened on it
# again; perf opened them disabled with enable_on_exec, so the opener's
# record still says disabled while the child's copy is on since the exec.
# The count must go on past the read: the difference method over the
# loop after it (readloop N: 2N instructions), NBOGUSNTAG alone
my %after;
for my $n (1000000, 2000000) {
	$out = `cd /tmp && $nbsim --model=northwood -- $perf stat -x';' -e r4c00020000000000:u -- $st/readloop $n </etc/hostname 2>&1`;
	$after{$n} = $out =~ /^(\d+);;r4c00020000000000:u;/m ? $1 : undef;
	diag $out unless defined $after{$n};
}
is(defined $after{1000000} && defined $after{2000000} ? $after{2000000} - $after{1000000} : 'no count',
   2000000, 'perf stat of a dynamic program that reads: it counts on after the read (difference 2,000,000 exactly)');

# CPU-wide (system-wide) events are not emulated (each nbsim process
# simulates its own CPU): as root, where Linux would count, EOPNOTSUPP,
# which perf stat -a shows as <not supported> and goes on; an
# unprivileged user gets Linux's EACCES first (below)
SKIP: {
	skip 'as root only (an unprivileged user: EACCES, below)', 1 if $> != 0;
	($c, $out) = perf_stat('northwood', '-a -e instructions:u');
	is($c->{'instructions:u'}, '<not supported>', 'perf stat -a as root: <not supported> (EOPNOTSUPP), perf goes on') or diag $out;
}

# as an unprivileged user at perf_event_paranoid 2 (the emulated file's
# level): perf's fallback to user mode on EACCES for kernel counting;
# CPU-wide events and another user's task refused with the level named
SKIP: {
	skip 'needs root and setpriv (to drop privileges)', 3
		if $> != 0 || system('command -v setpriv >/dev/null') != 0;
	my $nobody = 'setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp';
	$out = `cd /tmp && $nobody $nbsim --model=northwood -- $perf stat -x';' -e instructions -- $prog 2>&1`;
	like($out, qr/^\Q$ins\E;;instructions:u;/m,
	     "unprivileged, -e instructions: perf falls back to instructions:u on EACCES ($ins)");
	$out = `cd /tmp && $nobody $nbsim --model=northwood -- $perf stat -e instructions:u -a -- /bin/true 2>&1`;
	like($out, qr/perf_event_paranoid setting is 2/, 'unprivileged, CPU-wide (-a): refused, the paranoid level named');
	$out = `cd /tmp && $nobody $nbsim --model=northwood -- $perf stat -e instructions:u -p 1 2>&1`;
	like($out, qr/perf_event_paranoid setting is 2/, "unprivileged, another user's task (-p 1): refused (EACCES)");
}

done_testing();
