#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Guard on the shipped logbookd (docs/memory.md), built as scripts/build-deb.sh builds it
# (scripts/build-release.sh: release, --static-swift-stdlib, linked with the order file
# profiled on this machine). Fails when
#   - its image holds full Foundation, FoundationInternationalization or ICU (tens of MiB of
#     mappings and startup cost a Pi does not need; FoundationEssentials is allowed), or a
#     dynamic dependency on them appears, or it lost the other cuts listed below (checked with
#     readelf and nm);
#   - it misses the memory target: peak RSS over 12 MiB while it records the 3 h Swiss drive
#     replayed at full speed (as bench/gps-bench.sh measures it, one run, about a minute). This
#     is also the order file's guard: a stale or missing list shows as resident text here.
# Prints
#   daemon-image: logbookd TEXT KiB text, DATA KiB data+bss, N NEEDED libraries, foundation symbols 0
#   daemon-image: logbookd peak rss X.X MiB recording the Swiss drive (target 12 MiB), N fixes, order file ARCH
set -euo pipefail
cd "$(dirname "$0")/../.."
build_log="$(mktemp /tmp/logbook-image-build.XXXXXX)"
if ! scripts/build-release.sh --product logbookd >"$build_log" 2>&1; then
    cat "$build_log" >&2
    exit 1
fi
rm -f "$build_log"
bin="$(swift build -c release --show-bin-path)/logbookd"
order="${LOGBOOK_HOT_TEXT:-.build/hot-text/logbookd.ld}"

needed="$(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')"
bad_libs="$(grep -E '^lib(Foundation|FoundationInternationalization|_FoundationICU|icu[a-z]*)\.so' <<<"$needed" || true)"
# Swift mangles a module name as <length><name>: $s10Foundation…, $s26FoundationInternationalization…
symbols="$(nm --defined-only "$bin" 2>/dev/null | awk '{print $NF}')"
foundation="$(grep -cE '^\$s(10Foundation|26FoundationInternationalization)[^E]' <<<"$symbols" || true)"
icu="$(grep -cE '^(u_|ucol_|ucal_|udat_|ures_)[a-zA-Z]+(_[0-9]+)?$|icudt[0-9]+_dat' <<<"$symbols" || true)"
read -r text data bss _ < <(size "$bin" | tail -1)
printf 'daemon-image: logbookd %d KiB text, %d KiB data+bss, %d NEEDED libraries, foundation symbols %d, icu symbols %d\n' \
    $((text / 1024)) $(((data + bss) / 1024)) "$(wc -l <<<"$needed")" "$foundation" "$icu"
status=0
if [ -n "$bad_libs" ]; then
    echo "daemon-image: FAIL: logbookd needs $(tr '\n' ' ' <<<"$bad_libs")" >&2
    status=1
fi
if [ "$foundation" -ne 0 ] || [ "$icu" -ne 0 ]; then
    echo "daemon-image: FAIL: full Foundation or ICU is linked into logbookd; first symbols:" >&2
    grep -E '^\$s(10Foundation|26FoundationInternationalization)[^E]' <<<"$symbols" | head -5 >&2 || true
    echo "  (find the importer: grep -rn 'import.*Foundation' in the daemon's modules and dependencies)" >&2
    status=1
fi
relative="$(readelf -d "$bin" | grep -c '(RELR)' || true)"
if [ "$relative" -eq 0 ]; then
    echo "daemon-image: FAIL: logbookd has no DT_RELR (linked without -z pack-relative-relocs; see Package.swift)" >&2
    status=1
else
    rela="$(readelf -SW "$bin" | sed -n 's/.* \.rela\.dyn  *RELA  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\).*/\1/p')"
    echo "daemon-image: logbookd relocations: DT_RELR, .rela.dyn $((16#${rela:-0})) bytes"
