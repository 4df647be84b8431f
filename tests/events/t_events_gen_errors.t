#!/usr/bin/perl
# t_events_gen_errors.t - native_events/gen_tables.pl rejects malformed or
# inconsistent data with a FILE:LINE message (and writes no output).
#   prove tests/events/t_events_gen_errors.t
use strict;
use warnings;
use Test::More;
use File::Basename qw(dirname);
use File::Copy qw(copy);
use Cwd qw(abs_path);
require(dirname(abs_path(__FILE__)) . '/t_events_lib.pl');
our ($NE, $TMP);

my @files = qw(pmu.txt events.txt metrics.txt presets.txt);

# Run the generator on a copy of the data where $file has $edit applied
# (a sub that rewrites the file's text).  Returns (exit status, stderr, outdir).
my $n = 0;
sub gen_with {
	my ($file, $edit) = @_;
	my $d = "$TMP/case" . $n++;
	mkdir $d; mkdir "$d/out";
	for (@files) { copy("$NE/$_", "$d/$_") or die "copy $_: $!\n"; }
	open my $in, '<', "$d/$file" or die; local $/; my $s = <$in>; close $in;
	$s = $edit->($s);
	open my $o, '>', "$d/$file" or die; print $o $s; close $o;
	my $err = `perl $NE/gen_tables.pl $d $d/out 2>&1 >/dev/null`;
	return ($? >> 8, $err, "$d/out");
}
sub line_of {   # 1-based line of the first match of $re in the edited copy
	my ($file, $case, $re) = @_;
	open my $in, '<', "$TMP/case$case/$file" or die;
	while (<$in>) { return $. if /$re/; }
	return -1;
}

my ($rc, $err, $out) = gen_with('events.txt', sub { $_[0] });
is($rc, 0, 'unmodified data generates') or diag $err;
ok(-s "$out/nb_tables.c" && -s "$out/nb_tables_idx.h", 'both outputs written');

