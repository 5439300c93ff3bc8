#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# logbook-web end to end: a private gpsd replays the Munich drive into a real logbookd; a real
# logbook-web serves it. Headless Chromium (Selenium, phone-sized) starts a trip on the Live
# page, sees the distance rise, stops it; `logbook trips show` must then say `manual`; the
# Trips list and the trip page with its SVG picture; every write the CLI makes, through the
# forms (scripts/web_writes.py), then read back with `logbook`; auth refusals on a second server
# with a password; schemathesis fuzzes every operation of /api/openapi.json: no 5xx, responses
# match.
# scripts/web_phone.py then checks the app on a 360 px phone (overflow, axe-core, tap targets,
# Stop's confirmation, themes, place names, the Setup check over a broken set-up, the stale
# banner with logbookd stopped).
# Prints "web-browser: …", "web-a11y: …", "web-stale: …" and "web-schemathesis: …" lines. LOGBOOK_WEB_SHOTS=DIR keeps the
# screenshots there (docs/ holds the committed ones).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(swift build --show-bin-path)"
for b in logbookd logbook logbook-web; do
    [ -x "$bin/$b" ] || { echo "web: $bin/$b missing (run swift build first)"; exit 1; }
done
py="$(scripts/python-venv.sh)"
work="$(mktemp -d /tmp/logbook-web-test.XXXXXX)"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ "${KEEP_WORK:-0}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT INT TERM
shots="${LOGBOOK_WEB_SHOTS:-$work/shots}"
mkdir -p "$shots"

