#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The street maps (issue 24): a private gpsd replays the Munich drive into a real logbookd;
# scripts/map_check.py starts a loopback tile server (it draws its own PNG tiles) and a real
# logbook-web whose [web] map_tiles names it, then drives headless Chromium at phone size:
# the live marker moves, the trip page requests tiles only around the trip and draws the route
# in the speed colours, the chart marks the map, the stations page pins the fill-ups typed
# below, and with the tile server stopped the route is still drawn and the page says tiles
# are offline. A bad map_tiles template exits 78 naming the key.
# Prints "web-maps: …" lines. LOGBOOK_WEB_SHOTS=DIR keeps the screenshots there.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(swift build --show-bin-path)"
for b in logbookd logbook logbook-web; do
    [ -x "$bin/$b" ] || { echo "web-maps: $bin/$b missing (run swift build first)"; exit 1; }
done
[ -f /usr/share/javascript/leaflet/leaflet.js ] || { echo "web-maps: FAIL libjs-leaflet is not installed (scripts/install-deps.sh)"; exit 1; }
py="$(scripts/python-venv.sh)"
work="$(mktemp -d /tmp/logbook-maps-test.XXXXXX)"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ "${KEEP_WORK:-0}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT INT TERM
shots="${LOGBOOK_WEB_SHOTS:-$work/shots}"
mkdir -p "$shots"

# A bad template: exit 78, the key named, before anything listens.
printf 'state_dir = "%s/bad"\n[web]\nmap_tiles = "ftp://tiles.example/{z}/{x}.png"\n' "$work" >"$work/bad.toml"
set +e
"$bin/logbook-web" --config "$work/bad.toml" --listen 127.0.0.1:1 2>"$work/bad.err"
rc=$?
set -e
if [ $rc -eq 78 ] && grep -q "web.map_tiles" "$work/bad.err"; then
    echo "web-maps: config: ok a bad map_tiles template exits 78: $(head -1 "$work/bad.err")"
else
    echo "web-maps: config: FAIL exit $rc: $(cat "$work/bad.err")"; exit 1
fi

TMPDIR="$work" /usr/bin/python3 scripts/gpsreplay.py --tcp --realtime 8 fixtures/gpslogs/munich-gps.nmea \
    >"$work/replay.out" 2>"$work/replay.log" &
pids+=("$!")
for _ in $(seq 100); do grep -q '^PORT=' "$work/replay.out" 2>/dev/null && break; sleep 0.1; done
gpsd_port="$(sed -n 's/^PORT=//p' "$work/replay.out")"
[ -n "$gpsd_port" ] || { echo "web-maps: gpsd replay did not start"; cat "$work/replay.log"; exit 1; }
cat >"$work/logbookd.toml" <<TOML
state_dir = "$work/state"
runtime_dir = "$work/run"
[gpsd]
address = "127.0.0.1:$gpsd_port"
[[vehicle]]
id = "golf"
name = "Golf"
# holds a trip of golf open while logbookd runs: the trip page's route grows with the replay
[[source]]
type = "service"
vehicle = "golf"
TOML
LOGBOOKD_DEBUG_CLOCK_SCALE=8 LOGBOOKD_TRIP_TRUST_SYSTEM_CLOCK=false "$bin/logbookd" --config "$work/logbookd.toml" 2>"$work/logbookd.log" &
pids+=("$!")
for _ in $(seq 100); do [ -S "$work/run/control.sock" ] && break; sleep 0.1; done

# Three stations near Munich (the second one twice, 60 m apart and spelled differently).
lb=("$bin/logbook" --config "$work/logbookd.toml")
"${lb[@]}" fuel add --vehicle golf --at 2026-01-05T10:00:00Z --odometer 1000 --litres 40 --price 72 --currency EUR \
    --station "Aral Leopoldstraße" --lat 48.16 --lon 11.585 >/dev/null
"${lb[@]}" fuel add --vehicle golf --at 2026-01-20T10:00:00Z --odometer 1500 --litres 45 --price 76.5 --currency EUR \
    --station "Shell Ingolstädter Str." --lat 48.2 --lon 11.6 >/dev/null
"${lb[@]}" fuel add --vehicle golf --at 2026-02-20T10:00:00Z --odometer 2000 --litres 40 --price 70 --currency EUR \
    --station "SHELL Ingolstadter Str" --lat 48.2005 --lon 11.6003 >/dev/null
"${lb[@]}" fuel add --vehicle golf --at 2026-03-25T10:00:00Z --odometer 2500 --litres 50 --price 90 --currency EUR \
    --station "Esso Ingolstädter Str." --lat 48.201 --lon 11.6015 >/dev/null

"$py" scripts/map_check.py --web "$bin/logbook-web" --config "$work/logbookd.toml" --shots "$shots" --log "$work/web.log" --stations 3 --fills 4
if grep -E " (error|critical) " "$work/web.log" >/dev/null; then
    echo "web-maps: FAIL the server logged an error:"; grep -m5 -E "error" "$work/web.log"; exit 1
fi
