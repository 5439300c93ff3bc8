#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Whole-machine power cuts: a qemu guest runs the release logbookd on a raw ext4 disk image
# (data=ordered, noatime: how a Pi mounts its root) while a gpsd replay on this machine feeds
# it through qemu's user-mode network (the guest's 10.0.2.2 is this machine's loopback). At a
# random moment qemu is killed with SIGKILL: the guest's page cache, and every write qemu had
# not yet handed to the image file, are gone. The next boot checks, inside the guest, that
# `logbook verify` passes, that the journal still holds every record the daemon had printed
# durable on the serial console (`journal committed durable_seq=N open_trips=T`, a debug line
# written after each fdatasync), and that logbookd closes the trip the cut left open
# (`recovered`). docs/journal.md says what this covers and what it does not.
#
#   scripts/powercut-vm.sh [--cuts N] [--seed S] [--writes SECONDS] [--reopen] [--keep DIR]
#
#   --cuts N        power cuts (default 20); a last boot checks the last cut and stops cleanly
#   --seed S        the random moments (default: from the clock; printed, so a run repeats)
#   --writes S      also measure SD-card writes: S seconds of real-time driving on a fresh
#                   disk per setting (LOGBOOK_POWERCUT_WRITES_SETTINGS, default "5:5"; a list
#                   of journal-commit:ext4-commit pairs), scaled to one hour of driving
#   --reopen        also the cranking test: a cut and a quick reboot while the car stands must
#                   give one trip (the daemon reopens it)
#   --keep DIR      keep the console logs and images in DIR
#
# Prints
#   powercut-vm: N cuts, N boots, 0 corrupt, 0 acknowledged lost, N trips recovered
#   powercut-vm: accelerator … , boot to logbookd …
#   powercut-vm: writes: …  (with --writes)    powercut-vm: reopen: … (with --reopen)
# Exit 1 when a check failed. Needs root only to install packages (scripts/install-deps.sh).
# LOGBOOK_BIN_DIR: release binaries built with --static-swift-stdlib (default: built here).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CUTS=20; SEED=$(( $(date +%s) % 100000 )); WRITES=0; REOPEN=0; KEEP=
while [ $# -gt 0 ]; do
    case $1 in
        --cuts) CUTS=$2; shift 2 ;;
        --seed) SEED=$2; shift 2 ;;
        --writes) WRITES=$2; shift 2 ;;
        --reopen) REOPEN=1; shift ;;
        --keep) KEEP=$2; shift 2 ;;
        *) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 64 ;;
    esac
done
RANDOM=$SEED

scripts/install-deps.sh >&2
if [ -z "${LOGBOOK_BIN_DIR:-}" ]; then
    # shellcheck source=scripts/release-flags.sh
    . scripts/release-flags.sh
    for p in logbookd logbook; do
        swift build "${RELEASE_BUILD[@]}" --product "$p" >/dev/null
    done
    LOGBOOK_BIN_DIR=$(swift build -c release --show-bin-path)
