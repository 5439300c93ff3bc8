#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Nearest-place lookup time on the world bundle (release build), against a linear scan of
# every place in the same run; bundle size and load time. Prints `places-bench:` lines.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f .build/places/places.manifest.json ] || /usr/bin/python3 scripts/build-places-bundle.py --out .build/places >/dev/null
swift build -c release --product logbook-places-bench >&2
"$(swift build -c release --show-bin-path)/logbook-places-bench" .build/places "${1:-200000}"
