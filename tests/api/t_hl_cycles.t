#!/usr/bin/perl
# PAPI's high-level API under nbsim.  Its "cycles" field is
# PAPI_get_real_cyc (the time-stamp counter) and "real_time_nsec" the wall
# clock.  Under --nbsim-time=host they are the host's, not the simulated
# CPU's: the JSON says so (cycles_note,
# patches/papi-7.0.0-hl-cycles-note.patch) and PAPI_TOT_CYC in the same
# region counts the simulated cycles.  By default (simulated time) the TSC
# is the simulated part's (docs/simulated-time.md): the region's cycles
# agree with its PAPI_TOT_CYC, its real_time_nsec with them at the model's
# 3.4 GHz, and there is no note.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

# run hl_cycles with nbsim options -> (status, output, JSON text, dir)
sub run_hl {
	my $dir = tempdir(CLEANUP => 1);
	my $out = `cd $dir && PAPI_EVENTS=PAPI_TOT_CYC,PAPI_TOT_INS PAPI_OUTPUT_DIRECTORY=$dir "$ENV{NBSIM}" @_ -- "$ENV{NB_BUILD}/tests/hl_cycles" 2>&1`;
	my $st = $? >> 8;
	my @json = glob("$dir/papi_hl_output*/*.json");
	my $j = @json == 1 ? do { local (@ARGV, $/) = $json[0]; <> } : '';
	return ($st, $out, $j, $dir, scalar @json);
}

my ($st, $out, $j, $dir, $n) = run_hl('--nbsim-time=host');
is($st, 0, 'the high-level program runs under nbsim --nbsim-time=host') or diag($out);
is($n, 1, 'one JSON report written') or diag(`ls -R $dir`);
my ($ll) = $out =~ /^lowlevel PAPI_TOT_CYC (\d+)$/m;
like($j, qr/"cycles_note":"cycles and real_time_nsec are the host's \(time stamp counter, wall clock\), not those of the virtual CPU \(nbsim \(valgrind\), model prescott\): count PAPI_TOT_CYC for its cycles"/,
     'host time: the report says its cycles are the host\'s, naming nbsim and the model');
my ($cyc) = $j =~ /"cycles":"(\d+)"/;
my ($tot) = $j =~ /"PAPI_TOT_CYC":"(\d+)"/;
ok(defined $tot && defined $ll && $tot > 0 && abs($tot - $ll) < $ll / 10,
   'the region\'s PAPI_TOT_CYC is the simulated cycles (low-level API: ' . ($ll // '?') . ', HL: ' . ($tot // '?') . ')');
ok(defined $cyc && defined $tot, 'both fields present (cycles ' . ($cyc // '?') . ', PAPI_TOT_CYC ' . ($tot // '?') . ')');
my $py = `sh -c 'command -v python3'`;
chomp $py;
SKIP: {
	skip 'python3 is not installed (the writer is a python3 script)', 1 unless $py;
	my $w = `cd $dir && python3 "$ENV{NB_PAPI_SRC}/high-level/scripts/papi_hl_output_writer.py" --source papi_hl_output 2>&1`;
	is($? >> 8, 0, "PAPI's output writer still reads the report") or diag($w);
}

# simulated time, the default: the report's cycles and time are the
# simulated part's
($st, $out, $j, $dir, $n) = run_hl();
is($st, 0, 'simulated time (the default): runs') or diag($out);
unlike($j, qr/cycles_note/, 'simulated time: no note, the cycles are the part\'s');
($cyc) = $j =~ /"cycles":"(\d+)"/;
($tot) = $j =~ /"PAPI_TOT_CYC":"(\d+)"/;
my ($ns) = $j =~ /"real_time_nsec":"(\d+)"/;
# the region's TSC reads and its counter reads are a few PAPI calls apart
# (hundreds of cycles against the loop's 1.6 million): within 1%
ok(defined $cyc && defined $tot && abs($cyc - $tot) < $tot / 100,
   'simulated time: cycles (' . ($cyc // '?') . ') are PAPI_TOT_CYC (' . ($tot // '?') . ') within 1%');
ok(defined $ns && defined $cyc && abs($ns * 3.4 - $cyc) < $cyc / 100,
   'simulated time: real_time_nsec (' . ($ns // '?') . ') is the same time at 3.4 GHz');
done_testing();
