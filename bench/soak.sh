#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Soak: the release logbookd (--static-swift-stdlib, as the .deb ships it) through weeks of
# time-compressed driving: real drives replayed at 100x in a loop through a new gpsd per
# drive (one killed hard every 7 trips), a fake power_supply tree switching the ignition
# (one trip per cycle), watch clients coming and going. Prints RSS, open fds and threads
# first/last/max, trips started and closed, and the `logbook verify` result (soak: lines).
# Usage: bench/soak.sh [TRIPS]   (default 2000: ~80 min wall, ~65 h of driving)
set -euo pipefail
cd "$(dirname "$0")/.."
trips="${1:-2000}"
scripts/install-deps.sh
# As the .deb ships it: logbookd linked with its order file (profiled here when stale).
scripts/build-release.sh --product logbookd 2>/dev/null || scripts/build-release.sh --product logbookd
scripts/build-release.sh --product logbook 2>/dev/null || scripts/build-release.sh --product logbook
bin="$(swift build -c release --show-bin-path)"
exec /usr/bin/python3 scripts/soak.py --bin "$bin" --trips "$trips" --sample 10
