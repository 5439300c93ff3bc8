#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark of logbook-uplink (issues 11 and 26), release builds with the Swift runtime linked in
# (as in the .deb), against peers measured in the same run. Prints `uplink-bench:` lines:
#  1. drain after a 10-hour outage: a journal of POINTS 1 Hz points (default 36,000 = 10 h;
#     written as logbookd writes, by logbook-uplink-bench) delivered from cursor 0
#       - into mosquitto; peer: mosquitto_pub re-publishing the uplink's own messages (QoS 1)
#       - into PostgreSQL as the store was before the outage (one transaction per 5,000 points,
#         binary COPY); peer: psql \copy of the same rows, target ratio >= 0.8; and once into
#         a fresh database (schema created), printed apart
#  2. bytes on the wire per point over MQTT, as the broker counts them ($SYS bytes/received:
#     MQTT packets, without TCP/IP headers), and the JSON payload alone
#  3. RSS and CPU of the uplink (every sink on) while a car drives: logbookd records the
#     Swiss drive replayed at 10x; sampled for WINDOW seconds (default 60 = 10 min of
#     driving); peer: logbookd itself in the same run
# Usage: bench/uplink-bench.sh [POINTS] [WINDOW]
set -euo pipefail
cd "$(dirname "$0")/.."
points="${1:-36000}"
window="${2:-60}"

scripts/install-deps.sh
# shellcheck source=scripts/release-flags.sh
. scripts/release-flags.sh
for p in logbookd logbook logbook-uplink-bench; do
    swift build "${RELEASE_BUILD[@]}" --product "$p" >/dev/null
done
# The uplink as the .deb ships it: linked with its order file, made for this checkout (the link
# does not track the file: a new list needs a new link).
order="$(bench/hot-text-uplink.sh)"
rm -f "$(swift build -c release --show-bin-path)/logbook-uplink"
LOGBOOK_UPLINK_HOT_TEXT="$order" swift build "${RELEASE_BUILD[@]}" --product logbook-uplink >/dev/null
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
work="$(mktemp -d /tmp/uplink-bench.XXXXXX)"
chmod 755 "$work"
pids=()
# shellcheck source=bench/uplink-servers.sh
. bench/uplink-servers.sh
trap 'stop_uplink_servers; rm -rf "$work"' EXIT
uplink() { "${uplink_env[@]}" "$bin/logbook-uplink" "$@"; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
calc() { /usr/bin/python3 -c "print($1)"; }

# ---- servers: a private mosquitto and a throwaway PostgreSQL cluster
start_broker "sys_interval 1"
start_postgres

# ---- 1. the 10-hour journal
journal_out="$("$bin/logbook-uplink-bench" "$work/state" "$points")"
echo "uplink-bench: journal: $journal_out, $(du -k "$work/state/journal" | tail -1 | cut -f1) KiB"
config() {  # config NAME TABLE BODY
    printf '[uplink]\nstate_dir = "%s"\nruntime_dir = "%s/run"\njournal_dir = "%s"\n[uplink.%s]\n%s\n' \
        "$work/$1" "$work/$1" "$work/state/journal" "$2" "$3" >"$work/$1.toml"
}
sys_bytes() { mosquitto_sub -p "$mport" -t '$SYS/broker/bytes/received' -C 1 -W 5; }

# MQTT drain (drain limit off), three times from cursor 0; a subscriber captures the first.
config mqtt mqtt "$(printf 'host = "127.0.0.1"\nport = %s\ndrain_points_per_s = 0' "$mport")"
mosquitto_sub -p "$mport" -q 1 -t 'logbook/+/points' -t 'logbook/+/events' -t 'logbook/+/checkpoints' -F '%p' \
    >"$work/captured" 2>/dev/null &
sub=$!
pids+=("$sub")
sleep 0.5
b0=$(sys_bytes)
for run in 1 2 3; do
    rm -f "$work/mqtt/cursor-mqtt.json"
    t0=$(now)
    uplink --config "$work/mqtt.toml" --exit-when-idle 2>"$work/mqtt.log"
    t1=$(now)
    calc "$t1 - $t0" >>"$work/mqtt-times"
    if [ "$run" = 1 ]; then
        sleep 1.5
        b1=$(sys_bytes)
        sleep 0.5
        kill "$sub" 2>/dev/null || true
    fi
done
dt=$(median <"$work/mqtt-times")
messages=$(wc -l <"$work/captured")
payload=$(wc -c <"$work/captured")
received=$(/usr/bin/python3 - "$work/captured" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1]):
    try: j = json.loads(line)
    except ValueError: continue
    if isinstance(j.get("points"), list): n += len(j["points"])
print(n)
PY
)
for run in 1 2 3; do
    t2=$(now)
    mosquitto_pub -p "$mport" -q 1 -t bench/peer -l <"$work/captured"
    t3=$(now)
    calc "$t3 - $t2" >>"$work/pub-times"