fi
VMLINUZ=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -1)
[ -n "$VMLINUZ" ] || { echo "powercut-vm: FAIL no /boot/vmlinuz-*-amd64 (linux-image-amd64)"; exit 2; }
KVER=${VMLINUZ#/boot/vmlinuz-}

WORK=$(mktemp -d /tmp/logbook-powercut.XXXXXX)
PIDS=()
# Kills a loop this script started and the process it runs (parent first, so it reports nothing).
kill_loop() {
    local kids
    kids=$(pgrep -P "$1" || true)
    kill -9 "$1" 2>/dev/null || true
    for k in $kids; do kill -9 "$k" 2>/dev/null || true; done
    wait "$1" 2>/dev/null || true
}
# Ends the gpsd instances the replays started: SIGKILL ends a replay before its own cleanup,
# and gpsd runs on by itself. Each replay printed its gpsd's PID; only a gpsd is killed.
kill_replay_gpsds() {
    local g
    for g in $(sed -n 's/^GPSD_PID=//p' "$WORK/replay.out" 2>/dev/null); do
        [ "$(cat "/proc/$g/comm" 2>/dev/null)" = gpsd ] && kill -9 "$g" 2>/dev/null || true
    done
}
cleanup() {
    local p
    for p in "${PIDS[@]}"; do kill_loop "$p"; done
    kill_replay_gpsds
    if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && cp -r "$WORK"/. "$KEEP"/; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ── the guest: an initramfs (busybox, modules, /init) and a read-only tools disk ──────────
build_guest() {
    local r=$WORK/initramfs t=$WORK/tools m i=0 lib
    mkdir -p "$r"/{bin,proc,sys,dev,run,tmp,opt,lib/modules,lib64,var/lib}
    cp /bin/busybox "$r/bin/busybox"
    for a in $(busybox --list); do [ -e "$r/bin/$a" ] || ln -s busybox "$r/bin/$a"; done
    # virtio disk and network, ext4: modules in dependency order (crc32c-intel may refuse a
    # CPU without SSE4.2; crc32c_generic follows).
    for m in virtio_pci virtio_blk virtio_net ext4; do modprobe -S "$KVER" --show-depends "$m" | awk '$1 == "insmod" {print $2}'; done \
        | awk '!seen[$0]++' | while read -r m; do i=$((i + 1)); cp "$m" "$r/lib/modules/$(printf %02d $i)-$(basename "$m")"; done
    install -m 0755 scripts/powercut/init.sh "$r/init"
    ln -s /opt/lib/ld-linux-x86-64.so.2 "$r/lib64/ld-linux-x86-64.so.2"
    (cd "$r" && find . | cpio -o -H newc --quiet | gzip -1) >"$WORK/initrd.gz"
    # The binaries and every library they load, on an ext4 image made without mounting.
    mkdir -p "$t/bin" "$t/lib"
    cp "$LOGBOOK_BIN_DIR/logbookd" "$LOGBOOK_BIN_DIR/logbook" "$t/bin/"
    strip --strip-debug "$t/bin/logbookd" "$t/bin/logbook"
    for lib in $(ldd "$t/bin/logbookd" "$t/bin/logbook" | awk '/=> \// {print $3} /^\t\/lib64/ {print $1}' | sort -u); do
        cp -L "$lib" "$t/lib/"
    done
    cp -L /lib64/ld-linux-x86-64.so.2 "$t/lib/"
    mkfs.ext4 -q -F -d "$t" "$WORK/tools.img" "$(( $(du -sm "$t" | cut -f1) + 64 ))M"
    # The kernel uncompressed, booted through its PVH entry: under software emulation the
    # BIOS and the xz decompression of the bzImage took 11 s of every 17 s boot, this 1.5 s.
    KERNEL=$WORK/vmlinux
    /usr/bin/python3 -c 'import lzma, sys
data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(lzma.LZMADecompressor().decompress(data[data.find(b"\xfd7zXZ\x00"):]))' "$VMLINUZ" "$KERNEL" \
        || KERNEL=$VMLINUZ
}

new_state_disk() { rm -f "$1"; truncate -s 256M "$1"; mkfs.ext4 -q -F "$1"; }

# ── the gpsd replay on this machine's loopback, restarted when the drive ends ─────────────
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start_replay() {   # $1 = pace, $2 = log; sets GPSD_PORT
    GPSD_PORT=$(free_port)
    ( while :; do
        TMPDIR=$WORK /usr/bin/python3 scripts/gpsreplay.py --tcp --realtime "$1" --port "$GPSD_PORT" \
            --wait-client 3600 "$2" >>"$WORK/replay.out" 2>>"$WORK/replay.log" || sleep 1
      done ) &
    PIDS+=($!)
    REPLAY_LOOP=$!
    local _ up=0
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$GPSD_PORT") 2>/dev/null && { up=1; break; }; sleep 0.1; done
    [ $up = 1 ] || { echo "powercut-vm: FAIL the gpsd replay did not start"; cat "$WORK/replay.log"; exit 1; }
    # A client of our own watches for the whole run: gpsd keeps the replay's device open
    # while the guest is down (it closes a device when its last watcher leaves, and the
    # replay cannot reconnect), so every boot finds the drive going on.
    ( while :; do
        /usr/bin/python3 -c 'import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"?WATCH={\"enable\":true,\"json\":true};\n")
while s.recv(65536):
    pass' "$GPSD_PORT" 2>/dev/null
        sleep 0.5
      done ) &
    PIDS+=($!)
}
stop_replay() {   # the watcher, then the replay loop (the last two started)
    local p
    for p in "${PIDS[-1]}" "${PIDS[-2]}"; do kill_loop "$p"; done
    kill_replay_gpsds
}

# ── qemu ──────────────────────────────────────────────────────────────────────────────────
ACCEL=(-accel tcg); ACCEL_NAME=tcg
qemu_start() {   # $1 = console file, $2 = state disk, $3 = kernel arguments
    qemu-system-x86_64 "${ACCEL[@]}" -m 512 -smp 1 -nodefaults -no-reboot -display none \
        -kernel "$KERNEL" -initrd "$WORK/initrd.gz" -append "console=ttyS0 panic=-1 quiet $3" \
        -serial "file:$1" \
        -drive "file=$2,format=raw,if=virtio,cache=writeback" \
        -drive "file=$WORK/tools.img,format=raw,if=virtio,readonly=on" \
        -netdev user,id=n0 -device virtio-net-pci,netdev=n0,romfile= >>"$WORK/qemu.log" 2>&1 &
    QEMU_PID=$!
}
# Waits until the console shows $2 (extended regex) or qemu ends or $3 seconds pass.
wait_console() {
    local end=$(( $(date +%s) + $3 ))
    while [ "$(date +%s)" -lt "$end" ]; do
        grep -qE "$2" "$1" 2>/dev/null && return 0
        kill -0 "$QEMU_PID" 2>/dev/null || { grep -qE "$2" "$1" 2>/dev/null; return; }
        sleep 0.1
    done
    return 1
}
cut_power() { kill -9 "$QEMU_PID" 2>/dev/null || true; wait "$QEMU_PID" 2>/dev/null || true; }
pull_plug() { cuts=$((cuts + 1)); cut_power; }   # a guest that was driving (or booting to drive)

# KVM when it works (on the CI machine qemu 7.2's KVM hangs or aborts), else software emulation.
probe_accel() {
    [ -w /dev/kvm ] || return 0
    ACCEL=(-accel kvm -cpu host)
    qemu_start "$WORK/probe.log" "$WORK/state.img" "lb.mode=probe"
    if wait_console "$WORK/probe.log" 'powercut-guest: up' 10; then ACCEL_NAME=kvm; else ACCEL=(-accel tcg); fi
    cut_power
}

build_guest
new_state_disk "$WORK/state.img"
probe_accel
start_replay 4 fixtures/gpslogs/20100403_Z205_Switzerland.txt

# ── the cuts ──────────────────────────────────────────────────────────────────────────────
expect=0; trip=; boots=0; cuts=0; corrupt=0; lost=0; recovered=0; checks=0; failed=0; boot_ms=()
durable_report() {   # the last complete durable line of console $1: "SEQ TRIPS"
    { grep -aoE 'durable_seq=[0-9]+ open_trips=[0-9,]*' "$1" 2>/dev/null || true; } | tail -1 | sed -E 's/durable_seq=([0-9]+) open_trips=(.*)/\1 \2/'
}
tally() {   # parses the check line of console $1
    local line
    line=$(grep -a 'powercut-guest: check ' "$1" 2>/dev/null | tail -1 || true)
    [ -n "$line" ] || return 0
    checks=$((checks + 1))
    case $line in *verify=FAIL* | *recover=FAIL*) corrupt=$((corrupt + 1)); echo "powercut-vm: FAIL $line" ;; esac
    case $line in *lost=1*) lost=$((lost + 1)); echo "powercut-vm: FAIL acknowledged records lost: $line" ;; esac
    case $line in
        *trip=none*) ;;
        *end=recovered*) recovered=$((recovered + 1)) ;;
        *) corrupt=$((corrupt + 1)); echo "powercut-vm: FAIL the open trip was not closed recovered: $line" ;;
    esac
}
boot() {   # $1 = mode, $2 = console file; one boot with the current expectations
    boots=$((boots + 1))
    qemu_start "$2" "$WORK/state.img" "${LOGBOOK_POWERCUT_ARGS:-} lb.mode=$1 lb.boot=$boots lb.expect_seq=$expect lb.expect_trip=$trip lb.gpsd=10.0.2.2:$GPSD_PORT lb.commit=2"
}
# After a cut: tally the boot's check, and take the last durable line as what the next must find.
after_cut() {
    local report seq trips
    tally "$1"
    if report=$(durable_report "$1") && [ -n "$report" ]; then
        read -r seq trips <<<"$report"
        [ "$seq" -gt "$expect" ] && expect=$seq
        trip=${trips##*,}
    fi
    return 0
}
# Waits until console $1 holds at least $2 durable lines (or $3 seconds pass).
wait_durable() {
    local end=$(( $(date +%s) + $3 ))
    while [ "$(grep -ac 'journal committed' "$1" 2>/dev/null || true)" -lt "$2" ]; do
        [ "$(date +%s)" -lt "$end" ] || return 1
        sleep 0.2
    done
}
for i in $(seq "$CUTS"); do
    c=$WORK/console-$i.log
    t0=$(date +%s%N)
    boot cut "$c"
    # One cut in five lands before the daemon drives (boot, checks, recovery); the rest 0-8 s
    # into the drive, anywhere in the group-commit cycle.
    if [ $((RANDOM % 5)) -eq 0 ]; then
        sleep "$((RANDOM % 6)).$((RANDOM % 10))"
    else
        wait_console "$c" 'powercut-guest: driving' 300 || true
        boot_ms+=($(( ($(date +%s%N) - t0) / 1000000 )))
        sleep "$((RANDOM % 8)).$((RANDOM % 10))"
    fi
    pull_plug
    after_cut "$c"
done

# Cranking: the car stands, the plug is pulled, the guest boots again at once; when the
# first fix after the reboot comes, the trip open at the cut must go on (reopened), not a new
# one start. The drive for it is made here: 60 s at 15 m/s, 4 min standing, then on; replayed
# at 4x, the cut falls in the standing minutes and so does the reboot.
reopen_ok=skip
if [ "$REOPEN" = 1 ]; then
    reopen_ok=FAIL
    stop_replay
    /usr/bin/python3 - "$WORK/stand.nmea" <<'PY'
import sys
def line(body):
    c = 0
    for ch in body.encode():
        c ^= ch
    return "$%s*%02X\r\n" % (body, c)
def deg(v, hemis):
    a = abs(v); d = int(a)
    return "%0*d%07.4f,%s" % (2 if hemis in "NS" else 3, d, (a - d) * 60, hemis[0] if v >= 0 else hemis[1])
out = open(sys.argv[1], "w")
lat, lon = 47.37, 8.54
for t in range(60 + 240 + 180):
    moving = t < 60 or t >= 300
    if moving:
        lat += 15 / 111132.954
    hms = "%02d%02d%02d.00" % (10 + t // 3600, t // 60 % 60, t % 60)
    knots = 15 * 1.943844 if moving else 0.0
    out.write(line("GPRMC,%s,A,%s,%s,%.1f,0.0,220526,,,A" % (hms, deg(lat, "NS"), deg(lon, "EW"), knots)))
    out.write(line("GPGGA,%s,%s,%s,1,08,0.9,420.0,M,48.0,M,," % (hms, deg(lat, "NS"), deg(lon, "EW"))))
PY
    start_replay 4 "$WORK/stand.nmea"
    replay_t0=$(date +%s)
    c=$WORK/console-reopen-1.log
    boot cut "$c"
    wait_console "$c" 'powercut-guest: driving' 300 || true
    wait_durable "$c" 2 120 || true
    # Into the standing minutes (the replay's 60 s of driving take 15 s), one more commit.
    while [ $(( $(date +%s) - replay_t0 )) -lt 20 ]; do sleep 0.5; done
    n=$(grep -ac 'journal committed' "$c" || true)
    wait_durable "$c" $((n + 1)) 60 || true
    pull_plug
    after_cut "$c"
    stood=$trip
    c2=$WORK/console-reopen-2.log
    boot cut "$c2"
    if wait_console "$c2" "trip.id=$stood .*trip reopened" 120 && wait_durable "$c2" 2 60; then
        reopened=$(grep -a 'trip reopened' "$c2" | head -1)
        started=$(grep -ac 'trip started' "$c2" || true)
        [ -n "$stood" ] && [ "$started" = 0 ] && reopen_ok=ok
    fi
    stood_s=$(( $(date +%s) - replay_t0 ))
    pull_plug
    after_cut "$c2"
    [ "$trip" = "$stood" ] || reopen_ok=FAIL
    [ "$stood_s" -lt 75 ] || echo "powercut-vm: reopen: (the second boot reached the drive only after the standing minutes: ${stood_s} s)"
fi

# The last cut is checked by one more boot, which then drives a little and stops cleanly.
c=$WORK/console-final.log
boot final "$c"
wait_console "$c" 'powercut-guest: final boot=' 600 || true
cut_power
tally "$c"
grep -aq 'powercut-guest: final boot=.*verify=ok' "$c" || { failed=1; echo "powercut-vm: FAIL the final boot: $(grep -a 'powercut-guest: final' "$c" | tail -3)"; }
if [ "$reopen_ok" != skip ]; then
    final_trip=$(grep -a 'powercut-guest: final trip=' "$c" | head -1 || true)
    case $final_trip in *"trip=$stood start_reason=service "*) ;; *) reopen_ok=FAIL ;; esac
    case $final_trip in *" gaps=0"* | "") reopen_ok=FAIL ;; esac
    gap=$(sed -n 's/.*gap_s=\([0-9]*\).*/\1/p' <<<"${reopened:-}")
    if [ "$reopen_ok" = ok ]; then
        echo "powercut-vm: reopen: a cut and a quick reboot while the car stood: trip $stood reopened (gap ${gap:-?} s by GPS time), no new trip; after the last boot: ${final_trip#powercut-guest: final }"
    else
        failed=1
        echo "powercut-vm: reopen: FAIL trip '${stood:-none}' before the reboot; reboot console: $(grep -a 'trip \(reopened\|started\)' "$WORK/console-reopen-2.log" | head -2 | cut -c1-160); last boot: ${final_trip:-none}"
    fi
