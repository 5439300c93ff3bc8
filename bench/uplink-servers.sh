# SPDX-License-Identifier: MIT
# Sourced, not run, by the uplink's benchmarks (bench/uplink-bench.sh, bench/hot-text-uplink.sh):
# the servers an uplink with every sink on talks to, all on loopback and thrown away at exit — a
# private mosquitto, a PostgreSQL cluster with a `fleet` database, the three interop receivers
# (scripts/interop-receiver.py) — and the logbookd configuration that points every sink at them.
# The caller sets `work` (a directory of its own) and the array `pids` (what is started here is
# added to it) and `bin` (the release binaries), and calls `stop_uplink_servers` on exit.

pgbin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# The uplink as systemd/logbook-uplink.service runs it (its malloc tunables):
# "${uplink_env[@]}" PROGRAM ARGS. A command, not a function: started in the background, its
# pid ($!) is the program's own, which the benchmarks measure and signal.
uplink_env=(env GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072:glibc.malloc.arena_max=2)

# start_broker [CONF-LINE...]: mosquitto on port $mport.
start_broker() {
    mport=$(free_port)
    { echo "listener $mport 127.0.0.1"; echo "allow_anonymous true"; echo "persistence false"
      for line in "$@"; do echo "$line"; done
      [ "$(id -u)" = 0 ] && echo "user root"; } >"$work/mosquitto.conf"
    mosquitto -c "$work/mosquitto.conf" >/dev/null 2>&1 &
    pids+=("$!")
}

# start_postgres: a cluster on port $pport with an empty database `fleet` at $url; `psql`
# talks to it.
start_postgres() {
    pport=$(free_port)
    mkdir "$work/pg"; chmod 755 "$work/pg"; [ "$(id -u)" = 0 ] && chown postgres "$work/pg"
    as_pg "$pgbin/initdb" -D "$work/pg/data" -A trust -U logbook >/dev/null
    as_pg "$pgbin/pg_ctl" -D "$work/pg/data" -w -l "$work/pg/log" \
        -o "-p $pport -k $work/pg -c listen_addresses=127.0.0.1" start >/dev/null
    psql -d postgres -c "CREATE DATABASE fleet"
    url="postgres://logbook@127.0.0.1:$pport/fleet"
}
psql() { command psql -h 127.0.0.1 -p "$pport" -U logbook -X -q -A -t "$@"; }

# start_receivers: OwnTracks, Overland and OsmAnd receivers on $otport, $olport, $osport.
start_receivers() {
    otport=$(free_port); olport=$(free_port); osport=$(free_port)
    local r
    for r in "owntracks $otport" "overland $olport" "osmand $osport"; do
        set -- $r
        /usr/bin/python3 scripts/interop-receiver.py "$1" --port "$2" --log "$work/$1.ndjson" >/dev/null 2>&1 &
        pids+=("$!")
    done
}

# every_sink_config FILE GPSD-PORT VEHICLE: logbookd recording VEHICLE from the gpsd at
# GPSD-PORT (state in $work/drive, runtime in $work/drive-run), its uplink with every sink on
# (state and status files in $work/drive-uplink).
every_sink_config() {
    cat >"$1" <<TOML
state_dir = "$work/drive"
runtime_dir = "$work/drive-run"
[gpsd]
address = "127.0.0.1:$2"
[[vehicle]]
id = "$3"
[[source]]
type = "service"
vehicle = "$3"
[uplink]
state_dir = "$work/drive-uplink"
runtime_dir = "$work/drive-uplink/run"
[uplink.mqtt]
host = "127.0.0.1"
port = $mport
[uplink.postgres]
url = "$url"
[uplink.owntracks]
url = "http://127.0.0.1:$otport/pub"
[uplink.overland]
url = "http://127.0.0.1:$olport/api/v1/overland/batches"
[uplink.osmand]
url = "http://127.0.0.1:$osport/"
TOML
}

# start_drive CONFIG LOG SPEED VEHICLE: gpsd replays LOG at SPEED× (pid $replay), CONFIG is
# written (every_sink_config) and logbookd records VEHICLE with its clock at the same pace
# (pid $daemon); returns once the daemon has created its journal.
start_drive() {
    TMPDIR="$work" /usr/bin/python3 scripts/gpsreplay.py --tcp --realtime "$3" "$2" >"$work/replay.out" 2>/dev/null &
    replay=$!
    pids+=("$replay")
    for _ in $(seq 100); do grep -q '^PORT=' "$work/replay.out" 2>/dev/null && break; sleep 0.05; done
    every_sink_config "$1" "$(sed -n 's/^PORT=//p' "$work/replay.out")" "$4"
    LOGBOOKD_DEBUG_CLOCK_SCALE="$3" "$bin/logbookd" --config "$1" 2>"$work/daemon.log" &
    daemon=$!
    pids+=("$daemon")
    for _ in $(seq 100); do [ -f "$work/drive/journal.pub" ] && break; sleep 0.1; done
}

stop_uplink_servers() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    [ -d "$work/pg/data" ] && as_pg "$pgbin/pg_ctl" -D "$work/pg/data" -m immediate stop >/dev/null 2>&1 || true
    wait 2>/dev/null || true
}
