#!/usr/bin/perl
# Every PAPI utility we install, unchanged, under nbsim on every NetBurst
# model: each finishes (bounded by timeout: a hang is a failure, not a
# stuck make check), exits 0, and where it prints the CPU it prints
# family 15 and the model's CPUID model and caches (sim/cpu/nb_cpu.c).
#
# The utilities that time loops take an iteration count where they have
# one (papi_cost -t, papi_multiplex_cost -t): their defaults (10^6
# iterations) are minutes of simulated work, not a check.  papi_clockres
# has no such option (4 x 10^6 timer reads, about 30 s under nbsim) and
# times only the clocks, which no model changes: it runs on the default
# model only.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $u = "$ENV{NB_PAPI_SRC}/utils";
my $nbsim = $ENV{NBSIM};
my $bound = 240;    # CPU seconds per utility run; a run that needs more is a failure

# model => [CPUID model, stepping, L1D KB, L2 KB, L3 KB] (sim/cpu/nb_cpu.c)
my %models = (
	willamette => [1, 2, 8, 256, 0],
	northwood  => [2, 9, 8, 512, 0],
	prescott   => [3, 4, 16, 1024, 0],
	cedarmill  => [6, 5, 16, 2048, 0],
	xeonmp     => [2, 6, 8, 512, 2048],
);

my $tmp = tempdir(CLEANUP => 1);

sub run {
	my ($model, @cmd) = @_;
	my @opt;             # nbsim's own options first (--nbsim-...)
	push @opt, shift @cmd while @cmd && $cmd[0] =~ /^--nbsim-/;
	# the bound is CPU time (ulimit -t), which load does not change; a
	# wall-clock backstop six times longer ends one that waits for ever
	my $cmd = "cd $tmp && timeout -k 10 " . 6 * $bound . " sh -c 'ulimit -t $bound && exec \"\$@\"' sh $nbsim --model=$model @opt -- $u/" . join(' ', @cmd) . ' 2>&1';
	my $out = `$cmd`;
	my $st = $? >> 8;
	diag("$model: $cmd[0] killed (CPU bound $bound s or wall-clock backstop)") if $st == 124 || $st == 137 || ($? & 127);
	return ($st, $out);
}

