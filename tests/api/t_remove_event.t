#!/usr/bin/perl
# PAPI_remove_event (ctests/remove_event.c,
# patches/papi-7.0.0-remove-positions.patch): the events left read their
# own counts (PAPI 7.0.0 left them at their old positions: stale counts),
# and overflow on an event after the removed one is put back (before:
# PAPI_EINVAL, the set half removed).  On the sim backend (the model, the
# cheap clock) and the perf backend (its handler's instructions counted).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use PapiSuite;

PapiSuite::run_variants('remove_event', 120, [sim => []], [sim => ['--nbsim-clock=fast']],
	[perf => ['--nbsim-warn-unmodelled=no'], ['handler-counted']]);
