#!/usr/bin/perl
# t_add_start.t on the other models (willamette, northwood, cedarmill,
# xeonmp) and, on prescott, with Hyper-Threading on: every native name,
# metric and available preset alone, and 100 random pairs and triples
# (another seed per model), on each backend.  Fewer random sets than on
# the default model: the sets' placement depends on the model only through
# the events it has and the kernel's table, which the names alone cover.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

# make check runs every model on the sim backend, and the native backends
# (whose refusals depend on the model through its events and the kernel's
# table) on northwood, the pre-Prescott table, and with Hyper-Threading;
# t_add_start.t runs them on the default model, a Prescott.  The native
# runs on willamette, cedarmill and xeonmp (each 11-16 s of CPU,
# 2026-12-02) are make check-long's.
my @o = ('--nbsim-clock=fast', '--nbsim-warn-unmodelled=no');
my @runs;
my $seed = 0x100;
for my $m (qw(willamette northwood cedarmill xeonmp)) {
	my $long = $m eq 'northwood' ? undef
		: "the native backends on $m: 11-16 s of CPU each; make check runs them on northwood";
	push @runs, map { [$_ => [@o, "--model=$m"], [100, $seed], $_ eq 'sim' ? undef : $long] }
		qw(sim msr perf);
	$seed++;
}
push @runs, map { [$_ => [@o, '--ht=yes'], [100, $seed]] } qw(sim msr perf);
PapiSuite::run_variants('add_start', 240, @runs);
