#!/usr/bin/perl
# t_events_tables.t - unit checks of the generated NetBurst event model
# (native_events/*.txt -> nb_tables.c): coverage of the SDM tables, the
# tagged metrics, and the PAPI preset mapping.
#   prove tests/events/t_events_tables.t     (after make -C native_events, or NBGEN=dir)
use strict;
use warnings;
use Test::More;
use File::Basename qw(dirname);
use Cwd qw(abs_path);
require(dirname(abs_path(__FILE__)) . '/t_events_lib.pl');

my $t = nb_load();
my $E = $t->{events};
my $M = $t->{metrics};
my $P = $t->{presets};

# -- events: every event of the SDM NetBurst tables [SDM-NR], [SDM-AR], [SDM-M346]
my @sdm_nonret = qw(TC_deliver_mode BPU_fetch_request ITLB_reference memory_cancel memory_complete
	load_port_replay store_port_replay MOB_load_replay page_walk_type BSQ_cache_reference IOQ_allocation
	IOQ_active_entries FSB_data_activity BSQ_allocation BSQ_active_entries SSE_input_assist packed_SP_uop
	packed_DP_uop scalar_SP_uop scalar_DP_uop 64bit_MMX_uop 128bit_MMX_uop x87_FP_uop x87_SIMD_moves_uop
	TC_misc global_power_events tc_ms_xfer uop_queue_writes retired_mispred_branch_type retired_branch_type
	resource_stall WC_Buffer b2b_cycles bnr snoop response);
my @sdm_ret = qw(front_end_event execution_event replay_event instr_retired uops_retired uop_type
	branch_retired mispred_branch_retired x87_assist machine_clear instr_completed);
is(scalar @{$t->{order}}, @sdm_nonret + @sdm_ret, 'event count = SDM non-retirement + at-retirement tables');
for my $n (@sdm_nonret) { ok($E->{$n} && !($E->{$n}{flags} & 1), "$n present, non-retirement"); }
for my $n (@sdm_ret) { ok($E->{$n} && ($E->{$n}{flags} & 1), "$n present, at-retirement"); }

# PEBS: exactly the three tagged-uop counting events [SDM-AR], seed 003 l.2464-2470
is(join(' ', sort grep { $E->{$_}{flags} & 2 } @{$t->{order}}), 'execution_event front_end_event replay_event',
	'PEBS-capable events');

# models: instr_completed only on 3, 4, 6 [SDM-M346]; all others on 0-6
is($E->{instr_completed}{models}, (1 << 3) | (1 << 4) | (1 << 6), 'instr_completed: models 3, 4, 6');
is(scalar(grep { $E->{$_}{models} != 0x7f } @{$t->{order}}), 1, 'every other event on all models');

# L3 masks need the l3 feature, and only they do
my @l3 = map { my $e = $_; map { "$e->{name}:$_->{name}" } grep { $_->{features} & 1 } @{$e->{masks}} } values %$E;
is(join(' ', sort @l3), join(' ', map { "BSQ_cache_reference:$_" } qw(RD_3rdL_HITE RD_3rdL_HITM RD_3rdL_HITS RD_3rdL_MISS)),
	'feature l3 on exactly the RD_3rdL_* masks');
ok(!($E->{BSQ_cache_reference}{dfl} & 0x238), 'no L3 mask among the defaults');

# Every event: ESCRs count it with its ESCR select; kernel index unique
my %kseen;
for my $n (@{$t->{order}}) {
	my $e = $E->{$n};
	ok((!grep { $t->{escrs}{$_}{select} != $e->{escrsel} } @{$e->{escrs}}), "$n: ESCR select $e->{escrsel} matches its ESCRs");
	ok(@{$e->{masks}} >= 1 && ($e->{dfl} & ~$e->{valid}) == 0, "$n: masks and defaults consistent");
	$kseen{$e->{kernel}}++ if $e->{kernel} != 255;
}
is(scalar(keys %kseen), 46, '46 events carry a distinct Linux P4_EVENTS index');
is($E->{x87_SIMD_moves_uop}{kernel}, 255, 'x87_SIMD_moves_uop is unknown to Linux');
is($E->{$_}{kernel}, $_ eq 'TC_deliver_mode' ? 0 : $E->{$_}{kernel}, "kernel index of $_") for qw(TC_deliver_mode);
is($E->{instr_completed}{kernel}, 45, 'instr_completed kernel index 45');

# libpfm4 spellings accepted
is($E->{uop_type}{alias}, 'uops_type', 'uop_type accepts libpfm4 uops_type');
ok(nb_mask($E->{mispred_branch_retired}, 'BOGUS') && nb_mask($E->{mispred_branch_retired}, 'BOGUS')->{bit} == 0,
	'mispred_branch_retired accepts libpfm4 BOGUS for bit 0');

