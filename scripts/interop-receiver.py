#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A loopback receiver for the uplink's interop tests, one of three kinds:

  owntracks  the OwnTracks Recorder's HTTP mode: POST /pub, one JSON message per request,
             user/device in X-Limit-U/X-Limit-D; every message is APPENDED (the Recorder does
             not de-duplicate) and validated against the OwnTracks JSON schema (--schema DIR).
  overland   an Overland receiver as Dawarich's /api/v1/overland/batches: {"locations": [...]},
             each a GeoJSON Point Feature with properties.timestamp; de-duplicated by
             (timestamp, lon, lat) like Dawarich; answers {"result":"ok"}.
  osmand     Traccar's OsmAnd port: the query string, parsed field by field; de-duplicated
             by (id, timestamp) like Traccar's duplicate filter.

Every message received is one NDJSON line in --log (kept across restarts: a restarted receiver
reloads it to de-duplicate). --reject-nth N answers 400 to the N-th message (and keeps nothing
of it). Prints "listening PORT" once ready. Standard library only, plus python3-jsonschema for
--schema.
"""
import argparse, json, sys, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ap = argparse.ArgumentParser()
ap.add_argument("kind", choices=["owntracks", "overland", "osmand"])
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--log", required=True)
ap.add_argument("--schema")
ap.add_argument("--reject-nth", type=int, default=0)
args = ap.parse_args()

validator = None
if args.schema:
    import jsonschema
    with open(args.schema + "/message.json") as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)

seen = set()
count = 0
try:
    with open(args.log) as f:
        for line in f:
            r = json.loads(line)
            if r.get("stored"):
                seen.add(tuple(r["key"]))
            count += 1
except FileNotFoundError:
    pass
log = open(args.log, "a")


def record(entry):
    log.write(json.dumps(entry) + "\n")
    log.flush()


def iso_ok(s):
    return isinstance(s, str) and len(s) >= 20 and s[4] == "-" and s[10] == "T"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def reply(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.do_POST()

    def do_POST(self):
        global count
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        count += 1
        if args.reject_nth and count == args.reject_nth:
            record({"rejected": True, "n": count, "path": self.path})
            return self.reply(400, b'{"error":"rejected by the test"}')
        try:
            entries = handle(self.path, self.headers, body)
        except ValueError as e:
            record({"invalid": str(e), "path": self.path})
            return self.reply(422, json.dumps({"error": str(e)}).encode())
        for e in entries:
            record(e)
        if args.kind == "overland":
            return self.reply(200, b'{"result":"ok"}')
        if args.kind == "owntracks":
            return self.reply(200, b"[]")
        return self.reply(200)


def handle(path, headers, body):
    out = []
    if args.kind == "owntracks":
        if not path.startswith("/pub"):
            raise ValueError("not /pub")
        m = json.loads(body)
        valid = validator is None or validator.is_valid(m)
        key = [headers.get("X-Limit-U"), headers.get("X-Limit-D"), m.get("_type"), m.get("tst"), m.get("lat"), m.get("lon")]
        # The Recorder appends: every message is stored, duplicates too.
        out.append({"stored": True, "key": key, "dup": tuple(key) in seen, "valid": valid, "message": m})
        seen.add(tuple(key))
    elif args.kind == "overland":
        doc = json.loads(body)
        locations = doc.get("locations")
        if not isinstance(locations, list) or not locations:
            raise ValueError("no locations")
        for f in locations:
            g = f.get("geometry", {})
            c = g.get("coordinates")
            p = f.get("properties", {})
            if f.get("type") != "Feature" or g.get("type") != "Point" or not isinstance(c, list) or len(c) != 2 \
                    or not all(isinstance(x, (int, float)) for x in c) or not iso_ok(p.get("timestamp")):
                raise ValueError("not an Overland location: %r" % f)
        batch = []
        for f in locations:
            c = f["geometry"]["coordinates"]
            key = [f["properties"]["timestamp"], round(c[0], 7), round(c[1], 7)]
            dup = tuple(key) in seen
            if not dup:
                seen.add(tuple(key))
            batch.append({"stored": not dup, "key": key, "dup": dup, "batch": len(locations), "properties": f["properties"]})
        out += batch
    else:
        q = urllib.parse.urlsplit(path).query
        fields = dict(urllib.parse.parse_qsl(q, strict_parsing=True))
        for name in ("id", "lat", "lon", "timestamp"):
            if name not in fields:
                raise ValueError("missing " + name)
        parsed = {"id": fields["id"], "lat": float(fields["lat"]), "lon": float(fields["lon"]),
                  "timestamp": int(fields["timestamp"])}
        for name in ("speed", "bearing", "altitude", "accuracy"):
            if name in fields:
                parsed[name] = float(fields[name])
        if "ignition" in fields:
            if fields["ignition"] not in ("true", "false"):
                raise ValueError("ignition " + fields["ignition"])
            parsed["ignition"] = fields["ignition"] == "true"
        if "odometer" in fields:
            parsed["odometer"] = int(fields["odometer"])
        unknown = set(fields) - {"id", "lat", "lon", "timestamp", "speed", "bearing", "altitude", "accuracy", "ignition", "odometer"}
        if unknown:
            raise ValueError("unknown fields %s" % sorted(unknown))
        if not (-90 <= parsed["lat"] <= 90 and -180 <= parsed["lon"] <= 180):
            raise ValueError("out of range")
        key = [parsed["id"], parsed["timestamp"]]
        dup = tuple(key) in seen
        if not dup:
            seen.add(tuple(key))
        out.append({"stored": not dup, "key": key, "dup": dup, "fields": parsed})
    return out


server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
server.daemon_threads = True
print("listening %d" % args.port, flush=True)
server.serve_forever()
