#!/usr/bin/perl
# PAPI_add_event refuses exactly what PAPI_start would refuse, with the
# reason and what would count it (issue 32; ctests/add_start.c): every
# native name the component lists, every metric, every available preset
# alone, and 1,000 random pairs and triples of what adds alone, on each
# backend (sim, msr, perf: nbsim's emulated msr device and P4 perf driver)
# on the default model (prescott).  t_add_start_models.t covers the other
# models with fewer random sets.  Measured (2026-11-29, under load):
# about 22 s of CPU per backend here, 17 ms a random set under nbsim.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

my @o = ('--nbsim-clock=fast', '--nbsim-warn-unmodelled=no');
PapiSuite::run_variants('add_start', 240, map { [$_ => [@o], [1000, 0x32]] } qw(sim msr perf));
