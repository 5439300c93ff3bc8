#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fdatasync calls per minute while recording a trip at the real 1 Hz pace (target <= 12:
# one group commit every 5 s). Replays the Swiss drive in real time through a private
# gpsd for DURATION seconds and counts the daemon's fsync-family calls with strace.
# Usage: bench/sync-bench.sh [DURATION]   (default 120)
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-120}"

scripts/install-deps.sh strace
# shellcheck source=scripts/release-flags.sh
. scripts/release-flags.sh
swift build "${RELEASE_BUILD[@]}" --product logbookd >/dev/null
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d /tmp/logbook-sync.XXXXXX)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

# shellcheck source=bench/lib.sh
. bench/lib.sh
start_replay 1
start_daemon
sleep 3  # past start-up (segment creation syncs file and directory once)
timeout -s INT "$duration" strace -f -qq -e trace=fdatasync,fsync -o "$work/strace" -p "$daemon" || true
points="$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trip"]["points"])' "$work/run/live.json")"
calls="$(grep -cE 'fdatasync|fsync' "$work/strace" || true)"
echo "sync-bench: ${calls} fsync-family calls in ${duration} s at 1 Hz ($points points so far):" \
    "$(awk -v c="$calls" -v d="$duration" 'BEGIN {printf "%.1f", c * 60 / d}') per minute"
