#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates docs/trip-swiss.png: the 3 h Swiss drive recorded by the real logbookd from a
# private gpsd replay, drawn by LogbookExport's TripPicture (SVG) and rendered by Debian's
# headless Chromium, exactly as the browser test does (the test keeps its files when
# LOGBOOK_PICTURE_DIR is set).
# Usage: scripts/trip-picture.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
out="$(mktemp -d /tmp/logbook-picture.XXXXXX)"
trap 'rm -rf "$out"' EXIT
swift build --build-tests -Xswiftc -warnings-as-errors >/dev/null
LOGBOOK_PICTURE_DIR="$out" swift test --skip-build \
    --filter 'BrowserPictureTests/theSwissPictureInChromiumShowsTheRouteInRedYellowAndGreen' 2>&1 | grep -E '^export: |✘' || true
test -s "$out/trip.svg.png"
cp "$out/trip.svg.png" docs/trip-swiss.png
echo "docs/trip-swiss.png: $(stat -c %s docs/trip-swiss.png) bytes (SVG $(stat -c %s "$out/trip.svg") bytes)"
