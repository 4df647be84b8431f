#!/usr/bin/perl
# perf record and perf report (Debian's perf) unchanged under nbsim:
# sampling events opened on perf's child (nb_kern_attach.c), their ring
# buffer a file perf maps and the child's nbsim writes, with
# PERF_RECORD_SAMPLE (IP, TID, TIME, ID, CALLCHAIN), COMM, MMAP2 and EXIT
# records (nb_kern_perfmmap.c); the descriptor a FIFO perf polls.
# tests/kern/perf_hot.c: main -> outer -> hot, hot 2,000,000 instructions.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use lib "$ENV{NB_BUILD}/../tests/lib", 'tests/lib';
use NbStat;

my $nbsim = $ENV{NBSIM} // die "NBSIM not set (run through make)\n";
my $perf = '/usr/bin/perf';
plan skip_all => "no $perf (configure installs linux-perf)" unless -x $perf;
my $prog = "$ENV{NB_BUILD}/tests/perf_hot";
my $dir = tempdir(CLEANUP => 1);
my $P = 100003;

sub record {
	my ($model, @args) = @_;
	unlink "$dir/perf.data";
	push @args, '--', $prog unless grep { $_ eq '--' } @args;
	my $out = `cd $dir && $nbsim --model=$model --nbsim-warn-unmodelled=no -- $perf record -o $dir/perf.data @args 2>&1`;
	return $out;
}

sub report {
	return `$perf report -i $dir/perf.data --stdio --no-children --sort sym -n @_ 2>&1`;
}

sub nb_ins {
	my ($model, $p) = @_;
	my ($rc, $nb) = run_nb_stat("--model=$model", '-x', ',', '-e', 'instr_retired:NBOGUSNTAG:BOGUSNTAG', '--', $p);
	return $nb =~ /^(\d+),/m ? $1 : 0;
}

sub samples {
	my ($rep) = @_;
	return $rep =~ /^# Samples: (\d+)\s+of event 'instructions:u'/m ? $1 : -1;
}

