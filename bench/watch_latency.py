#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Fix -> watch latency: one process listens to gpsd directly and to logbookd's `watch`
on the control socket, and measures, per fix time, how much later logbookd's update
carrying it arrives than gpsd's TPV. Prints p50/p99/max in ms.

Usage: watch_latency.py GPSD_PORT CONTROL_SOCKET SECONDS
"""
import json
import select
import socket
import sys
import time
from datetime import datetime


def seconds(iso):
    return datetime.strptime(iso.rstrip("Z").split(".")[0], "%Y-%m-%dT%H:%M:%S").timestamp() + (
        float("0." + iso.rstrip("Z").split(".")[1]) if "." in iso else 0.0)


def lines(sock, buf):
    data = sock.recv(1 << 16)
    if not data:
        raise EOFError
    buf += data
    *complete, rest = buf.split(b"\n")
    return complete, rest


def main():
    port, path, duration = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    gpsd = socket.create_connection(("127.0.0.1", port))
    gpsd.sendall(b'?WATCH={"enable":true,"json":true};\n')
    watch = socket.socket(socket.AF_UNIX)
    watch.connect(path)
    watch.sendall(b'{"cmd":"watch"}\n')
    seen_gpsd, latencies = {}, []
    bufs = {gpsd: b"", watch: b""}
    end = time.monotonic() + duration
    while time.monotonic() < end:
        ready, _, _ = select.select([gpsd, watch], [], [], 0.5)
        now = time.monotonic()
        for s in ready:
            try:
                complete, bufs[s] = lines(s, bufs[s])
            except EOFError:
                end = 0
                continue
            for line in complete:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                if s is gpsd and msg.get("class") == "TPV" and "time" in msg and msg.get("mode", 0) >= 2:
                    seen_gpsd.setdefault(round(seconds(msg["time"]), 3), now)
                elif s is watch and (msg.get("gps") or {}).get("time"):
                    t = round(seconds(msg["gps"]["time"]), 3)
                    if t in seen_gpsd:
                        latencies.append((now - seen_gpsd.pop(t)) * 1000)
    latencies.sort()
    if not latencies:
        print("watch-latency: no samples")
        return 1
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    print("watch-latency: %d fixes, p50 %.1f ms, p99 %.1f ms, max %.1f ms" % (len(latencies), pick(0.5), pick(0.99), latencies[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
