#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark: a parked car's battery. The release logbookd (--static-swift-stdlib) parked (no
# trip: a `motion` source and no motion) for SECONDS, twice:
#   (a) gpsd absent (nothing listens at its address: it retries), and
#   (b) gpsd present but without a fix (a private gpsd replaying, at real time, a receiver
#       that reports no fix: RMC status V, GGA quality 0, GSA mode 1, GSV, once a second),
#       beside the peer gpxlogger (gpsd-clients) on the same gpsd, measured the same way.
# Wake-ups are context switches (voluntary + involuntary) summed over the process's threads
# (/proc/PID/task/*/status); CPU is their run time (/proc/PID/task/*/schedstat). Threads that
# end during the window would take their counts with them: the lines say how many came and went.
# Also checks that live.json still changes at least every 2 s while parked.
# Prints
#   idle: gpsd absent: N wake-ups/s, N % CPU
#   idle: gpsd without fix: N wake-ups/s, N % CPU
#   idle: peer gpxlogger, gpsd without fix: N wake-ups/s, N % CPU (ratio logbookd/gpxlogger …)
#   idle: live.json: longest gap between updates N s (SECONDS s, both cases)
# Usage: bench/idle-bench.sh [SECONDS]   (default 60)
#        LOGBOOKD=PATH bench/idle-bench.sh   measures another build of logbookd
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"

