#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent checks of logbook's exports and pictures; prints one JSON line of findings
and exits non-zero on a rule broken. The Swift tests (LogbookExportTests) run it.

  export_check.py gpx FILE                 counts trk/trkseg/trkpt, speeds, courses; first point
  export_check.py geojson FILE             geojson package validation + RFC 7946 rules it skips
  export_check.py csv FILE                 RFC 4180 parse (csv module): header, rows per trip
  export_check.py png FILE W H [--map X0 Y0 X1 Y1] [--exclude X0 Y0 X1 Y1]... [--svg SVG]
                                           size, not blank, red/yellow/green pixels in the map area;
                                           with --svg, the same counts in Pillow's own drawing of
                                           that SVG's route and markers ("expected"), for comparison
"""
import json
import re
import sys

GPX = "{http://www.topografix.com/GPX/1/1}"
TPX = "{http://www.garmin.com/xmlschemas/TrackPointExtension/v2}"
SUMMARY = ["id", "vehicle", "started_at", "ended_at", "start_reason", "end_reason", "distance_m",
           "duration_s", "avg_speed_mps", "max_speed_mps", "points", "discarded", "recovered"]


def fail(problem, **found):
    print(json.dumps({"ok": False, "problem": problem, **found}))
    sys.exit(1)


def check_gpx(path):
    import xml.etree.ElementTree as ET
    root = ET.parse(path).getroot()
    if root.tag != GPX + "gpx" or root.get("version") != "1.1":
        fail("root is not GPX 1.1", tag=root.tag)
    trks = root.findall(GPX + "trk")
    segs = [s for t in trks for s in t.findall(GPX + "trkseg")]
    pts = [p for s in segs for p in s.findall(GPX + "trkpt")]
    speeds = [float(e.text) for e in root.iter(TPX + "speed")]
    courses = [float(e.text) for e in root.iter(TPX + "course")]
    if any(not (0 <= c < 360) for c in courses):
        fail("course out of [0, 360)")
    first = None
    if pts:
        p = pts[0]
        first = {"lat": float(p.get("lat")), "lon": float(p.get("lon")), "time": p.findtext(GPX + "time")}
    names = [t.findtext(GPX + "name") for t in trks]
    print(json.dumps({"ok": True, "trk": len(trks), "trkseg": len(segs), "trkpt": len(pts),
                      "speeds": len(speeds), "courses": len(courses), "max_speed": max(speeds, default=0),
                      "first": first, "names": names[:3]}))


def check_geojson(path):
    import geojson
    text = open(path, encoding="utf-8").read()
    obj = geojson.loads(text)
    if not obj.is_valid:
        fail("geojson package: invalid", errors=obj.errors())
    # Keep numbers as text to check their precision (RFC 7946 §11.2 recommends ≤ 7 places here).
    raw = json.loads(text, parse_float=str, parse_int=str)
    if raw.get("type") != "FeatureCollection":
        fail("not a FeatureCollection")
    if "crs" in raw:
        fail("crs member (RFC 7946 §4 removed it)")
    positions = padded = lines = 0
    features = raw["features"]
    for f in features:
        if f.get("type") != "Feature":
            fail("not a Feature")
        props = f.get("properties") or {}
        missing = [k for k in SUMMARY if k not in props]
        if missing:
            fail("summary properties missing", missing=missing)
        g = f.get("geometry")
        if g is None:
            continue
        if g["type"] == "LineString":
            parts, speeds = [g["coordinates"]], [props["segment_speeds_mps"]]
        elif g["type"] == "MultiLineString":
            parts, speeds = g["coordinates"], props["segment_speeds_mps"]
        else:
            fail("unexpected geometry", type=g["type"])
        if len(speeds) != len(parts):
            fail("segment_speeds_mps does not match the lines")
        for line, sp in zip(parts, speeds):
            lines += 1
            if len(line) < 2:
                fail("LineString with fewer than two positions (RFC 7946 §3.1.4)")
            if len(sp) != len(line) - 1:
                fail("one speed per segment expected", positions=len(line), speeds=len(sp))
            for pos in line:
                if len(pos) != 2:
                    fail("position is not [lon, lat]", position=pos)
                for v in pos:
                    if "." in v and len(v.split(".")[1]) > 7:
                        fail("more than 7 decimals", value=v)
                lon, lat = float(pos[0]), float(pos[1])
                if not (-180 <= lon <= 180 and -90 <= lat <= 90):
                    fail("position out of range (lon, lat order?)", position=pos)
            positions += len(line)
            if len(line) == 2 and line[0] == line[1]:
                padded += 1
    first = None
    for f in features:
        if f.get("geometry"):
            g = f["geometry"]
            c = g["coordinates"][0] if g["type"] == "LineString" else g["coordinates"][0][0]
            first = {"lon": float(c[0]), "lat": float(c[1])}
            break
    props = json.loads(text)["features"][0]["properties"] if features else None
    print(json.dumps({"ok": True, "features": len(features), "lines": lines, "positions": positions,
                      "padded": padded, "points": positions - padded, "first": first,
                      "properties": {k: props[k] for k in SUMMARY} if props else None}))


def check_csv(path):
    import csv
    with open(path, newline="", encoding="utf-8") as f:
        raw = f.read()
    if raw and not raw.endswith("\r\n"):
        fail("records must end with CRLF (RFC 4180 §2)")
    rows = list(csv.reader(raw.splitlines(keepends=True), strict=True))
    header, body = rows[0], rows[1:]
    per_trip = {}
    for r in body:
        if len(r) != len(header):
            fail("row width differs from the header", row=r)
        per_trip[r[0]] = per_trip.get(r[0], 0) + 1
        float(r[3]), float(r[4])
        if not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$", r[2]):
            fail("time is not ISO 8601 UTC", value=r[2])
    first = {"lat": float(body[0][3]), "lon": float(body[0][4]), "time": body[0][2]} if body else None
    print(json.dumps({"ok": True, "header": header, "rows": len(body), "trips": per_trip, "first": first,
                      "vehicles": sorted({r[1] for r in body})}))


def colour_class(r, g, b):
    """red, yellow, green or None, by the rule the route's speed colours are told apart."""
    if b > 90:
        return None
    if r > 190 and g < 90:
        return "red"
    if r > 190 and g > 190:
        return "yellow"
    if g > 190 and r < 90:
        return "green"
    return None


