#!/bin/sh
# nbsim's sampled clock (--nbsim-clock=sampled) against the timing model's
# walk it samples, on steady loops, chains, a change of phase and random
# uop blocks; exact where it must walk (sim/tests/t_tmsample.c).
exec "$NBSIM_TESTBIN/t_tmsample"