fi
stop_replay

# SD-card writes: a fresh disk per setting, driving at real time (1 fix a second) for $WRITES s.
if [ "$WRITES" -gt 0 ]; then
    start_replay 1 fixtures/gpslogs/20100403_Z205_Switzerland.txt
    for setting in ${LOGBOOK_POWERCUT_WRITES_SETTINGS:-5:5}; do
        jc=${setting%%:*}; ec=${setting##*:}
        new_state_disk "$WORK/writes.img"
        c=$WORK/console-writes-$jc-$ec.log
        qemu_start "$c" "$WORK/writes.img" "lb.mode=writes lb.seconds=$WRITES lb.commit=$jc lb.ext4commit=$ec lb.gpsd=10.0.2.2:$GPSD_PORT"
        wait_console "$c" 'powercut-guest: writes ' $((WRITES + 300)) || true
        cut_power
        line=$(grep -a 'powercut-guest: writes ' "$c" | tail -1 || true)
        if [ -z "$line" ]; then failed=1; echo "powercut-vm: writes: FAIL no measurement (journal commit $jc s, ext4 commit $ec s)"; continue; fi
        # ext4_kb flushes write_requests journal_bytes journal_syncs records, per hour of driving.
        awk -v line="$line" -v jc="$jc" -v ec="$ec" 'BEGIN {
            n = split(line, w, " ")
            for (i = 1; i <= n; i++) { split(w[i], kv, "="); v[kv[1]] = kv[2] }
            h = 3600 / v["seconds"]
            printf "powercut-vm: writes: journal commit %s s, ext4 commit %s s: ext4 wrote %.0f KiB and %.0f flushes per hour of driving; the journal %.0f KiB in %.0f fdatasyncs (ratio %.1f); %d s at real time\n",
                jc, ec, v["ext4_kb"] * h, v["flushes"] * h, v["journal_bytes"] / 1024 * h, v["journal_syncs"] * h,
                (v["journal_bytes"] > 0 ? v["ext4_kb"] * 1024 / v["journal_bytes"] : 0), v["seconds"]
        }'
    done
    stop_replay
fi

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : 0)}'; }
echo "powercut-vm: $cuts cuts, $boots boots, $corrupt corrupt, $lost acknowledged lost, $recovered trips recovered"
echo "powercut-vm: accelerator $ACCEL_NAME, seed $SEED, boot to driving median $(median "${boot_ms[@]}") ms, last durable seq $expect"
[ $((corrupt + lost + failed)) -eq 0 ] || exit 1