fi
# The leaner-image cuts (docs/memory.md), each checked in the binary itself:
# no exported dynamic symbols, no swift-crypto/BoringSSL or ArgumentParser code, libsodium
# linked, and the hot code gathered in .text.hot (its size is printed; the memory target below
# is what it is for).
exported="$(nm -D --defined-only "$bin" 2>/dev/null | wc -l || true)"
crypto="$(grep -cE '^(CCryptoBoringSSL_|\$s6Crypto)' <<<"$symbols" || true)"
argparser="$(grep -cE '^\$s14ArgumentParser' <<<"$symbols" || true)"
hot_size="$(readelf -SW "$bin" | sed -n 's/.* \.text\.hot  *PROGBITS  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\).*/\1/p')"
hot_size=$((16#${hot_size:-0}))
echo "daemon-image: logbookd exports $exported dynamic symbols, crypto symbols $crypto, ArgumentParser symbols $argparser, .text.hot $((hot_size / 1024)) KiB"
if [ "$exported" -gt 0 ]; then
    echo "daemon-image: FAIL: logbookd exports dynamic symbols again (see --no-export-dynamic in Package.swift)" >&2
    status=1
fi
if [ "$crypto" -gt 0 ] || [ "$argparser" -gt 0 ]; then
    echo "daemon-image: FAIL: swift-crypto or ArgumentParser is linked into logbookd again" >&2
    status=1
fi
if ! grep -q 'libsodium' <<<"$needed"; then
    echo "daemon-image: FAIL: logbookd does not link libsodium (journal signatures)" >&2
    status=1
fi
# libgps.so.28 pulls in the shared libstdc++ (~0.9 MiB resident): libgps and, for the static
# Swift runtime, libstdc++ are linked in (Sources/Ingest/CLogbookGPS, Sources/Apps/logbookd/link).
if grep -qE '^lib(gps|stdc\+\+)\.so' <<<"$needed"; then
    echo "daemon-image: FAIL: logbookd needs $(grep -E '^lib(gps|stdc\+\+)\.so' <<<"$needed" | tr '\n' ' ')(see docs/memory.md)" >&2
    status=1
fi

# The memory target, on the Swiss drive at full speed (bench/gps-bench.sh's run, once).
work="$(mktemp -d /tmp/logbook-image.XXXXXX)"
replay="" daemon=""
trap 'kill $replay $daemon 2>/dev/null || true; rm -rf "$work"' EXIT
log=fixtures/gpslogs/20100403_Z205_Switzerland.txt
TMPDIR="$work" /usr/bin/python3 scripts/gpsreplay.py --tcp "$log" >"$work/replay.out" 2>"$work/replay.err" &
replay=$!
for _ in $(seq 200); do grep -q '^PORT=' "$work/replay.out" 2>/dev/null && break; sleep 0.05; done
port="$(sed -n 's/^PORT=//p' "$work/replay.out")"
# The socket's group exists in /etc/group, as `logbook` does where the .deb is installed.
printf '[[vehicle]]\nid = "z205"\n[[source]]\ntype = "service"\nvehicle = "z205"\n[control]\ngroup = "%s"\n' "$(id -gn)" >"$work/logbookd.toml"
"$bin" --config "$work/logbookd.toml" --gpsd "127.0.0.1:$port" \
    --state-dir "$work/state" --runtime-dir "$work/run" 2>"$work/daemon.log" &
daemon=$!
wait "$replay" || true
replay=""
# Every fix handled: live.json is published again after gpsd has gone (its seq moves on).
seq_of() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["seq"])' "$work/run/live.json" 2>/dev/null || echo 0; }
ended="$(seq_of)"
for _ in $(seq 300); do [ "$(seq_of)" -gt "$ended" ] && break; sleep 0.05; done
kill -TERM "$daemon"
wait "$daemon" || true
daemon=""
fixes="$(/usr/bin/python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["gps"]; print(g["fixes"]+g["rejected"])' "$work/run/live.json" 2>/dev/null || echo 0)"
sent="$(grep -c 'RMC' "$log")"
# Its own peak, as it reports it at exit (bench/lib.sh: children not counted).
. bench/lib.sh
rss="$(own_usage "$work/daemon.log" | awk '{print $2}')"
if [ -z "$rss" ]; then
    echo "daemon-image: FAIL: logbookd did not report its peak at exit (see $work/daemon.log)" >&2
    trap - EXIT
    exit 1
fi
arch="$(sed -n 's/.*arch: \([^,]*\),.*/\1/p' "$order" 2>/dev/null || true)"
echo "daemon-image: logbookd peak rss $((rss / 1024)).$(((rss % 1024) * 10 / 1024)) MiB recording the Swiss drive (target 12 MiB), $fixes fixes, order file ${arch:-none}"
if [ "$fixes" -lt $((sent * 95 / 100)) ]; then
    echo "daemon-image: FAIL: logbookd handled $fixes fixes of the drive's $sent RMC sentences (see $work/daemon.log)" >&2
    trap - EXIT
    status=1
elif [ "$rss" -gt $((12 * 1024)) ]; then
    echo "daemon-image: FAIL: logbookd peaked at $rss KiB, over the 12 MiB target (an order file older than the code? scripts/build-release.sh makes it again; docs/memory.md)" >&2
    status=1
fi
exit $status
