#!/usr/bin/perl
# Under the lockstep a PAUSE decides in place whether its thread runs on
# (nb_lockstep.c nb_ls_pause, nb_instr.c emit_pause) instead of going back
# to valgrind's scheduler to ask (docs/threads.md "Lockstep", the
# mechanism).  It must decide as the scheduler's thread-start hook would:
# the counts of a program whose threads spin with PAUSE at a barrier of
# their own (sim/tests/guest/t_pause.c) are the same, byte for byte and
# per thread, with --nbsim-lockstep-pause=yes and =no, under --ht=yes
# (cycles: the lockstep's time) and --ht=no (instructions).  A PAUSE that
# only jumped on, without setting the thread's limit again, moved the
# turns (tp_omp's cycles by 0.06%; here, at 120 rounds, 34,473,768
# cycles against 34,477,108; at 40 rounds it did not show: thirteenth
# session).  The two runs'
# environments are of one length (the option's value padded): the
# guest's stack moves with it, and the counts with the stack.
use strict;
use warnings;
use Test::More;

my $bin = $ENV{NB_UTILS_BIN} or BAIL_OUT('NB_UTILS_BIN not set');
my $tb = $ENV{NBSIM_TESTBIN} or BAIL_OUT('NBSIM_TESTBIN not set');
my $prog = "$tb/t_pause";
-x $prog or BAIL_OUT("$prog not built");
my $ev = 'PAPI_TOT_CYC,PAPI_TOT_INS,PAPI_L1_DCM,PAPI_BR_MSP';

# nb_stat's rows (count, event, run: the pid and tid columns differ) and
# its standard error
sub counts {
	my ($pause, $ht, $extra) = @_;
	local $ENV{VALGRIND_OPTS} = "--nbsim-lockstep-pause=$pause" . ($extra // '');
	my $out = `timeout 120 "$bin/nb_stat" --ht=$ht --per-thread -x, -e $ev -- "$prog" 120 2>&1`;
	my @rows = map { join ',', (split /,/)[0 .. 2] } grep { /^\d+,/ } split /\n/, $out;
	return (join("\n", @rows), scalar @rows, $out);
}

for my $ht (qw(yes no)) {
	my ($yes, $n) = counts('yes', $ht);
	my ($no) = counts('no ', $ht);
	# 4 events for the whole and for each of 2 threads
	ok($n == 12 && $yes eq $no,
	   "--ht=$ht: the same $n counts with the PAUSE decided in place and by the scheduler")
		or diag("in place:\n$yes\nby the scheduler:\n$no");
}
# (--nbsim-stats=yes turns every model on: the counts differ from the
# runs above, not between these two)
my (undef, undef, $in) = counts('yes', 'yes', ' --nbsim-stats=yes');
my (undef, undef, $out) = counts('no ', 'yes', ' --nbsim-stats=yes');
my ($p_in) = $in =~ /lockstep: (\d+) PAUSEs ran on/;
my ($p_out) = $out =~ /lockstep: (\d+) PAUSEs ran on/;
ok(defined $p_in && $p_in > 1000 && defined $p_out && $p_out == 0,
   'the PAUSEs ran on in place ' . ($p_in // '?') . ' times, by the scheduler ' .
   ($p_out // '?') . ' (--nbsim-lockstep-pause=no)');
done_testing();
