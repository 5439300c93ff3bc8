#!/bin/sh
# SPDX-License-Identifier: MIT
# Garage benchmark on the synthetic 10-year journal with garage entries: prints
# `garage-bench:` lines.
#
#   bench/garage-bench.sh [work-dir]
#
# work-dir (default ${TMPDIR:-/tmp}/logbook-bench-garage) keeps the journal that
# `logbook-journal-gen --garage` writes (fill-ups every ~600 km, one trip in four classified)
# and its index; a second run reuses them. Figures: wall time of whole `logbook` processes
# (start, config, open, catch-up check, query, print) for `stats --json` (target <= 150 ms),
# `stats` over the last month, `report --year` as CSV, `dashboard refresh`; hyperfine when
# installed, else the median of 21 runs. Release build. Other load on the machine shows.
set -eu
cd "$(dirname "$0")/.."
work="${1:-${TMPDIR:-/tmp}/logbook-bench-garage}"
mkdir -p "$work"
swift build -c release --product logbook >&2
swift build -c release --product logbook-journal-gen >&2
bin="$(swift build -c release --show-bin-path)"
ms() { echo $(( $(date +%s%N) / 1000000 )); }

t0=$(ms)
"$bin/logbook-journal-gen" "$work" --years 10 --trips 50000 --points 10000000 --vehicles 3 --garage | sed 's/^journal-gen: /garage-bench: journal: /'
echo "garage-bench: generate: $(( $(ms) - t0 )) ms (0 when reused)"
lb="$bin/logbook --state-dir $work/state --runtime-dir $work/run"
t0=$(ms)
$lb stats --json >"$work/stats.json"
echo "garage-bench: first stats (with the index catch-up; a full build when the index is new): $(( $(ms) - t0 )) ms"
python3 - "$work/stats.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("garage-bench: fixture: %d fill-ups, %.0f L, spend %s, %.2f L/100 km, %.0f km of trips"
      % (d["fill_ups"], d["total_fuel_l"], d["total_spend"], d["economy_l_per_100km"], d["total_distance_km"]))
PY

# Median wall time of a whole command, in ms.
timed() {
    name=$1
    shift
    if command -v hyperfine >/dev/null 2>&1; then
        hyperfine -N --warmup 3 --runs 30 --export-json "$work/h.json" "$*" >/dev/null 2>&1
        python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f" % (r["median"]*1000))' "$work/h.json"
    else
        : >"$work/$name.times"
        for _ in $(seq 21); do
            s=$(date +%s%N)
            "$@" >/dev/null
            echo $(( ($(date +%s%N) - s) / 1000 )) >>"$work/$name.times"
        done
        sort -n "$work/$name.times" | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)] / 1000}'
    fi
}
how=$(command -v hyperfine >/dev/null 2>&1 && echo "hyperfine, 30 runs" || echo "median of 21 runs")
stats_ms=$(timed stats $lb stats --json)
# The peer measured in the same run: the index's own `trips list` (its target: 100 ms).
list_ms=$(timed list $lb trips list --limit 50)
echo "garage-bench: stats --json (all, 10 years): $stats_ms ms ($how; target <= 150 ms: $(awk -v m="$stats_ms" 'BEGIN{printf "%.2fx", 150 / m}'); trips list --limit 50 in the same run: $list_ms ms, ratio $(awk -v a="$stats_ms" -v b="$list_ms" 'BEGIN{printf "%.2f", a / b}'); load average $(cut -d' ' -f1 /proc/loadavg))"
cpu=$( { /usr/bin/time -f "%U %S" $lb stats --json >/dev/null; } 2>&1 | tail -1)
echo "garage-bench: stats --json CPU time: $(echo "$cpu" | awk '{printf "%.0f ms (user %.0f + sys %.0f)", ($1 + $2) * 1000, $1 * 1000, $2 * 1000}') — wall time above includes waiting for a loaded CPU"
echo "garage-bench: stats --range month: $(timed month $lb stats --range month) ms ($how)"
echo "garage-bench: report --year 2020 --format csv: $(timed report $lb report --year 2020 --format csv) ms ($how; $($lb report --year 2020 --format csv | wc -l) lines)"
echo "garage-bench: dashboard refresh: $(timed dashboard $lb dashboard refresh --quiet) ms ($how; $(wc -c <"$work/run/dashboard.json") bytes)"
/usr/bin/time -f "%M" -o "$work/stats.rss" $lb stats --json >/dev/null
echo "garage-bench: stats peak RSS: $(( $(tail -1 "$work/stats.rss") / 1024 )) MiB"
