#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Independent reference for trip tests: the WGS-84 geodesic length of a recorded NMEA
drive, summed over consecutive valid fixes (RMC status A), with GeographicLib (Karney's
algorithm; Debian python3-geographiclib), plus the maximum speed and the time span.

Prints JSON: {"fixes": N, "distance_m": D, "max_speed_mps": V, "span_s": S}
Usage: geodesic_sum.py LOG
"""
import json
import sys

from geographiclib.geodesic import Geodesic


def degrees(value, hemisphere):
    # NMEA ddmm.mmmm / dddmm.mmmm: minutes are the two digits before the point and after.
    dot = value.index(".")
    d = float(value[:dot - 2]) + float(value[dot - 2:]) / 60.0
    return -d if hemisphere in ("S", "W") else d


def fixes(path):
    seen = set()
    day = 0
    last_t = None
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("ascii", "replace").strip()
            if not line.startswith("$") or line[3:6] != "RMC":
                continue
            parts = line.split("*")[0].split(",")
            if len(parts) < 10 or parts[2] != "A" or not parts[3] or not parts[5]:
                continue
            hh, mm, ss = int(parts[1][0:2]), int(parts[1][2:4]), float(parts[1][4:])
            t = parts[9] + parts[1]
            if t in seen:
                continue
            seen.add(t)
            secs = hh * 3600 + mm * 60 + ss
            if last_t is not None and secs + day < last_t - 43200:
                day += 86400
            secs += day
            last_t = secs
            speed = float(parts[7]) * 0.514444 if parts[7] else 0.0
            yield secs, degrees(parts[3], parts[4]), degrees(parts[5], parts[6]), speed


def main():
    g = Geodesic.WGS84
    total, n, vmax, first, last, prev = 0.0, 0, 0.0, None, None, None
    for t, lat, lon, v in fixes(sys.argv[1]):
        if prev is not None:
            total += g.Inverse(prev[0], prev[1], lat, lon)["s12"]
        prev = (lat, lon)
        vmax = max(vmax, v)
        first = t if first is None else first
        last = t
        n += 1
    print(json.dumps({"fixes": n, "distance_m": total, "max_speed_mps": vmax, "span_s": (last or 0) - (first or 0)}))


if __name__ == "__main__":
    main()
