#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A private D-Bus "system bus" with python-dbusmock templates on it, for trying logbookd's
# Bluetooth and logind code by hand or from an end-to-end script (the Swift tests use their
# own FakeSystemBus helper). Nothing touches the real system bus.
#
#   scripts/fakes/fake-system-bus.sh start DIR [TEMPLATE...]   # default templates: bluez5 logind
#       prints DBUS_SYSTEM_BUS_ADDRESS=unix:path=DIR/bus; PIDs go to DIR/pids
#   scripts/fakes/fake-system-bus.sh stop DIR                   # kills exactly those PIDs
#
# Drive the mocks with busctl, e.g.
#   busctl --address=unix:path=DIR/bus call org.bluez / org.bluez.Mock AddAdapter ss hci0 pi
#   busctl --address=… call org.bluez / org.bluez.Mock AddDevice sss hci0 AA:BB:CC:DD:EE:01 Car
#   busctl --address=… call org.bluez / org.bluez.Mock ConnectDevice ss hci0 AA:BB:CC:DD:EE:01
#   busctl --address=… call org.freedesktop.login1 /org/freedesktop/login1 \
#       org.freedesktop.DBus.Mock EmitSignal sssav org.freedesktop.login1.Manager PrepareForShutdown b 1 b true
set -euo pipefail
cmd=${1:-}; dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '3,17p' "$0" >&2; exit 64; }

case "$cmd" in
start)
    "$(dirname "$0")/ensure-dbusmock.sh" || exit $?
    shift 2
    templates=("$@"); [ ${#templates[@]} -gt 0 ] || templates=(bluez5 logind)
    mkdir -p "$dir"; dir=$(cd "$dir" && pwd)
    address="unix:path=$dir/bus"
    : >"$dir/pids"
    dbus-daemon --session --nofork --address="$address" >"$dir/dbus-daemon.log" 2>&1 &
    echo $! >>"$dir/pids"
    for _ in $(seq 100); do [ -S "$dir/bus" ] && break; sleep 0.05; done
    for t in "${templates[@]}"; do
        DBUS_SYSTEM_BUS_ADDRESS=$address /usr/bin/python3 -m dbusmock --system --template "$t" \
            >"$dir/$t.log" 2>&1 &
        echo $! >>"$dir/pids"
        case "$t" in logind) name=org.freedesktop.login1 ;; bluez5) name=org.bluez ;; *) name="" ;; esac
        [ -z "$name" ] && continue
        for _ in $(seq 200); do
            busctl --address="$address" call org.freedesktop.DBus /org/freedesktop/DBus \
                org.freedesktop.DBus NameHasOwner s "$name" 2>/dev/null | grep -q true && break
            sleep 0.05
        done
    done
    echo "DBUS_SYSTEM_BUS_ADDRESS=$address"
    ;;
stop)
    [ -f "$dir/pids" ] || exit 0
    # SIGTERM first; SIGKILL for processes that inherited a mask blocking it.
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$dir/pids"
    sleep 0.3
    while read -r pid; do kill -9 "$pid" 2>/dev/null || true; done <"$dir/pids"
    rm -f "$dir/pids" "$dir/bus"
    ;;
*) sed -n '3,17p' "$0" >&2; exit 64 ;;
esac
