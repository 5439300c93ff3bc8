#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fix -> `watch` latency (target p99 <= 50 ms): the Swiss drive replayed at 10x through a
# private gpsd; bench/watch_latency.py compares gpsd's TPV arrival with logbookd's watch
# update for the same fix. Usage: bench/watch-latency.sh [SECONDS]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-30}"

scripts/install-deps.sh
# shellcheck source=scripts/release-flags.sh
. scripts/release-flags.sh
swift build "${RELEASE_BUILD[@]}" --product logbookd >/dev/null
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d /tmp/logbook-latency.XXXXXX)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

# shellcheck source=bench/lib.sh
. bench/lib.sh
start_replay 10
start_daemon
for _ in $(seq 100); do [ -S "$work/run/control.sock" ] && break; sleep 0.05; done
/usr/bin/python3 bench/watch_latency.py "$port" "$work/run/control.sock" "$duration"
