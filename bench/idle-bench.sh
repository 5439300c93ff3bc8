#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark: a parked car's battery. The release logbookd (--static-swift-stdlib) parked (no
# trip: a `motion` source and no motion) for SECONDS, twice:
#   (a) gpsd absent (nothing listens at its address: it retries), and
#   (b) gpsd present but without a fix (a private gpsd replaying, at real time, a receiver
#       that reports no fix: RMC status V, GGA quality 0, GSA mode 1, GSV, once a second),
#       beside the peer gpxlogger (gpsd-clients) on the same gpsd, measured the same way.
# Wake-ups are context switches (voluntary + involuntary) summed over the process's threads
# (/proc/PID/task/*/status); CPU is their run time (/proc/PID/task/*/schedstat); both sampled
# every 0.2 s so that threads ending in the window keep their counts. One wake-up a second is
# libdispatch's own (its Linux thread-pool monitor, a 1 s timer on the manager thread).
# Also checks that live.json still changes at least every 2 s while parked.
# Prints
#   idle: gpsd absent: N wake-ups/s, N % CPU
#   idle: gpsd without fix: N wake-ups/s, N % CPU
#   idle: peer gpxlogger, gpsd without fix: N wake-ups/s, N % CPU (ratio logbookd/gpxlogger …)
#   idle: live.json: longest gap between updates N s (SECONDS s, both cases)
#   idle: SIGTERM to exit: gpsd absent N s, gpsd without fix N s (peer gpxlogger N s; target 1 s)
# Usage: bench/idle-bench.sh [SECONDS]   (default 60)
#        LOGBOOKD=PATH bench/idle-bench.sh   measures another build of logbookd
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"

scripts/install-deps.sh gpsd-clients
# shellcheck source=scripts/release-flags.sh
. scripts/release-flags.sh
swift build "${RELEASE_BUILD[@]}" --product logbookd >/dev/null
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

# Measures PID over $seconds: every thread's context switches (voluntary + involuntary) and run
# time, sampled every 0.2 s so a thread that ends keeps the counts it had (libdispatch ends idle
# pool threads); prints "wake-ups/s cpu% threads-started threads-ended busiest".
measure() {
    /usr/bin/python3 - "$1" "$seconds" <<'PY'
import os, sys, time
pid, seconds = sys.argv[1], float(sys.argv[2])
def snap():
    out = {}
    for t in os.listdir("/proc/%s/task" % pid):
        try:
            status = open("/proc/%s/task/%s/status" % (pid, t)).read()
            run = int(open("/proc/%s/task/%s/schedstat" % (pid, t)).read().split()[0])
            comm = open("/proc/%s/task/%s/comm" % (pid, t)).read().strip()
        except OSError:
            continue
        v = int(status.split("\nvoluntary_ctxt_switches:")[1].split()[0])
        nv = int(status.split("\nnonvoluntary_ctxt_switches:")[1].split()[0])
        out[t] = (comm, v + nv, run)
    return out
first = snap()
last = dict(first)
end = time.monotonic() + seconds
while time.monotonic() < end:
    time.sleep(0.2)
    last.update(snap())
final = snap()
last.update(final)
switches = sum(last[t][1] - first.get(t, (0, 0, 0))[1] for t in last)
run = sum(last[t][2] - first.get(t, (0, 0, 0))[2] for t in last)
came = len(set(last) - set(first))
went = len(set(last) - set(final))
per = sorted(((last[t][1] - first.get(t, (0, 0, 0))[1], last[t][0]) for t in last), reverse=True)
busiest = ",".join("%s=%.2f" % (c, n / seconds) for n, c in per[:4] if n)
print("%.2f %.4f %d %d %s" % (switches / seconds, run / (seconds * 1e9) * 100, came, went, busiest))
PY
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

# Sends SIGTERM to $1 and waits for it to exit; prints the seconds it took.
timed_stop() {
    local t0 t1
    t0=$(date +%s.%N)
    kill -TERM "$1"
    wait "$1" || true
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

start_daemon() {   # $1 = dir, $2 = gpsd address, $3 = seconds to settle
    mkdir -p "$1"
    printf '[[vehicle]]\nid = "golf"\n[[source]]\ntype = "motion"\nvehicle = "golf"\n[control]\ngroup = "%s"\n' "$(id -gn)" >"$1/logbookd.toml"
    "${LOGBOOKD:-$bin/logbookd}" --config "$1/logbookd.toml" --gpsd "$2" --state-dir "$1/state" --runtime-dir "$1/run" 2>"$1/log" &
    daemon=$!
    pids+=("$daemon")
    for _ in $(seq 100); do [ -e "$1/run/live.json" ] && break; sleep 0.1; done
    sleep "$3"   # settled: start-up done, parked for a while
}

# (a) gpsd absent: parked for 35 s first (the first 30 s of absence are retried every second).
start_daemon "$work/absent" "127.0.0.1:$(free_port)" 35
watch_live "$work/absent/run/live.json" >"$work/absent.gap" &
watcher=$!
read -r wps cpu came went busiest < <(measure "$daemon")
wait "$watcher"
absent_stop=$(timed_stop "$daemon")
echo "idle: gpsd absent: $wps wake-ups/s, $cpu % CPU"
echo "idle: (gpsd absent: by thread, wake-ups/s: $busiest; $came threads started, $went ended)"
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
start_daemon "$work/nofix" "127.0.0.1:$port" 5
gpxlogger -e sockets -f "$work/peer.gpx" "127.0.0.1:$port" 2>/dev/null &
peer=$!
pids+=("$peer")
sleep 3
watch_live "$work/nofix/run/live.json" >"$work/nofix.gap" &
watcher=$!
measure "$peer" >"$work/peer.m" &
peer_measure=$!
read -r wps cpu came went busiest < <(measure "$daemon")
wait "$watcher" "$peer_measure"
read -r pwps pcpu _ _ _ <"$work/peer.m"
mode=$(/usr/bin/python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["gps"]; print(g["connected"], g["mode"])' "$work/nofix/run/live.json")
nofix_stop=$(timed_stop "$daemon")
peer_stop=$(timed_stop "$peer")
[ "$mode" = "True 1" ] || echo "idle: FAIL the daemon did not see gpsd without a fix (live.json gps: connected/mode $mode)"
echo "idle: gpsd without fix: $wps wake-ups/s, $cpu % CPU"
echo "idle: (gpsd without fix: by thread, wake-ups/s: $busiest; $came threads started, $went ended)"
echo "idle: peer gpxlogger, gpsd without fix: $pwps wake-ups/s, $pcpu % CPU (ratio logbookd/gpxlogger $(awk -v a="$wps" -v b="$pwps" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'))"
echo "idle: live.json: longest gap between updates $(awk -v a="$absent_gap" -v b="$(cat "$work/nofix.gap")" 'BEGIN { print (a > b ? a : b) }') s (${seconds} s, both cases)"
echo "idle: SIGTERM to exit: gpsd absent $absent_stop s, gpsd without fix $nofix_stop s (peer gpxlogger $peer_stop s; target 1 s)"