scripts/install-deps.sh gpsd-clients
swift build -c release --static-swift-stdlib -Xswiftc -warnings-as-errors --product logbookd >/dev/null
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d /tmp/logbook-idle.XXXXXX)"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# "switches cpu_ns threads" of PID now; the thread ids go to $2.
sample() {
    local pid=$1 out=$2 sw=0 ns=0 n=0 t v nv run
    : >"$out"
    for t in /proc/"$pid"/task/*; do
        v=$(awk '/^voluntary_ctxt_switches/ {print $2}' "$t/status" 2>/dev/null) || continue
        nv=$(awk '/^nonvoluntary_ctxt_switches/ {print $2}' "$t/status" 2>/dev/null) || continue
        read -r run _ <"$t/schedstat" 2>/dev/null || continue
        sw=$((sw + v + nv)); ns=$((ns + run)); n=$((n + 1))
        basename "$t" >>"$out"
    done
    echo "$sw $ns $n"
}

# Measures PID over $seconds; prints "wake-ups/s cpu% came went".
measure() {
    local pid=$1 a b
    a=$(sample "$pid" "$work/tids.a")
    sleep "$seconds"
    b=$(sample "$pid" "$work/tids.b")
    read -r sw0 ns0 _ <<<"$a"
    read -r sw1 ns1 _ <<<"$b"
    local came went
    came=$(comm -13 <(sort "$work/tids.a") <(sort "$work/tids.b") | wc -l)
    went=$(comm -23 <(sort "$work/tids.a") <(sort "$work/tids.b") | wc -l)
    awk -v s="$((sw1 - sw0))" -v c="$((ns1 - ns0))" -v t="$seconds" -v came="$came" -v went="$went" \
        'BEGIN { printf "%.2f %.4f %d %d\n", s / t, c / (t * 1e9) * 100, came, went }'
}

# Watches live.json's seq every 0.1 s for $seconds; prints the longest gap between changes.
watch_live() {
    /usr/bin/python3 - "$1" "$seconds" <<'PY'
import json, sys, time
path, seconds = sys.argv[1], float(sys.argv[2])
end = time.monotonic() + seconds
last_seq, last_change, longest = None, None, 0.0
while time.monotonic() < end:
    try:
        seq = json.load(open(path))["seq"]
    except (OSError, ValueError):
        seq = None
    now = time.monotonic()
    if seq is not None and seq != last_seq:
        if last_change is not None:
            longest = max(longest, now - last_change)
        last_seq, last_change = seq, now
    time.sleep(0.1)
print("%.2f" % longest)
PY
}

start_daemon() {   # $1 = dir, $2 = gpsd address
    mkdir -p "$1"
    printf '[[vehicle]]\nid = "golf"\n[[source]]\ntype = "motion"\nvehicle = "golf"\n[control]\ngroup = "%s"\n' "$(id -gn)" >"$1/logbookd.toml"
    "${LOGBOOKD:-$bin/logbookd}" --config "$1/logbookd.toml" --gpsd "$2" --state-dir "$1/state" --runtime-dir "$1/run" 2>"$1/log" &
    daemon=$!
    pids+=("$daemon")
    for _ in $(seq 100); do [ -e "$1/run/live.json" ] && break; sleep 0.1; done
    sleep 3   # settled: start-up work done
}

# (a) gpsd absent
start_daemon "$work/absent" "127.0.0.1:$(free_port)"
watch_live "$work/absent/run/live.json" >"$work/absent.gap" &
watcher=$!
read -r wps cpu came went < <(measure "$daemon")
wait "$watcher"
kill -TERM "$daemon"; wait "$daemon" || true
echo "idle: gpsd absent: $wps wake-ups/s, $cpu % CPU"
[ "$came$went" = 00 ] || echo "idle: (gpsd absent: $came threads started and $went ended during the window)"
absent_gap=$(cat "$work/absent.gap")

# (b) gpsd present, no fix: a receiver reporting "no fix" once a second, for the whole window.
/usr/bin/python3 - "$work/nofix.nmea" "$((seconds + 120))" <<'PY'
import sys
def nmea(body):
    c = 0
    for ch in body.encode():
        c ^= ch
    return "$%s*%02X\r\n" % (body, c)
out, n = open(sys.argv[1], "w"), int(sys.argv[2])
for i in range(n):
    t = "%02d%02d%02d.00" % (10 + i // 3600, i // 60 % 60, i % 60)
    out.write(nmea("GPRMC,%s,V,,,,,,,220526,,,N" % t))
    out.write(nmea("GPGGA,%s,,,,,0,00,99.99,,,,,," % t))
    out.write(nmea("GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"))
    out.write(nmea("GPGSV,1,1,02,05,40,090,,12,20,270,"))
PY
TMPDIR="$work" /usr/bin/python3 scripts/gpsreplay.py --tcp --realtime 1 "$work/nofix.nmea" >"$work/replay.out" 2>"$work/replay.log" &
pids+=("$!")
for _ in $(seq 100); do grep -q '^PORT=' "$work/replay.out" 2>/dev/null && break; sleep 0.1; done
port="$(sed -n 's/^PORT=//p' "$work/replay.out")"
start_daemon "$work/nofix" "127.0.0.1:$port"
gpxlogger -e sockets -f "$work/peer.gpx" "127.0.0.1:$port" 2>/dev/null &
peer=$!
pids+=("$peer")
sleep 3
watch_live "$work/nofix/run/live.json" >"$work/nofix.gap" &
watcher=$!
measure "$peer" >"$work/peer.m" &
peer_measure=$!
read -r wps cpu came went < <(measure "$daemon")
wait "$watcher" "$peer_measure"
read -r pwps pcpu _ _ <"$work/peer.m"
mode=$(/usr/bin/python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["gps"]; print(g["connected"], g["mode"])' "$work/nofix/run/live.json")
kill -TERM "$daemon"; wait "$daemon" || true
[ "$mode" = "True 1" ] || echo "idle: FAIL the daemon did not see gpsd without a fix (live.json gps: connected/mode $mode)"
echo "idle: gpsd without fix: $wps wake-ups/s, $cpu % CPU"
[ "$came$went" = 00 ] || echo "idle: (gpsd without fix: $came threads started and $went ended during the window)"
echo "idle: peer gpxlogger, gpsd without fix: $pwps wake-ups/s, $pcpu % CPU (ratio logbookd/gpxlogger $(awk -v a="$wps" -v b="$pwps" 'BEGIN { printf "%.2f", b > 0 ? a / b : 0 }'))"
echo "idle: live.json: longest gap between updates $(awk -v a="$absent_gap" -v b="$(cat "$work/nofix.gap")" 'BEGIN { print (a > b ? a : b) }') s (${seconds} s, both cases)"
