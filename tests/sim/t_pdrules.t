#!/usr/bin/perl
# The Pentium D counting rules (docs/counting-rules.md "Pentium D counting
# rules"; sim/cpu/nb_pdrules.c), one kernel per rule (tests/stat/k_pdrule.S,
# the rule chosen by argc), exact, on --model=cedarmill (CPUID model 6, the
# part Weaver measured), and the plain counts on --model=prescott, where the
# rules do not apply.  Each rule's figures are Weaver's published
# per-instruction figures (deater/deterministic, commit 6cb9ac2: [S]
# static/src/retired_instr.x86_64.s annotations, [P]
# papers/deterministic_counters/03_evaluation.tex, and for REP MOVS [M]
# static/mov_graph/results.movs{b,w,l,q}, the loads measured per count).
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $bin = $ENV{NB_UTILS_BIN} or BAIL_OUT("NB_UTILS_BIN not set (run through make check)");
my $nb_stat = "$bin/nb_stat";
my $k = "$ENV{NB_BUILD}/tests/stat/k_pdrule";
-x $nb_stat && -x $k or BAIL_OUT("nb_stat or k_pdrule not built");
my $N = 1000;
my $dir = tempdir(CLEANUP => 1);

# rule => [name, +instructions, loads, stores, extra branches] per
# iteration on the Pentium D: loads and stores of the whole loop body
# (the rule's instruction's figure; the other instructions of the body
# have no memory operand, except fnsave's partner frstor in rule 11).
# fbstp (2 stores) has no kernel: VEX does not decode it.
my @rules = (
	undef,
	['emms',                   1,  0,  0, 0],
	['maskmovq',               1,  0,  1, 0],
	['sfence',                 1,  0,  1, 0],
	['mfence',                 1,  0,  1, 0],
	['cvtpd2pi m128',          1,  1,  0, 0],
	['cvttpd2pi m128',         1,  1,  0, 0],
	['fldcw',                  1,  1,  0, 0],
	['fldenv',                 1,  7,  0, 0],
	['fnstenv',                0,  0,  7, 0],
	['frstor',                 1, 23,  0, 0],
	['fnsave + frstor',        1, 23, 23, 0],
	['fxsave',                 0,  0, 25, 0],
	['fxrstor',                0, 26,  0, 0],
	['movups load',            0,  2,  0, 0],
	['movups store',           0,  0,  2, 0],
	['movupd load',            0,  2,  0, 0],
	['movupd store',           0,  0,  2, 0],
	['movdqu load',            0,  2,  0, 0],
	['movdqu store',           0,  0,  2, 0],
	['lddqu',                  0,  2,  0, 0],
	['maskmovdqu',             0,  0,  2, 0],
	['fldt (fld m80)',         0,  2,  0, 0],
	['fstpt (fstp m80)',       0,  0,  2, 0],
	['cpuid',                  0,  0,  1, 0],
	['clflush',                0,  0,  1, 0],
	['prefetcht0',             0,  0,  0, 0],
	['syscall',                0,  0,  0, 1],
	# REP strings (nb_pd_rep): [M] static/mov_graph/results.movsb rows
	# 100 (40), 2 (3), 0 (3); results.movsw row 72 (16); results.movsq
	# row 5 (8); [S] STRING segment, [P]: stores by 16-byte blocks
	# forward (a 64-byte block 4), one per element backward; scas one
	# load, cmps two per element (every model's plain counts)
	['rep movsb x 100',        0, 40, 40, 0],
	['rep movsw x 72',         0, 16, 16, 0],
	['rep movsq x 5',          0,  8,  5, 0],
	['rep movsb x 2',          0,  3,  2, 0],
	['rep movsb x 0',          0,  3,  0, 0],
	['rep stosl x 64',         0,  0, 16, 0],
	['rep stosl x 64 (std)',   0,  0, 64, 0],
	['repe scasb x 64',        0, 64,  0, 0],
	['repe cmpsb x 64',        0, 128, 0, 0],
);

# nb_stat -x , on k_pdrule with rule r: { event => count }
sub counts {
	my ($model, $r, $events) = @_;
	my $out = "$dir/c.csv";
	unlink $out;
	system($nb_stat, "--model=$model", '-x', ',', '-o', $out, '-e', $events, '--', $k, (2 .. $r));
	open(my $fh, '<', $out) or return {};
	my %c;
	while (my $l = <$fh>) {
		my @f = split /,/, $l;
		$c{$f[1]} = $f[0] if @f >= 2 && $f[0] =~ /^\d+$/;
	}
	close $fh;
	return \%c;
}

my $ins = 'instr_retired:NBOGUSNTAG,instr_completed:NBOGUS,branch_retired:MMNP:MMNM:MMTP:MMTM';
my $mem = 'uop_type:TAGLOADS,uop_type:TAGSTORES';
my ($IR, $IC, $BR, $LD, $SR) = ('instr_retired:NBOGUSNTAG', 'instr_completed:NBOGUS',
	'branch_retired:MMNP:MMNM:MMTP:MMTM', 'uop_type:TAGLOADS', 'uop_type:TAGSTORES');

# the kernel's own branches: ja (not taken), jmp *table, the loop's jnz
# N times, jmp done, and the exit syscall, a branch on the Pentium D; its
# loads: argc and the jump table
sub branches { my ($r, $pd) = @_; return 3 + $N + ($pd ? 1 : 0) }

for my $r (1 .. $#rules) {
	my ($name, $xi, $l, $s, $xb) = @{$rules[$r]};
	my $c = counts('cedarmill', $r, $ins);
	is($c->{$IR} - $c->{$IC}, $xi * $N,
	   "rule $r $name: instr_retired - instr_completed = $xi x $N");
	is($c->{$BR}, branches($r, 1) + $xb * $N, "rule $r $name: branch_retired");
	my $m = counts('cedarmill', $r, $mem);
	is($m->{$LD}, 2 + $l * $N, "rule $r $name: load uops (uop_type TAGLOADS)");
	is($m->{$SR}, $s * $N, "rule $r $name: store uops (uop_type TAGSTORES)");
}

# the other models keep the plain counts: one instruction each, the exit
# syscall and a syscall no branch, sfence no store
for my $r (1, 3, 27) {
	my $c = counts('prescott', $r, $ins);
	is($c->{$IR}, $c->{$IC}, "prescott rule $r $rules[$r][0]: instr_retired = instr_completed");
	is($c->{$BR}, branches($r, 0), "prescott rule $r $rules[$r][0]: no syscall branch");
}
my $m = counts('prescott', 3, $mem);
is($m->{$SR}, 0, 'prescott: sfence is no store');

# REP MOVS / STOS elsewhere: one load and one store per element
for my $t ([28, 100, 100], [32, 0, 0], [33, 0, 64]) {
	my ($r, $l, $s) = @$t;
	$m = counts('prescott', $r, $mem);
	is($m->{$LD}, 2 + $l * $N, "prescott rule $r $rules[$r][0]: $l loads");
	is($m->{$SR}, $s * $N, "prescott rule $r $rules[$r][0]: $s stores");
}
# their uops follow the loads and stores (C + L + 2 S): rep movsb x 100
# is 100 + 40 + 2 x 40 uops on the Pentium D, 100 x (1 + 1 + 2) elsewhere
my $UOPS = 'uops_retired:NBOGUS';
my ($uc, $up) = (counts('cedarmill', 28, $UOPS)->{$UOPS}, counts('prescott', 28, $UOPS)->{$UOPS});
is($uc - $up, (220 - 400) * $N, 'rule 28 rep movsb x 100: uops_retired, cedarmill - prescott');

done_testing();
