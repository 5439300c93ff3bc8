#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark: the 3-hour Swiss drive replayed at full speed into
#   (a) gpxlogger (gpsd-clients), the peer, and
#   (b) logbookd (release build, --static-swift-stdlib) recording the drive as one trip
#       (a `service` source): the whole pipeline, fixes -> engine -> journal -> live state,
# each against its own private gpsd, in the same run. Prints fixes received, CPU
# seconds (user+sys), max RSS, the ratios logbookd/gpxlogger and journal bytes per point.
# Usage: bench/gps-bench.sh [RUNS]   (default 3; the median run is reported)
#        LOGBOOKD=PATH bench/gps-bench.sh   measures another build of logbookd (a link-flag trial)
#        OBD=1 bench/gps-bench.sh   logbookd also reads a car: an `obd` source against
#                                   ELM327-emulator (the test venv's, scenario car) on loopback
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
obd="${OBD:-0}"
label=""
if [ "$obd" = 1 ]; then
    elm="$(dirname "$(scripts/python-venv.sh)")/elm"
    label=" (with obd)"
fi
log=fixtures/gpslogs/20100403_Z205_Switzerland.txt

scripts/install-deps.sh gpsd-clients time
# As the .deb ships it: logbookd linked with its order file (profiled here when stale).
scripts/build-release.sh --product logbookd 2>/dev/null || scripts/build-release.sh --product logbookd
scripts/build-release.sh --product logbook 2>/dev/null || scripts/build-release.sh --product logbook
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d /tmp/logbook-bench.XXXXXX)"
# shellcheck source=bench/lib.sh
. bench/lib.sh
trap 'rm -rf "$work"' EXIT

# Starts a replay; sets $replay (pid) and $port.
start_replay() {
    local dir="$1"
    mkdir -p "$dir"
    TMPDIR="$dir" /usr/bin/python3 scripts/gpsreplay.py --tcp "$log" >"$dir/replay.out" 2>"$dir/replay.err" &
    replay=$!
    for _ in $(seq 100); do grep -q '^PORT=' "$dir/replay.out" 2>/dev/null && break; sleep 0.05; done
    port="$(sed -n 's/^PORT=//p' "$dir/replay.out")"
}

# "<cpu seconds> <max rss KiB>" from GNU time's -f output.
usage_of() { awk '{print $1+$2, $3}' "$1"; }

run_gpxlogger() {
    local dir="$work/gpx-$1"
    start_replay "$dir"
    # gpxlogger exits by itself when gpsd goes away at the end of the replay.
    /usr/bin/time -f "%U %S %M" -o "$dir/time" gpxlogger -e sockets -f "$dir/out.gpx" "127.0.0.1:$port" 2>/dev/null || true
    wait "$replay" || true
    echo "$(grep -c '<trkpt' "$dir/out.gpx") $(usage_of "$dir/time")"
}

run_logbookd() {
    local dir="$work/lbd-$1"
    start_replay "$dir"
    # The control socket's group is one that exists (this user's), as `logbook` is where the
    # .deb is installed: resolved from /etc/group. A group missing from it makes glibc load the
    # next NSS module (libnss_systemd, 320 KiB) only to fail.
    printf '[[vehicle]]\nid = "z205"\n[[source]]\ntype = "service"\nvehicle = "z205"\n[control]\ngroup = "%s"\n' "$(id -gn)" >"$dir/logbookd.toml"
    local elm_pid=""
    if [ "$obd" = 1 ]; then
        # The emulator reads console commands from stdin: a FIFO held open keeps it running.
        local elm_port
        elm_port="$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
        mkfifo "$dir/elm.in"
        exec 8<>"$dir/elm.in"
        (cd "$dir" && exec "$elm" -n "$elm_port" -s car -b "$dir/elm.out" <&8 >/dev/null 2>&1) &
        elm_pid=$!
        for _ in $(seq 200); do grep -q 'batch mode STARTED' "$dir/elm.out" 2>/dev/null && break; sleep 0.05; done
        printf '[[source]]\ntype = "obd"\nname = "elm"\naddress = "127.0.0.1:%s"\nvehicle = "z205"\n' "$elm_port" >>"$dir/logbookd.toml"
    fi
    "${LOGBOOKD:-$bin/logbookd}" --config "$dir/logbookd.toml" --gpsd "127.0.0.1:$port" \
        --state-dir "$dir/state" --runtime-dir "$dir/run" 2>"$dir/log" &
    local daemon=$!
    wait "$replay" || true
    sleep 1.5  # one more live.json interval after gpsd exited
    kill -TERM "$daemon" 2>/dev/null || true
    wait "$daemon" || true
    if [ -n "$elm_pid" ]; then
        # It ignores SIGTERM in batch mode.
        kill -KILL "$elm_pid" 2>/dev/null || true
        wait "$elm_pid" 2>/dev/null || true
        exec 8>&-
        grep -q 'OBD: the car answers\|OBD: a car with a VIN' "$dir/log" || echo "gps-bench: run $1: the obd source never reached the car" >&2
    fi
    local fixes
    fixes="$(/usr/bin/python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["gps"]; print(g["fixes"]+g["rejected"])' "$dir/run/live.json")"
    "$bin/logbook" --state-dir "$dir/state" verify >"$dir/verify" 2>&1 || true
    # logbookd's own CPU and peak, as it reports them at exit (not its children's: bench/lib.sh).
    echo "$fixes $(own_usage "$dir/log")" >"$dir/result"
    sed -n 's/.*bytes: \([0-9]*\).*/\1/p' "$dir/verify" | head -1 >"$work/journal-bytes"
    sed -n 's/.*points: \([0-9]*\).*/\1/p' "$dir/verify" | head -1 >"$work/journal-points"
    cat "$dir/result"
}

median() { sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'; }

declare -a gcpu grss lcpu lrss
for i in $(seq "$runs"); do
    read -r gfix gc gr < <(run_gpxlogger "$i")
    read -r lfix lc lr < <(run_logbookd "$i")
    echo "run $i: gpxlogger fixes=$gfix cpu=${gc}s rss=${gr}KiB | logbookd fixes=$lfix cpu=${lc}s rss=${lr}KiB"
    gcpu+=("$gc"); grss+=("$gr"); lcpu+=("$lc"); lrss+=("$lr")
done
gc=$(printf '%s\n' "${gcpu[@]}" | median); gr=$(printf '%s\n' "${grss[@]}" | median)
lc=$(printf '%s\n' "${lcpu[@]}" | median); lr=$(printf '%s\n' "${lrss[@]}" | median)
echo "gps-bench: gpxlogger: fixes $gfix, cpu ${gc} s, max rss $((gr / 1024)).$(((gr % 1024) * 10 / 1024)) MiB"
echo "gps-bench: logbookd$label:  fixes $lfix, cpu ${lc} s, max rss $((lr / 1024)).$(((lr % 1024) * 10 / 1024)) MiB"
jb="$(cat "$work/journal-bytes")"; jp="$(cat "$work/journal-points")"
echo "gps-bench: journal: $jb bytes for $jp points: $(awk -v b="$jb" -v p="$jp" 'BEGIN {printf "%.1f", b / p}') bytes/point"
awk -v lc="$lc" -v gc="$gc" -v lr="$lr" -v gr="$gr" 'BEGIN {
    printf "gps-bench: ratio logbookd/gpxlogger: cpu %.2f, max rss %.2f\n", (gc > 0 ? lc / gc : 0), lr / gr }'
