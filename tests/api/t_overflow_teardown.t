#!/usr/bin/perl
# Event sets PAPI frees with overflow still on (ctests/overflow_teardown.c):
# PAPI_unregister_thread and PAPI_shutdown return (the component once
# turned the overflow signal off under PAPI's own lock there and spun for
# ever), and overflow works for the sets that follow.  On the sim backend
# (the model, the cheap clock, --ht=yes) and the perf backend against
# nbsim's emulated perf driver (its handler's instructions counted); not
# the msr backend, where PAPI emulates overflow with a timer (no hardware
# interrupt, no set_overflow call: no such path).  A hang is a failure
# after the timeout.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run_variants('overflow_teardown', 120, [sim => []], [sim => ['--nbsim-clock=fast']],
	[sim => ['--ht=yes']], [perf => ['--nbsim-warn-unmodelled=no'], ['handler-counted']]);
