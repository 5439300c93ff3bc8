#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Generates logbookd's order file: the input sections holding the code logbookd runs while it
# records a drive, which the release link gathers into .text.hot at the front of its text when
# LOGBOOK_HOT_TEXT names the file (Package.swift). Why: the kernel maps a binary's text 64 KiB
# around every page executed (fault-around), so code run from all over a 13 MiB .text kept
# ~9 MiB of it resident, although the daemon runs ~1.2 MiB of functions (docs/memory.md).
#
# The file is a build product of the machine that builds the daemon, never committed: it is
# profiled from this checkout's code on this machine's architecture (scripts/build-deb.sh runs
# this first, so a .deb built on a Pi is ordered by an arm64 profile). Stale or missing, the
# daemon still links and runs, only with more of its text resident: the guard is the memory
# target itself (scripts/tests.d/25-daemon-image.sh: peak RSS on the Swiss replay <= 12 MiB).
#
# How: the release logbookd (linked with a map) runs under valgrind's callgrind while gpsd
# replays the 3-hour Swiss drive at full speed (as bench/gps-bench.sh), a client asks for
# `status`, and the daemon gets SIGHUP (a reload) and SIGTERM (shutdown).
# bench/hot_text_sections.py maps every executed instruction through the link map to its input
# section and writes the list.
# Usage: bench/hot-text.sh [OUT]     (default .build/hot-text/logbookd.ld; prints its path last)
#        KEEP=1 bench/hot-text.sh    keeps the work directory (profile, link map) for a look
# Then:  scripts/build-release.sh (it links with the list)
set -euo pipefail
cd "$(dirname "$0")/.."
log=fixtures/gpslogs/20100403_Z205_Switzerland.txt
list="${1:-.build/hot-text/logbookd.ld}"
mkdir -p "$(dirname "$list")"

scripts/install-deps.sh valgrind >&2
work="$(mktemp -d /tmp/logbook-hot.XXXXXX)"
daemon="" replay="" elm_pid=""
trap 'kill $daemon $replay 2>/dev/null || true; [ -z "${elm_pid:-}" ] || kill -KILL "$elm_pid" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
# Profiled without an order file (the layout it is about to replace); the map makes the link
# run again even when nothing else changed.
bin="$(swift build -c release --show-bin-path)/logbookd"
rm -f "$bin"
# shellcheck source=scripts/release-flags.sh
. scripts/release-flags.sh
env -u LOGBOOK_HOT_TEXT swift build "${RELEASE_BUILD[@]}" --product logbookd \
    -Xlinker -Map="$work/logbookd.map" >/dev/null

# valgrind cannot read the toolchain's DWARF 5; the symbol table is all it needs.
cp "$bin" "$work/logbookd"
strip --strip-debug "$work/logbookd"
# A `logbook` beside it, as installed, so the daemon runs its dashboard refresh (a child process
# after each trip end): a stand-in, as valgrind does not follow children.
printf '#!/bin/sh\nexit 0\n' >"$work/logbook"
chmod +x "$work/logbook"
# profile NAME [CAR-PORT]: one profiled drive, its trace in $work/NAME.callgrind. With a port, the
# daemon also reads a car there (an `obd` source).
profile() {
    local dir="$work/$1"
    mkdir -p "$dir"
    printf '[[vehicle]]\nid = "z205"\n[[source]]\ntype = "service"\nvehicle = "z205"\n' >"$dir/logbookd.toml"
    [ -z "${2:-}" ] || printf '[[source]]\ntype = "obd"\nname = "elm"\naddress = "127.0.0.1:%s"\nvehicle = "z205"\n' "$2" >>"$dir/logbookd.toml"
    TMPDIR="$dir" /usr/bin/python3 scripts/gpsreplay.py --tcp "$log" >"$dir/replay.out" 2>"$dir/replay.err" &
    replay=$!
    for _ in $(seq 100); do grep -q '^PORT=' "$dir/replay.out" 2>/dev/null && break; sleep 0.05; done
    local port
    port="$(sed -n 's/^PORT=//p' "$dir/replay.out")"
    valgrind --tool=callgrind --dump-instr=yes --compress-pos=no --callgrind-out-file="$work/$1.callgrind" \
        "$work/logbookd" --config "$dir/logbookd.toml" --gpsd "127.0.0.1:$port" \
        --state-dir "$dir/state" --runtime-dir "$dir/run" 2>"$dir/daemon.log" &
    daemon=$!
    for _ in $(seq 600); do [ -S "$dir/run/control.sock" ] && break; sleep 0.1; done
    /usr/bin/python3 - "$dir/run/control.sock" <<'PY'
import socket, sys, time
for attempt in range(300):  # the socket file appears before the daemon, slowed by valgrind, listens
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); break
    except OSError:
        s.close(); time.sleep(0.1)
s.settimeout(60); s.sendall(b'{"cmd":"status"}\n'); s.recv(65536); s.close()
PY
    kill -HUP "$daemon"
    wait "$replay" || true
    sleep 3
    # The adapter's first answers come slowly under valgrind: the car's code ran once they did.
    if [ -n "${2:-}" ]; then
        for _ in $(seq 1200); do grep -q 'OBD: the car answers\|OBD: a car with a VIN' "$dir/daemon.log" && break; sleep 0.1; done
        grep -q 'OBD: the car answers\|OBD: a car with a VIN' "$dir/daemon.log" || echo "hot-text: the obd source never reached the car" >&2
    fi
    kill -TERM "$daemon"
    wait "$daemon" || true
    daemon=""
}

profile drive
traces=("$work/drive.callgrind")
# The drive again with a car, when the test tools are at hand: an `obd` source against
# ELM327-emulator (PyPI, the test venv) on loopback. What only the car runs goes after the
# rest: a daemon without one touches none of it, one with a car finds it together (without it
# in the list, an `obd` source cost 1.8 MiB more text resident: docs/memory.md).
if python="$(scripts/python-venv.sh 2>/dev/null)" && [ -x "$(dirname "$python")/elm" ]; then
    elm_port="$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    # The emulator reads console commands from stdin: a FIFO held open keeps it running.
    mkfifo "$work/elm.in"
    exec 8<>"$work/elm.in"
    (cd "$work" && exec "$(dirname "$python")/elm" -n "$elm_port" -s car -b "$work/elm.out" <&8 >/dev/null 2>&1) &
    elm_pid=$!
    for _ in $(seq 200); do grep -q 'batch mode STARTED' "$work/elm.out" 2>/dev/null && break; sleep 0.05; done
    profile car "$elm_port"
    traces+=("$work/car.callgrind")
else
    echo "hot-text: no ELM327-emulator (scripts/python-venv.sh): profiled without a car" >&2
fi

/usr/bin/python3 bench/hot_text_sections.py logbookd "$work/logbookd" "$work/logbookd.map" "$list" \
    "$(uname -m)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "${traces[@]}"
echo "$list"
