#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Guard on what the shipped logbookd links (docs/memory.md). Builds it as
# scripts/build-deb.sh does (release, --static-swift-stdlib) and fails when its image holds
# full Foundation, FoundationInternationalization or ICU (tens of MiB of mappings and
# startup cost a Pi does not need; FoundationEssentials is allowed), or when a dynamic
# dependency on them appears, or when it lost its compact relative relocations (DT_RELR:
# a 1.2 MiB relocation table back in every start), or lost the other cuts listed below.
# Checked with readelf and nm, not timing.
# Prints
#   daemon-image: logbookd TEXT KiB text, DATA KiB data+bss, N NEEDED libraries, foundation symbols 0
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --static-swift-stdlib --product logbookd -Xswiftc -warnings-as-errors >/dev/null
bin="$(swift build -c release --show-bin-path)/logbookd"

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
# linked, and the hot code gathered: .text.hot at least 80% of what bench/hot-text.sh listed
# (less means the list went stale: code was renamed or moved; run bench/hot-text.sh).
exported="$(nm -D --defined-only "$bin" 2>/dev/null | wc -l || true)"
crypto="$(grep -cE '^(CCryptoBoringSSL_|\$s6Crypto)' <<<"$symbols" || true)"
argparser="$(grep -cE '^\$s14ArgumentParser' <<<"$symbols" || true)"
hot_size="$(readelf -SW "$bin" | sed -n 's/.* \.text\.hot  *PROGBITS  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\).*/\1/p')"
hot_size=$((16#${hot_size:-0}))
hot_listed="$(sed -n 's/.*hot-bytes: \([0-9]*\).*/\1/p' Sources/Apps/logbookd/hot-text.ld)"
echo "daemon-image: logbookd exports $exported dynamic symbols, crypto symbols $crypto, ArgumentParser symbols $argparser, .text.hot $((hot_size / 1024)) KiB of $((hot_listed / 1024)) KiB listed"
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
if [ "$hot_size" -lt $((hot_listed * 8 / 10)) ]; then
    echo "daemon-image: FAIL: .text.hot holds $((hot_size / 1024)) KiB, under 80% of the $((hot_listed / 1024)) KiB bench/hot-text.sh listed: run it again" >&2
    status=1
fi
exit $status
