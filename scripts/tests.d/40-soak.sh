#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Short soak (about 2 minutes): the debug logbookd through 40 ignition cycles of real drives
# replayed at 100x, gpsd restarted and killed, watch clients coming and going. Fails if open
# fds or threads grow, a trip is left open, the daemon does not stop cleanly, or verify
# fails. The long run (thousands of trips, release build) is bench/soak.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(swift build --show-bin-path)"
exec /usr/bin/python3 scripts/soak.py --bin "$bin" --trips 40
