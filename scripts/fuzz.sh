#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzzes the five parsers with libFuzzer + AddressSanitizer:
#   control  the control-socket request line (ControlRequest.parse + the command checks)
#   json     JSONValue.parse (and serialise -> parse must give the same value)
#   config   the config file: TOML parsing + DaemonConfiguration's typed reading
#   segment  a journal segment: Framing.scan, RecordCodec.decode, SegmentContents.parse
#   obd      an ELM327 adapter's replies: ELMResponseParser, the OBD decoders, ELMSession
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]      (default 30 s each, all five)
#   LOGBOOK_FUZZ_RUNS=N scripts/fuzz.sh ...      stop after N inputs (or SECONDS, whichever first)
#   LOGBOOK_FUZZ_TIMEOUT=S scripts/fuzz.sh ...   one input's limit (default 10 s; wall time, so a
#                                                 long run beside other work wants more)
#   LOGBOOK_FUZZ_JOBS=N scripts/fuzz.sh ...      harnesses fuzzed at once (default: the cores)
#
# Builds `logbook-fuzz` in release with --sanitize=fuzzer,address in .build-fuzz (its own
# scratch path). Seeds: fuzz/corpus/HARNESS (in the repo, small); what the run adds goes to
# .build-fuzz/corpus/HARNESS and is kept between runs. A crash, a hang (> 10 s on one input),
# more than 2 GiB RSS or a single allocation over 256 MiB stops the run: the input is saved
# in .build-fuzz/crashes/HARNESS/ and the script exits 1; so does a run with no coverage
# feedback (a blind fuzzer). Prints one line per harness:
#   fuzz: HARNESS: N inputs in S s (E exec/s), coverage C, features F, corpus K, crashes 0
# Add a crash input to fuzz/corpus/HARNESS once fixed: the ordinary test run replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(control json config segment obd)
scratch=.build-fuzz

# SwiftPM's --sanitize=fuzzer --sanitize=address reach swiftc as two options, and swiftc 6.3
# (WMO, -num-threads) then instruments for the last one only: the parsers got ASan but no
# coverage counters, and libFuzzer ran blind (no `cov:`). So one -sanitize=fuzzer,address comes
# last; --sanitize=fuzzer stays for SwiftPM's own handling of the executable's entry point.
swift build -c release --product logbook-fuzz --scratch-path "$scratch" \
    --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DLOGBOOK_FUZZ 2>&1 | grep -v "Cannot export local symbol" | tail -3
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/logbook-fuzz"

# One harness: its summary line and any failure go to $scratch/fuzz-HARNESS.result; exit 1 on failure.
fuzz_one() {
    local h=$1 status=0
    # Crashes of an earlier run are kept in fuzz/corpus once fixed; start each run clean.
    rm -rf "$scratch/crashes/$h"
    mkdir -p "$scratch/corpus/$h" "$scratch/crashes/$h"
    log="$scratch/fuzz-$h.log"
    start=$(date +%s.%N)
    set +e
    ASAN_OPTIONS=detect_leaks=0 "$bin" "$h" -max_total_time="$seconds" ${LOGBOOK_FUZZ_RUNS:+-runs=$LOGBOOK_FUZZ_RUNS} -timeout="${LOGBOOK_FUZZ_TIMEOUT:-10}" \
        -rss_limit_mb=2048 -malloc_limit_mb=256 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$scratch/crashes/$h/" "$scratch/corpus/$h" "fuzz/corpus/$h" >"$log" 2>&1
    rc=$?
    set -e
    elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {print e - s}')
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{s+=$2} END {print s+0}')
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
    corpus=$(find "$scratch/corpus/$h" -type f | wc -l)
    crashes=$(find "$scratch/crashes/$h" -type f | wc -l)
    # No "cov:" on libFuzzer's status line: no instrumented edge was reached and the run was
    # blind (the build lost its coverage instrumentation; see the swift build above): a failure.
    blind=0
    if [ -z "$cov" ] || [ "$cov" = 0 ]; then blind=1; fi
    printf 'fuzz: %s: %d inputs in %.0f s (%.0f exec/s), coverage %s, features %s, corpus %d, crashes %d\n' \
        "$h" "$runs" "$elapsed" "$(awk -v r="$runs" -v e="$elapsed" 'BEGIN {print r / e}')" "${cov:-0}" "${ft:-0}" "$corpus" "$crashes"
    if [ $blind -eq 1 ]; then
        echo "fuzz: $h: FAILED no coverage feedback (is logbook-fuzz instrumented? readelf -S: __sancov_cntrs)" >&2
        status=1
    fi
    if [ $rc -ne 0 ] || [ "$crashes" -ne 0 ]; then
        echo "fuzz: $h: FAILED (exit $rc); log $log, inputs in $scratch/crashes/$h/" >&2
        grep -E 'ERROR|Fatal error|SUMMARY|deadly signal|timeout|out-of-memory|malloc' "$log" | head -5 >&2 || true
        status=1
    fi
    return $status
}

# libFuzzer runs on one core: the harnesses run LOGBOOK_FUZZ_JOBS at a time (default: the
# cores), each for SECONDS, and their lines are printed in order.
parallel="${LOGBOOK_FUZZ_JOBS:-$(nproc)}"
pids=()
for h in "${harnesses[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
    fuzz_one "$h" >"$scratch/fuzz-$h.result" 2>&1 &
    pids+=($!)
done
status=0
for i in "${!harnesses[@]}"; do
    wait "${pids[$i]}" || status=1
    cat "$scratch/fuzz-${harnesses[$i]}.result"
done
exit $status
