#!/bin/sh
# SPDX-License-Identifier: MIT
# /init of the power-cut guest (busybox sh). scripts/powercut-vm.sh builds it into the
# initramfs, boots it under qemu and kills qemu at a random moment. Everything it reports
# goes to the serial console as `powercut-guest: …` lines, which the host parses.
#
# Kernel command line (set by the host):
#   lb.mode=probe|cut|final|writes  probe: say "up" and power off (KVM probe); cut: check,
#                          then drive until killed; final: check, drive a little, stop cleanly,
#                          verify, power off; writes: drive lb.seconds on a fresh disk and
#                          print the disk's write counters
#   lb.boot=N              boot number (for the lines)
#   lb.expect_seq=S        the highest durable_seq the previous boots printed (0: none)
#   lb.expect_trip=T       the trip those lines said was open (empty: none)
#   lb.gpsd=HOST:PORT      the gpsd replay (10.0.2.2 is the host's loopback)
#   lb.commit=S            journal.commit_interval_s; lb.ext4commit=S ext4's commit= (writes)
#   lb.seconds=S           writes mode: seconds to drive
export PATH=/bin:/opt/bin LD_LIBRARY_PATH=/opt/lib
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
say() { echo "powercut-guest: $*"; }
arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -1; }
halt_now() { sync; poweroff -f; sleep 60; }

for m in /lib/modules/*.ko; do insmod "$m" 2>/dev/null; done
mode=$(arg lb.mode); boot=$(arg lb.boot); expect=$(arg lb.expect_seq); trip=$(arg lb.expect_trip)
gpsd=$(arg lb.gpsd); commit=$(arg lb.commit); ext4commit=$(arg lb.ext4commit); seconds=$(arg lb.seconds)
if [ "$mode" = probe ]; then say "up"; halt_now; fi

mount -t tmpfs -o mode=755 tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t ext4 -o ro /dev/vdb /opt || { say "FAIL boot=$boot cannot mount the tools disk"; halt_now; }
mkdir -p /var/lib/logbook
# As a Pi mounts its root: ext4, data=ordered (the default, said explicitly), noatime.
opts=data=ordered,noatime
[ -n "$ext4commit" ] && opts=$opts,commit=$ext4commit
mount -t ext4 -o "$opts" /dev/vda /var/lib/logbook || { say "FAIL boot=$boot cannot mount the state disk"; halt_now; }
ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2
mkdir -p /run/etc

config() {   # $1 = gpsd address, $2 = with the service source (1) or not
    cat <<EOF
state_dir = "/var/lib/logbook"
runtime_dir = "/run/logbook"
log_level = "debug"
[gpsd]
address = "$1"
[live]
interval_s = 1
[journal]
commit_interval_s = ${commit:-5}
[control]
group = ""
[shutdown]
logind_inhibitor = false
[index]
path = "/run/index.sqlite"
[[vehicle]]
id = "vm"
name = "VM"
EOF
    [ "$2" = 1 ] && printf '[[source]]\ntype = "service"\nvehicle = "vm"\n'
}
config "$gpsd" 1 >/run/etc/drive.toml
config 127.0.0.1:1 0 >/run/etc/recover.toml
lb() { logbook --config /run/etc/drive.toml "$@"; }

# Waits (up to $2 tenths of a second) for file $1.
wait_file() { n=0; while [ ! -e "$1" ] && [ $n -lt "$2" ]; do sleep 0.1; n=$((n + 1)); done; [ -e "$1" ]; }
json_field() { sed -n "s/.*\"$1\" *: *\"\{0,1\}\([^\",}]*\).*/\1/p" | head -1; }

