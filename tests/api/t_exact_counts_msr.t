#!/bin/sh
# Exact counts by the difference method through the PAPI API, on the msr
# backend against nbsim's emulated msr device (sim/README.md "Emulated kernel").
P4NETBURST_BACKEND=msr exec "$NBSIM" -- "$NB_BUILD/tests/exact_counts"
