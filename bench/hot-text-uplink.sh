#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Generates logbook-uplink's order file, as bench/hot-text.sh does logbookd's (why: there, and
# docs/memory.md): the input sections the uplink runs while a car drives with every sink on,
# gathered at the front of its text when LOGBOOK_UPLINK_HOT_TEXT names the file (Package.swift).
# A build product of this machine, never committed; stale or missing, the uplink still links and
# runs, with more of its text resident. scripts/build-release.sh links with it when it is there
# and newer than the code; scripts/build-deb.sh and bench/uplink-bench.sh make it first.
#
# How: a private mosquitto, a throwaway PostgreSQL cluster and the three loopback receivers
# (scripts/interop-receiver.py: OwnTracks, Overland, OsmAnd); logbookd records the Regensburg
# drive replayed at 20x; the release uplink (linked with a map) follows it under callgrind with
# every sink on, sends the live state while the car drives, catches up after the car parks and
# gets SIGTERM. bench/hot_text_sections.py maps what it executed to input sections.
# Usage: bench/hot-text-uplink.sh [OUT]   (default .build/hot-text/logbook-uplink.ld; prints its path last)
#        KEEP=1 bench/hot-text-uplink.sh  keeps the work directory (profile, link map) for a look
set -euo pipefail
cd "$(dirname "$0")/.."
log=fixtures/gpslogs/20100411_Geko_Regensburg.txt
list="${1:-.build/hot-text/logbook-uplink.ld}"
mkdir -p "$(dirname "$list")"

scripts/install-deps.sh valgrind >&2
work="$(mktemp -d /tmp/logbook-hot-uplink.XXXXXX)"
chmod 755 "$work"
pids=()
# shellcheck source=bench/uplink-servers.sh
. bench/uplink-servers.sh
trap 'stop_uplink_servers; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

# shellcheck source=scripts/release-flags.sh
. scripts/release-flags.sh
bin="$(swift build -c release --show-bin-path)"
# The daemon only writes the journal the uplink follows: any release logbookd will do.
[ -x "$bin/logbookd" ] || scripts/build-release.sh --product logbookd >&2
# Profiled without an order file (the layout it is about to replace); the map makes the link
# run again even when nothing else changed.
rm -f "$bin/logbook-uplink"
env -u LOGBOOK_UPLINK_HOT_TEXT swift build "${RELEASE_BUILD[@]}" --product logbook-uplink \
    -Xlinker -Map="$work/logbook-uplink.map" >/dev/null
# valgrind cannot read the toolchain's DWARF 5; the symbol table is all it needs.
cp "$bin/logbook-uplink" "$work/logbook-uplink"
strip --strip-debug "$work/logbook-uplink"

start_broker
start_postgres
start_receivers
start_drive "$work/logbookd.toml" "$log" 20 car
"${uplink_env[@]}" valgrind --tool=callgrind --dump-instr=yes --compress-pos=no --callgrind-out-file="$work/uplink.callgrind" \
    "$work/logbook-uplink" --config "$work/logbookd.toml" 2>"$work/uplink.log" &
uplink=$!
pids+=("$uplink")
wait "$replay" || true
kill -TERM "$daemon"
wait "$daemon" || true
# Parked: every sink catches up with the sealed journal (status files), then the uplink stops.
caught_up() {
    /usr/bin/python3 - "$work/drive-uplink/run" <<'PY'
import json, sys
sinks = ["mqtt", "postgres", "owntracks", "overland", "osmand"]
try:
    s = [json.load(open(f"{sys.argv[1]}/status-{k}.json")) for k in sinks]
except (OSError, ValueError):
    sys.exit(1)
sys.exit(0 if all(x["state"] == "idle" and x["cursor"] >= x["journal_seq"] > 0 for x in s) else 1)
PY
}
for _ in $(seq 1800); do caught_up && break; sleep 0.2; done
caught_up || echo "hot-text: the uplink did not catch up with every sink (profiled what it ran)" >&2
kill -TERM "$uplink"
wait "$uplink" || true

/usr/bin/python3 bench/hot_text_sections.py logbook-uplink "$work/logbook-uplink" "$work/logbook-uplink.map" "$list" \
    "$(uname -m)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$work/uplink.callgrind"
echo "$list"
