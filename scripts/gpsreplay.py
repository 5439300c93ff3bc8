#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Replay a recorded GPS log through a private gpsd on a loopback port (tests, demo, bench).

Uses gpsd's own test harness (python3-gps: gps.fake) but, unlike `gpsfake -1`:
  * it does not lose the head of the log: it waits until gpsd has opened the fake
    device (a client has WATCHed) and for gpsd's post-open tty flush (~1.4 s on a
    pty) before feeding;
  * it can pace by the log's NMEA time (--realtime FACTOR) instead of per sentence;
  * it exits by itself once the log is fed and gpsd has drained it;
  * it can date the log today (--shift-to-now): the first fix is stamped with the moment
    feeding starts, so a daemon that judges fixes by a synchronised clock accepts them.

Prints "PORT=<n>" and "GPSD_PID=<n>" on stdout (flushed) once gpsd listens.
Parallel-safe with --port 0 (default) and a private TMPDIR (gpsd leaves its control
socket there). Must run under /usr/bin/python3: Debian's python3-gps lives there.
"""
import argparse
import datetime
import os
import re
import signal
import socket
import sys
import time

sys.path.insert(0, "/usr/lib/python3/dist-packages")
import gps.fake as gpsfake  # noqa: E402

NMEA_TIME = re.compile(rb"^\$..(?:RMC|GGA|GNS|GLL|ZDA),(\d{2})(\d{2})(\d{2}(?:\.\d+)?)")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("--port", type=int, default=0, help="0 picks a free port")
    ap.add_argument("--realtime", type=float, default=0.0,
                    help="pace by NMEA time: 1 = real time, 60 = 60x, 0 = full speed")
    ap.add_argument("--tcp", action="store_true",
                    help="feed gpsd over TCP instead of a pty (no tty flush to wait for)")
    ap.add_argument("--wait-client", type=float, default=60.0,
                    help="seconds to wait for a client before feeding anyway")
    ap.add_argument("--settle", type=float, default=1.5,
                    help="seconds to wait after gpsd opened the pty (its tty flush)")
    ap.add_argument("--linger", type=float, default=1.0,
                    help="seconds to keep gpsd up after the last sentence")
    ap.add_argument("--start-line", type=int, default=0,
                    help="skip the first N packets (resume a replay after a gpsd restart)")
    ap.add_argument("--shift-to-now", action="store_true",
                    help="restamp RMC/GGA times so the first fix fed is dated when feeding starts")
    return ap.parse_args()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def nmea_checksum(body):
    c = 0
    for b in body:
        c ^= b
    return b"%02X" % c


def restamp(packet, shift, first_date):
    """One sentence with its RMC date and time or GGA time moved by `shift`, checksum redone."""
    m = re.match(rb"^\$(..(RMC|GGA)),([^*]*)\*[0-9A-Fa-f]{2}(\s*)$", packet)
    if not m or not m.group(3)[:6].isdigit():
        return packet
    fields = m.group(3).split(b",")
    hms = fields[0]
    clock = datetime.time(int(hms[0:2]), int(hms[2:4]), int(hms[4:6]))
    day = first_date
    if m.group(2) == b"RMC" and len(fields) > 8 and len(fields[8]) == 6:
        d = fields[8]
        day = datetime.date(2000 + int(d[4:6]) if int(d[4:6]) < 80 else 1900 + int(d[4:6]), int(d[2:4]), int(d[0:2]))
    moved = datetime.datetime.combine(day, clock) + shift
    fields[0] = moved.strftime("%H%M%S").encode() + hms[6:]
    if m.group(2) == b"RMC" and len(fields) > 8 and len(fields[8]) == 6:
        fields[8] = moved.strftime("%d%m%y").encode()
    body = m.group(1) + b"," + b",".join(fields)
    return b"$" + body + b"*" + nmea_checksum(body) + m.group(4)


def shift_to_now(sentences, start=0):
    """The log's sentences dated so that its first RMC fix from packet `start` on is now (UTC)."""
    first = None
    for p in sentences[start:]:
        m = re.match(rb"^\$..RMC,(\d{6})(?:\.\d+)?,[^,]*(?:,[^,]*){6},(\d{6}),", p)
        if m:
            t, d = m.group(1), m.group(2)
            first = datetime.datetime(2000 + int(d[4:6]) if int(d[4:6]) < 80 else 1900 + int(d[4:6]),
                                      int(d[2:4]), int(d[0:2]), int(t[0:2]), int(t[2:4]), int(t[4:6]))
            break
    if first is None:
        return sentences
    now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None, microsecond=0)
    return [restamp(p, now - first, first.date()) for p in sentences]


