#!/usr/bin/perl
# papi_multiplex_cost, PAPI's utility, on the three backends under nbsim:
# it ends (status 0, no assertion), and writes its five .dat tables with a
# row per event count (1..9 of its default 10).
#
# On the perf backend it aborted ("sw_multiplex.c:790: MPX_start: Assertion
# `retval == PAPI_OK' failed").  It looks for events by adding each native
# event to a multiplexed set: PAPI's software multiplexing counts each
# event in a set of its own beside PAPI_TOT_CYC and takes a successful
# PAPI_add_event for "countable together".  The component accepted
# BPU_fetch_request beside PAPI_TOT_CYC (global_power_events) at add time
# and the kernel's P4 driver refused the pair at PAPI_start: both need
# counter 0 of its thread-0 half, as in Linux's p4_event_bind_map
# (native_events/kernel_p4.txt), so a real kernel refuses it too.  The
# component now asks the kernel when the set changes (the backend's
# check(), as PAPI's perf_event component opens its events then), the add
# is refused with the reason, and the utility takes the next event.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

my $u = "$ENV{NB_PAPI_SRC}/utils";
my $nbsim = $ENV{NBSIM};
my $bound = 120;    # CPU seconds per run (about 1 s is needed)

for my $b (qw(perf sim msr)) {
	my $tmp = tempdir(CLEANUP => 1);
	# CPU bound (ulimit -t) and a wall-clock backstop six times longer
	my $out = `cd $tmp && P4NETBURST_BACKEND=$b timeout -k 10 ${\(6 * $bound)} sh -c 'ulimit -t $bound && exec "\$@"' sh $nbsim -q --nbsim-clock=fast --nbsim-warn-unmodelled=no -- $u/papi_multiplex_cost -t 100 2>&1`;
	my ($st, $sig) = ($? >> 8, $? & 127);

	ok($st == 0 && !$sig, "$b: papi_multiplex_cost -t 100 ends with status 0 (status $st, signal $sig)")
		or diag($out);
	unlike($out, qr/Assertion/, "$b: no assertion fails");
	for my $f (qw(papi_startstop papi_read papi_read_ts papi_accum papi_reset)) {
		my @rows;

		if (open my $fh, '<', "$tmp/$f.dat") {
			@rows = map { /^\s*(\d+)\s/ ? $1 : () } <$fh>;
			close $fh;
		}
		is("@rows", '1 2 3 4 5 6 7 8 9', "$b: $f.dat has a row for 1 to 9 events");
	}
	if ($b eq 'perf') {
		# what the kernel refuses is said, naming the pair
		like($out, qr/add event: the kernel's P4 perf driver refused global_power_events .* beside BPU_fetch_request/,
		     'perf: the refused pair is named (BPU_fetch_request beside PAPI_TOT_CYC\'s global_power_events)');
	}
}

done_testing();
