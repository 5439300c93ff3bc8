#!/bin/bash
# build-deb.sh - build the logbook .deb with plain dpkg-deb (no debhelper needed).
#
#   scripts/build-deb.sh [--bin-dir DIR] [--version V] [--out DIR] [--no-strip]
#
#   --bin-dir DIR  use already built logbookd/logbook from DIR; without it the script runs
#                  scripts/build-release.sh (release, --static-swift-stdlib, logbookd linked with
#                  the order file profiled on this machine: on a Pi an arm64 profile) and uses
#                  .build/release
#   --version V    package version (default <LogbookVersion.current>~git<date>.<commit>)
#   --out DIR      where to put logbook_<version>_<arch>.deb (default out/, git-ignored)
#   --no-strip     keep symbols and debug info (default: strip --strip-unneeded, as Debian
#                  policy and lintian want; the unit turns the Swift backtracer off anyway)
#   --compress C   dpkg-deb compressor: xz (default, smallest), gzip (fast), none
#
# Contents: /usr/bin/{logbookd,logbook,logbook-uplink,logbook-web}, their man pages logbook(1) and
# logbookd(8) and logbook's bash/zsh/fish completions (scripts/build-manuals.sh, generated from
# the binaries), systemd units (uplink, web disabled), sysusers.d,
# tmpfiles.d, logind drop-in, udev rules, /etc/logbook/logbookd.toml (conffile; copied
# from config/logbookd.toml when the tree has one, else a commented placeholder),
# maintainer scripts from packaging/debian/. Depends are computed with dpkg-shlibdeps.
# Prints the path of the .deb on the last line.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
PKG=$ROOT/packaging/debian
BIN_DIR=; VERSION=; OUT=$ROOT/out; STRIP=1; COMPRESS=xz

usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }
while [ $# -gt 0 ]; do
  case $1 in
    --bin-dir) BIN_DIR=$2; shift 2 ;;
    --version) VERSION=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --no-strip) STRIP=0; shift ;;
    --compress) COMPRESS=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "build-deb: unknown argument $1" >&2; usage ;;
  esac
done

die() { echo "build-deb: $*" >&2; exit 1; }
command -v dpkg-deb >/dev/null || die "dpkg-deb missing (apt-get install dpkg)"

# Release binaries with the Swift runtime linked in: the Pi needs no toolchain. The order files
# are profiled here, on the architecture being packaged: logbookd's by build-release
# (bench/hot-text.sh), logbook-uplink's first when it is missing or older than the code
# (bench/hot-text-uplink.sh).
if [ -z "$BIN_DIR" ]; then
  uplink_order=$ROOT/.build/hot-text/logbook-uplink.ld
  if [ ! -f "$uplink_order" ] || [ -n "$(cd "$ROOT" && find Sources Package.swift -newer "$uplink_order" -print -quit)" ]; then
    # Without it the uplink is the same program with more of its text resident.
    "$ROOT/bench/hot-text-uplink.sh" "$uplink_order" >/dev/null \
      || echo "build-deb: no order file for logbook-uplink (bench/hot-text-uplink.sh failed); it links without one" >&2
  fi
  "$ROOT/scripts/build-release.sh"
  BIN_DIR=$ROOT/.build/release
fi
for f in logbookd logbook logbook-uplink logbook-web; do [ -x "$BIN_DIR/$f" ] || die "$BIN_DIR/$f missing"; done
if [ -z "$VERSION" ]; then
  # The programs' --version (LogbookVersion.current), plus the day and commit.
  base=$(sed -n 's/^ *public static let current = "\(.*\)"$/\1/p' "$ROOT/Sources/Core/LogbookCore/LogbookVersion.swift")
  [ -n "$base" ] || die "no version in Sources/Core/LogbookCore/LogbookVersion.swift"
  VERSION="$base~git$(date -u +%Y%m%d).$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo local)"
fi
ARCH=$(dpkg --print-architecture)
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)

