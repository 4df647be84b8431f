#!/bin/sh
# Preset alternatives count what the preferred mapping counts, or the preset
# is refused (ctests/preset_alts.c, docs/PRESETS.md).
exec "$NBSIM" --nbsim-mem-timing=yes -- "$NB_BUILD/tests/preset_alts"
