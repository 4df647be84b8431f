#!/usr/bin/perl
# Overflows whose PMI comes while PAPI_stop runs (ctests/overflow_stop_edge.c):
# for 201 ends of the count around an overflow, overflows ==
# floor(count / threshold) exactly.  The sim backend on Prescott (the
# model and the cheap clock), Northwood and --ht=yes; the perf backend
# against nbsim's emulated perf driver.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run_variants('overflow_stop_edge', 300, [sim => []], [sim => ['--nbsim-clock=fast']],
	[sim => ['--model=northwood']], [sim => ['--ht=yes']], [perf => ['--nbsim-warn-unmodelled=no']]);
