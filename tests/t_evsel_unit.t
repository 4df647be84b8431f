#!/bin/sh
# The name parser alone, with ASan/UBSan: every event x mask x modifier on every model.
exec "$NB_BUILD/tests/evsel_unit"
