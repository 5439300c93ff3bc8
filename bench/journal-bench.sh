#!/bin/sh
# SPDX-License-Identifier: MIT
# Journal micro-benchmarks: builds logbook-bench in release and prints `journal-bench:` lines.
# Usage: bench/journal-bench.sh [work-dir]   (default: a fresh directory under $TMPDIR or /tmp;
# use a directory on the disk you care about: fdatasync cost depends on it)
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product logbook-bench >&2
work="${1:-$(mktemp -d "${TMPDIR:-/tmp}/logbook-journal-bench.XXXXXX")}"
trap 'rm -rf "$work"' EXIT
.build/release/logbook-bench "$work"
