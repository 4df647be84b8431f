#!/usr/bin/perl
# PAPI's high-level API under nbsim: its "cycles" field is the host's time
# stamp counter, not the simulated CPU's cycles; the JSON says so
# (cycles_note, patches/papi-7.0.0-hl-cycles-note.patch) and PAPI_TOT_CYC
# in the same region counts the simulated cycles.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $dir = tempdir(CLEANUP => 1);
my $out = `cd $dir && PAPI_EVENTS=PAPI_TOT_CYC,PAPI_TOT_INS PAPI_OUTPUT_DIRECTORY=$dir "$ENV{NBSIM}" -- "$ENV{NB_BUILD}/tests/hl_cycles" 2>&1`;
is($? >> 8, 0, 'the high-level program runs under nbsim') or diag($out);
my ($ll) = $out =~ /^lowlevel PAPI_TOT_CYC (\d+)$/m;
my @json = glob("$dir/papi_hl_output*/*.json");
is(scalar @json, 1, 'one JSON report written') or diag(`ls -R $dir`);
my $j = @json ? do { local (@ARGV, $/) = $json[0]; <> } : '';
like($j, qr/"cycles_note":"cycles and real_time_nsec are the host's \(time stamp counter, wall clock\), not those of the virtual CPU \(nbsim \(valgrind\), model prescott\): count PAPI_TOT_CYC for its cycles"/,
     'the report says its cycles are the host\'s, naming nbsim and the model');
my ($cyc) = $j =~ /"cycles":"(\d+)"/;
my ($tot) = $j =~ /"PAPI_TOT_CYC":"(\d+)"/;
ok(defined $tot && defined $ll && $tot > 0 && abs($tot - $ll) < $ll / 10,
   'the region\'s PAPI_TOT_CYC is the simulated cycles (low-level API: ' . ($ll // '?') . ', HL: ' . ($tot // '?') . ')');
ok(defined $cyc && defined $tot, "both fields present (cycles $cyc, PAPI_TOT_CYC $tot)");
my $py = `sh -c 'command -v python3'`;
chomp $py;
SKIP: {
	skip 'python3 is not installed (the writer is a python3 script)', 1 unless $py;
	my $w = `cd $dir && python3 "$ENV{NB_PAPI_SRC}/high-level/scripts/papi_hl_output_writer.py" --source papi_hl_output 2>&1`;
	is($? >> 8, 0, "PAPI's output writer still reads the report") or diag($w);
}
done_testing();
