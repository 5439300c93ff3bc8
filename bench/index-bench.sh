#!/bin/sh
# SPDX-License-Identifier: MIT
# Trip index benchmark on a synthetic 10-year journal: prints `index-bench:` lines.
#
#   bench/index-bench.sh [work-dir]
#
# work-dir (default ${TMPDIR:-/tmp}/logbook-bench-journal) keeps the generated journal
# (work-dir/state/journal) and the index the runs build (work-dir/state/cache/index.sqlite);
# a second run, and the export, garage and web benches, reuse them
# (`logbook --state-dir work-dir/state …`). Delete the directory to start over.
#
# Figures: generation time; `logbook reindex` throughput (target >= 1 M points/s) beside the
# bare journal read rate in the same run (medians of three turns each); index size; peak RSS
# of reindex; wall time of the whole `logbook trips list` process for the newest 50 (target
# <= 100 ms; hyperfine when installed, else the median of 21 runs). Release build. Other load
# on the machine shows.
#
# The CLI's floor (issue 22), one `index:` line each, with its target:
#   index: trips list peak N MiB (target 30)
#   index: export csv --all N points peak N MiB (target 30)
#   index: reindex N points/s = N % of the bare journal read N points/s (target 80 %)
# Peak RSS is the kernel's (GNU time's %M: the process's high-water mark).
set -eu
cd "$(dirname "$0")/.."
work="${1:-${TMPDIR:-/tmp}/logbook-bench-journal}"
mkdir -p "$work"
# As the .deb ships it (scripts/build-release.sh): the static Swift runtime and its link cuts.
scripts/build-release.sh --product logbook
swift build -c release --product logbook-journal-gen >&2
bin="$(swift build -c release --show-bin-path)"
ms() { echo $(( $(date +%s%N) / 1000000 )); }

# 10 years, 50,000 trips, 10 M points, three cars; records as a daemon at 1 Hz writes them.
t0=$(ms)
"$bin/logbook-journal-gen" "$work" --years 10 --trips 50000 --points 10000000 --vehicles 3 | sed 's/^journal-gen: /index-bench: journal: /'
echo "index-bench: generate: $(( $(ms) - t0 )) ms (0 when reused)"

# The floor: reading the journal back (framing, CRC-32C, SHA-256 chain, decoding) without SQLite,
# and the rebuild from scratch (one transaction), in turns, three of each: the ratio compares
# medians, so a neighbour's burst of load moves both sides instead of one run of either.
out="$work/reindex.out"
: >"$work/read.rates"; : >"$work/reindex.rates"; rss_kb=0
for _ in 1 2 3; do
    read_line=$("$bin/logbook-journal-gen" --read "$work")
    echo "$read_line" | sed -n 's/.*: \([0-9.]*\) M points\/s$/\1/p' >>"$work/read.rates"
    /usr/bin/time -f "%M" -o "$work/reindex.rss" "$bin/logbook" --state-dir "$work/state" reindex >"$out"
    line=$(grep '^reindex: [0-9]* trips' "$out")
    echo "$line" | sed -n 's/.*: \([0-9.]*\) M points\/s$/\1/p' >>"$work/reindex.rates"
    rss_kb=$(awk -v a="$rss_kb" -v b="$(tail -1 "$work/reindex.rss")" 'BEGIN {print (b > a) ? b : a}')
done
median() { sort -g "$1" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
read_rate=$(median "$work/read.rates")
rate=$(median "$work/reindex.rates")
runs() { paste -sd' ' "$1" | sed 's/ /, /g'; }
echo "index-bench: journal read alone: ${read_line#journal-read: } (median of 3: $read_rate M points/s; runs $(runs "$work/read.rates"))"
echo "index-bench: reindex: ${line#reindex: } (median of 3: $rate M points/s; runs $(runs "$work/reindex.rates"); target >= 1 M points/s: $(echo "$rate" | awk '{printf "%.2fx", $1 / 1.0}'); $(awk -v a="$rate" -v b="$read_rate" 'BEGIN{printf "%.0f %%", 100 * a / b}') of the bare journal read rate)"
floor_reindex=$(awk -v a="$rate" -v b="$read_rate" 'BEGIN{printf "index: reindex %.0f points/s = %.0f %% of the bare journal read %.0f points/s (target 80 %%)", a * 1e6, 100 * a / b, b * 1e6}')
echo "index-bench: index size: $(grep '^index: ' "$out" | sed 's/^index: //')"
echo "index-bench: reindex peak RSS: $(( rss_kb / 1024 )) MiB"

# `trips list` as a person runs it (its default page), peak RSS.
/usr/bin/time -f "%M" -o "$work/list.rss" "$bin/logbook" --state-dir "$work/state" trips list >/dev/null
floor_list="index: trips list peak $(( $(tail -1 "$work/list.rss") / 1024 )) MiB (target 30)"

# `trips list`, newest 50: the whole process (start, config, open, catch-up check, query, print).
"$bin/logbook" --state-dir "$work/state" trips list --limit 50 >/dev/null
if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --warmup 3 --runs 30 --export-json "$work/list.json" \
        "$bin/logbook --state-dir $work/state trips list --limit 50" >/dev/null 2>&1
    median_ms=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f" % (r["median"]*1000))' "$work/list.json")
    how="hyperfine, 30 runs"
else
    : >"$work/list.times"
    for _ in $(seq 21); do
        s=$(date +%s%N)
        "$bin/logbook" --state-dir "$work/state" trips list --limit 50 >/dev/null
        echo $(( ($(date +%s%N) - s) / 1000 )) >>"$work/list.times"
    done
    median_ms=$(sort -n "$work/list.times" | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)] / 1000}')
    how="median of 21 runs"
fi
echo "index-bench: trips list --limit 50: $median_ms ms whole process ($how; target <= 100 ms: $(awk -v m="$median_ms" 'BEGIN{printf "%.1fx", 100 / m}') under)"

# `trips export --all --format csv` streams: its peak RSS stays flat as the history grows
# (one car's third of the journal, then all of it; target <= 30 MiB).
for sel in "--all --vehicle golf" "--all"; do
    s=$(date +%s%N)
    # shellcheck disable=SC2086
    /usr/bin/time -f "%M" -o "$work/export.rss" "$bin/logbook" --state-dir "$work/state" trips export $sel --format csv >"$work/export.csv"
    ms_taken=$(( ($(date +%s%N) - s) / 1000000 ))
    rows=$(( $(wc -l <"$work/export.csv") - 1 ))
    echo "index-bench: trips export $sel --format csv: $rows points, $(( $(stat -c %s "$work/export.csv") / 1048576 )) MiB in $ms_taken ms, peak RSS $(( $(tail -1 "$work/export.rss") / 1024 )) MiB (target <= 30 MiB)"
done
floor_export="index: export csv --all $rows points peak $(( $(tail -1 "$work/export.rss") / 1024 )) MiB (target 30)"
rm -f "$work/export.csv"

echo "$floor_list"
echo "$floor_export"
echo "$floor_reindex"
