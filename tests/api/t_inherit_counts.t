#!/bin/sh
# PAPI_INHERIT on the sim backend: refused with PAPI_ECMP (cmp_info.inherit
# 0: nbsim's PMU contexts have no inheritance); ctests/inherit_counts.c.
exec "$NBSIM" --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/inherit_counts"
