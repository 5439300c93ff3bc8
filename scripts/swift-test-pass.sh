#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One pass of `swift test` for the test command: scripts/swift-test-pass.sh TITLE [swift test
# arguments…]. Output goes to the terminal and is appended to .build/swift-test.log.
#
# A test that awaits something that never comes would hold the pass until CI's limit with
# nothing in the log to say which. After LOGBOOK_PASS_LIMIT seconds (default 1500; the
# longest pass takes about 130 s on an idle 2-core machine) the pass is stopped: the tests
# that started and never ended and every thread's stack of the test process are printed
# first, and the pass fails.
set -uo pipefail
cd "$(dirname "$0")/.."
title=$1
shift
limit=${LOGBOOK_PASS_LIMIT:-1500}
pass_log=.build/swift-test-pass.log
echo "== swift test ($title)"

# The pass's test process: this checkout's, so other checkouts' tests on the machine are left alone.
test_process() { pgrep -f "^$PWD/\.build/.*/LogbookPackageTests\.xctest" | head -1; }

watchdog() {
    trap 'kill "$nap" 2>/dev/null; exit 0' TERM
    sleep "$limit" & nap=$!
    wait "$nap"
    # From here on the pass's end must not cut the report short.
    trap '' TERM
    : > "$pass_log.fired"
    echo "== swift test ($title): still running after $limit s; stopping it"
    local pid
    pid=$(test_process)
    if [ -n "$pid" ]; then
        echo "-- threads of the test process $pid:"
        if command -v gdb > /dev/null; then
            timeout 120 gdb -p "$pid" -batch -ex "thread apply all bt 25" 2>/dev/null | grep -E "^Thread|^#" | cut -c1-240
        else
            for t in /proc/"$pid"/task/*; do echo "$(cat "$t/comm") $(cat "$t/wchan" 2>/dev/null)"; done
        fi
        kill -KILL "$pid"
    else
        kill "$runner"
    fi
    # swift test passes its test process's output on in blocks: read the log once it is all there.
    for _ in $(seq 60); do kill -0 "$runner" 2>/dev/null || break; sleep 0.5; done
    echo "-- tests that started and never ended:"
    grep -oE "◇ Test [^ ]+ started" "$pass_log" | sed -E 's/◇ Test ([^ ]+) started/\1/' | grep -vx run | sort > "$pass_log.started"
    grep -oE "[✔✘] Test [^ ]+ (passed|failed)" "$pass_log" | sed -E 's/[✔✘] Test ([^ ]+) .*/\1/' | sort > "$pass_log.ended"
    comm -23 "$pass_log.started" "$pass_log.ended"
}

: > "$pass_log"
rm -f "$pass_log.fired"
swift test --skip-build "$@" > >(tee "$pass_log" | tee -a .build/swift-test.log) 2>&1 &
runner=$!
watchdog &
dog=$!
wait "$runner"
rc=$?
kill "$dog" 2>/dev/null
wait "$dog" 2>/dev/null
[ -e "$pass_log.fired" ] && rc=1
# The output's tee ends with the test's output; let it finish writing before the next step.
wait
exit "$rc"
