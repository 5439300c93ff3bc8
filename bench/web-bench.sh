#!/bin/bash
# SPDX-License-Identifier: MIT
# logbook-web benchmark: prints `web-bench:` lines.
#
#   bench/web-bench.sh [work-dir]
#
# work-dir (default ${TMPDIR:-/tmp}/logbook-bench-journal) is bench/index-bench.sh's: the
# synthetic 10-year journal (50,000 trips, 10 M points, made by logbook-journal-gen) and its
# index are reused or made. Figures (release build; other load on the machine shows):
#   - wrk on GET /api/trips (newest 50) over that index, 16 connections, 20 s: req/s, p50,
#     p99 (target p99 <= 50 ms);
#   - idle RSS of logbook-web;
#   - 100 Server-Sent-Events clients for 60 s while a real logbookd records a gpsd replay:
#     logbook-web RSS every 5 s (target <= 40 MiB, flat), the daemon's sockets (one watcher
#     for all), the age of live.json at each sample (the daemon still on time: <= 2 s + slack).
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-${TMPDIR:-/tmp}/logbook-bench-journal}"
mkdir -p "$work"
for p in logbook-web logbookd logbook logbook-journal-gen; do swift build -c release --product "$p" >&2; done
bin="$(swift build -c release --show-bin-path)"
command -v wrk >/dev/null || { echo "web-bench: SKIP wrk missing (apt-get install wrk)"; exit 0; }
run="$(mktemp -d "${TMPDIR:-/tmp}/logbook-web-bench.XXXXXX")"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$run"; }
trap cleanup EXIT INT TERM
rss_mib() { awk '/^VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

"$bin/logbook-journal-gen" "$work" --years 10 --trips 50000 --points 10000000 --vehicles 3 >/dev/null
"$bin/logbook" --state-dir "$work/state" trips list --limit 1 >/dev/null   # builds or catches up the index

# 1. The trips list over the 10-year index.
: >"$run/empty.toml"
port="$(free_port)"
"$bin/logbook-web" --config "$run/empty.toml" --state-dir "$work/state" --runtime-dir "$run/none" --listen "127.0.0.1:$port" \
    2>"$run/web1.log" &
web=$!; pids+=("$web")
for _ in $(seq 100); do curl -fsS -o /dev/null "http://127.0.0.1:$port/api/openapi.json" 2>/dev/null && break; sleep 0.1; done
sleep 2
echo "web-bench: idle RSS: $(rss_mib "$web") MiB (logbook-web, index open, no client)"
curl -fsS -o /dev/null "http://127.0.0.1:$port/api/trips"
wrk -t2 -c16 -d20s --latency "http://127.0.0.1:$port/api/trips" >"$run/wrk.out"
rps=$(awk '/^Requests\/sec/ {print $2}' "$run/wrk.out")
p50=$(awk '$1 == "50%" {print $2}' "$run/wrk.out"); p99=$(awk '$1 == "99%" {print $2}' "$run/wrk.out")
errors=$(grep -E "Non-2xx|Socket errors" "$run/wrk.out" | tr -s ' ' | tr '\n' ' ' || true)
echo "web-bench: GET /api/trips (newest 50 of 50000 trips): $rps req/s, p50 $p50, p99 $p99 at 16 connections (target p99 <= 50 ms)${errors:+; $errors}"
echo "web-bench: RSS after the wrk run: $(rss_mib "$web") MiB"
kill "$web"; wait "$web" 2>/dev/null || true

# 2. 100 live clients while logbookd records a replay.
TMPDIR="$run" /usr/bin/python3 scripts/gpsreplay.py --tcp --realtime 2 fixtures/gpslogs/munich-gps.nmea >"$run/replay.out" 2>"$run/replay.log" &
pids+=("$!")
for _ in $(seq 100); do grep -q '^PORT=' "$run/replay.out" 2>/dev/null && break; sleep 0.1; done
cat >"$run/logbookd.toml" <<TOML
state_dir = "$run/state"
runtime_dir = "$run/run"
[gpsd]
address = "127.0.0.1:$(sed -n 's/^PORT=//p' "$run/replay.out")"
[[vehicle]]
id = "golf"
name = "Golf"
[[source]]
type = "service"
vehicle = "golf"
TOML
"$bin/logbookd" --config "$run/logbookd.toml" 2>"$run/logbookd.log" &
daemon=$!; pids+=("$daemon")
for _ in $(seq 100); do [ -S "$run/run/control.sock" ] && break; sleep 0.1; done
sockets() { find "/proc/$1/fd" -lname 'socket:*' 2>/dev/null | wc -l; }
port="$(free_port)"
"$bin/logbook-web" --config "$run/logbookd.toml" --listen "127.0.0.1:$port" 2>"$run/web2.log" &
web=$!; pids+=("$web")
for _ in $(seq 100); do curl -fsS -o /dev/null "http://127.0.0.1:$port/api/openapi.json" 2>/dev/null && break; sleep 0.1; done
before=$(sockets "$daemon"); rss0=$(rss_mib "$web")
for _ in $(seq 100); do curl -sN -o /dev/null --max-time 70 "http://127.0.0.1:$port/api/live/events" & pids+=("$!"); done
samples=(); ages=()
for _ in $(seq 12); do
    sleep 5
    samples+=("$(rss_mib "$web")")
    ages+=("$(( $(date +%s) - $(stat -c %Y "$run/run/live.json") ))")
done
after=$(sockets "$daemon")
clients=$(find "/proc/$web/fd" -lname 'socket:*' | wc -l)
max=$(printf '%s\n' "${samples[@]}" | sort -n | tail -1)
echo "web-bench: 100 live clients for 60 s: logbook-web RSS $rss0 MiB before, every 5 s: ${samples[*]} MiB (max $max, target <= 40 MiB, flat); its sockets $clients"
echo "web-bench: the daemon's sockets $before before, $after with 100 clients (one watch connection for all); live.json age at each sample: ${ages[*]} s (written every <= 2 s)"
