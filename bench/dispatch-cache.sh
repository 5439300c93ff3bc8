#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the soak's live-heap slope is: libdispatch's per-thread continuation caches filling up
# when a thread outside the pool (logbookd's GPS reader) wakes tasks. Builds a 40-line program
# that does the same and prints the heap in use as hand-offs go on; it levels off once every
# pool thread's cache is full (1,024 continuations of 64 bytes each). See docs/memory.md.
# Usage: bench/dispatch-cache.sh [HANDOFFS]   (default 60,000; about 12 s)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d /tmp/logbook-dispatch-cache.XXXXXX)"
trap 'rm -rf "$out"' EXIT
swiftc -O -import-objc-header "$here/dispatch-cache/heap.h" "$here/dispatch-cache/main.swift" -o "$out/dispatch-cache"
"$out/dispatch-cache" "${1:-60000}"
