#!/bin/bash
# systemd-e2e.sh - end-to-end test of logbookd under a REAL systemd (PID 1 of a throwaway
# unshare container whose root is a tmpfs-backed overlay of the host root).
#
#   scripts/systemd-e2e.sh [BIN_DIR]
#
# BIN_DIR (or env LOGBOOK_BIN_DIR; default .build/release) holds the built `logbookd` and
# `logbook` (scripts/build-release.sh). Runs as root, needs util-linux,
# gpsd + python3-gps (replay), dpkg-deb (package steps); missing apt packages are installed.
#
# Every step prints exactly one line:  systemd-e2e: <step>: ok [detail]
#                                  or  systemd-e2e: <step>: FAIL <detail>
# Steps, container 1 (units installed from systemd/ by hand, test drop-in, private gpsd; after
# `readonly-root` the root file system is read-only, as on a Pi with overlayroot, except the
# state and cache directories and the tmpfs /run and /tmp):
#   boot install readonly-root logind-delay gps-replay start status-text user gps-fixes trip-service
#   control-socket cli-member reload index-root index-logbook index-member index-other watchdog
#   journal-recovery stop cli-stopped index-after-stop journal-fields
# Container 2 (the .deb built by scripts/build-deb.sh from the same binaries):
#   deb-build deb-lintian deb-manuals deb-boot deb-install deb-first-run deb-web deb-upgrade deb-purge
#
# Environment:
#   LOGBOOK_BIN_DIR           build dir with logbookd/logbook (arg 1 wins)
#   LOGBOOK_E2E_ALLOW_FAIL    comma-separated steps whose FAIL does not fail the run, e.g.
#                             "trip-service,journal-fields" while the trip feature is not merged
#   LOGBOOK_E2E_SKIP_DEB=1    skip the package steps
#   LOGBOOK_E2E_ONLY_DEB=1    only the package steps (container 2)
#   LOGBOOK_GPSREPLAY         replay script (default scripts/gpsreplay.py)
#   LOGBOOK_E2E_GPSLOG        NMEA log to replay (default fixtures/gpslogs/20100403_Z205_Switzerland.txt)
#   LOGBOOK_E2E_KEEP_LOGS=DIR copy the containers' journals there before teardown
#
# Exit: 0 all steps ok (or allowed to fail) or SKIP (namespaces unavailable); 1 a step
# failed; 2 usage/setup error. Nothing is left on the host: the containers' mounts live in
# their own mount namespaces, the scratch dirs and cgroups are removed, and only processes
# this script started (by PID) are killed.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BIN_DIR=$(cd "${1:-${LOGBOOK_BIN_DIR:-$ROOT/.build/release}}" 2>/dev/null && pwd) || BIN_DIR=${1:-${LOGBOOK_BIN_DIR:-$ROOT/.build/release}}
GPSLOG=${LOGBOOK_E2E_GPSLOG:-$ROOT/fixtures/gpslogs/20100403_Z205_Switzerland.txt}
GPSREPLAY=${LOGBOOK_GPSREPLAY:-$ROOT/scripts/gpsreplay.py}
GPS_PORT=29470          # inside the container's private network namespace
WATCHDOG_TEST_SEC=6     # shortened by the test drop-in so the watchdog step takes ~10 s
ALLOW_FAIL=",${LOGBOOK_E2E_ALLOW_FAIL:-},"

# shellcheck source-path=SCRIPTDIR source=e2e/container.sh
. "$HERE/e2e/container.sh"

FAILED=(); ALLOWED=(); T_START=$(date +%s%N); WD_NEW_PID=0
ok()   { echo "systemd-e2e: $1: ok${2:+ $2}"; }
fail() {
  echo "systemd-e2e: $1: FAIL $2"
  if [[ $ALLOW_FAIL == *",$1,"* ]]; then ALLOWED+=("$1"); else FAILED+=("$1"); fi
}
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# Value of one systemctl property inside the container.
prop() { ct systemctl show -P "$2" "$1" 2>/dev/null || true; }
# Run as an unprivileged user inside the container.
as_user() { local u=$1; shift; ct runuser -u "$u" -- "$@"; }