# TS/TI: TI exactly where the SDM table says, plus the bus events we classify TI
my @ti = sort grep { my $e = $E->{$_}; grep { $_->{ts} eq 'TI' } @{$e->{masks}} } @{$t->{order}};
is("@ti", join(' ', sort qw(TC_deliver_mode page_walk_type FSB_data_activity SSE_input_assist packed_SP_uop
	packed_DP_uop scalar_SP_uop scalar_DP_uop 64bit_MMX_uop 128bit_MMX_uop x87_FP_uop x87_SIMD_moves_uop
	WC_Buffer b2b_cycles bnr snoop response)), 'events with thread-independent masks');
for my $n (@ti) { ok(!grep({ $_->{ts} eq 'TS' } @{$E->{$n}{masks}}), "$n: all masks TI"); }

# virtual masks: TAG0-3 on the execution upstream events; replay metrics on replay_event
for my $n (grep { $E->{$_}{role} == 2 } @{$t->{order}}) {
	is(join(' ', map { "$_->{name}=$_->{arg}" } @{$E->{$n}{vmasks}}), 'TAG0=0 TAG1=1 TAG2=2 TAG3=3', "$n: TAGn virtual masks");
}
my %rv = map { $_->{name} => $_->{arg} } @{$E->{replay_event}{vmasks}};
is_deeply(\%rv, { L1_LD_MISS => '1stL_cache_load_miss_retired', L2_LD_MISS => '2ndL_cache_load_miss_retired',
	DTLB_LD_MISS => 'DTLB_load_miss_retired', DTLB_ST_MISS => 'DTLB_store_miss_retired',
	DTLB_ALL_MISS => 'DTLB_all_miss_retired', BR_MSP => 'Tagged_mispred_branch',
	MOB_LD_REPLAY => 'MOB_load_replay_retired', SP_LD_RET => 'split_load_retired',
	SP_ST_RET => 'split_store_retired' }, 'replay_event virtual masks -> metrics');

# -- metrics [SDM-RP], [SDM-FE], [SDM-EX]; values cross-checked with Linux in t_events_kernel_xcheck.t
my %replay = ('1stL_cache_load_miss_retired' => [0x01000001, 1, 1], '2ndL_cache_load_miss_retired' => [0x01000002, 1, 2],
	DTLB_load_miss_retired => [0x01000004, 1, 3], DTLB_store_miss_retired => [0x01000004, 2, 4],
	DTLB_all_miss_retired => [0x01000004, 3, 5], Tagged_mispred_branch => [0x01018000, 0x10, 6],
	MOB_load_replay_retired => [0x01000200, 1, 7], split_load_retired => [0x01000400, 1, 8],
	split_store_retired => [0x01000400, 2, 9]);
for my $n (sort keys %replay) {
	my $m = $M->{$n};
	ok($m, "replay metric $n") or next;
	is(sprintf('%#x %#x %d', $m->{pebs_enable}, $m->{matrix_vert}, $m->{kernel}),
		sprintf('%#x %#x %d', @{$replay{$n}}), "$n: IA32_PEBS_ENABLE, MATRIX_VERT, P4_PEBS_METRIC");
	is("$m->{count}/$m->{count_masks}", 'replay_event/1', "$n: counted by replay_event:NBOGUS");
}
is(join(' ', map { "$_->{event}/$_->{escr}" } @{$M->{MOB_load_replay_retired}{helpers}}), 'MOB_load_replay/any', 'MOB_load_replay_retired helper ESCR');
is($M->{MOB_load_replay_retired}{helpers}[0]{masks}, (1 << 4) | (1 << 5), 'MOB_load_replay helper: PARTIAL_DATA|UNALGN_ADDR');
is(join(' ', map { "$_->{event}/$_->{escr}" } @{$M->{split_load_retired}{helpers}}), 'load_port_replay/SAAT_ESCR1', 'split_load_retired helper');
is(join(' ', map { "$_->{event}/$_->{escr}" } @{$M->{split_store_retired}{helpers}}), 'store_port_replay/SAAT_ESCR0', 'split_store_retired helper');
for my $n (qw(Memory_loads Memory_stores)) {
	my $m = $M->{$n};
	is("$m->{count}/$m->{count_masks}", 'front_end_event/1', "$n: counted by front_end_event:NBOGUS");
	is($m->{helpers}[0]{event}, 'uop_type', "$n: helper uop_type");
}
is($M->{Memory_loads}{helpers}[0]{masks}, 2, 'Memory_loads: TAGLOADS');
is($M->{Memory_stores}{helpers}[0]{masks}, 4, 'Memory_stores: TAGSTORES');
my %exec = (packed_SP_retired => 'packed_SP_uop', packed_DP_retired => 'packed_DP_uop', scalar_SP_retired => 'scalar_SP_uop',
	scalar_DP_retired => 'scalar_DP_uop', '64_bit_MMX_retired' => '64bit_MMX_uop', '128_bit_MMX_retired' => '128bit_MMX_uop',
	X87_FP_retired => 'x87_FP_uop', X87_SIMD_memory_moves_retired => 'x87_SIMD_moves_uop');
