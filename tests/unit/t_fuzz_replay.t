#!/bin/sh
# Replay of the fuzzer's seed corpus through the fuzz target (gcc, ASan/UBSan, no libFuzzer).
exec "$NB_BUILD/tests/fuzz_replay" "${NB_SRC:-.}/fuzz/corpus"