STAGE=$(mktemp -d "${TMPDIR:-/tmp}/build-deb.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
D=$STAGE/root
install_file() { install -D -m "$1" "$2" "$D$3"; }
# Strip DWARF from ELF files only (the e2e harness may package script stand-ins).
strip_elf() {
  local f
  [ "$STRIP" = 1 ] && command -v strip >/dev/null || return 0
  for f in "$@"; do [ "$(head -c4 "$f" | tr -d '\0')" = $'\x7fELF' ] && strip --strip-unneeded --remove-section=.comment --remove-section=.note "$f"; done
  return 0
}

install_file 0755 "$BIN_DIR/logbookd" /usr/bin/logbookd
install_file 0755 "$BIN_DIR/logbook"  /usr/bin/logbook
install_file 0755 "$BIN_DIR/logbook-uplink" /usr/bin/logbook-uplink
strip_elf "$D/usr/bin/logbookd" "$D/usr/bin/logbook" "$D/usr/bin/logbook-uplink"
# No swift-backtrace-static: the unit disables the backtracer (see logbookd.service).
# Man pages and completions from the binaries' own argument definitions.
"$ROOT/scripts/build-manuals.sh" "$BIN_DIR" "$D" "$VERSION"

S=$ROOT/systemd
install_file 0644 "$S/logbookd.service"            /lib/systemd/system/logbookd.service
install_file 0644 "$S/vehicle-ignition.target"     /lib/systemd/system/vehicle-ignition.target
install_file 0644 "$S/sysusers.d/logbook.conf"     /usr/lib/sysusers.d/logbook.conf
install_file 0644 "$S/tmpfiles.d/logbook.conf"     /usr/lib/tmpfiles.d/logbook.conf
install_file 0644 "$S/logind.conf.d/50-logbook.conf" /usr/lib/systemd/logind.conf.d/50-logbook.conf
install_file 0644 "$S/udev/70-logbook-gpio.rules"  /lib/udev/rules.d/70-logbook-gpio.rules
# ── uplink: installed disabled (it needs a broker or database configured first) ──
install_file 0644 "$S/logbook-uplink.service"       /lib/systemd/system/logbook-uplink.service
install_file 0644 "$S/sysusers.d/logbook-uplink.conf" /usr/lib/sysusers.d/logbook-uplink.conf
install -d -m 0700 "$D/etc/logbook/uplink-credentials"
[ -f "$ROOT/docs/uplink.md" ] && install_file 0644 "$ROOT/docs/uplink.md" /usr/share/doc/logbook/uplink.md
# ── web: installed disabled (loopback only until a password is set); assets are in the binary ──
install_file 0755 "$BIN_DIR/logbook-web" /usr/bin/logbook-web
strip_elf "$D/usr/bin/logbook-web"
install_file 0644 "$S/logbook-web.service"          /lib/systemd/system/logbook-web.service
install_file 0644 "$S/sysusers.d/logbook-web.conf"  /usr/lib/sysusers.d/logbook-web.conf
[ -f "$ROOT/docs/web.md" ] && install_file 0644 "$ROOT/docs/web.md" /usr/share/doc/logbook/web.md
# Ignition rules are site-specific examples (all commented out): documentation only.
install_file 0644 "$S/udev/70-logbook-ignition.rules" /usr/share/doc/logbook/examples/70-logbook-ignition.rules

if [ -f "$ROOT/config/logbookd.toml" ]; then CONF=$ROOT/config/logbookd.toml; else CONF=$PKG/logbookd.toml.placeholder; fi
# The offline place-name bundle (GeoNames, CC BY 4.0; its manifest carries the attribution).
PLACES=$ROOT/.build/places
[ -f "$PLACES/places.manifest.json" ] || /usr/bin/python3 "$ROOT/scripts/build-places-bundle.py" --out "$PLACES" >&2
install_file 0644 "$PLACES/places.bin" /usr/share/logbook/places/places.bin
install_file 0644 "$PLACES/places.manifest.json" /usr/share/logbook/places/places.manifest.json
install_file 0644 "$CONF" /etc/logbook/logbookd.toml
install_file 0644 "$PKG/copyright" /usr/share/doc/logbook/copyright
# A native package's changelog (Debian policy 12.7): which commit this is.
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
DATE=$(git -C "$ROOT" log -1 --format=%cD 2>/dev/null || date -R)
printf 'logbook (%s) unstable; urgency=medium\n\n  * Built from commit %s; the changes are in the project repository.\n\n -- %s  %s\n' \
  "$VERSION" "$COMMIT" "$(sed -n 's/^Maintainer: //p' "$PKG/control.in")" "$DATE" | gzip -9n > "$STAGE/changelog.gz"
install_file 0644 "$STAGE/changelog.gz" /usr/share/doc/logbook/changelog.gz
[ -f "$ROOT/docs/install-pi.md" ] && install_file 0644 "$ROOT/docs/install-pi.md" /usr/share/doc/logbook/install-pi.md

# Library dependencies of the binaries (libsystemd0, libdbus-1-3, libc6, ...).
SHLIBS="libc6, libsystemd0, libdbus-1-3, libsodium23, libsqlite3-0"
if command -v dpkg-shlibdeps >/dev/null; then
  mkdir -p "$STAGE/shl/debian"; printf 'Source: logbook\n\nPackage: logbook\nArchitecture: any\n' > "$STAGE/shl/debian/control"
  if out=$(cd "$STAGE/shl" && dpkg-shlibdeps -O -e "$D/usr/bin/logbookd" -e "$D/usr/bin/logbook" -e "$D/usr/bin/logbook-uplink" -e "$D/usr/bin/logbook-web" 2>/dev/null); then
    [ -n "${out#shlibs:Depends=}" ] && SHLIBS=${out#shlibs:Depends=}
  fi
else
  echo "build-deb: warning: dpkg-shlibdeps (dpkg-dev) missing, using a fixed Depends list" >&2
fi

mkdir -p "$D/DEBIAN"
SIZE=$(du -sk --exclude=DEBIAN "$D" | cut -f1)
sed -e "s|@VERSION@|$VERSION|" -e "s|@ARCH@|$ARCH|" -e "s|@SHLIBS@|$SHLIBS|" -e "s|@SIZE@|$SIZE|" \
  "$PKG/control.in" > "$D/DEBIAN/control"
install -m 0644 "$PKG/conffiles" "$D/DEBIAN/conffiles"
for s in postinst prerm postrm; do install -m 0755 "$PKG/$s" "$D/DEBIAN/$s"; done
(cd "$D" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$D/DEBIAN/md5sums"

DEB=$OUT/logbook_${VERSION}_${ARCH}.deb
dpkg-deb --root-owner-group "-Z$COMPRESS" --build "$D" "$DEB" >/dev/null
echo "build-deb: $(dpkg-deb -f "$DEB" Package Version Architecture | tr '\n' ' ')$(( $(stat -c %s "$DEB") / 1024 )) KiB" >&2
echo "$DEB"
