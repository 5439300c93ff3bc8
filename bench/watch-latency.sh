#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fix -> `watch` latency (target p99 <= 50 ms): the Swiss drive replayed at 10x through a
# private gpsd; bench/watch_latency.py compares gpsd's TPV arrival with logbookd's watch
# update for the same fix. Usage: bench/watch-latency.sh [SECONDS]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-30}"

scripts/install-deps.sh
swift build -c release --static-swift-stdlib -Xswiftc -warnings-as-errors --product logbookd >/dev/null
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d /tmp/logbook-latency.XXXXXX)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

TMPDIR="$work" /usr/bin/python3 scripts/gpsreplay.py --tcp --realtime 10 \
    fixtures/gpslogs/20100403_Z205_Switzerland.txt >"$work/replay.out" 2>/dev/null &
pids+=("$!")
for _ in $(seq 100); do grep -q '^PORT=' "$work/replay.out" 2>/dev/null && break; sleep 0.05; done
port="$(sed -n 's/^PORT=//p' "$work/replay.out")"
printf '[[vehicle]]\nid = "z205"\n[[source]]\ntype = "service"\nvehicle = "z205"\n' >"$work/logbookd.toml"
"$bin/logbookd" --config "$work/logbookd.toml" --gpsd "127.0.0.1:$port" \
    --state-dir "$work/state" --runtime-dir "$work/run" 2>"$work/log" &
pids+=("$!")
for _ in $(seq 100); do [ -S "$work/run/control.sock" ] && break; sleep 0.05; done
/usr/bin/python3 bench/watch_latency.py "$port" "$work/run/control.sock" "$duration"
