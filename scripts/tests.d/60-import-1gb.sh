#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `logbook import` of a 1 GB GPX in flat memory (issue 26): scripts/gen-gpx.py writes the
# file (two 50-minute drives a day at 1 Hz, Garmin speed extensions), the release `logbook`
# (as in the .deb) imports it without a daemon, peak RSS from the kernel's rusage; the same
# for a file a tenth the size, so flat means flat; then `logbook verify` on the journal.
# Takes a few minutes (generation ~1 min, import ~2-4 min on the 2-core VM). Prints
#   import: big.gpx: N trips, N points, N skipped
#   import: big.gpx (1000 MB): N s, peak RSS N MiB (100 MB file: N MiB, N s)
set -euo pipefail
cd "$(dirname "$0")/../.."
size="${IMPORT_TEST_BYTES:-1000000000}"
# shellcheck source=scripts/release-flags.sh
. scripts/release-flags.sh
swift build "${RELEASE_BUILD[@]}" --product logbook >/dev/null
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)/logbook"
work="$(mktemp -d /tmp/import-1gb.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# run DIR FILE: imports FILE into a fresh logbook in DIR; prints "seconds peak_kib" on fd 3.
run() {
    mkdir -p "$1"
    printf 'state_dir = "%s/state"\nruntime_dir = "%s/run"\n[[vehicle]]\nid = "car"\n' "$1" "$1" >"$1/logbookd.toml"
    /usr/bin/python3 - "$bin" "$1/logbookd.toml" "$2" "$1/out" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
with open(sys.argv[4], "w") as out:
    rc = subprocess.run([sys.argv[1], "--config", sys.argv[2], "import", sys.argv[3], "--vehicle", "car"], stdout=out).returncode
dt = time.monotonic() - t
if rc != 0:
    sys.exit("import: FAIL: logbook import exited %d" % rc)
print("%.1f %d" % (dt, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
PY
}

/usr/bin/python3 scripts/gen-gpx.py "$work/small.gpx" "$((size / 10))"
read -r small_s small_kib < <(run "$work/small" "$work/small.gpx")
rm -f "$work/small.gpx"
/usr/bin/python3 scripts/gen-gpx.py "$work/big.gpx" "$size"
mb=$(( $(stat -c %s "$work/big.gpx") / 1000000 ))
read -r big_s big_kib < <(run "$work/big" "$work/big.gpx")
summary="$(grep '^import: ' "$work/big/out" | head -1)"
echo "$summary"
echo "import: big.gpx (${mb} MB): ${big_s} s, peak RSS $((big_kib / 1024)) MiB ($((size / 10000000)) MB file: $((small_kib / 1024)) MiB, ${small_s} s)"
"$bin" --config "$work/big/logbookd.toml" verify >"$work/verify.out" 2>&1 || { cat "$work/verify.out" >&2; echo "import: FAIL: verify" >&2; exit 1; }
grep -q 'OK' "$work/verify.out"
# Flat: the big file may not need much more than the small one (same buffers, more trips).
if [ "$big_kib" -gt $((small_kib + 16 * 1024)) ]; then
    echo "import: FAIL: peak RSS grows with the file: $((small_kib / 1024)) MiB for a tenth, $((big_kib / 1024)) MiB for all" >&2
    exit 1
fi