# After a cut: verify the journal as the cut left it (every acknowledged record there), let
# logbookd recover it (no gpsd, no source: nothing new is recorded), check the open trip was
# closed `recovered`, verify again.
check() {
    if [ ! -d /var/lib/logbook/journal ]; then
        # Cut before the first start made it: fine only if nothing was reported durable.
        lost=0
        [ "${expect:-0}" -gt 0 ] && lost=1
        say "check boot=$boot verify=none last_seq=0 expected=${expect:-0} lost=$lost trip=${trip:-none} end=none"
        return
    fi
    out=$(lb verify 2>&1); rc=$?
    last=$(echo "$out" | sed -n 's/.*last seq: \([0-9]*\).*/\1/p')
    if [ $rc -ne 0 ] || [ -z "$last" ]; then
        echo "$out" | sed 's/^/powercut-guest: verify: /'
        say "check boot=$boot verify=FAIL last_seq=${last:-?} expected=${expect:-0}"
        return
    fi
    lost=0
    [ "${last:-0}" -lt "${expect:-0}" ] && lost=1
    rm -rf /run/logbook
    logbookd --config /run/etc/recover.toml 2>/run/recover.log &
    pid=$!
    if ! wait_file /run/logbook/live.json 600; then
        sed 's/^/powercut-guest: recover: /' /run/recover.log
        say "check boot=$boot verify=ok last_seq=$last expected=${expect:-0} lost=$lost recover=FAIL"
        kill -9 $pid
        return
    fi
    kill -TERM $pid
    wait $pid
    end=none
    if [ -n "$trip" ]; then
        end=$(lb trips show "$trip" --json 2>&1 | json_field end_reason)
    fi
    say "check boot=$boot verify=ok last_seq=$last expected=${expect:-0} lost=$lost trip=${trip:-none} end=${end:-?}"
}

# SD-card writes: the disk's own counters around lb.seconds of driving.
disk_counters() {   # kbytes written by ext4, flush requests, write requests
    kb=$(cat /sys/fs/ext4/vda/lifetime_write_kbytes)
    set -- $(cat /sys/block/vda/stat)
    echo "$kb ${16:-0} $5"
}
live_journal() { json_field "$1" </run/logbook/live.json; }

case "$mode" in
writes)
    logbookd --config /run/etc/drive.toml 2>/run/drive.log &
    pid=$!
    # Wait for the trip's first durable point so start-up (key, first segment) is not counted.
    n=0
    while [ $n -lt 1200 ]; do
        [ "$(live_journal durable_seq 2>/dev/null)" -gt 2 ] 2>/dev/null && break
        sleep 0.1; n=$((n + 1))
    done
    set -- $(disk_counters); kb0=$1 fl0=$2 wr0=$3
    b0=$(live_journal bytes_written); s0=$(live_journal syncs); q0=$(live_journal durable_seq)
    sleep "${seconds:-60}"
    set -- $(disk_counters); kb1=$1 fl1=$2 wr1=$3
    b1=$(live_journal bytes_written); s1=$(live_journal syncs); q1=$(live_journal durable_seq)
    say "writes seconds=${seconds:-60} commit=${commit:-5} ext4commit=${ext4commit:-5} ext4_kb=$((kb1 - kb0)) flushes=$((fl1 - fl0)) write_requests=$((wr1 - wr0)) journal_bytes=$((b1 - b0)) journal_syncs=$((s1 - s0)) records=$((q1 - q0))"
    kill -TERM $pid
    wait $pid
    halt_now
    ;;
esac

[ "${boot:-1}" -gt 1 ] && check
say "driving boot=$boot"
rm -rf /run/logbook
if [ "$mode" = final ]; then
    logbookd --config /run/etc/drive.toml 2>/run/drive.log &
    pid=$!
    wait_file /run/logbook/live.json 600
    sleep 8
    kill -TERM $pid
    wait $pid
    out=$(lb verify 2>&1) && v=ok || v=FAIL
    echo "$out" | sed 's/^/powercut-guest: final verify: /'
    trips=$(lb trips list --json 2>/dev/null | tr ',' '\n' | grep -c '"end_reason"')
    if [ -n "$trip" ]; then
        show=$(lb trips show "$trip" --json 2>/dev/null)
        gaps=$(echo "$show" | tr '{' '\n' | grep -c '"bridged"')
        say "final trip=$trip start_reason=$(echo "$show" | json_field start_reason) points=$(echo "$show" | json_field points) gaps=$gaps"
    fi
    say "final boot=$boot verify=$v trips=$trips"
    halt_now
fi
# lb.debug=1: the live state's gps and journal blocks every 5 s (harness development).
if [ "$(arg lb.debug)" = 1 ]; then
    ( while sleep 5; do say "live: $(cut -c1-400 /run/logbook/live.json 2>/dev/null)"; done ) &
fi
# Drive until the host pulls the plug; logbookd's lines (`journal committed durable_seq=…`,
# at debug level, printed after each fdatasync returned) go to the console, without the
# service-lifecycle chatter. A line still in the pipe when the plug is pulled is lost: the
# host then expects less, never more.
logbookd --config /run/etc/drive.toml 2>&1 | awk '!/\[ServiceLifecycle\]/ { print; fflush() }'
say "logbookd exited"
sleep 3600
