#!/usr/bin/perl
# PAPI_overflow thresholds shorter than PAPI's own user-mode handler on the
# perf backend (ctests/overflow_tiny.c): nbsim's emulated perf driver
# throttles a sampling event past 400 interrupts a tick, as Linux does
# (sim/README "Emulated kernel"), so the program ends, its count short of
# the loop's (lost while throttled, as on Linux); before, T = 200 or 1
# interrupted again at every return from the handler and never ended.
# A hang is a failure after the timeout.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run_variants('overflow_tiny', 180, [perf => ['--nbsim-warn-unmodelled=no'], ['200']],
	[perf => ['--nbsim-warn-unmodelled=no', '--nbsim-clock=fast'], ['1']],
	[perf => ['--nbsim-warn-unmodelled=no', '--ht=yes'], ['100']]);
