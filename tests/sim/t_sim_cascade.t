#!/bin/sh
# t_sim_cascade.t - a cascaded counter pair, programmed with the encoder's
# register images, counts past 2^40 under nbsim (tests/sim/sim_cascade.c).
. "$(dirname "$0")/../lib/sched_build.sh"
# the guest runs under nbsim (valgrind): no AddressSanitizer there
NB_SAN=
c=$nb_comp
: "${NBSIM:?set NBSIM to the nbsim launcher}"
if ! nb_cc sim_cascade -I"$nb_src/sim" -I"$nb_src/sim/tests" -I"$nb_src/sim/tests/guest" "$nb_src/tests/sim/sim_cascade.c" \
	$nb_sched_src "$c/nb_encode.c" "$c/nb_evsel.c"; then
	echo "1..1"; echo "not ok 1 - build sim_cascade"; exit 1
fi
exec "$NBSIM" -- "$nb_out/sim_cascade"
