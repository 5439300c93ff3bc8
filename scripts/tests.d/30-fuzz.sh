#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The parsers under fuzz, in two steps:
#  1. the ordinary debug build replays every seed and every fixed crash input in
#     fuzz/corpus/HARNESS through the harnesses (regression inputs, a second or two);
#  2. scripts/fuzz.sh runs libFuzzer + ASan on each of the five parsers for
#     LOGBOOK_FUZZ_SECONDS (default 30) and fails on a crash, hang or runaway allocation.
# The fuzz build (release, sanitizers, its own .build-fuzz) took 13 min from clean on the
# loaded 2-core VM (incremental: seconds); the five runs add 2.5 min.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product logbook-fuzz -Xswiftc -warnings-as-errors >/dev/null
bin="$(swift build --show-bin-path)/logbook-fuzz"
for h in control json config segment obd; do
    "$bin" "$h" "fuzz/corpus/$h"
done
exec scripts/fuzz.sh "${LOGBOOK_FUZZ_SECONDS:-30}"
