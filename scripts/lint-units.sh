#!/bin/bash
# lint-units.sh - offline checks of Logbook's systemd artefacts (no running systemd needed).
#
#   scripts/lint-units.sh [UNIT_DIR]        (default: systemd/ next to this script)
#
# For every unit file (*.service, *.socket, *.target, *.timer, *.path):
#   systemd-analyze verify                           -> typos, bad values, missing ExecStart binary
# For every *.service additionally:
#   systemd-analyze security --offline=true --threshold=15   (252 takes the threshold x10: 15 = 1.5)
#   and prints exactly "systemd-security: <unit>: <score>"
# Plus: sysusers.d and tmpfiles.d files are applied to an empty scratch root (--root=),
# which catches syntax errors without touching the host's users.
#
# Everything runs inside a private mount namespace (unshare -m) with a fresh tmpfs on /run:
# systemd-analyze otherwise touches the host's /run/systemd/systemd-units-load
# (notes/systemd-tests.md §2). In the same namespace /usr/bin is overlaid with the built
# binaries (LOGBOOK_BIN_DIR, default .build/release) or a stub, because verify insists
# that ExecStart=/usr/bin/logbookd exists.
#
# Without root or where unshare -m is refused (some CI containers) it falls back to checking
# copies of the units with ExecStart pointing at the built binary, and says so.
# Exit status: 0 all checks passed, 1 a check failed, 2 cannot run (prints "lint-units: SKIP").
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
if [ "${1:-}" != --inner ]; then   # the inner re-invocation inherits these via the environment
  UNIT_DIR=$(cd "${1:-$ROOT/systemd}" && pwd)
  BIN_DIR=${LOGBOOK_BIN_DIR:-$ROOT/.build/release}
fi
# systemd-analyze security --threshold= is an integer on the internal 0..100 scale.
THRESHOLD_X10=${LOGBOOK_SECURITY_THRESHOLD_X10:-15}

skip() { echo "lint-units: SKIP $*"; exit 2; }
indent() { while IFS= read -r l; do printf '    %s\n' "$l"; done <<<"$1"; }

# systemd-analyze is needed (installed if missing); a private mount namespace is preferred.
ensure_tools() {
  if ! command -v systemd-analyze >/dev/null; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then skip "systemd-analyze missing and cannot install it"; fi
    if ! { apt-get update -qq && apt-get install -y -qq systemd >/dev/null; }; then skip "cannot install systemd"; fi
  fi
}

