#!/bin/sh
# Native event names through the PAPI API under nbsim.
exec "$NBSIM" -- "$NB_BUILD/tests/names"
