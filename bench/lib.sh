# SPDX-License-Identifier: MIT
# Shared by the bench scripts: a private gpsd replaying the Swiss drive, and logbookd
# recording it as one trip (a `service` source). Source it; uses $work, $bin and $pids.

# start_replay SPEED: sets $port (0 = full speed).
start_replay() {
    TMPDIR="$work" /usr/bin/python3 scripts/gpsreplay.py --tcp --realtime "$1" \
        fixtures/gpslogs/20100403_Z205_Switzerland.txt >"$work/replay.out" 2>/dev/null &
    pids+=("$!")
    for _ in $(seq 100); do grep -q '^PORT=' "$work/replay.out" 2>/dev/null && break; sleep 0.05; done
    port="$(sed -n 's/^PORT=//p' "$work/replay.out")"
}

# start_daemon: logbookd on $port with state in $work; sets $daemon.
start_daemon() {
    printf '[[vehicle]]\nid = "z205"\n[[source]]\ntype = "service"\nvehicle = "z205"\n' >"$work/logbookd.toml"
    # The drive is dated 2029 (gpsd): never judged against a synchronised system clock.
    LOGBOOKD_TRIP_TRUST_SYSTEM_CLOCK=false "$bin/logbookd" --config "$work/logbookd.toml" --gpsd "127.0.0.1:$port" \
        --state-dir "$work/state" --runtime-dir "$work/run" 2>"$work/log" &
    daemon=$!
    pids+=("$daemon")
}

# own_usage LOG: "CPU-SECONDS PEAK-RSS-KIB" from the last line logbookd writes (`logbookd stopped
# … cpu_s=… peak_rss_kib=…`, getrusage of itself). Not GNU time: wait4 folds the reaped
# children's CPU and peak into its figures, and the daemon's dashboard refresh runs `logbook`.
own_usage() {
    grep 'logbookd stopped' "$1" | tail -1 |
        awk '{for (i = 1; i <= NF; i++) {split($i, kv, "="); if (kv[1] == "cpu_s") c = kv[2]; if (kv[1] == "peak_rss_kib") r = kv[2]}}
             END {if (r == "") exit 1; printf "%.2f %d\n", c, r}'
}