# Can we isolate /run and overlay /usr/bin? Needs root and unshare -m (not in every CI container).
can_isolate() {
  [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare -m --propagation private true 2>/dev/null
}

# Isolated mode (runs as "$0 --inner" in a private mount namespace): tmpfs on /run, and
# ExecStart=/usr/bin/logbookd made to exist by overlaying /usr/bin with the built
# binaries, or with an executable stub when the package is not built yet.
prepare_isolated() {
  local scratch=$1 f
  mount -t tmpfs tmpfs /run
  mkdir -p "$scratch/ovl"
  mount -t tmpfs tmpfs "$scratch/ovl"
  mkdir "$scratch/ovl/upper" "$scratch/ovl/work"
  for f in logbookd logbook logbook-uplink logbook-web; do
    if [ -x "$BIN_DIR/$f" ]; then cp "$BIN_DIR/$f" "$scratch/ovl/upper/$f"
    else printf '#!/bin/sh\nexit 0\n' > "$scratch/ovl/upper/$f"; chmod 755 "$scratch/ovl/upper/$f"; fi
  done
  mount -t overlay overlay -o "lowerdir=/usr/bin,upperdir=$scratch/ovl/upper,workdir=$scratch/ovl/work" /usr/bin
}

# Fallback without a namespace: check copies of the units whose /usr/bin/logbook* paths
# point at the built binaries (or /bin/true). Everything but the path is checked as is.
prepare_copies() {
  local scratch=$1 f bin
  mkdir -p "$scratch/units"
  cp -r "$UNIT_DIR/." "$scratch/units/"
  for f in "$scratch"/units/*.service; do
    bin=/bin/true; [ -x "$BIN_DIR/logbookd" ] && bin=$(readlink -f "$BIN_DIR/logbookd")
    sed -i "s|^ExecStart=/usr/bin/logbookd|ExecStart=$bin|" "$f"
    bin=/bin/true; [ -x "$BIN_DIR/logbook-uplink" ] && bin=$(readlink -f "$BIN_DIR/logbook-uplink")
    sed -i "s|^ExecStart=/usr/bin/logbook-uplink|ExecStart=$bin|" "$f"
    bin=/bin/true; [ -x "$BIN_DIR/logbook-web" ] && bin=$(readlink -f "$BIN_DIR/logbook-web")
    sed -i "s|^ExecStart=/usr/bin/logbook-web|ExecStart=$bin|" "$f"
  done
  UNIT_DIR=$scratch/units
}

checks() {
  local scratch=$1 fails=0 f unit out score rc
  shopt -s nullglob
  local units=("$UNIT_DIR"/*.service "$UNIT_DIR"/*.socket "$UNIT_DIR"/*.target "$UNIT_DIR"/*.timer "$UNIT_DIR"/*.path)
  [ ${#units[@]} -gt 0 ] || { echo "lint-units: FAIL no unit files in $UNIT_DIR"; return 1; }
  for f in "${units[@]}"; do
    unit=$(basename "$f")
    # verify prints problems but, for some (unknown keys), still exits 0: fail on any output.
    if out=$(systemd-analyze verify --man=no "$f" 2>&1) && [ -z "$out" ]; then
      echo "systemd-verify: $unit: ok"
    else
      echo "systemd-verify: $unit: FAIL"; indent "$out"; fails=$((fails + 1))
    fi
  done
  for f in "$UNIT_DIR"/*.service; do
    unit=$(basename "$f")
    out=$(systemd-analyze security --offline=true --threshold="$THRESHOLD_X10" --no-pager "$f" 2>&1) && rc=0 || rc=$?
    score=$(sed -n 's/^→ Overall exposure level for .*: \([0-9.]*\) .*/\1/p' <<<"$out")
    echo "systemd-security: $unit: ${score:-unknown}"
    if [ "$rc" != 0 ] || [ -z "$score" ]; then
      echo "systemd-security: $unit: FAIL above $((THRESHOLD_X10 / 10)).$((THRESHOLD_X10 % 10)) (rc=$rc)"
      grep '✗' <<<"$out" | sed 's/^/    /' || true
      fails=$((fails + 1))
    fi
  done
  # sysusers/tmpfiles: apply to an empty root; errors mean syntax problems.
  for f in "$UNIT_DIR"/sysusers.d/*.conf; do
    mkdir -p "$scratch/sysroot/etc"
    if out=$(systemd-sysusers --root="$scratch/sysroot" "$f" 2>&1); then
      echo "sysusers: $(basename "$f"): ok ($(cut -d: -f1 "$scratch/sysroot/etc/passwd" | tr '\n' ' '))"
    else echo "sysusers: $(basename "$f"): FAIL"; indent "$out"; fails=$((fails + 1)); fi
  done
  for f in "$UNIT_DIR"/tmpfiles.d/*.conf; do
    # tmpfiles resolves user names in the scratch root, which sysusers just populated;
    # chown needs root, so unprivileged runs only parse (a bad line still errors out).
    if [ "$(id -u)" != 0 ]; then
      out=$(systemd-tmpfiles --root="$scratch/sysroot" --create "$f" 2>&1 | grep -v 'fchownat() .* Operation not permitted' || true)
      if [ -z "$out" ]; then echo "tmpfiles: $(basename "$f"): ok (parsed; not root, ownership not applied)"
      else echo "tmpfiles: $(basename "$f"): FAIL"; indent "$out"; fails=$((fails + 1)); fi
    elif out=$(systemd-tmpfiles --root="$scratch/sysroot" --create "$f" 2>&1) && [ -z "$out" ]; then
      echo "tmpfiles: $(basename "$f"): ok"
    else echo "tmpfiles: $(basename "$f"): FAIL"; indent "$out"; fails=$((fails + 1)); fi
  done
  [ "$fails" = 0 ]
}

main() {
  if [ "${1:-}" = --inner ]; then prepare_isolated "$2"; checks "$2"; return; fi
  ensure_tools
  local scratch rc=0
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/lint-units.XXXXXX")
  # shellcheck disable=SC2064  # expand now: the path is fixed
  trap "rm -rf '$scratch'" EXIT
  if can_isolate; then
    timeout 120 unshare -m --propagation private "$0" --inner "$scratch" || rc=$?
  else
    echo "lint-units: note: no private mount namespace here (not root or unshare -m refused);" \
         "checking copies with ExecStart pointing at the built binary; /run is not isolated"
    prepare_copies "$scratch"
    checks "$scratch" || rc=$?
  fi
  if [ "$rc" = 0 ]; then echo "lint-units: ok"; else echo "lint-units: FAIL"; fi
  return "$rc"
}

export UNIT_DIR BIN_DIR THRESHOLD_X10
main "$@"
