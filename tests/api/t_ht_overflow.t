#!/bin/sh
# PAPI_overflow on both logical processors under nbsim --ht=yes: LP1's
# event set interrupts through OVF_PMI_T1 (ctests/ht_overflow.c).
exec "$NBSIM" --ht=yes --nbsim-warn-unmodelled=no -- "$NB_BUILD/tests/ht_overflow"
