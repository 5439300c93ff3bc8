#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark: GPX export of the 3-hour Swiss drive, in the same run as the peer:
#   (a) gpsbabel converting the recorded NMEA log to GPX 1.1 (`-i nmea -o gpx,gpxver=1.1`),
#   (b) logbook's exporter writing the trip logbookd recorded from that log (release build):
#       the whole process, journal read included (logbook-export-bench write).
# Wall time per process, median of RUNS; prints the ratio gpsbabel/logbook and the exporter's
# in-process throughput per format (best of 5).
# Usage: bench/export-bench.sh [RUNS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
log=fixtures/gpslogs/20100403_Z205_Switzerland.txt

scripts/install-deps.sh gpsbabel time
swift build -c release -Xswiftc -warnings-as-errors --product logbookd >/dev/null
swift build -c release -Xswiftc -warnings-as-errors --product logbook-export-bench >/dev/null
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d /tmp/logbook-export-bench.XXXXXX)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
. bench/lib.sh

# Record the drive once: a private gpsd replaying it at 300x into logbookd (one trip).
start_replay 300
start_daemon
wait "${pids[0]}" || true
kill -TERM "$daemon"
wait "$daemon" || true
journal="$work/state/journal"

# Milliseconds of wall time of one run of "$@".
wall_ms() {
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

for i in $(seq "$runs"); do
    wall_ms gpsbabel -i nmea -f "$log" -o gpx,gpxver=1.1 -F "$work/babel.gpx" >>"$work/babel.ms"
    wall_ms "$bin/logbook-export-bench" write gpx "$journal" "$work/logbook.gpx" >>"$work/logbook.ms"
done
babel_ms=$(median <"$work/babel.ms")
logbook_ms=$(median <"$work/logbook.ms")
babel_pts=$(grep -c '<trkpt' "$work/babel.gpx")
logbook_pts=$(grep -c '<trkpt' "$work/logbook.gpx")
ratio=$(awk -v a="$babel_ms" -v b="$logbook_ms" 'BEGIN {printf "%.1f", a / (b > 0 ? b : 1)}')
printf 'export-bench: gpx: logbook %s ms (%s points, %s bytes) vs gpsbabel %s ms (%s points) for the 3 h Swiss drive: %sx faster (median of %s, whole processes)\n' \
    "$logbook_ms" "$logbook_pts" "$(stat -c %s "$work/logbook.gpx")" "$babel_ms" "$babel_pts" "$ratio" "$runs"
for format in gpx geojson csv; do
    read -r _ points bytes seconds mpts mbps < <("$bin/logbook-export-bench" repeat "$format" "$journal" 5)
    printf 'export-bench: %s: %s points, %s bytes in %.1f ms: %.2f M points/s, %.0f MB/s (in process, best of 5)\n' \
        "$format" "$points" "$bytes" "$(awk -v s="$seconds" 'BEGIN {print s * 1000}')" "$mpts" "$mbps"
done

# Memory: CSV export of made-up trips (50,000 × 200 points = 10 M, as the 10-year bench
# history) at 1/4, 1/2 and all of it, to /dev/null: peak RSS must not grow with the history.
rss=()
for trips in 12500 25000 50000; do
    /usr/bin/time -f "%M %e" -o "$work/rss" "$bin/logbook-export-bench" synthetic csv "$trips" /dev/null >/dev/null
    read -r kib secs <"$work/rss"
    rss+=("$(awk -v k="$kib" 'BEGIN {printf "%.1f", k / 1024}') MiB ($((trips * 200 / 1000000)).$((trips * 200 % 1000000 / 100000)) M points, ${secs} s)")
done
printf 'export-bench: csv: exporter peak RSS over 1/4, 1/2, all of 10 M points: %s, %s, %s (synthetic trips, no store)\n' "${rss[@]}"