class Feeder:
    """Decides when each packet may go out: after the client came, paced if asked."""

    def __init__(self, args, gpsd_pid):
        self.args = args
        self.gpsd_pid = gpsd_pid
        self.started = False
        self.done = False
        self.fed = 0
        self.anchor = None   # (log seconds, wall seconds)
        self.previous = None
        self.day = 0.0

    def gpsd_opened(self, path):
        try:
            fds = os.listdir("/proc/%d/fd" % self.gpsd_pid)
        except OSError:
            return False
        for fd in fds:
            try:
                if os.readlink("/proc/%d/fd/%s" % (self.gpsd_pid, fd)) == path:
                    return True
            except OSError:
                pass
        return False

    def tcp_connected(self, fake):
        fake.read()  # accepts gpsd's connection when pending
        return any(s is not fake.dispatcher for s in fake.readables)

    def wait_for_client(self, fake):
        deadline = time.time() + self.args.wait_client
        ready = (lambda: self.tcp_connected(fake)) if self.args.tcp else (lambda: self.gpsd_opened(fake.byname))
        while time.time() < deadline and not ready():
            time.sleep(0.02)
        # gpsd tcflushes the pty while probing it; anything written earlier is lost.
        time.sleep(0.1 if self.args.tcp else self.args.settle)

    def pace(self, packet):
        m = NMEA_TIME.match(packet)
        if not m:
            return
        t = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
        if self.previous is not None and t + self.day < self.previous - 43200:
            self.day += 86400  # midnight
        t += self.day
        if self.anchor is None or (self.previous is not None and t < self.previous - 1):
            self.anchor = (t, time.time())  # start, or the log jumped back: re-anchor
        self.previous = t
        delay = self.anchor[1] + (t - self.anchor[0]) / self.args.realtime - time.time()
        if delay > 0:
            time.sleep(delay)

    def __call__(self, index, fake):
        if not self.started:
            self.wait_for_client(fake)
            if self.args.shift_to_now:
                fake.testload.sentences = shift_to_now(fake.testload.sentences, self.args.start_line)
            # gpsfake's feed() sends sentences[fake.index]: skipping means moving that index.
            fake.index = index = self.args.start_line
            self.started = True
        packets = fake.testload.sentences
        if index >= len(packets):
            self.done = True
            return False
        if self.args.realtime > 0:
            self.pace(packets[index])
        self.fed += 1
        return True


def main():
    # A parent such as a Swift test runner may hand us blocked signals; gpsd inherits
    # the mask and would then ignore the SIGTERM that ends it.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    args = parse_args()
    port = args.port or free_port()
    session = gpsfake.TestSession(port=port, options="", verbose=0, timeout=0, tcp=args.tcp)
    session.spawn()
    feeder = Feeder(args, session.daemon.process.pid)
    print("PORT=%d" % port, flush=True)
    print("GPSD_PID=%d" % session.daemon.process.pid, flush=True)
    fake = session.gps_add(args.log, speed=115200, pred=feeder, oneshot=True)
    t0 = time.time()
    try:
        device = session.fakegpslist[fake]
        while session.daemon and session.daemon.is_alive():
            device.read()
            if device.go_predicate(device.index, device):
                device.feed()
            elif feeder.done:
                time.sleep(args.linger)
                break
        sys.stderr.write("gpsreplay: fed %d packets in %.2f s\n" % (feeder.fed, time.time() - t0))
    finally:
        session.cleanup()


if __name__ == "__main__":
    main()
