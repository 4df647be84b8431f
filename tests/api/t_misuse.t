#!/bin/sh
# PAPI misuse (empty event sets, calls after PAPI_shutdown) returns error
# codes instead of crashing: patches/papi-7.0.0-misuse.patch.
exec "$NBSIM" -- "$NB_BUILD/tests/misuse"