my @cases = (
	# [ file, description, edit, regex marking the bad line, expected message ]
	['events.txt', 'mask bit out of range', sub { $_[0] =~ s/^  mask RUNNING 0 TS/  mask RUNNING 16 TS/mr },
		qr/^  mask RUNNING 16/, qr/mask bit 16 > 15/],
	['events.txt', 'mask without TS/TI', sub { $_[0] =~ s/^  mask TCMISS 0 TS /  mask TCMISS 0 /mr },
		qr/^  mask TCMISS 0 "/, qr/mask NAME BIT TS\|TI/],
	['events.txt', 'unknown ESCR', sub { $_[0] =~ s/^  escrs FSB_ESCR0 FSB_ESCR1\n  models all\n  class nonretirement\n  kernel 24/  escrs FSB_ESCR0 FSB_ESCR9\n  models all\n  class nonretirement\n  kernel 24/mr },
		qr/FSB_ESCR9/, qr/unknown escr FSB_ESCR9/],
	['events.txt', 'select out of range', sub { $_[0] =~ s/^  select 0x13$/  select 0x40/mr },
		qr/^  select 0x40/, qr/select HEX/],
	['events.txt', 'duplicate mask bit', sub { $_[0] =~ s/^  mask MMNM 1 TS/  mask MMNM 0 TS/mr },
		qr/^  mask MMNM 0/, qr/mask bit 0 used twice/],
	['events.txt', 'unknown field', sub { $_[0] =~ s/^  class retirement\n  kernel 39/  klass retirement\n  kernel 39/mr },
		qr/^  klass/, qr/unknown field 'klass'/],
	['events.txt', 'duplicate kernel index', sub { $_[0] =~ s/^  kernel 39$/  kernel 38/mr },
		qr/^event uops_retired/, qr/kernel index 38 also used by instr_retired/],
	['events.txt', 'ESCR select disagrees with pmu.txt', sub { $_[0] =~ s/^  select 0x02\n  escrsel 4/  select 0x02\n  escrsel 5/mr },
		qr/^event instr_retired/, qr/escrsel 5 != CRU_ESCR0's 4/],
	['events.txt', 'unknown default mask', sub { $_[0] =~ s/^  default RUNNING$/  default RUNING/mr },
		qr/^event global_power_events/, qr/unknown default mask RUNING/],
	['events.txt', 'vmask naming an unknown metric', sub { $_[0] =~ s/metric 1stL_cache_load_miss_retired/metric 1stL_cache_miss_retired/r },
		qr/metric 1stL_cache_miss_retired/, qr/unknown metric 1stL_cache_miss_retired/],
	['metrics.txt', 'replay metric with PEBS bit 25 set', sub { $_[0] =~ s/^  pebs_enable 0x01000001$/  pebs_enable 0x03000001/mr },
		qr/^metric 1stL_cache_load_miss_retired/, qr/bit 25 .* clear/],
	['metrics.txt', 'execution tag not matching the count mask', sub { $_[0] =~ s/(metric X87_FP_retired\n(?:.*\n)*?)  tag 0/${1}  tag 1/r },
		qr/^  tag 1$/, qr/tag 1 is counted by NBOGUS1 only/],
	['metrics.txt', 'count with an unknown mask', sub { $_[0] =~ s/count replay_event:NBOGUS\n  pebs_enable 0x01000002/count replay_event:NBOGUSX\n  pebs_enable 0x01000002/r },
		qr/NBOGUSX/, qr/event replay_event has no mask 'NBOGUSX'/],
	['presets.txt', 'preset naming an unknown event', sub { $_[0] =~ s/alt NOT_DERIVED global_power_events:RUNNING/alt NOT_DERIVED global_power_event:RUNNING/r },
		qr/global_power_event:RUNNING/, qr/unknown event 'global_power_event'/],
	['presets.txt', 'preset naming an unknown mask', sub { $_[0] =~ s/branch_retired:MMTP:MMTM$/branch_retired:MMTP:MMTX/mr },
		qr/MMTX/, qr/has no mask 'MMTX'/],
	['presets.txt', 'preset naming an unknown metric', sub { $_[0] =~ s/alt NOT_DERIVED Memory_loads$/alt NOT_DERIVED Memory_load/mr },
		qr/Memory_load$/, qr/unknown event 'Memory_load'/],
	['presets.txt', 'L3 mask without features=l3', sub { $_[0] =~ s/RD_3rdL_MISS features=l3/RD_3rdL_MISS/r },
		qr/RD_3rdL_MISS$/, qr/needs feature/],
	['presets.txt', 'NOT_DERIVED with two terms', sub { $_[0] =~ s/alt NOT_DERIVED resource_stall:SBFULL/alt NOT_DERIVED resource_stall:SBFULL global_power_events:RUNNING/r },
		qr/resource_stall:SBFULL global/, qr/NOT_DERIVED takes exactly one term/],
	['pmu.txt', 'ESCR on a counter of another group', sub { $_[0] =~ s/^escr BSU_ESCR0   0x3a0 BPU   7 0,1 /escr BSU_ESCR0   0x3a0 BPU   7 0,4 /mr },
		qr/^escr BSU_ESCR0/, qr/counter 4 not in group BPU/],
	['pmu.txt', 'cascade alternate out of range', sub { $_[0] =~ s/^(counter  2 BPU_COUNTER2 .* BPU) 0$/$1 18/mr },
		qr/^counter  2 BPU_COUNTER2/, qr/bad cascade alternate 18/],
);
for my $c (@cases) {
	my ($file, $what, $edit, $lre, $mre) = @$c;
	my $case = $n;
	my ($rc, $err, $out) = gen_with($file, $edit);
	my $line = line_of($file, $case, $lre);
	isnt($rc, 0, "$what: generator fails");
	like($err, qr{^\Q$TMP\E/case$case/\Q$file\E:$line: }m, "$what: message names $file:$line") or diag $err;
	like($err, $mre, "$what: message says why") or diag $err;
	ok(!-e "$out/nb_tables.c", "$what: no output written");
}
done_testing();
