#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The street maps in headless Chromium at a phone's size (Selenium), with tiles from a tile
server this script starts on loopback (scripts/tile_server.py draws them):

  live      the Live page's marker follows the car during the paced replay;
  trip      the trip page requests tiles only around the trip, at the zoom that frames it; the
            route is drawn in the speed colours; hovering the speed chart marks that moment on
            the map;
  slow      tiles answered after 20 s delay neither the page nor its route (notice at 2 s);
  offline   with the tile server stopped, the route and flags are drawn and the page says the
            tiles are offline, within 2 s;
  stations  the Stations page pins every station and lists them with navigation links;
  share     the trip's Share button (headless: copy + GPX download); the dashboard's price trend.

It starts logbook-web itself (--web BINARY --config FILE): the config gets [web] map_tiles
naming the tile server. One line per check: "web-maps: <check>: ok …"; exit 1 on a failure.
"""
import argparse
import json
import math
import os
import socket
import subprocess
import sys
import time
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tile_server import TileServer  # noqa: E402
from web_browser import browser, waiting  # noqa: E402


def fail(check, why):
    print(f"web-maps: {check}: FAIL {why}", flush=True)
    sys.exit(1)


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def tile_of(lat, lon, z):
    n = 2 ** z
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    return x, y


def metres(a, b):
    dlat = math.radians(b[0] - a[0])
    dlon = math.radians(b[1] - a[1]) * math.cos(math.radians(a[0]))
    return 6371000 * math.hypot(dlat, dlon)


def data(driver, element_id):
    return driver.execute_script("const e = document.getElementById(arguments[0]); return e ? Object.assign({}, e.dataset) : null",
                                 element_id) or {}


def start_web(web, config, tiles, log):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with open(config) as f:
        text = f.read()
    path = config + ".maps.toml"
    with open(path, "w") as f:
        f.write(text + f'\n[web]\nmap_tiles = "{tiles}"\nmap_attribution = "Test tiles"\n')
    proc = subprocess.Popen([web, "--config", path, "--listen", f"127.0.0.1:{port}"], stderr=open(log, "w"))
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/api/openapi.json", timeout=2)
            return proc, base
        except OSError:
            time.sleep(0.2)
    fail("setup", "logbook-web did not answer")


def live(driver, base):
    wait = waiting(driver, 60)
    driver.get(base + "/")
    wait.until(lambda d: int(data(d, "live-map").get("updates", "0")) >= 1)
    first = data(driver, "live-map")
    a = (float(first["lat"]), float(first["lon"]))
    wait.until(lambda d: metres(a, (float(data(d, "live-map")["lat"]), float(data(d, "live-map")["lon"]))) > 30)
    now = data(driver, "live-map")
    b = (float(now["lat"]), float(now["lon"]))
    markers = driver.execute_script("return document.querySelectorAll('#live-map path.leaflet-interactive').length")
    if markers < 2:
        fail("live", f"{markers} shapes on the live map (want the car and the trip so far)")
    try:
        wait.until(lambda d: int(data(d, "live-map").get("trailPoints", "0")) > int(now["updates"]))
    except Exception:
        trips = get_json(base + "/api/trips?limit=2")
        fail("live", f"the trip so far was not drawn: {data(driver, 'live-map')}, trips {str(trips)[:300]}")
    trail = int(data(driver, "live-map")["trailPoints"])
    print(f"web-maps: live: ok the car's marker moved {metres(a, b):.0f} m over {int(now['updates']) - int(first['updates'])} "
          f"live updates (SSE, no reload); the trip so far drawn with {trail} points (recorded before the page opened, then live)", flush=True)


def trip(driver, base, tiles, shots):
    wait = waiting(driver, 60)
    trip_id = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        trips = get_json(base + "/api/trips?limit=5").get("trips", [])
        ok = [t for t in trips if t.get("points", t.get("point_count", 0)) >= 200]
        if ok:
            trip_id = ok[0]["id"]
            break
        time.sleep(1)
    if trip_id is None:
        fail("trip", "no trip with 200 points within 120 s")
    tiles.taken()
    driver.get(f"{base}/trips/{trip_id}")
    wait.until(lambda d: data(d, "trip-map").get("drawn"))
    wait.until(lambda d: data(d, "trip-map").get("tilesState") == "online")
    # Every tile image in the map has loaded (or failed): the requests are complete.
    wait.until(lambda d: d.execute_script(
        "return Array.from(document.querySelectorAll('#trip-map img.leaflet-tile')).every(i => i.complete)"))
    time.sleep(0.5)  # not a synchronisation: lets a late request show up in the count below
    requested = tiles.taken()
    d = data(driver, "trip-map")
    zoom = round(float(d["zoom"]))
    s, w, n, e = (float(v) for v in d["bounds"].split(","))
    x0, y0 = tile_of(n, w, zoom)
    x1, y1 = tile_of(s, e, zoom)
    margin = 2  # the phone's 412 px wide view holds under two tiles either side of the trip's
    outside = [t for t in requested if t[0] != zoom or not (x0 - margin <= t[1] <= x1 + margin and y0 - margin <= t[2] <= y1 + margin)]
    if not requested or outside or zoom < 10:
        fail("trip-tiles", f"zoom {zoom}, {len(requested)} tiles, outside the trip's area: {outside[:5]}")
    print(f"web-maps: trip-tiles: ok trip {trip_id}: {len(requested)} tiles, all at zoom {zoom}, within {margin} tiles of the "
          f"trip's bounds (tiles x {x0}-{x1}, y {y0}-{y1}); none elsewhere", flush=True)

    track = get_json(f"{base}/api/trips/{trip_id}/track")
    strokes = driver.execute_script(
        "return Array.from(document.querySelectorAll('#trip-map path.route')).map(p => p.getAttribute('stroke'))")
    distinct = sorted(set(strokes))
    if len(distinct) < 3 or not set(distinct) <= set(track["colors"]):
        fail("trip-colours", f"route strokes {distinct} (want ≥ 3 of the speed palette {track['colors']})")
    flags = len(driver.find_elements(By.CSS_SELECTOR, "#trip-map .flag-start")) + len(driver.find_elements(By.CSS_SELECTOR, "#trip-map .flag-end"))
    if flags != 2:
        fail("trip-colours", f"{flags} start/end flags")
    bands = sorted(track["colors"].index(c) for c in distinct)
    print(f"web-maps: trip-colours: ok {len(strokes)} route segments in {len(distinct)} speed colours (bands {bands[0]}–{bands[-1]} "
          "of 12, red → yellow → green), start and end flags", flush=True)
    driver.save_screenshot(f"{shots}/web-map-trip.png")

    chart = driver.find_element(By.CSS_SELECTOR, "#trip-chart svg")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", chart)
    width = chart.size["width"]
    # Offsets count from the element's centre: -40 % is 10 % into the chart, -20 % is 30 %.
    ActionChains(driver).move_to_element_with_offset(chart, -int(width * 0.4), 0).click().perform()
    wait.until(lambda d: data(d, "trip-chart").get("markedIndex"))
    one = data(driver, "trip-chart")
    ActionChains(driver).move_to_element_with_offset(chart, -int(width * 0.2), 0).click().perform()
    wait.until(lambda d: data(d, "trip-chart").get("markedIndex") != one["markedIndex"])
    two = data(driver, "trip-chart")
    point = track["points"][int(two["markedIndex"])]
    marked = (float(two["markedLat"]), float(two["markedLon"]))
    drawn = driver.execute_script(
        "return Array.from(document.querySelectorAll('#trip-map path.leaflet-interactive')).filter(p => p.getAttribute('fill') === '#58a6ff').length")
    if metres(marked, (point[1], point[2])) > 1 or drawn != 1 or int(two["markedIndex"]) <= int(one["markedIndex"]):
        fail("trip-chart", f"marked {marked} vs point {point}, {drawn} markers")
    print(f"web-maps: trip-chart: ok tapping the speed chart at 10 % then 30 % marks points {one['markedIndex']} and "
          f"{two['markedIndex']} on the map (the marker sits on the track point, +{point[0]:.0f} s)", flush=True)
    return trip_id


def share(driver, base, trip_id):
    wait = waiting(driver, 30)
    driver.get(f"{base}/trips/{trip_id}")
    button = wait.until(lambda d: d.find_element(By.ID, "share") if d.find_element(By.ID, "share").is_displayed() else None)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait.until(lambda d: d.find_element(By.ID, "share-status").text)
    said = driver.find_element(By.ID, "share-status").text
    if "GPX downloaded" not in said and said != "Shared.":
        fail("share", f"the Share button said {said!r}")
    print(f"web-maps: share: ok headless Chromium cannot share files, so Share fell back: \"{said}\"", flush=True)


def dashboard(driver, base, expect):
    wait = waiting(driver, 30)
    driver.get(base + "/dashboard?range=all")
    wait.until(lambda d: d.find_element(By.ID, "price-trend"))
    points = len(driver.find_elements(By.CSS_SELECTOR, "#price-chart circle.point"))
    text = driver.find_element(By.ID, "price-trend").text
    if points != expect or "EUR" not in text:
        fail("price-trend", f"{points} points (want {expect}), {text!r}")
    print(f"web-maps: price-trend: ok the dashboard plots {points} fill-ups' price per litre: {text}", flush=True)


def slow(driver, base, tiles, trip_id):
    """Tiles that take 20 s each delay neither the page nor its route."""
    tiles.delay = 20.0
    wait = waiting(driver, 30)
    t0 = time.monotonic()
    driver.get(f"{base}/trips/{trip_id}")
    loaded = time.monotonic() - t0
    wait.until(lambda d: data(d, "trip-map").get("tilesState") == "offline" and data(d, "trip-map").get("drawn"))
    d = data(driver, "trip-map")
    if loaded > 2 or int(d["drawn"]) > 2000 or not 1900 <= int(d["offlineAt"]) <= 3500:
        fail("slow-tiles", f"page loaded in {loaded:.1f} s, route at {d['drawn']} ms, offline notice at {d['offlineAt']} ms")
    print(f"web-maps: slow-tiles: ok tiles answering after 20 s: the page loaded in {loaded:.1f} s, the route was drawn at "
          f"{d['drawn']} ms, the offline notice came at {d['offlineAt']} ms (the 2 s rule)", flush=True)


def offline(driver, base, tiles, trip_id, shots):
    tiles.stop()
    wait = waiting(driver, 30)
    driver.get(f"{base}/trips/{trip_id}")
    wait.until(lambda d: data(d, "trip-map").get("tilesState") == "offline" and data(d, "trip-map").get("drawn"))
    d = data(driver, "trip-map")
    notice = driver.find_element(By.CSS_SELECTOR, "#trip-map .map-status").text
    at = max(int(d["offlineAt"]), int(d["drawn"]))
    if "offline" not in notice.lower() or int(d.get("segments", "0")) < 1 or at > 2000 + 1500:
        fail("offline", f"notice {notice!r}, segments {d.get('segments')}, ready at {at} ms")
    driver.save_screenshot(f"{shots}/web-map-offline.png")
    print(f"web-maps: offline: ok tile server stopped: route ({d['segments']} segments) drawn at {d['drawn']} ms and "
          f"\"{notice}\" at {d['offlineAt']} ms after navigation start", flush=True)


def stations(driver, base, shots, expect):
    wait = waiting(driver, 30)
    driver.get(base + "/stations")
    wait.until(lambda d: data(d, "stations-map").get("pins"))
    pins = int(data(driver, "stations-map")["pins"])
    items = driver.find_elements(By.CSS_SELECTOR, "#stations li")
    links = driver.find_elements(By.CSS_SELECTOR, "#stations li a[href^='geo:']")
    if pins != expect or len(items) != expect or len(links) != expect:
        fail("stations", f"{pins} pins, {len(items)} list items, {len(links)} geo: links (want {expect})")
    driver.save_screenshot(f"{shots}/web-stations.png")
    print(f"web-maps: stations: ok {pins} pins framed on the map, {len(items)} stations listed nearest first with navigation links",
          flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--web", required=True)
    p.add_argument("--config", required=True)
    p.add_argument("--shots", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--stations", type=int, default=3)
    p.add_argument("--fills", type=int, default=4, help="fill-ups typed before (the price trend's points)")
    a = p.parse_args()
    tiles = TileServer()
    proc, base = start_web(a.web, a.config, tiles.template, a.log)
    driver = browser()
    try:
        live(driver, base)
        trip_id = trip(driver, base, tiles, a.shots)
        stations(driver, base, a.shots, a.stations)
        share(driver, base, trip_id)
        dashboard(driver, base, a.fills)
        slow(driver, base, tiles, trip_id)
        offline(driver, base, tiles, trip_id, a.shots)
    finally:
        driver.quit()
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