for my $model (sort keys %models) {
	my ($cm, $step, $l1, $l2, $l3) = @{$models{$model}};
	my ($st, $out);

	($st, $out) = run($model, 'papi_hardware_avail');
	is($st, 0, "$model: papi_hardware_avail finishes");
	like($out, qr{CPUID\s*:\s*Family/Model/Stepping 15/$cm/$step\b}, "$model: papi_hardware_avail prints family 15 model $cm");
	like($out, qr/Sockets\s*:\s*1\n.*\nCores per socket\s*:\s*1\b/s, "$model: one socket, one core (CPUID leaf 1 / leaf 4)")
		if $model eq 'prescott' || $model eq 'cedarmill';

	($st, $out) = run($model, 'papi_mem_info');
	is($st, 0, "$model: papi_mem_info finishes");
	like($out, qr/L1 Data Cache:\s*\n\s*Total size:\s*$l1 KB/, "$model: papi_mem_info L1D $l1 KB");
	like($out, qr/L2 Unified Cache:\s*\n\s*Total size:\s*$l2 KB/, "$model: papi_mem_info L2 $l2 KB");
	if ($l3) {
		like($out, qr/L3 Unified Cache:\s*\n\s*Total size:\s*$l3 KB/, "$model: papi_mem_info L3 $l3 KB");
	} else {
		unlike($out, qr/L3 Unified Cache/, "$model: papi_mem_info: no L3");
	}

	($st, $out) = run($model, 'papi_component_avail');
	is($st, 0, "$model: papi_component_avail finishes");
	like($out, qr{Family/Model/Stepping\s+15/$cm/$step\b}, "$model: papi_component_avail prints family 15 model $cm");

	($st, $out) = run($model, 'papi_avail');
	is($st, 0, "$model: papi_avail finishes");
	like($out, qr{Family/Model/Stepping\s+15/$cm/$step\b}, "$model: papi_avail prints family 15");
	like($out, qr/^PAPI_TOT_INS\s+0x[0-9a-f]+\s+Yes/m, "$model: papi_avail: PAPI_TOT_INS available");

	($st, $out) = run($model, 'papi_native_avail');
	is($st, 0, "$model: papi_native_avail finishes");
	like($out, qr/p4netburst:::instr_retired\b/, "$model: papi_native_avail lists instr_retired");

	($st, $out) = run($model, 'papi_xml_event_info');
	is($st, 0, "$model: papi_xml_event_info finishes");
	like($out, qr{<family value="15"/>\s*<model value="$cm"/>}, "$model: papi_xml_event_info: family 15 model $cm");

	($st, $out) = run($model, 'papi_command_line', 'PAPI_TOT_INS');
	is($st, 0, "$model: papi_command_line finishes");
	like($out, qr/PAPI_TOT_INS\s*:\s*[1-9]\d*/, "$model: papi_command_line counts PAPI_TOT_INS");

	($st, $out) = run($model, 'papi_event_chooser', 'PRESET', 'PAPI_TOT_INS');
	is($st, 0, "$model: papi_event_chooser finishes");
	like($out, qr/Total events reported: [1-9]/, "$model: papi_event_chooser lists compatible events");

	($st, $out) = run($model, 'papi_decode', '-a');
	is($st, 0, "$model: papi_decode -a finishes");
	like($out, qr/^PAPI_TOT_INS,NOT_DERIVED/m, "$model: papi_decode -a lists PAPI_TOT_INS");

	($st, $out) = run($model, 'papi_error_codes');
	is($st, 0, "$model: papi_error_codes finishes");
	like($out, qr/Error code\s+-1: Invalid argument/, "$model: papi_error_codes lists PAPI_EINVAL");

	($st, $out) = run($model, 'papi_version');
	is($st, 0, "$model: papi_version finishes");
	like($out, qr/PAPI Version: 7\.0\.0/, "$model: papi_version 7.0.0");

	($st, $out) = run($model, 'papi_cost', '-t', '1000');
	is($st, 0, "$model: papi_cost -t 1000 finishes");
	like($out, qr/Performing read test/, "$model: papi_cost timed PAPI_read");

	($st, $out) = run($model, 'papi_multiplex_cost', '-t', '100', '-x', '3');
	is($st, 0, "$model: papi_multiplex_cost -t 100 -x 3 finishes");
	ok(-s "$tmp/papi_multiplex_cost.dat" || glob("$tmp/*.dat"), "$model: papi_multiplex_cost wrote its .dat output");
	unlink glob("$tmp/*.dat");
}

# With the program's clocks simulated (--nbsim-time=simulated), papi_cost
# times PAPI's calls in simulated cycles (PAPI_get_real_cyc reads the
# simulated TSC): its loop-latency test reads back-to-back RDTSCs, the
# instruction's measured throughput (80 cycles Northwood, 100 Prescott:
# InstLatX64 row 555, sim/timing/nb_tmparams.c) within 10%, the same every
# run (under valgrind the host's TSC gives hundreds, varying), a PAPI_read
# of 2 counters a few hundred
# (sim/README: 292-379 instructions per read, NetBurst retiring at most 3
# per cycle and this path about 1), and every figure is the same run after
# run (nothing of the host's time is in them).
my %rdtsc = (northwood => 80, prescott => 100);
for my $model (qw(northwood prescott)) {
	my @outs;
	for (1 .. 2) {
		my (undef, $o) = run($model, '--nbsim-time=simulated', 'papi_cost', '-t', '1000');
		push @outs, $o;
	}
	my ($loop) = $outs[0] =~ /loop latency over \d+ iterations\s+min cycles\s*:\s*(\d+)/;
	my ($read) = $outs[0] =~ /PAPI_read \(2 counters\) over \d+ iterations\s+min cycles\s*:\s*(\d+)/;
	ok(defined $loop && $loop >= 0.9 * $rdtsc{$model} && $loop <= 1.1 * $rdtsc{$model},
	   "$model --nbsim-time=simulated: papi_cost's loop latency in simulated cycles (" . ($loop // '?') . ')');
	ok(defined $read && $read >= 292 / 3 && $read <= 1000,
	   "$model --nbsim-time=simulated: a PAPI_read of 2 counters in simulated cycles (" . ($read // '?') . ')');
	is($outs[1], $outs[0], "$model --nbsim-time=simulated: papi_cost prints the same figures twice");
}

my ($st, $out) = run('prescott', 'papi_clockres');
is($st, 0, 'prescott: papi_clockres finishes');
like($out, qr/PAPI_get_real_cyc\s*:/, 'prescott: papi_clockres timed PAPI_get_real_cyc');

done_testing();
