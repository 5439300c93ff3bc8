#!/bin/sh
# SPDX-License-Identifier: MIT
# Journal micro-benchmarks: builds logbook-bench in release and prints `journal-bench:` lines.
# Usage: bench/journal-bench.sh [parent-dir]
# The benchmark works in a fresh directory under parent-dir (default $TMPDIR or /tmp) and
# removes it afterwards. Pick a parent on the disk you care about: fdatasync cost depends on it.
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product logbook-bench >&2
work="$(mktemp -d "${1:-${TMPDIR:-/tmp}}/logbook-journal-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
.build/release/logbook-bench "$work"