for my $n (sort keys %exec) {
	my $m = $M->{$n};
	ok($m, "execution metric $n") or next;
	is("$m->{count}/$m->{count_masks}/$m->{tag}", 'execution_event/1/0', "$n: execution_event:NBOGUS0, tag bit 0 (SDM tag value 1)");
	is("$m->{helpers}[0]{event}/$m->{helpers}[0]{tag}", "$exec{$n}/1", "$n: upstream $exec{$n} with TagEnable");
}
is($M->{X87_SIMD_memory_moves_retired}{helpers}[0]{masks}, (1 << 3) | (1 << 4), 'X87_SIMD_memory_moves_retired: ALLP0|ALLP2');

# -- presets
my %skeleton = (PAPI_TOT_INS => 'instr_retired:NBOGUSNTAG:NBOGUSTAG', PAPI_TOT_CYC => 'global_power_events:RUNNING',
	PAPI_BR_INS => 'branch_retired:MMNP:MMNM:MMTP:MMTM', PAPI_BR_TKN => 'branch_retired:MMTP:MMTM',
	PAPI_BR_NTK => 'branch_retired:MMNP:MMNM', PAPI_BR_MSP => 'mispred_branch_retired:NBOGUS',
	PAPI_BR_PRC => 'branch_retired:MMNP:MMTP');
for my $p (sort keys %skeleton) {
	my $a = $P->{$p}{alts}[0];
	is("$a->{derived} @{$a->{terms}}", "NOT_DERIVED $skeleton{$p}", "walking skeleton: $p first alternative");
}
my @want = qw(PAPI_TOT_INS PAPI_TOT_IIS PAPI_TOT_CYC PAPI_BR_INS PAPI_BR_TKN PAPI_BR_NTK PAPI_BR_MSP PAPI_BR_PRC
	PAPI_BR_CN PAPI_L1_DCM PAPI_L1_LDM PAPI_L2_DCM PAPI_L2_LDM PAPI_L2_TCM PAPI_L2_TCA PAPI_L2_TCH PAPI_L1_ICM
	PAPI_TLB_DM PAPI_TLB_IM PAPI_TLB_TL PAPI_LD_INS PAPI_SR_INS PAPI_LST_INS PAPI_FP_INS PAPI_FP_OPS PAPI_VEC_INS
	PAPI_RES_STL PAPI_L3_TCM PAPI_L3_TCH PAPI_L3_TCA);
for my $p (@want) { ok($P->{$p}, "preset $p defined"); }
for my $p (grep { /^PAPI_L3_/ } @{$t->{porder}}) {
	ok(!grep({ !($_->{features} & 1) } @{$P->{$p}{alts}}), "$p: every alternative needs l3");
}
# tagged presets map to tagged metrics, NOT_DERIVED
my %tagged = (PAPI_L1_DCM => '1stL_cache_load_miss_retired', PAPI_L1_LDM => '1stL_cache_load_miss_retired',
	PAPI_L2_DCM => '2ndL_cache_load_miss_retired', PAPI_L2_LDM => '2ndL_cache_load_miss_retired',
	PAPI_LD_INS => 'Memory_loads', PAPI_SR_INS => 'Memory_stores', PAPI_TLB_DM => 'DTLB_all_miss_retired');
for my $p (sort keys %tagged) {
	my $a = $P->{$p}{alts}[0];
	is("$a->{derived} @{$a->{terms}}", "NOT_DERIVED $tagged{$p}", "$p -> tagged metric $tagged{$p}");
}
ok((grep { "@{$_->{terms}}" eq 'Tagged_mispred_branch' } @{$P->{PAPI_BR_MSP}{alts}}), 'PAPI_BR_MSP has the Tagged_mispred_branch alternative');
# every term resolves to an event (with masks) or a metric
for my $p (@{$t->{porder}}) {
	for my $a (@{$P->{$p}{alts}}) {
		for my $term (@{$a->{terms}}) {
			my ($ev, @mk) = split /:/, $term;
			ok($M->{$term} || ($E->{$ev} && !grep { !nb_mask($E->{$ev}, $_) } @mk), "$p: term $term resolves");
		}
	}
}
# at most two execution metrics per alternative (FIRM_ESCR0/1), at most one replay metric
for my $p (@{$t->{porder}}) {
	for my $a (@{$P->{$p}{alts}}) {
		my @m = grep { $M->{$_} } @{$a->{terms}};
		ok(scalar(grep { $M->{$_}{type} == 2 } @m) <= 2 && scalar(grep { $M->{$_}{type} == 3 } @m) <= 1
			&& scalar(grep { $M->{$_}{type} == 1 } @m) <= 1, "$p: alternative fits the tagging resources");
	}
}
done_testing();
