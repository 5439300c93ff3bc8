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
    for p in logbookd logbook; do
        swift build -c release --static-swift-stdlib -Xswiftc -warnings-as-errors --product "$p" >/dev/null
    done
    LOGBOOK_BIN_DIR=$(swift build -c release --show-bin-path)
fi
KERNEL=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -1)
[ -n "$KERNEL" ] || { echo "powercut-vm: FAIL no /boot/vmlinuz-*-amd64 (linux-image-amd64)"; exit 2; }
KVER=${KERNEL#/boot/vmlinuz-}

WORK=$(mktemp -d /tmp/logbook-powercut.XXXXXX)
PIDS=()
cleanup() {
    local p
    for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
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
    for lib in $(ldd "$t/bin/logbookd" "$t/bin/logbook" | awk '/=> \// {print $3} /^\t\/lib64/ {print $1}' | sort -u); do
        cp -L "$lib" "$t/lib/"
    done
    cp -L /lib64/ld-linux-x86-64.so.2 "$t/lib/"
    mkfs.ext4 -q -F -d "$t" "$WORK/tools.img" "$(( $(du -sm "$t" | cut -f1) + 64 ))M"
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
    local _
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$GPSD_PORT") 2>/dev/null && return 0; sleep 0.1; done
    echo "powercut-vm: FAIL the gpsd replay did not start"; cat "$WORK/replay.log"; exit 1
}
stop_replay() { local p=${PIDS[-1]}; pkill -9 -P "$p" 2>/dev/null || true; kill -9 "$p" 2>/dev/null || true; }

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

# KVM when it works (on the CI machine qemu 7.2's KVM hangs or aborts), else software emulation.
probe_accel() {
    [ -w /dev/kvm ] || return 0
    ACCEL=(-accel kvm -cpu host)
    qemu_start "$WORK/probe.log" "$WORK/state.img" "lb.mode=probe"
    if wait_console "$WORK/probe.log" 'powercut-guest: up' 20; then ACCEL_NAME=kvm; else ACCEL=(-accel tcg); fi
    cut_power
}

build_guest
new_state_disk "$WORK/state.img"
probe_accel
start_replay 4 fixtures/gpslogs/20100403_Z205_Switzerland.txt

# ── the cuts ──────────────────────────────────────────────────────────────────────────────
expect=0; trip=; boots=0; corrupt=0; lost=0; recovered=0; checks=0; failed=0; boot_ms=()
durable_report() {   # the last complete durable line of console $1: "SEQ TRIPS"
    grep -aoE 'durable_seq=[0-9]+ open_trips=[0-9,]*' "$1" | tail -1 | sed -E 's/durable_seq=([0-9]+) open_trips=(.*)/\1 \2/'
}
tally() {   # parses the check line of console $1
    local line
    line=$(grep -a 'powercut-guest: check ' "$1" | tail -1)
    [ -n "$line" ] || return 0
    checks=$((checks + 1))
    case $line in *verify=FAIL* | *post_verify=FAIL* | *recover=FAIL*) corrupt=$((corrupt + 1)); echo "powercut-vm: FAIL $line" ;; esac
    case $line in *lost=1*) lost=$((lost + 1)); echo "powercut-vm: FAIL acknowledged records lost: $line" ;; esac
    case $line in
        *trip=none*) ;;
        *end=recovered*) recovered=$((recovered + 1)) ;;
        *) corrupt=$((corrupt + 1)); echo "powercut-vm: FAIL the open trip was not closed recovered: $line" ;;
    esac
}
boot() {   # $1 = mode, $2 = console file; one boot with the current expectations
    boots=$((boots + 1))
    qemu_start "$2" "$WORK/state.img" "lb.mode=$1 lb.boot=$boots lb.expect_seq=$expect lb.expect_trip=$trip lb.gpsd=10.0.2.2:$GPSD_PORT"
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
    cut_power
    tally "$c"
    if report=$(durable_report "$c") && [ -n "$report" ]; then
        read -r seq trips <<<"$report"
        [ "$seq" -gt "$expect" ] && expect=$seq
        trip=${trips##*,}
    fi
done
# The last cut is checked by one more boot, which then drives a little and stops cleanly.
c=$WORK/console-final.log
boot final "$c"
wait_console "$c" 'powercut-guest: final ' 600 || true
cut_power
tally "$c"
grep -aq 'powercut-guest: final .*verify=ok' "$c" || { failed=1; echo "powercut-vm: FAIL the final boot: $(grep -a 'powercut-guest: final' "$c" | tail -3)"; }
[ "$checks" -eq "$CUTS" ] || { failed=1; echo "powercut-vm: FAIL $checks checks for $CUTS cuts"; }
stop_replay

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : 0)}'; }
echo "powercut-vm: $CUTS cuts, $boots boots, $corrupt corrupt, $lost acknowledged lost, $recovered trips recovered"
echo "powercut-vm: accelerator $ACCEL_NAME, seed $SEED, boot to driving median $(median "${boot_ms[@]}") ms, last durable seq $expect"
[ $((corrupt + lost + failed)) -eq 0 ] || exit 1