free_port() { "$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_http() {   # $1 = URL
    for _ in $(seq 150); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.2; done
    echo "web: nothing answers at $1"; tail -5 "$work"/*.log; exit 1
}

TMPDIR="$work" /usr/bin/python3 scripts/gpsreplay.py --tcp --realtime 8 fixtures/gpslogs/munich-gps.nmea \
    >"$work/replay.out" 2>"$work/replay.log" &
pids+=("$!")
for _ in $(seq 100); do grep -q '^PORT=' "$work/replay.out" 2>/dev/null && break; sleep 0.1; done
gpsd_port="$(sed -n 's/^PORT=//p' "$work/replay.out")"
[ -n "$gpsd_port" ] || { echo "web: gpsd replay did not start"; cat "$work/replay.log"; exit 1; }

cat >"$work/logbookd.toml" <<TOML
state_dir = "$work/state"
runtime_dir = "$work/run"
[gpsd]
address = "127.0.0.1:$gpsd_port"
[[vehicle]]
id = "golf"
name = "Golf"
TOML
# The trip's clock runs at the replay's pace (logbookd's test hook), so durations and average
# speeds read as on the road.
start_daemon() {
    LOGBOOKD_DEBUG_CLOCK_SCALE=8 "$bin/logbookd" --config "$work/logbookd.toml" 2>>"$work/logbookd.log" &
    daemon_pid=$!
    pids+=("$daemon_pid")
    for _ in $(seq 100); do "$bin/logbook" --config "$work/logbookd.toml" status >/dev/null 2>&1 && break; sleep 0.1; done
}
start_daemon

web_port="$(free_port)"
"$bin/logbook-web" --config "$work/logbookd.toml" --listen "127.0.0.1:$web_port" 2>"$work/web.log" &
pids+=("$!")
# The same app with a password (0600 file): for the auth refusals.
umask 077
printf 'correct horse battery\n' >"$work/web-password"
secure_port="$(free_port)"
{ cat "$work/logbookd.toml"; printf '[web]\npassword_file = "%s"\n' "$work/web-password"; } >"$work/secure.toml"
"$bin/logbook-web" --config "$work/secure.toml" --listen "127.0.0.1:$secure_port" 2>"$work/web-secure.log" &
pids+=("$!")
# A third over a broken first run: no vehicle, no source, no gpsd, no logbookd (its Setup check).
broken_port="$(free_port)"
cat >"$work/broken.toml" <<TOML
state_dir = "$work/broken-state"
runtime_dir = "$work/broken-run"
[gpsd]
address = "127.0.0.1:$(free_port)"
TOML
mkdir -p "$work/broken-state" "$work/broken-run"
"$bin/logbook-web" --config "$work/broken.toml" --listen "127.0.0.1:$broken_port" 2>"$work/web-broken.log" &
pids+=("$!")
base="http://127.0.0.1:$web_port"
wait_http "$base/api/openapi.json"
wait_http "http://127.0.0.1:$secure_port/api/openapi.json"
wait_http "http://127.0.0.1:$broken_port/api/openapi.json"

check=(--base "$base" --secure-base "http://127.0.0.1:$secure_port" --password-file "$work/web-password" --shots "$shots"
    --logbook "$bin/logbook --config $work/logbookd.toml")
"$py" scripts/web_check.py "${check[@]}" --step live

# What the browser did is in the journal: the index, as `logbook` reads it.
show="$("$bin/logbook" --config "$work/logbookd.toml" trips show 1 --json)"
reasons="$("$py" -c 'import json,sys; t=json.load(sys.stdin); print(t["start_reason"], t["end_reason"], t["vehicle"]["id"])' <<<"$show")"
if [ "$reasons" = "manual manual golf" ]; then
    echo "web-browser: journal: ok logbook trips show 1: started manual, ended manual, vehicle golf"
else
    echo "web-browser: journal: FAIL logbook trips show 1 says '$reasons' (want 'manual manual golf')"; exit 1
fi
"$bin/logbook" --config "$work/logbookd.toml" trips list | sed 's/^/  /'

"$py" scripts/web_check.py "${check[@]}" --step rest

# The fill-ups and the classification the browser made are journal entries (origin web).
fuel="$("$bin/logbook" --config "$work/logbookd.toml" fuel list --json)"
litres="$("$py" -c 'import json,sys; d=json.load(sys.stdin); logs=d if isinstance(d,list) else d.get("fuel_logs",d.get("fills",[])); print(" ".join(sorted(str(f["litres"]) for f in logs)))' <<<"$fuel")"
if [ "$litres" = "36.2 40.5" ]; then
    echo "web-browser: journal: ok logbook fuel list: the two fill-ups from the form (36.2 L, 40.5 L), not the refused one"
else
    echo "web-browser: journal: FAIL logbook fuel list says '$litres' (want '36.2 40.5')"; echo "$fuel" | head -c 600; exit 1
fi

# The corrections and the vehicle the browser made, as `logbook` reads them (origin web).
history="$("$bin/logbook" --config "$work/logbookd.toml" trips show 1 --history --json)"
summary="$("$py" -c '
import json, sys
t = json.load(sys.stdin)
web = [c for c in t["history"] if c["origin"] == "web"]
kinds = sorted({c["type"] for c in web})
print(len(web), len(t["history"]), ",".join(kinds), t["voided"], t["vehicle"]["id"], ",".join(t["merged_from"]))
' <<<"$history")"
read -r by_web total kinds voided vehicle merged <<<"$summary"
want="trip.assign,trip.class,trip.merge,trip.split,trip.void"
if [ "$by_web" = "$total" ] && [ "$kinds" = "$want" ] && [ "$voided" = "False" ] && [ "$vehicle" = "golf" ] && [ "$merged" = "2" ]; then
    echo "web-browser: journal: ok logbook trips show 1 --history: $total changes, all origin web ($kinds); trip 1 restored, vehicle golf, trip 2 merged into it"
else
    echo "web-browser: journal: FAIL logbook trips show 1 --history says: $summary (want all web, $want, False golf 2)"; exit 1
fi
polo="$("$bin/logbook" --config "$work/logbookd.toml" vehicles list --all --json | "$py" -c '
import json, sys
v = next(v for v in json.load(sys.stdin) if v["id"] == "polo")
print(v["retired"], v["origin"], v["vin"], v["driver"], v["changes"])')"
if [ "$polo" = "True web WVWZZZ6RZFY123456 Ben 3" ]; then
    echo "web-browser: journal: ok logbook vehicles list: polo added, edited and retired from the browser (origin web, vin and driver kept)"
else
    echo "web-browser: journal: FAIL logbook vehicles list says polo is: $polo"; exit 1
fi

# The phone (360 px): overflow, axe-core, tap targets, Stop's confirmation, no preselected
# class, the light theme, place names, the Setup check, and last the stale banner with
# logbookd stopped (then started again for schemathesis).
phone_shots="${LOGBOOK_WEB_SHOTS:-/tmp/logbook-web-shots}"
mkdir -p "$phone_shots"
"$py" scripts/web_phone.py --base "$base" --broken-base "http://127.0.0.1:$broken_port" --shots "$phone_shots" \
    --daemon-pid "$daemon_pid" --logbook "$bin/logbook --config $work/logbookd.toml"
wait "$daemon_pid" 2>/dev/null || true
start_daemon

# schemathesis: every operation but the endless event stream, with this browser's session.
jar="$(curl -fsS -c - "$base/api/session" -o "$work/session.json" | awk '$6 == "logbook_session" {print $7}')"
csrf="$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["csrf_token"])' "$work/session.json")"
venv_bin="$(dirname "$py")"
set +e
# (in $work: schemathesis keeps a .schemathesis/ cache in its working directory)
(cd "$work" && "$venv_bin/schemathesis" run "$base/api/openapi.json" --url "$base" \
    --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
    --exclude-path /api/live/events --max-examples 40 --request-timeout 20 --no-color \
    -H "Cookie: logbook_session=$jar" -H "X-CSRF-Token: $csrf") >"$work/schemathesis.log" 2>&1
rc=$?
set -e
tested="$(grep -oE 'Tested: *[0-9]+' "$work/schemathesis.log" | grep -oE '[0-9]+' || true)"
cases="$(grep -oE '[0-9]+ generated, [0-9]+ passed' "$work/schemathesis.log" || true)"
if [ $rc -eq 0 ] && [ -n "$cases" ]; then
    echo "web-schemathesis: ok ${tested:-?} operations, ${cases/generated,/cases generated,}: no 5xx, every response matches /api/openapi.json"
else
    echo "web-schemathesis: FAIL (rc $rc)"; tail -60 "$work/schemathesis.log"; exit 1
fi
if grep -E " (error|critical) logbook-web" "$work/web.log" >/dev/null; then
    echo "web: FAIL the server logged an error:"; grep -m5 -E "error" "$work/web.log"; exit 1
fi
echo "web: ok"