# exact: a static program (tests/stat/k_branch.S: its count depends on
# nothing in the environment), a sample every 1003 instructions
my $kb = "$st/k_branch";
for my $model (qw(northwood prescott)) {
	my $ins = nb_ins($model, $kb);
	my $out = record($model, '-e', 'instructions:u', '-c', 1003, '--', $kb);
	like($out, qr/Captured and wrote .* \((\d+) samples\)/, "$model: perf record -e instructions:u -c 1003 on k_branch") or diag $out;
	my $rep = report('-g', 'none');
	is(samples($rep), int($ins / 1003), "$model: samples = floor(nb_stat's $ins / 1003)") or diag $rep;
	my @syms = $rep =~ /^\s+[\d.]+%\s+\d+\s+\[\.\] (\S+)/mg;
	is("@syms", '_start f', "$model: perf report --sort sym: _start, then f");
	like($rep, qr/^# Total Lost Samples: 0$/m, "$model: no sample lost");
}

# a dynamic program that reads (tests/stat/readloop.c: one read(2)
# through libc, where the child's nbsim looks at the events opened on it
# again, then 2N instructions): perf opened its event disabled with
# enable_on_exec, and the sampling must go on past the read; the
# difference method, N = 5,000,000 and 10,000,000, a sample every
# 100,003 (a shorter period is throttled, as Linux throttles it)
my %rs;
for my $n (5000000, 10000000) {
	unlink "$dir/perf.data";
	my $out = `cd $dir && $nbsim --model=northwood --nbsim-warn-unmodelled=no -- $perf record -o $dir/perf.data -e instructions:u -c $P -- $st/readloop $n </etc/hostname 2>&1`;
	my $rep = report('-g', 'none');
	$rs{$n} = samples($rep);
	diag "$out\n$rep" if $rs{$n} < 0;
}
my $d = $rs{10000000} - $rs{5000000};
ok($rs{5000000} > 0 && abs($d - 10000000 / $P) <= 1,
   "perf record of a dynamic program that reads: samples past the read ($rs{5000000}, $rs{10000000}: " .
   "10,000,000 instructions more give $d samples more, 100 +- 1)");

# the same IPs as our own sampling (nb_record: IEBS at the modelled skid,
# the same PMI): perf script's against nb_report --sort=ip's, k_branch
{
	my $u = $ENV{NB_UTILS_BIN} // die "NB_UTILS_BIN not set (run through make)\n";
	record('northwood', '-e', 'instructions:u', '-c', 1003, '--', $kb);
	my %perf;
	$perf{hex $_}++ for `$perf script -i $dir/perf.data -F ip 2>&1` =~ /^\s*([0-9a-f]+)\s*$/mg;
	system("cd $dir && $u/nb_record --model=northwood -o $dir/nb.profile -e instr_retired:NBOGUSNTAG:BOGUSNTAG/1003 -- $kb >/dev/null 2>&1");
	my %nb;
	for (`$u/nb_report -i $dir/nb.profile --sort=ip --stdio 2>&1`) {
		$nb{hex $2} += $1 if /^\s+(\d+)\s+[\d.]+%\s+\S+?:0x([0-9a-f]+)/;
	}
	my $fmt = sub { my $h = shift; join ' ', map { sprintf '%x:%d', $_, $h->{$_} } sort { $a <=> $b } keys %$h };
	ok(%nb && $fmt->(\%perf) eq $fmt->(\%nb), 'perf record samples the IPs nb_record samples (' . $fmt->(\%perf) . ')')
		or diag 'nb_record: ' . $fmt->(\%nb);
}

# a C program: its start in ld.so and libc counts a few instructions more
# or less with the environment (perf's child has perf's), so within one
# sample of nb_stat's
my $ins = nb_ins('northwood', $prog);
my $out = record('northwood', '-e', 'instructions:u', '-c', $P);
my $rep = report('-g', 'none');
ok(abs(samples($rep) - int($ins / $P)) <= 1, 'perf_hot: samples (' . samples($rep) . ") within one of floor(nb_stat's $ins / $P)") or diag $rep;
my @syms = $rep =~ /^\s+[\d.]+%\s+\d+\s+\[\.\] (\S+)/mg;
is($syms[0], 'hot', 'perf_hot: perf report --sort sym: the hot function first') or diag $rep;

$out = record('northwood', '-g', '-e', 'instructions:u', '-c', $P);
$rep = report();
like($rep, qr/\[\.\] hot\n\s*\|\n\s*---outer\n\s*main\n/, 'perf record -g: the user call chain hot <- outer <- main') or diag $rep;
my $script = `$perf script -i $dir/perf.data -F comm,ip,sym 2>&1`;
like($script, qr/perf_hot/, 'perf script: the samples carry the exec\'d program\'s comm (PERF_RECORD_COMM)');
like($script, qr/__libc_start_call_main|_dl_start/, 'symbols in the shared libraries: PERF_RECORD_MMAP2 of ld.so and libc');

# frequency mode (-F 4000, perf record's default): the period starts at 1
# (perf_event_alloc) and settles where 4000 samples a simulated second
# fall: each period's instructions at one per cycle at Northwood's 2800
# MHz plus the interrupt's 2 us (nb_kern_pmi.c NBK_PMI_NS): (250000 - 2000)
# * 2.8 = 694400.  k_loop_40m: 40 M instructions, about 14 simulated ms.
$out = record('northwood', '-e', 'instructions:u', '-F', 4000, '--', "$st/k_loop_40m");
my @per = `$perf script -i $dir/perf.data -F period 2>&1` =~ /(\d+)/g;
is($per[0], 1, 'perf record -F 4000: the first period 1') or diag $out;
ok(@per >= 40 && @per <= 70, 'perf record -F 4000: ' . scalar(@per) . ' samples over 40 M instructions (about 57)');
ok(@per && abs($per[-1] - 694400) < 0.01 * 694400, "perf record -F 4000: the period settles at 694400 ($per[-1])");

done_testing();
