#!/bin/sh
# 1stL_cache_load_miss_retired (PAPI_L1_LDM) through PAPI under nbsim = the model L1D load misses.
exec "$NBSIM" -- "$NB_BUILD/tests/mem_l1ldm"
