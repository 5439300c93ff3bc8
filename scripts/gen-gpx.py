#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a GPX 1.1 file of about SIZE bytes for the import's memory test: one <trk> per day,
each a 50-minute drive at 1 Hz (speed and course in Garmin's TrackPointExtension, <ele>),
a stop, and another drive; days apart, so the trip rules cut two trips a day.

usage: gen-gpx.py OUT SIZE_BYTES
"""
import math, sys, time

out, size = sys.argv[1], int(float(sys.argv[2]))
t = 1262332800  # 2010-01-01
lat, lon = 48.1, 11.5
with open(out, "w", buffering=1 << 20) as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="gen-gpx" '
            'xmlns="http://www.topografix.com/GPX/1/1" '
            'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">\n')
    day = 0
    while f.tell() < size:
        f.write(" <trk><name>day %d</name><trkseg>\n" % day)
        for drive in range(2):
            heading = (day * 37 + drive * 180) % 360
            for i in range(3000):
                v = 20 + 8 * math.sin(i / 60.0)
                lat += v * math.cos(math.radians(heading)) / 111_320
                lon += v * math.sin(math.radians(heading)) / (111_320 * math.cos(math.radians(lat)))
                if i % 300 == 0:
                    heading = (heading + 30) % 360
                stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
                f.write('  <trkpt lat="%.7f" lon="%.7f"><ele>%.1f</ele><time>%s</time><extensions><gpxtpx:TrackPointExtension>'
                        '<gpxtpx:speed>%.2f</gpxtpx:speed><gpxtpx:course>%d</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>\n'
                        % (lat, lon, 500 + 20 * math.sin(i / 300.0), stamp, v, heading))
                t += 1
            t += 2 * 3600  # parked two hours between drives
        f.write(" </trkseg></trk>\n")
        lat, lon = 48.1, 11.5
        t += 16 * 3600
        day += 1
    f.write("</gpx>\n")
