#!/usr/bin/perl
# The main job (make demo): PAPI presets for a matrix multiply under nbsim.
use strict;
use warnings;
use Test::More;

my $bin = "$ENV{NB_BUILD}/matmul";
ok(-x $bin, 'make built the demo program') or BAIL_OUT("no $bin");
my $out = `$ENV{NBSIM} -- $bin 32 PAPI_TOT_INS PAPI_TOT_CYC PAPI_BR_INS PAPI_BR_TKN PAPI_BR_NTK PAPI_BR_MSP 2>&1`;
is($? >> 8, 0, 'matmul exits 0 under nbsim') or diag($out);
like($out, qr/family 15 model 3, Prescott\), 3400 MHz/, 'it runs on the simulated NetBurst, model named');
my %v = $out =~ /^(PAPI_\w+)\s+(\d+) [a-z]/mg;
is(scalar keys %v, 6, 'six presets counted');
like($out, qr/^PAPI_TOT_CYC\s+\d+ cycles\s+\d+$/m, 'counts have units (cycles)');
like($out, qr/^PAPI_BR_INS\s+\d+ branches\s+\d+$/m, 'counts have units (branches)');
like($out, qr/first multiply \(not counted\) warms the caches/, 'the runs are explained: a warm-up, then warm runs');
my ($ipc) = $out =~ /^\s+IPC\s+([\d.]+) instructions\/cycle/m;
ok(defined $ipc && abs($ipc - $v{PAPI_TOT_INS} / $v{PAPI_TOT_CYC}) < 0.001, 'IPC is PAPI_TOT_INS / PAPI_TOT_CYC')
	or diag($out);
my ($msp) = $out =~ /^\s+branch misprediction rate\s+([\d.]+) %/m;
ok(defined $msp && abs($msp - 100 * $v{PAPI_BR_MSP} / $v{PAPI_BR_INS}) < 0.001, 'branch miss rate derived');
unlike($out, qr/PAPI p4netburst: add event/, 'the runs are found without noise from refused trial adds');
# 32^3 inner iterations: at least one instruction and one branch each.
cmp_ok($v{PAPI_TOT_INS} // 0, '>', 32**3 * 3, 'PAPI_TOT_INS covers the 32^3 inner loop');
cmp_ok($v{PAPI_BR_INS} // 0, '>=', 32**3, 'a branch per inner iteration at least');
cmp_ok($v{PAPI_BR_TKN} // 0, '<=', $v{PAPI_BR_INS} // 0, 'taken branches are branches');
cmp_ok($v{PAPI_BR_MSP} // 0, '<', ($v{PAPI_BR_INS} // 0) / 10, 'a matrix multiply mispredicts under 10% of its branches');
cmp_ok($v{PAPI_TOT_CYC} // 0, '>', 0, 'cycles counted');
my $bad = `$ENV{NBSIM} -- $bin 32 PAPI_NO_SUCH 2>&1`;
isnt($? >> 8, 0, 'an unknown preset is an error');
like($bad, qr/PAPI_NO_SUCH/, 'naming the preset');
done_testing();