done
pt=$(median <"$work/pub-times")
mrate=$(calc "round($points / $dt)")
prate=$(calc "round($points / $pt)")
echo "uplink-bench: drain mqtt: $points points in $(calc "round($dt, 2)") s = $mrate points/s (median of 3; $received points arrived in $messages messages); peer mosquitto_pub -q 1 of the same messages: $(calc "round($pt, 2)") s = $prate points/s; ratio $(calc "round($mrate / $prate, 2)")"
echo "uplink-bench: mqtt wire: $(calc "round(($b1 - $b0) / $points, 1)") bytes per point (broker-counted MQTT bytes $((b1 - b0)) for $points points, incl. events and checkpoints); JSON payload $(calc "round($payload / $points, 1)") bytes per point"

# PostgreSQL drain. First into a fresh database (the uplink creates the schema and registers the
# device): printed apart, it happens once in a fleet store's life. Then three times as after a
# 10-hour outage: the store as the uplink left it before the outage, without this journal's
# rows (emptied, the cursor deleted). Then the peer: the same rows with psql \copy.
config pg postgres "$(printf 'url = "%s"\nbatch_points = 5000' "$url")"
drain_pg() {
    rm -f "$work/pg/cursor-postgres.json"
    local t0 t1
    t0=$(now)
    uplink --config "$work/pg.toml" --exit-when-idle 2>"$work/pg.log"
    t1=$(now)
    calc "$t1 - $t0"
}
fresh=$(drain_pg)
for run in 1 2 3; do
    psql -d fleet -c "TRUNCATE points, events, checkpoints, trips" -c "UPDATE devices SET last_seq = 0"
    drain_pg >>"$work/pg-times"
done
dt=$(median <"$work/pg-times")
stored=$(psql -d fleet -c "SELECT count(*) FROM points")
psql -d fleet -c "\\copy (SELECT * FROM points ORDER BY seq) TO '$work/points.csv' CSV"
for run in 1 2 3; do
    psql -d fleet -c "DROP TABLE IF EXISTS points_copy" -c "CREATE TABLE points_copy (LIKE points INCLUDING ALL)"
    t2=$(now)
    psql -d fleet -c "\\copy points_copy FROM '$work/points.csv' CSV"
    t3=$(now)
    calc "$t3 - $t2" >>"$work/copy-times"
done
ct=$(median <"$work/copy-times")
grate=$(calc "round($points / $dt)")
crate=$(calc "round($points / $ct)")
echo "uplink-bench: drain postgres: $points points in $(calc "round($dt, 2)") s = $grate points/s (median of 3, incl. start and connect, into the store as it was before the outage; $stored rows; target >= 20000; into a fresh database, schema created: $(calc "round($fresh, 2)") s); peer psql \\copy of the same rows: $(calc "round($ct, 2)") s = $crate points/s; ratio $(calc "round($grate / $crate, 2)") (target >= 0.8)"

# ---- 3. a car driving: logbookd + the uplink with every sink, the Swiss drive at 10x.
start_receivers
start_drive "$work/drive.toml" fixtures/gpslogs/20100403_Z205_Switzerland.txt 10 z205
"${uplink_env[@]}" "$bin/logbook-uplink" --config "$work/drive.toml" 2>"$work/drive-uplink.log" &
uplink=$!
pids+=("$uplink")
sleep 5
ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
u0=$(cpu "$uplink"); d0=$(cpu "$daemon"); s0=$(now)
umax=0; dmax=0
for _ in $(seq "$window"); do
    sleep 1
    u=$(rss "$uplink"); d=$(rss "$daemon")
    [ "$u" -gt "$umax" ] && umax=$u
    [ "$d" -gt "$dmax" ] && dmax=$d
done
u1=$(cpu "$uplink"); d1=$(cpu "$daemon"); s1=$(now)
uhwm=$(awk '/^VmHWM/ {print $2}' "/proc/$uplink/status")
uanon=$(awk '/^RssAnon/ {print $2}' "/proc/$uplink/status")
ufile=$(awk '/^RssFile/ {print $2}' "/proc/$uplink/status")
status="$("$bin/logbook" uplink status --config "$work/drive.toml" 2>&1 | tr '\n' ' ' | sed 's/  */ /g')" || true
echo "uplink-bench: live (Swiss drive at 10x, ${window} s = $((window * 10 / 60)) min of driving, every sink: mqtt, postgres, owntracks, overland, osmand): logbook-uplink RSS max $(calc "round($umax / 1024, 1)") MiB (peak VmHWM $(calc "round($uhwm / 1024, 1)") MiB, at the end anonymous $(calc "round($uanon / 1024, 1)") + file-backed $(calc "round($ufile / 1024, 1)") MiB; target <= 15), CPU $(calc "round(100 * ($u1 - $u0) / $ticks / ($s1 - $s0), 2)") % of a core; peer logbookd RSS max $(calc "round($dmax / 1024, 1)") MiB, CPU $(calc "round(100 * ($d1 - $d0) / $ticks / ($s1 - $s0), 2)") %; RSS ratio $(calc "round($umax / $dmax, 2)")"
echo "uplink-bench: live status: $status"
