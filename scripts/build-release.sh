#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the release binaries as the .deb ships them (scripts/release-flags.sh), logbookd linked
# with its order file (Package.swift, LOGBOOK_HOT_TEXT), logbook-uplink with its own when there
# is a current one (LOGBOOK_UPLINK_HOT_TEXT).
#
# The order file is a build product of this machine: bench/hot-text.sh profiles this checkout's
# logbookd on the Swiss drive and writes .build/hot-text/logbookd.ld. It is made again when it is
# missing or older than anything under Sources/ or Package.swift, so the list always matches the
# code and the architecture being built (on a Pi: arm64). LOGBOOK_HOT_TEXT=FILE uses FILE as it is.
#
# Usage: scripts/build-release.sh [swift build arguments, e.g. --product logbookd]
# Prints the order file's path on stderr; the binaries are in `swift build -c release --show-bin-path`.
set -euo pipefail
cd "$(dirname "$0")/.."

order="${LOGBOOK_HOT_TEXT:-}"
if [ -z "$order" ]; then
    order=.build/hot-text/logbookd.ld
    newer="$( [ -f "$order" ] && find Sources Package.swift -newer "$order" -print -quit || echo missing)"
    if [ -n "$newer" ]; then
        echo "build-release: profiling logbookd for its order file (${newer}: newer than the list)" >&2
        bench/hot-text.sh "$order" >/dev/null
    fi
fi
echo "build-release: order file $order" >&2
bin="$(swift build -c release --show-bin-path)"
# The link does not track the order file: a changed list needs a new link.
[ "$order" -nt "$bin/logbookd" ] && rm -f "$bin/logbookd"
# logbook-uplink's order file (bench/hot-text-uplink.sh: a drive with every sink on, which needs
# mosquitto, PostgreSQL and two minutes) is used when it is there and newer than the code, not
# made here: scripts/build-deb.sh and bench/uplink-bench.sh make it first.
uplink_order="${LOGBOOK_UPLINK_HOT_TEXT:-.build/hot-text/logbook-uplink.ld}"
if [ -f "$uplink_order" ] && { [ -n "${LOGBOOK_UPLINK_HOT_TEXT:-}" ] ||
        [ -z "$(find Sources Package.swift -newer "$uplink_order" -print -quit)" ]; }; then
    echo "build-release: logbook-uplink order file $uplink_order" >&2
    [ "$uplink_order" -nt "$bin/logbook-uplink" ] && rm -f "$bin/logbook-uplink"
    export LOGBOOK_UPLINK_HOT_TEXT="$uplink_order"
else
    echo "build-release: logbook-uplink without an order file (bench/hot-text-uplink.sh makes one)" >&2
    unset LOGBOOK_UPLINK_HOT_TEXT
fi
# shellcheck source=scripts/release-flags.sh
. scripts/release-flags.sh
LOGBOOK_HOT_TEXT="$order" swift build "${RELEASE_BUILD[@]}" "$@" >&2