def count_route(img, box, excludes):
    px = img.load()
    counts = {"red": 0, "yellow": 0, "green": 0}
    for y in range(box[1], box[3]):
        for x in range(box[0], box[2]):
            if any(x0 <= x < x1 and y0 <= y < y1 for x0, y0, x1, y1 in excludes):
                continue
            c = colour_class(*px[x, y])
            if c:
                counts[c] += 1
    return counts


def draw_svg_route(svg_path, size):
    """The SVG's route polylines (in drawing order, 4 px, round caps and joins), gap lines and
    start/end markers drawn by Pillow: what the picture must show where, without a browser."""
    from PIL import Image, ImageDraw
    with open(svg_path, encoding="utf-8") as f:
        svg = f.read()
    colours = {m.group(1): m.group(2) for m in re.finditer(r"\.lb-b(\d+)\{stroke:(#[0-9a-f]{6})\}", svg)}
    img = Image.new("RGB", size, "#f4f6f8")
    draw = ImageDraw.Draw(img)
    route = svg[svg.index('<g class="lb-route">'):]
    route = route[:route.index("</g>")]
    for m in re.finditer(r'<polyline class="lb-b(\d+)" points="([^"]+)"', route):
        colour = colours[m.group(1)]
        pts = [tuple(float(v) for v in p.split(",")) for p in m.group(2).split()]
        draw.line(pts, fill=colour, width=4, joint="curve")
        for x, y in (pts[0], pts[-1]):
            draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=colour)
    for m in re.finditer(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)" fill="(#[0-9a-f]{6})" stroke="(#[0-9a-f]{6})" '
                         r'stroke-width="([\d.]+)"', svg):
        x, y, r, w = float(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(6))
        draw.ellipse((x - r - w / 2, y - r - w / 2, x + r + w / 2, y + r + w / 2), fill=m.group(5))
        draw.ellipse((x - r + w / 2, y - r + w / 2, x + r - w / 2, y + r - w / 2), fill=m.group(4))
    return img


def check_png(path, args):
    from PIL import Image
    w, h = int(args[0]), int(args[1])
    box, excludes, svg = (0, 0, w, h), [], None
    i = 2
    while i < len(args):
        if args[i] == "--svg":
            svg = args[i + 1]
            i += 2
            continue
        coords = tuple(int(v) for v in args[i + 1:i + 5])
        if args[i] == "--map":
            box = coords
        elif args[i] == "--exclude":
            excludes.append(coords)
        i += 5
    img = Image.open(path).convert("RGB")
    if img.size != (w, h):
        fail("unexpected size", size=img.size)
    colours = img.getcolors(maxcolors=1 << 20) or []
    if len(colours) < 16:
        fail("blank picture", colours=len(colours))
    found = {"ok": True, "size": img.size, "colours": len(colours), "route": count_route(img, box, excludes),
             "background": img.load()[2, h - 2]}
    if svg:
        found["expected"] = count_route(draw_svg_route(svg, (w, h)), box, excludes)
    print(json.dumps(found))


if __name__ == "__main__":
    kind, file = sys.argv[1], sys.argv[2]
    {"gpx": check_gpx, "geojson": check_geojson, "csv": check_csv}.get(kind, lambda p: check_png(p, sys.argv[3:]))(file)
