#!/bin/sh
# The msr and perf backends without NetBurst hardware (fake MSR device files,
# recorded perf_event_open calls), with ASan/UBSan.
exec "$NB_BUILD/tests/backend_unit"