EXTRA_DIRS=()   # scratch dirs of this script, removed on exit
cleanup() {
  local rc=$?
  ct_teardown
  if [ ${#EXTRA_DIRS[@]} -gt 0 ]; then rm -rf "${EXTRA_DIRS[@]}"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------------ preconditions
# Installs the few Debian packages the test needs; apt-get update only once, only if needed.
ensure_packages() {
  local missing=() p
  for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p"); done
  [ ${#missing[@]} = 0 ] && return 0
  echo "systemd-e2e: installing ${missing[*]}"
  timeout 600 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq "${missing[@]}" >/dev/null
}

preflight() {
  local why
  if ! why=$(ct_can_boot); then echo "systemd-e2e: SKIP $why"; exit 0; fi
  ensure_packages util-linux gpsd python3-gps dpkg-dev || { echo "systemd-e2e: setup: FAIL cannot install packages"; exit 2; }
  local f
  for f in logbookd logbook; do
    [ -x "$BIN_DIR/$f" ] || { echo "systemd-e2e: setup: FAIL $BIN_DIR/$f missing (build with: scripts/build-release.sh)"; exit 2; }
  done
  if [ ! -f "$GPSREPLAY" ] && [ -z "${LOGBOOK_GPSREPLAY:-}" ] && [ -f /work/shared/tools/gpsreplay.py ]; then
    GPSREPLAY=/work/shared/tools/gpsreplay.py   # development fallback until scripts/gpsreplay.py is merged
  fi
  [ -f "$GPSREPLAY" ] || { echo "systemd-e2e: setup: FAIL no replay script ($GPSREPLAY)"; exit 2; }
  [ -f "$GPSLOG" ] || { echo "systemd-e2e: setup: FAIL no GPS log ($GPSLOG)"; exit 2; }
  echo "systemd-e2e: binaries from $BIN_DIR ($(file -b "$BIN_DIR/logbookd" 2>/dev/null | cut -d, -f1-2 || echo '?'))"
}

# ------------------------------------------------------------------ container 1 steps
boot() {   # $1 = step name
  if ct_boot "$1"; then ok "$1" "systemd $(ct systemctl --version | awk 'NR==1{print $2}') as PID 1 (host pid $CT_PID1) in ${CT_BOOT_MS} ms"
  else fail "$1" "container did not boot"; return 1; fi
}

# Installs what the package would, by hand, plus the test drop-in and two test users.
install_units() {
  local s=$CT_SHARE
  mkdir -p "$s/bin" "$s/units"
  cp "$BIN_DIR/logbookd" "$BIN_DIR/logbook" "$s/bin/"
  cp -r "$ROOT/systemd/." "$s/units/"
  cp "$GPSREPLAY" "$s/gpsreplay.py"; cp "$GPSLOG" "$s/gps.log"
  cp "$HERE/e2e/sockprobe.py" "$HERE/e2e/check.py" "$s/"
  # The unit's own ExecStart runs unchanged; the test config points it at the private gpsd.
  cat > "$s/logbookd.toml" <<EOF
# systemd-e2e.sh test configuration: private gpsd; a "service" source, i.e. the trip spans
# the daemon's life (what vehicle-ignition.target starting logbookd means).
[gpsd]
address = "127.0.0.1:$GPS_PORT"

[[vehicle]]
id = "e2e"
name = "E2E test car"

[[source]]
type = "service"
vehicle = "e2e"

# The replayed drive is dated years ahead (gpsd's 1024-week rule): judge fixes by the fixes,
# not by the container's (synchronised) clock.
[trip]
trust_system_clock = false
EOF
  cat > "$s/e2e.conf" <<EOF
# systemd-e2e.sh test drop-in: stall hook for the watchdog step, short watchdog.
[Service]
Environment=LOGBOOKD_DEBUG_STALL_SIGNAL=1
WatchdogSec=${WATCHDOG_TEST_SEC}s
EOF
  # shellcheck disable=SC2016  # runs inside the container
  if out=$(ct bash -euc '
      install -m 0755 /mnt/e2e/bin/logbookd /mnt/e2e/bin/logbook /usr/bin/
      u=/mnt/e2e/units
      install -m 0644 $u/logbookd.service $u/vehicle-ignition.target /lib/systemd/system/
      install -D -m 0644 $u/sysusers.d/logbook.conf /usr/lib/sysusers.d/logbook.conf
      install -D -m 0644 $u/tmpfiles.d/logbook.conf /usr/lib/tmpfiles.d/logbook.conf
      install -D -m 0644 $u/logind.conf.d/50-logbook.conf /usr/lib/systemd/logind.conf.d/50-logbook.conf
      install -D -m 0644 /mnt/e2e/logbookd.toml /etc/logbook/logbookd.toml
      install -D -m 0644 /mnt/e2e/e2e.conf /etc/systemd/system/logbookd.service.d/e2e.conf
      systemd-sysusers logbook.conf
      systemd-tmpfiles --create logbook.conf
      useradd -M -G logbook e2emember; useradd -M e2eother
      systemctl daemon-reload' 2>&1); then
    ok install "binaries, units, sysusers, tmpfiles, test config + drop-in; users e2emember (group logbook), e2eother"
  else fail install "$(tail -3 <<<"$out" | tr '\n' ' ')"; return 1; fi
}

# As on a Pi with overlayroot=tmpfs:recurse=0 and a data partition (docs/install-pi.md): `/`
# read-only; the state and the cache on file systems of their own (tmpfs here); /run and
# /tmp tmpfs. Every later step of this container runs so: the daemon, systemd and the CLI
# must write nowhere else. (The reload step edits the configuration as an admin would on
# such a Pi, through a writable moment of the root: `ct_rw`.)
readonly_root() {
  local out probe
  # shellcheck disable=SC2016  # runs inside the container
  if out=$(ct bash -euc '
      for d in /var/lib/logbook /var/cache/logbook /var/tmp; do mkdir -p "$d"; mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs "$d"; done
      chmod 1777 /var/tmp
      systemd-tmpfiles --create logbook.conf
      mount -o remount,ro /' 2>&1); then
    probe=$(ct touch /etc/logbook/e2e-ro-probe 2>&1 || true)
    if [[ $probe == *"Read-only file system"* ]] && ct touch /var/lib/logbook/.e2e-rw && ct rm /var/lib/logbook/.e2e-rw; then
      ok readonly-root "/ remounted read-only (touch /etc/logbook/…: Read-only file system); writable: /var/lib/logbook, /var/cache/logbook, /var/tmp (tmpfs), /run, /tmp"
    else fail readonly-root "write probe: '${probe:-touch succeeded}'"; return 1; fi
  else fail readonly-root "$(tail -3 <<<"$out" | tr '\n' ' ')"; return 1; fi
}
# Runs a command inside the container with the root writable for its duration.
ct_rw() { ct mount -o remount,rw / && { "$@"; local rc=$?; ct mount -o remount,ro /; return $rc; }; }

# The logind drop-in must raise InhibitDelayMaxSec (default 5 s) to 30 s. logind reads it
# at start; in the container it is already running, so restart it there.
logind_delay() {
  local v
  ct systemctl restart systemd-logind.service >/dev/null 2>&1 || true
  v=$(ct busctl get-property org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager InhibitDelayMaxUSec 2>&1 || true)
  if [ "$v" = "t 30000000" ]; then ok logind-delay "logind InhibitDelayMaxUSec=30000000 from 50-logbook.conf"
  else fail logind-delay "logind InhibitDelayMaxUSec: '$v' (want t 30000000)"; fi
}

# gpsd replaying the log, as a transient unit inside the container (loopback only).
gps_replay() {
  local _
  # The log spans 177 min, i.e. 3.5 min at 50x: longer than the whole test. Restart=always
  # replays it again should a slow machine get there.
  ct systemd-run --quiet --unit=e2e-gpsreplay -p PrivateTmp=yes -p Restart=always -p RestartSec=0 \
     /usr/bin/python3 /mnt/e2e/gpsreplay.py --tcp --realtime 50 --port "$GPS_PORT" /mnt/e2e/gps.log >/dev/null 2>&1 || true
  for _ in $(seq 1 100); do
    if ct bash -c "exec 3<>/dev/tcp/127.0.0.1/$GPS_PORT" 2>/dev/null; then
      ok gps-replay "gpsd replaying $(basename "$GPSLOG") at 50x on 127.0.0.1:$GPS_PORT"; return 0; fi
    sleep 0.1
  done
  fail gps-replay "gpsd not listening on $GPS_PORT: $(ct journalctl -u e2e-gpsreplay --no-pager -o cat | tail -3 | tr '\n' ' ')"
}

start_target() {
  local t0 rc=0 d st main ready_ms
  t0=$(date +%s%N)
  CT_TIMEOUT=90 ct systemctl start vehicle-ignition.target 2>/dev/null || rc=$?
  d=$(ms_since "$t0")
  st="$(prop logbookd.service ActiveState)/$(prop logbookd.service SubState)"
  main=$(prop logbookd.service MainPID)
  # Type=notify: ActiveEnter (READY=1 received) minus ExecMainStart = time to READY=1.
  ready_ms=$(( ($(prop logbookd.service ActiveEnterTimestampMonotonic) - $(prop logbookd.service ExecMainStartTimestampMonotonic)) / 1000 ))
  if [ "$rc" = 0 ] && [ "$st" = active/running ] && [ "$(prop vehicle-ignition.target ActiveState)" = active ]; then
    ok start "vehicle-ignition.target pulled logbookd: active (running) pid $main, READY=1 ${ready_ms} ms after exec, start returned in ${d} ms"
  else
    fail start "rc=$rc logbookd=$st result=$(prop logbookd.service Result) after ${d} ms: $(ct journalctl -u logbookd --no-pager -o cat | tail -4 | tr '\n' ' ')"
    return 1
  fi
}

status_text() {
  local txt line _
  for _ in $(seq 1 20); do txt=$(prop logbookd.service StatusText); [ -n "$txt" ] && break; sleep 0.25; done
  line=$(ct systemctl status logbookd.service --no-pager 2>/dev/null | grep -m1 'Status: "' || true)
  if [ -n "$txt" ] && [ -n "$line" ]; then ok status-text "systemctl status shows${line#*Status:} "
  else fail status-text "no STATUS= line (StatusText='$txt')"; fi
}

run_user() {
  local pid uid user groups
  pid=$(prop logbookd.service MainPID)
  # shellcheck disable=SC2016  # awk program
  uid=$(ct awk '/^Uid:/{print $2}' "/proc/$pid/status" 2>/dev/null || true)
  user=$(ct getent passwd "$uid" | cut -d: -f1 || true)
  # shellcheck disable=SC2016  # awk program
  groups=$(ct awk '/^Groups:/{for(i=2;i<=NF;i++) print $i}' "/proc/$pid/status" 2>/dev/null | while read -r g; do ct getent group "$g" | cut -d: -f1; done | tr '\n' ' ')
  if [ "$user" = logbook ]; then ok user "MainPID $pid runs as logbook (uid $uid), supplementary groups: ${groups:-none}"
  else fail user "MainPID $pid runs as '${user:-?}' (uid ${uid:-?})"; fi
}

# The daemon's state as a group member sees it: `logbook status --json`, or (source=live)
# the live.json contract file itself, which does not depend on the CLI.
status_json() {
  if [ "${1:-cli}" = live ]; then as_user e2emember cat /run/logbook/live.json 2>/dev/null || true
  else as_user e2emember logbook status --json 2>/dev/null || true; fi
}

# Repeats a check.py mode on the status JSON until ok or the deadline. Falls back to
# live.json when the CLI gives nothing, and says so.
poll_status() {
  local mode=$1 secs=$2 src=${3:-cli} res='' json='' note=''
  local end=$(( $(date +%s) + secs ))
  while :; do
    json=$(status_json "$src")
    if [ -z "$json" ] && [ "$src" = cli ]; then json=$(status_json live); note=" (from live.json: \`logbook status --json\` gave nothing)"; else note=; fi
    res=$(ct /usr/bin/python3 /mnt/e2e/check.py "$mode" <<<"$json" 2>&1 || true)
    [[ $res == ok* ]] && break
    [ "$(date +%s)" -ge "$end" ] && break
    sleep 0.5
  done
  echo "$res$note"
}

gps_fixes() {
  local res; res=$(poll_status fixes 20 live)
  if [[ $res == ok* ]]; then ok gps-fixes "${res#ok }"; else fail gps-fixes "${res#fail }"; fi
}

trip_service() {
  local res; res=$(poll_status trip 10)
  if [[ $res == ok* ]]; then ok trip-service "${res#ok }"; else fail trip-service "${res#fail }"; fi
}

control_socket() {
  local sock=/run/logbook/control.sock meta member other
  meta=$(ct stat -c '%F %a %U:%G' "$sock" 2>/dev/null || echo missing)
  other=$(as_user e2eother /usr/bin/python3 /mnt/e2e/sockprobe.py "$sock" 2>&1 || true)
  member=$(as_user e2emember /usr/bin/python3 /mnt/e2e/sockprobe.py "$sock" 2>&1 || true)
  if [[ $meta == socket\ 660\ *:logbook ]] && [ "$other" = "ERR EACCES" ] && [[ $member == OK\ \{* ]]; then
    ok control-socket "$sock is $meta; non-member e2eother: EACCES; member e2emember: got a JSON reply"
  else
    fail control-socket "$sock is '$meta' (want socket 660 *:logbook); non-member: '$other' (want ERR EACCES); member: '${member:0:120}'"
  fi
}

cli_member() {
  local out rc=0
  out=$(as_user e2emember logbook status 2>&1) || rc=$?
  if [ "$rc" = 0 ]; then ok cli-member "\`logbook status\` as e2emember: rc 0: $(head -2 <<<"$out" | tr '\n' ' ' | cut -c1-120)"
  else fail cli-member "\`logbook status\` as e2emember: rc $rc: $(tr '\n' ' ' <<<"$out" | cut -c1-200)"; fi
}

# `systemctl reload` through real systemd while the trip runs: ExecReload sends SIGHUP, the
# daemon re-reads the config (a new vehicle name here), same process, same trip.
reload() {
  local p0 p1 before after t0 d rc=0 _ line
  p0=$(prop logbookd.service MainPID)
  before=$(ct /usr/bin/python3 -c "$LIVE_TRIP" 2>/dev/null || true)
  ct_rw ct sed -i 's/^name = "E2E test car"/name = "E2E reloaded"/' /etc/logbook/logbookd.toml
  t0=$(date +%s%N)
  ct systemctl reload logbookd.service || rc=$?
  d=$(ms_since "$t0")
  for _ in $(seq 1 40); do
    after=$(ct /usr/bin/python3 -c "$LIVE_TRIP" 2>/dev/null || true)
    [[ $after == *"E2E reloaded" ]] && break
    sleep 0.25
  done
  p1=$(prop logbookd.service MainPID)
  line=$(ct journalctl -u logbookd.service --no-pager -o cat | grep -m1 'configuration reloaded' || true)
  if [ "$rc" = 0 ] && [ "$p0" = "$p1" ] && [ "$(prop logbookd.service ActiveState)" = active ] \
     && [ -n "$before" ] && [ "${before%% *}" = "${after%% *}" ] && [[ $after == *"E2E reloaded" ]] && [ -n "$line" ]; then
    ok reload "systemctl reload took ${d} ms; same pid $p1; trip ${after%% *} goes on, vehicle now '${after#* }'; log: $line"
  else
    fail reload "rc=$rc after ${d} ms; pid $p0 -> $p1; trip before '$before' after '$after'; log: '${line:-none}'"
  fi
}
LIVE_TRIP='import json; t = json.load(open("/run/logbook/live.json"))["trip"] or {}; print(t.get("id"), (t.get("vehicle") or {}).get("name"))'

watchdog() {
  local n0 p0 n1 p1 st t0 _ d
  n0=$(prop logbookd.service NRestarts); p0=$(prop logbookd.service MainPID)
  t0=$(date +%s%N)
  ct systemctl kill --kill-who=main --signal=SIGUSR1 logbookd.service
  # watchdog timeout + SIGABRT + RestartSec=2 + READY=1 again
  for _ in $(seq 1 160); do
    n1=$(prop logbookd.service NRestarts); p1=$(prop logbookd.service MainPID)
    st="$(prop logbookd.service ActiveState)/$(prop logbookd.service SubState)"
    [ "$n1" -gt "$n0" ] && [ "$st" = active/running ] && [ "$p1" != "$p0" ] && break
    sleep 0.25
  done
  d=$(ms_since "$t0"); WD_NEW_PID=$p1
  if [ "$n1" -gt "$n0" ] && [ "$p1" != "$p0" ] && [ "$st" = active/running ] \
     && ct journalctl -u logbookd.service --no-pager -o cat | grep -q 'Watchdog timeout'; then
    ok watchdog "SIGUSR1 stalled pid $p0 -> 'Watchdog timeout' -> restarted as pid $p1, NRestarts $n0 -> $n1, active again after ${d} ms"
  else
    fail watchdog "after ${d} ms: NRestarts $n0 -> $n1, MainPID $p0 -> $p1, $st; $(ct journalctl -u logbookd --no-pager -o cat | grep -E 'Watchdog|Main process' | tail -2 | tr '\n' ' ')"
  fi
}

# After the SIGABRT the journal must recover: daemon READY again (checked above), status
# served, and `logbook verify` accepts the journal (run as a group member: read-only).
# The trip open at the abort must be closed by recovery (reason "recovered", docs/journal.md).
journal_recovery() {
  local out rc=0 st rec
  st=$(status_json | head -c 200); [ -n "$st" ] || st=$(status_json live | head -c 200)
  rec=$( { ct journalctl -u logbookd.service "_PID=$WD_NEW_PID" -o json --no-pager 2>/dev/null; status_json live; } \
        | ct /usr/bin/python3 /mnt/e2e/check.py recovered 2>&1 || true)
  out=$(CT_TIMEOUT=60 as_user e2emember logbook verify 2>&1) || rc=$?
  if [ "$rc" = 0 ] && [ -n "$st" ] && [[ $rec == ok* ]]; then
    ok journal-recovery "${rec#ok }; \`logbook verify\` rc 0: $(tail -1 <<<"$out" | cut -c1-120)"
  else
    fail journal-recovery "logbook verify rc $rc: $(tail -2 <<<"$out" | tr '\n' ' ' | cut -c1-160); recovery: ${rec#fail }; status: ${st:0:80}"
  fi
}

stop_service() {
  local t0 d rc=0 st res
  t0=$(date +%s%N)
  ct systemctl stop logbookd.service || rc=$?
  d=$(ms_since "$t0")
  st=$(prop logbookd.service ActiveState); res=$(prop logbookd.service Result)
  if [ "$rc" = 0 ] && [ "$st" = inactive ] && [ "$res" = success ] && [ "$d" -le 2000 ] && ! ct test -e /run/logbook; then
    ok stop "systemctl stop took ${d} ms (limit 2000), Result=success, /run/logbook removed"
  else
    fail stop "rc=$rc after ${d} ms (limit 2000), ActiveState=$st Result=$res ExecMainStatus=$(prop logbookd.service ExecMainStatus), /run/logbook $(ct test -e /run/logbook && echo left behind || echo removed)"
  fi
}

# With the daemon stopped, /run/logbook is gone: the CLI must say "daemon unreachable" (69)
# rather than show a stale live.json.
cli_stopped() {
  local out rc=0
  out=$(as_user e2emember logbook status 2>&1) || rc=$?
  if [ "$rc" = 69 ]; then ok cli-stopped "\`logbook status\` with the daemon stopped: rc 69 (unreachable)"
  else fail cli-stopped "\`logbook status\` with the daemon stopped: rc $rc (want 69): $(tr '\n' ' ' <<<"$out" | cut -c1-160)"; fi
}

journal_fields() {
  local res
  res=$(ct journalctl -b -u logbookd.service -o json --no-pager 2>/dev/null | ct /usr/bin/python3 /mnt/e2e/check.py journal 2>&1 || true)
  if [[ $res == ok* ]]; then ok journal-fields "${res#ok }"; else fail journal-fields "${res#fail }"; fi
}

# ------------------------------------------------------------------ the trip index
# /var/cache/logbook/index.sqlite is a rebuildable cache the CLI (and later the web app) opens
# and catches up itself: whoever comes first creates it, and root, the daemon's user and a
# member of group logbook must all be able to use it afterwards, without sudo.
INDEX=/var/cache/logbook/index.sqlite
# "mode owner:group" of a path in the container, or "missing".
ct_stat() { ct stat -c '%a %U:%G' "$1" 2>/dev/null || echo missing; }
# Number of trips in `logbook trips list --json` output on stdin (or "bad json").
count_trips() { ct /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)["trips"]))' 2>/dev/null || echo "bad json"; }

index_root() {
  local out rc=0 dir file n
  # The trip's start record is on disk after the journal's first group commit (up to
  # commit_interval_s after the start): until then the index has nothing to show.
  for _ in $(seq 30); do
    rc=0; out=$(ct logbook trips list --json 2>&1) || rc=$?
    n=$(count_trips <<<"$out")
    [ "$n" -ge 1 ] 2>/dev/null && break
    sleep 0.5
  done
  dir=$(ct_stat /var/cache/logbook); file=$(ct_stat "$INDEX")
  if [ "$rc" = 0 ] && [ "$dir" = "2770 logbook:logbook" ] && [ "$file" = "660 logbook:logbook" ] && [ "$n" -ge 1 ] 2>/dev/null; then
    ok index-root "root ran \`logbook trips list\` first: rc 0, $n trip(s); /var/cache/logbook $dir, index.sqlite $file (handed to the directory's owner)"
  else fail index-root "rc $rc trips '$n'; /var/cache/logbook '$dir' (want 2770 logbook:logbook); index.sqlite '$file' (want 660 logbook:logbook): $(head -c 200 <<<"$out")"; fi
}

index_logbook() {
  local out rc=0 wal shm
  out=$(as_user logbook logbook trips list 2>&1) || rc=$?
  wal=$(ct_stat "$INDEX-wal"); shm=$(ct_stat "$INDEX-shm")
  if [ "$rc" = 0 ] && [[ $wal == "660 logbook:logbook" || $wal == missing ]] && [[ $shm == "660 logbook:logbook" || $shm == missing ]]; then
    ok index-logbook "as logbook (the daemon's user): rc 0: $(tail -1 <<<"$out"); -wal $wal, -shm $shm"
  else fail index-logbook "as logbook: rc $rc: $(tr '\n' ' ' <<<"$out" | cut -c1-160); -wal '$wal' -shm '$shm'"; fi
}

index_member() {
  local out rc=0 show rc2=0 id
  out=$(as_user e2emember logbook trips list --json 2>&1) || rc=$?
  id=$(ct /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["trips"][0]["id"])' <<<"$out" 2>/dev/null || echo "?")
  show=$(as_user e2emember logbook trips show "$id" 2>&1) || rc2=$?
  if [ "$rc" = 0 ] && [ "$rc2" = 0 ] && grep -q 'service: logbookd started' <<<"$show"; then
    ok index-member "as e2emember (group logbook): trips list rc 0, trips show $id rc 0: $(grep -m1 '^Started' <<<"$show" | cut -c1-100)"
  else fail index-member "as e2emember: list rc $rc, show $id rc $rc2: $(tr '\n' ' ' <<<"$out$show" | cut -c1-200)"; fi
}

index_other() {
  local out rc=0
  out=$(as_user e2eother logbook trips list 2>&1) || rc=$?
  if [ "$rc" = 1 ] && grep -q 'Permission denied' <<<"$out" && [ "$(wc -l <<<"$out")" = 1 ]; then
    ok index-other "as e2eother (not in group logbook): rc 1, one line: $out"
  else fail index-other "as e2eother: rc $rc (want 1 and one line naming the permission problem): $(tr '\n' ' ' <<<"$out" | cut -c1-200)"; fi
}

# After the watchdog restart and the stop: the index catches up across the new segments and
# holds the trip the restart closed ("recovered") and the one the stop closed ("shutdown").
index_after_stop() {
  local out rc=0 ends
  out=$(as_user e2emember logbook trips list --json 2>&1) || rc=$?
  ends=$(ct /usr/bin/python3 -c 'import json,sys; print(" ".join(sorted(set(str(t["end_reason"]) for t in json.load(sys.stdin)["trips"]))))' <<<"$out" 2>/dev/null || echo "?")
  if [ "$rc" = 0 ] && [[ " $ends " == *" shutdown "* ]] && [[ " $ends " == *" recovered "* ]]; then
    ok index-after-stop "as e2emember after the restart and the stop: rc 0, end reasons: $ends"
  else fail index-after-stop "rc $rc, end reasons '$ends' (want recovered and shutdown): $(head -c 200 <<<"$out")"; fi
}

# ------------------------------------------------------------------ container 2: the .deb
DEB1=; DEB2=
deb_build() {
  local d=$CT_SCRATCH_DEB out
  out=$( { "$ROOT/scripts/build-deb.sh" --bin-dir "$BIN_DIR" --version 0.0.1~e2e1 --compress gzip --out "$d" \
        && "$ROOT/scripts/build-deb.sh" --bin-dir "$BIN_DIR" --version 0.0.1~e2e2 --compress gzip --out "$d"; } 2>&1) \
    || { fail deb-build "$(tail -3 <<<"$out" | tr '\n' ' ')"; return 1; }
  DEB1=$(ls "$d"/logbook_0.0.1~e2e1_*.deb); DEB2=$(ls "$d"/logbook_0.0.1~e2e2_*.deb)
  ok deb-build "$(basename "$DEB1") $(( $(stat -c %s "$DEB1") / 1024 )) KiB, $(basename "$DEB2")"
}

# lintian on the package: no error; the warnings are the ones the README lists and justifies
# (anything else fails, so a new warning is either fixed or justified there).
LINTIAN_ACCEPTED="non-standard-dir-perm"
deb_lintian() {
  local out tags errors unexpected
  if ! command -v lintian >/dev/null; then fail deb-lintian "lintian missing (scripts/install-deps.sh)"; return; fi
  out=$(lintian --no-cfg --allow-root --display-level ">=warning" "$DEB1" 2>&1 || true)
  errors=$(grep -c '^E: ' <<<"$out" || true)
  tags=$(sed -n 's/^[EW]: [^ ]*: \([^ ]*\).*/\1/p' <<<"$out" | sort -u | tr '\n' ' ')
  unexpected=$(for t in $tags; do [[ " $LINTIAN_ACCEPTED " == *" $t "* ]] || printf '%s ' "$t"; done)
  if [ "$errors" = 0 ] && [ -z "$unexpected" ]; then
    ok deb-lintian "lintian $(lintian --version | awk '{print $2}'): 0 errors; warnings (justified in the README): ${tags:-none}"
  else
    fail deb-lintian "$errors errors, unlisted warnings: ${unexpected:-none}: $(grep -E '^[EW]: ' <<<"$out" | head -8 | tr '\n' ' ')"
  fi
}

# The man pages and completions the package carries (scripts/build-manuals.sh): present, each
# page renders with `man -l` and no groff warning, and bash completes a subcommand from the
# installed script (through the function it registers for `logbook`).
DEB_DOC_FILES="usr/share/man/man1/logbook.1.gz usr/share/man/man8/logbookd.8.gz usr/share/man/man8/logbook-uplink.8.gz
  usr/share/man/man8/logbook-web.8.gz usr/share/bash-completion/completions/logbook
  usr/share/zsh/vendor-completions/_logbook usr/share/fish/vendor_completions.d/logbook.fish"
deb_manuals() {
  local x=$CT_SCRATCH_DEB/manuals f missing="" problems="" page text warnings fn words
  rm -rf "$x"; mkdir -p "$x"; dpkg-deb -x "$DEB1" "$x"
  for f in $DEB_DOC_FILES; do [ -s "$x/$f" ] || missing+="/$f "; done
  for page in man1/logbook.1.gz:'Export trips as GPX' man8/logbookd.8.gz:'--state-dir' man8/logbook-uplink.8.gz:'--journal-dir' \
      man8/logbook-web.8.gz:'--listen'; do
    f=$x/usr/share/man/${page%%:*}
    [ -s "$f" ] || continue
    warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null)
    text=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$f" 2>/dev/null)
    [ -z "$warnings" ] || problems+="${page%%:*} warns: $(head -2 <<<"$warnings" | tr '\n' ' ') "
    grep -q '^NAME' <<<"$text" && grep -qF -- "${page#*:}" <<<"$text" || problems+="${page%%:*} lacks NAME or '${page#*:}' "
  done
  # shellcheck disable=SC2016  # expanded by the inner bash
  words=$(bash -c 'source "$1" || exit 1; fn=$(complete -p logbook | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
    COMP_WORDS=(logbook tr); COMP_CWORD=1; COMP_LINE="logbook tr"; COMP_POINT=${#COMP_LINE}
    "$fn" logbook tr logbook; echo "$fn: ${COMPREPLY[*]}"' _ "$x/usr/share/bash-completion/completions/logbook" 2>&1)
  [[ "$words" == *": trip trips" ]] || problems+="bash completion of 'logbook tr': '$words' (want trip trips) "
  if [ -z "$missing$problems" ]; then
    ok deb-manuals "logbook.1, logbookd.8, logbook-uplink.8, logbook-web.8 render without warnings; bash, zsh and fish completions; bash completes 'logbook tr' to: ${words#*: }"
  else fail deb-manuals "missing: ${missing:-none}; ${problems}"; fi
}

deb_install() {
  local out rc=0 st en u conf
  cp "$DEB1" "$DEB2" "$CT_SHARE/"
  # CI images (docker-style) ship a policy-rc.d that forbids starting services; a Pi does
  # not. Remove it in the container's overlay so the postinst start/restart is exercised.
  ct rm -f /usr/sbin/policy-rc.d
  out=$(CT_TIMEOUT=120 ct env DEBIAN_FRONTEND=noninteractive dpkg -i "/mnt/e2e/$(basename "$DEB1")" 2>&1) || rc=$?
  st=$(prop logbookd.service ActiveState); en=$(ct systemctl is-enabled logbookd.service 2>/dev/null || true)
  u=$(ct id -un logbook 2>/dev/null || true); conf=$(ct test -f /etc/logbook/logbookd.toml && echo yes || echo no)
  if [ "$rc" = 0 ] && [ "$st" = active ] && [ "$en" = enabled ] && [ "$u" = logbook ] && [ "$conf" = yes ]; then
    ok deb-install "dpkg -i rc 0; user logbook created; logbookd.service $en and $st; /etc/logbook/logbookd.toml present"
  else
    fail deb-install "dpkg -i rc $rc; user='$u' service=$en/$st conffile=$conf: $(tail -3 <<<"$out" | tr '\n' ' ')"
  fi
}

# ── web: the packaged logbook-web under real systemd: its user, its sandbox, the daemon's
# socket and live.json, the index cache. Fetches / and /api/live from inside the container.
deb_web() {
  local st groups home="" live="" trips="" i
  ct systemctl start logbook-web.service >/dev/null 2>&1 || true
  fetch() { ct python3 -c 'import sys, urllib.request as u
r = u.urlopen("http://127.0.0.1:8080" + sys.argv[1], timeout=5); print(r.status, r.read().decode()[:120].replace("\n", " "))' "$1" 2>/dev/null; }
  for i in $(seq 50); do home=$(fetch /) && break; sleep 0.2; done
  live=$(fetch /api/live || true); trips=$(fetch "/api/trips?limit=1" || true)
  st=$(prop logbook-web.service ActiveState); groups=$(ct id -nG logbook-web 2>/dev/null || true)
  if [ "$st" = active ] && [[ "$home" == "200 "* ]] && [[ "$live" == "200 {\"schema\":1"* ]] && [[ "$trips" == "200 {\"trips\""* ]] \
     && [[ " $groups " == *" logbook "* ]]; then
    ok deb-web "logbook-web.service active as logbook-web ($groups): / 200, /api/live ${live:4:40}…, /api/trips 200"
  else
    fail deb-web "service $st, groups '$groups'; / '${home:0:60}'; /api/live '${live:0:60}'; /api/trips '${trips:0:60}': $(ct journalctl SYSLOG_IDENTIFIER=logbook-web -o cat --no-pager -n 3 2>/dev/null | tr '\n' ' ' | cut -c1-300)"
  fi
}

# ── first run: the package as shipped records a drive. The user does what docs/install-pi.md
# says (joins group logbook, runs `logbook doctor`), drives, stops the trip and lists it. gpsd
# is the one the shipped config names (127.0.0.1:2947): the stock socket-activated gpsd is
# stopped and a replay of the drive, dated today, listens there instead (the shipped config
# trusts the synchronised clock, so an old log's fixes would be refused as future ones).
deb_first_run() {
  local t0 live="" dist=0 doctor drc=0 stop src=0 list="" row="" i
  cp "$GPSREPLAY" "$CT_SHARE/gpsreplay.py"; cp "$GPSLOG" "$CT_SHARE/gps.log"
  ct useradd -m -G logbook pi >/dev/null 2>&1 || true
  ct systemctl stop gpsd.socket gpsd.service >/dev/null 2>&1 || true
  t0=$(date +%s%N)
  ct systemd-run --quiet --unit=e2e-firstrun-gps -p PrivateTmp=yes /usr/bin/python3 /mnt/e2e/gpsreplay.py \
     --tcp --realtime 1 --start-line 700 --shift-to-now --port 2947 /mnt/e2e/gps.log >/dev/null 2>&1 || true
  # The trip the service source opened, once it has 300 m of the drive: from packet 700 the car
  # is on the motorway at about 27 m/s (from the start of the log it took 47 s), so seconds.
  for i in $(seq 1 360); do
    live=$(as_user pi cat /run/logbook/live.json 2>/dev/null || true)
    dist=$(ct /usr/bin/python3 -c 'import json,sys; t=json.load(sys.stdin).get("trip") or {}
print(int(t.get("distance_m") or 0) if t.get("active") and (t.get("vehicle") or {}).get("id") == "car" else 0)' <<<"$live" 2>/dev/null || echo 0)
    [ "$dist" -ge 300 ] && break
    sleep 0.5
  done
  doctor=$(as_user pi logbook doctor 2>&1) || drc=$?
  stop=$(as_user pi logbook trip stop 2>&1) || src=$?
  for i in $(seq 1 60); do
    list=$(as_user pi logbook trips list --json 2>/dev/null || true)
    row=$(ct /usr/bin/python3 -c 'import json,sys
for t in json.load(sys.stdin)["trips"]:
    if (t.get("vehicle") or {}).get("id") == "car" and t.get("end_reason") == "manual" and t.get("distance_m", 0) >= 300:
        print("trip %s: car, %s, %.0f m, %s points" % (t["id"], t["start_reason"], t["distance_m"], t.get("points", "?"))); break' <<<"$list" 2>/dev/null || true)
    [ -n "$row" ] && break
    sleep 0.5
  done
  ct systemctl stop e2e-firstrun-gps.service >/dev/null 2>&1 || true
  if [ "$dist" -ge 300 ] && [ "$drc" = 0 ] && [ "$src" = 0 ] && [ -n "$row" ]; then
    ok deb-first-run "shipped config, user pi in group logbook: doctor exit 0 ($(grep -c '^ok ' <<<"$doctor") checks ok), 300 m driven after $(( $(ms_since "$t0") / 1000 )) s, trip stop rc 0, trips list: $row"
  else
    fail deb-first-run "distance ${dist} m (want >= 300), doctor rc $drc: $(grep -v '^ok ' <<<"$doctor" | tr '\n' ' ' | cut -c1-400); trip stop rc $src: ${stop:0:80}; trips list: '${row:-no manual trip of car}' $(head -c 200 <<<"$list")"
  fi
}

deb_upgrade() {
  local out rc=0 p0 p1 kept ver st
  ct sh -c 'echo "# e2e local modification" >> /etc/logbook/logbookd.toml'
  p0=$(prop logbookd.service MainPID)
  out=$(CT_TIMEOUT=120 ct env DEBIAN_FRONTEND=noninteractive dpkg -i --force-confdef --force-confold "/mnt/e2e/$(basename "$DEB2")" 2>&1) || rc=$?
  p1=$(prop logbookd.service MainPID); st=$(prop logbookd.service ActiveState)
  kept=$(ct grep -c '^# e2e local modification' /etc/logbook/logbookd.toml 2>/dev/null || true)
  # shellcheck disable=SC2016  # dpkg-query format
  ver=$(ct dpkg-query -W -f='${Version}' logbook 2>/dev/null || true)
  if [ "$rc" = 0 ] && [ "$ver" = 0.0.1~e2e2 ] && [ "$kept" = 1 ] && [ "$st" = active ] && [ "$p1" != "$p0" ]; then
    ok deb-upgrade "0.0.1~e2e1 -> $ver; modified conffile kept; daemon restarted (pid $p0 -> $p1)"
  else
    fail deb-upgrade "rc $rc version=$ver conffile-kept=$kept service=$st pid $p0 -> $p1: $(tail -3 <<<"$out" | tr '\n' ' ')"
  fi
}

deb_purge() {
  local out rc=0 left=()
  ct sh -c 'echo "trip data" > /var/lib/logbook/journal/e2e-user-data'
  out=$(CT_TIMEOUT=120 ct env DEBIAN_FRONTEND=noninteractive dpkg --purge logbook 2>&1) || rc=$?
  local p; for p in /usr/bin/logbookd /usr/bin/logbook-web /lib/systemd/system/logbookd.service /etc/logbook /run/logbook /var/cache/logbook; do
    ct test -e "$p" && left+=("$p"); done
  if [ "$rc" = 0 ] && [ ${#left[@]} = 0 ] && [ "$(prop logbookd.service ActiveState)" = inactive ] \
     && ct test -f /var/lib/logbook/journal/e2e-user-data; then
    ok deb-purge "dpkg --purge rc 0; daemon stopped; binaries, units, /etc/logbook, the index cache removed; recorded trips in /var/lib/logbook kept"
  else
    fail deb-purge "rc $rc; left behind: ${left[*]:-nothing}; service $(prop logbookd.service ActiveState); user data $(ct test -f /var/lib/logbook/journal/e2e-user-data && echo kept || echo DELETED): $(tail -2 <<<"$out" | tr '\n' ' ')"
  fi
}

# ------------------------------------------------------------------ main
preflight

# Steps that need a running daemon; reported as FAIL "not run" when an earlier step broke.
DAEMON_STEPS="status-text user gps-fixes trip-service control-socket cli-member reload index-root index-logbook index-member index-other watchdog journal-recovery stop cli-stopped index-after-stop journal-fields"
not_run() { local s; for s in $2; do fail "$s" "not run ($1)"; done; }
if [ "${LOGBOOK_E2E_ONLY_DEB:-0}" = 1 ]; then :
elif boot boot; then
  if install_units && readonly_root; then
    logind_delay; gps_replay
    if start_target; then
      status_text; run_user; gps_fixes; trip_service; control_socket; cli_member
      reload; index_root; index_logbook; index_member; index_other
      watchdog; journal_recovery; stop_service; cli_stopped; index_after_stop; journal_fields
    else not_run "start failed" "$DAEMON_STEPS"; fi
  else not_run "install or read-only root failed" "logind-delay gps-replay start $DAEMON_STEPS"; fi
else not_run "boot failed" "install readonly-root logind-delay gps-replay start $DAEMON_STEPS"; fi
if [ -n "${LOGBOOK_E2E_KEEP_LOGS:-}" ]; then mkdir -p "$LOGBOOK_E2E_KEEP_LOGS"; ct journalctl -b --no-pager -o short-monotonic > "$LOGBOOK_E2E_KEEP_LOGS/journal-units.log" 2>&1 || true; fi
ct_teardown

if [ "${LOGBOOK_E2E_SKIP_DEB:-0}" != 1 ]; then
  CT_SCRATCH_DEB=$(mktemp -d "${TMPDIR:-/tmp}/logbook-e2e-deb.XXXXXX")
  EXTRA_DIRS+=("$CT_SCRATCH_DEB")
  if deb_build; then
    deb_lintian
    deb_manuals
    if boot deb-boot; then
      deb_install
      deb_first_run
      deb_web
      deb_upgrade; deb_purge
    else not_run "boot failed" "deb-install deb-first-run deb-web deb-upgrade deb-purge"; fi
  else not_run "deb-build failed" "deb-boot deb-install deb-first-run deb-web deb-upgrade deb-purge"; fi
  if [ -n "${LOGBOOK_E2E_KEEP_LOGS:-}" ] && [ -n "$CT_PID1" ]; then ct journalctl -b --no-pager -o short-monotonic > "$LOGBOOK_E2E_KEEP_LOGS/journal-deb.log" 2>&1 || true; fi
  ct_teardown
fi

echo "systemd-e2e: total $(ms_since "$T_START") ms; failed: ${FAILED[*]:-none}; allowed to fail: ${ALLOWED[*]:-none}"
[ ${#FAILED[@]} = 0 ]
