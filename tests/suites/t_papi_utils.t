#!/usr/bin/perl
# PAPI's own utilities, unchanged, natively and under nbsim.
use strict;
use warnings;
use Test::More;

my $u = "$ENV{NB_PAPI_SRC}/utils";
my $nbsim = $ENV{NBSIM};

sub run { my $cmd = join ' ', @_; my $out = `$cmd 2>&1`; return ($? >> 8, $out); }

# Natively (this machine is not a NetBurst): disabled, and the reason names nbsim.
my ($st, $out) = run("$u/papi_component_avail");
is($st, 0, 'papi_component_avail runs natively');
like($out, qr/Name:\s+p4netburst.*\n\s*\\->\s*Disabled:.*nbsim/,
     'natively p4netburst is disabled with a reason naming nbsim');

# P4NETBURST_BACKEND forces a backend; each refusal says why.
($st, $out) = run("P4NETBURST_BACKEND=bogus $u/papi_component_avail");
like($out, qr/Disabled: P4NETBURST_BACKEND=bogus: no such backend \(sim, msr, perf\)/,
     'an unknown backend is named in the disabled reason');
for my $b (qw(msr perf)) {
	($st, $out) = run("P4NETBURST_BACKEND=$b $u/papi_component_avail");
	like($out, qr/Disabled: P4NETBURST_BACKEND=$b: this CPU .* is not a NetBurst/,
	     "natively the $b backend refuses this non-NetBurst CPU");
	($st, $out) = run("P4NETBURST_BACKEND=$b $nbsim -- $u/papi_component_avail");
	like($out, qr/Active components:\s*\nName:\s+p4netburst/,
	     "P4NETBURST_BACKEND=$b under nbsim: active on the emulated kernel (t_kern_*.t)");
}
($st, $out) = run("P4NETBURST_BACKEND=sim $nbsim -- $u/papi_component_avail");
like($out, qr/Active components:\s*\nName:\s+p4netburst/, 'P4NETBURST_BACKEND=sim under nbsim: active');

# Under nbsim: active with 18 counters.
($st, $out) = run("$nbsim -- $u/papi_component_avail");
is($st, 0, 'papi_component_avail runs under nbsim');
like($out, qr/Active components:\s*\nName:\s+p4netburst.*\n\s*Native:\s*\d+, Preset:\s*\d+, Counters:\s*18/,
     'under nbsim p4netburst is active with 18 counters');
like($out, qr{Family/Model/Stepping\s+15/\d+/\d+}, 'PAPI hardware info reports CPU family 15');

($st, $out) = run("$nbsim -- $u/papi_avail");
is($st, 0, 'papi_avail runs under nbsim');
for my $p (qw(PAPI_TOT_INS PAPI_TOT_CYC PAPI_BR_INS PAPI_BR_TKN PAPI_BR_NTK PAPI_BR_MSP PAPI_BR_PRC)) {
	like($out, qr/^\Q$p\E\s+0x[0-9a-f]+\s+Yes/m, "papi_avail lists $p as available");
}
($st, $out) = run("$nbsim -- $u/papi_avail -e PAPI_BR_MSP");
# PAPI_BR_MSP has three alternatives, chosen per event set: its native
# event is the component's preset entry, whose description lists them.
like($out, qr/p4netburst:::PAPI_BR_MSP/, 'papi_avail -e PAPI_BR_MSP shows its native event');
like($out, qr/1\) mispred_branch_retired:NBOGUS; 2\) branch_retired:MMNM:MMTM; 3\) Tagged_mispred_branch/,
     'papi_avail -e PAPI_BR_MSP lists its alternatives in order of preference');

($st, $out) = run("$nbsim -- $u/papi_native_avail");
is($st, 0, 'papi_native_avail runs under nbsim');
for my $e (qw(instr_retired uops_retired branch_retired mispred_branch_retired global_power_events)) {
	like($out, qr/p4netburst:::\Q$e\E\b/, "papi_native_avail lists $e");
}
for my $m (qw(NBOGUSNTAG NBOGUSTAG BOGUSNTAG BOGUSTAG MMNP MMNM MMTP MMTM RUNNING)) {
	like($out, qr/:\Q$m\E\b/, "papi_native_avail lists mask $m");
}

($st, $out) = run("$nbsim -- $u/papi_command_line PAPI_TOT_INS PAPI_BR_MSP");
is($st, 0, 'papi_command_line PAPI_TOT_INS PAPI_BR_MSP runs under nbsim');
like($out, qr/PAPI_TOT_INS\s*:\s*[1-9]\d*/, 'papi_command_line prints a non-zero PAPI_TOT_INS');
like($out, qr/PAPI_BR_MSP\s*:\s*\d+/, 'papi_command_line prints PAPI_BR_MSP');

($st, $out) = run("$nbsim -- $u/papi_command_line p4netburst:::branch_retired:MMTP p4netburst:::no_such_event");
like($out, qr/Failed adding: p4netburst:::no_such_event/, 'an unknown native event is refused by name');
like($out, qr/branch_retired:MMTP\s*:\s*[1-9]\d*/, 'the valid event beside it is still counted');

# The same event twice (PAPI_ECNFLCT from PAPI itself, whose text blames the
# hardware): PAPI_VERBOSE names the real cause
# (patches/papi-7.0.0-add-event-reason.patch).
($st, $out) = run("PAPI_VERBOSE=1 $nbsim -- $u/papi_command_line PAPI_TOT_INS PAPI_TOT_INS "
		  . "instr_retired:NBOGUSNTAG p4netburst:::instr_retired:NBOGUSNTAG");
like($out, qr/PAPI Error: add event: PAPI_TOT_INS is already in event set \d+ \(an event set counts each event once\)/,
     'a preset added twice: PAPI_VERBOSE says it is already in the set');
like($out, qr/PAPI Error: add event: p4netburst:::instr_retired:NBOGUSNTAG is already in event set \d+/,
     'a native event added twice (prefixed and not): PAPI_VERBOSE says it is already in the set');
like($out, qr/PAPI_TOT_INS\s*:\s*[1-9]\d*/, 'the first PAPI_TOT_INS is still counted');

done_testing();
