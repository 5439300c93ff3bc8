# SPDX-License-Identifier: MIT
"""The web app's writes, driven in the browser the way a person uses the forms (web_check.py
runs them after the Garage and Report checks, on the trip the Live check recorded):

  fuel       a fill-up with date and time, missed flag, note, station and this phone's position
             (Chromium's geolocation, overridden), then amended and voided on its page;
  vehicles   a vehicle with every field added, edited; a duplicate registration refused on the
             page with what was typed; the new vehicle offered by the Live page's picker;
  odometer   a reading added, one going backwards refused, amended, voided;
  service    a task added, a duplicate refused, marked done, removed;
  places     a place saved at the car's last position (the live state's), resized, a duplicate
             refused, removed;
  trip       trip 1 split (after a split outside it is refused), merged back, assigned to
             another vehicle and driver and back, voided and restored; the history panel lists
             every change with its origin; the retired vehicle leaves the pickers.
Prints "web-browser: <check>: ok …"; exits 1 on the first failure.
"""
import datetime
import json
import subprocess
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select

from web_browser import fail, status, submit, waiting

PHONE_POSITION = (48.1351, 11.5820)  # Marienplatz, where the emulated phone says it is


def fill(driver, values):
    """Types `values` (element id → value) the way a person does: text typed, a choice picked,
    a date and time set (a `datetime-local` input), a box ticked (True/False)."""
    for element_id, value in values.items():
        box = driver.find_element(By.ID, element_id)
        kind = box.get_attribute("type")
        if box.tag_name == "select":
            Select(box).select_by_value(value)
        elif kind == "checkbox":
            if box.is_selected() != value:
                box.click()
        elif kind == "datetime-local":
            driver.execute_script("arguments[0].value = arguments[1]", box, value)
        else:
            box.clear()
            box.send_keys(value)


def send(driver, form_id, values, expect="good"):
    """Fills and submits form `form_id`; returns the notice of the page it loads, which must be
    `expect` (good or bad)."""
    fill(driver, values)
    submit(driver, driver.find_element(By.CSS_SELECTOR, f"#{form_id} button[type=submit]"))
    notice = waiting(driver, 30).until(ec.visibility_of_element_located((By.ID, "notice")))
    if expect not in notice.get_attribute("class"):
        fail(form_id, f"expected a {expect} notice, got {notice.text!r}")
    return notice.text


def history(driver, table="history"):
    """The rows of a history panel: (when, change, by)."""
    rows = driver.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")
    return [tuple(td.text for td in r.find_elements(By.TAG_NAME, "td")) for r in rows]


def fuel(driver, base, shots):
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                           {"latitude": PHONE_POSITION[0], "longitude": PHONE_POSITION[1], "accuracy": 12})
    driver.get(base + "/garage")
    wait = waiting(driver, 30)
    locate = wait.until(ec.visibility_of_element_located((By.ID, "fuel-locate")))
    locate.click()
    wait.until(lambda d: d.find_element(By.ID, "fuel-lat").get_attribute("value") != "")
    lat, lon = (float(driver.find_element(By.ID, f"fuel-{k}").get_attribute("value")) for k in ("lat", "lon"))
    if abs(lat - PHONE_POSITION[0]) > 1e-4 or abs(lon - PHONE_POSITION[1]) > 1e-4:
        fail("fuel", f"the phone's position filled in {lat}, {lon}")
    day = (datetime.datetime.now() - datetime.timedelta(days=1)).replace(hour=8, minute=15)
    when = day.strftime("%Y-%m-%dT%H:%M")
    send(driver, "fuel-form", {"fuel-vehicle": "golf", "fuel-at": when, "fuel-odometer": "12000", "fuel-litres": "30",
                               "fuel-price": "55.50", "fuel-currency": "EUR", "fuel-station": "Shell Leopoldstraße",
                               "fuel-missed": True, "fuel-note": "Autobahn"})
    rows = [r for r in driver.find_elements(By.CSS_SELECTOR, "#fuel-logs tbody tr") if "missed before" in r.text]
    if len(rows) != 1 or "30.00 L" not in rows[0].text or "Shell" not in rows[0].text:
        fail("fuel", f"the fill-up's row: {[r.text for r in rows]!r}")
    row = rows[0]
    driver.save_screenshot(f"{shots}/web-garage.png")
    submit(driver, row.find_element(By.TAG_NAME, "a"))
    wait.until(ec.visibility_of_element_located((By.ID, "fuel-amend")))
    note = driver.find_element(By.ID, "fuel-amend-note").get_attribute("value")
    shown_at = driver.find_element(By.ID, "fuel-amend-at").get_attribute("value")
    if note != "Autobahn" or shown_at != when or not driver.find_element(By.ID, "fuel-amend-missed").is_selected():
        fail("fuel", f"the amend form shows note {note!r}, time {shown_at!r} (typed {when!r})")
    changed = send(driver, "fuel-amend", {"fuel-amend-litres": "31.5"})
    voided = send(driver, "fuel-void", {"fuel-void-reason": "typed twice"})
    changes = history(driver)
    if len(changes) != 3 or any(by != "web" for _, _, by in changes):
        fail("fuel", f"the fill-up's history: {changes!r}")
    print(f"web-browser: fuel: ok fill-up of {when} (missed, note, station, this phone's position {lat:.5f}, {lon:.5f}) "
          f"added, amended (\"{changed}\" 31.5 L), voided (\"{voided}\"); its history: {len(changes)} changes by web", flush=True)


def vehicles(driver, base):
    driver.get(base + "/garage")
    submit(driver, driver.find_element(By.ID, "vehicle-new"))
    send(driver, "vehicle-add", {"vehicle-add-id": "polo", "vehicle-add-name": "Polo", "vehicle-add-make": "VW",
                                 "vehicle-add-model": "Polo", "vehicle-add-year": "2015", "vehicle-add-registration": "M-PO 1",
                                 "vehicle-add-fuel_type": "petrol", "vehicle-add-tank_l": "45",
                                 "vehicle-add-initial_odometer_km": "80000", "vehicle-add-vin": "WVWZZZ6RZFY123456",
                                 "vehicle-add-driver": "Anna"})
    send(driver, "vehicle-edit", {"vehicle-edit-driver": "Ben"})
    if [c for _, c, _ in history(driver)] != ["vehicle polo added", "vehicle polo changed"]:
        fail("vehicles", f"polo's history: {history(driver)!r}")
    driver.get(base + "/garage/vehicles/new")
    refused = send(driver, "vehicle-add", {"vehicle-add-id": "golf2", "vehicle-add-registration": "m-po 1"}, expect="bad")
    if driver.find_element(By.ID, "vehicle-add-id").get_attribute("value") != "golf2":
        fail("vehicles", "the refused form lost what was typed")
    driver.get(base + "/")
    offered = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#vehicle option")]
    if "polo" not in offered:
        fail("vehicles", f"the Live page's picker offers {offered!r}")
    print(f"web-browser: vehicles: ok polo added with every field (vin, driver), edited; duplicate plate refused "
          f"(\"{refused}\", typed id kept); the Live picker offers {offered}", flush=True)


def odometer(driver, base):
    driver.get(base + "/garage/odometer")
    send(driver, "odometer-add", {"odometer-add-vehicle": "golf", "odometer-add-odometer": "13000", "odometer-add-note": "at the pump"})
    refused = send(driver, "odometer-add", {"odometer-add-vehicle": "golf", "odometer-add-odometer": "100"}, expect="bad")
    if driver.find_element(By.ID, "odometer-add-odometer").get_attribute("value") != "100":
        fail("odometer", "the refused reading lost what was typed")
    submit(driver, driver.find_element(By.CSS_SELECTOR, "#readings tbody tr a"))
    send(driver, "odometer-amend", {"odometer-amend-odometer": "13100"})
    send(driver, "odometer-void", {"odometer-void-reason": "misread"})
    print(f"web-browser: odometer: ok reading added, amended to 13100 km, voided; one going back refused (\"{refused}\")", flush=True)


def service(driver, base):
    driver.get(base + "/garage/service")
    task = {"service-add-id": "golf-tyres", "service-add-vehicle": "golf", "service-add-name": "Tyres", "service-add-every_months": "6"}
    send(driver, "service-add", task)
    driver.get(base + "/garage/service")
    refused = send(driver, "service-add", task, expect="bad")
    driver.get(base + "/garage/service/golf-tyres")
    send(driver, "service-done", {"service-done-odometer": "13000", "service-done-note": "winter tyres on"})
    send(driver, "service-remove", {"service-remove-reason": "done by the dealer"})
    print(f"web-browser: service: ok task added, marked done, removed; a second one with its id refused (\"{refused}\")", flush=True)


def metres(a, b):
    """Equirectangular distance (m) between (lat, lon) pairs: ample for a few hundred metres."""
    import math
    dlat = math.radians(b[0] - a[0])
    dlon = math.radians(b[1] - a[1]) * math.cos(math.radians((a[0] + b[0]) / 2))
    return 6371000 * math.hypot(dlat, dlon)


def car_position(base):
    code, body = status(base + "/api/live")
    gps = json.loads(body).get("gps", {}) if code == 200 else {}
    return (gps.get("lat", 0), gps.get("lon", 0))


def places(driver, base):
    # The replay goes on, so the car moves while the form is sent: its position when the
    # place is saved lies between the one read before and the one read after.
    before = car_position(base)
    driver.get(base + "/garage/places")
    send(driver, "place-add", {"place-add-id": "home", "place-add-name": "Home", "place-add-car": True})
    after = car_position(base)
    _, body = status(base + "/api/places")
    home = next(p for p in json.loads(body)["places"] if p["id"] == "home")
    at = (home["lat"], home["lon"])
    moved = metres(before, after)
    if max(metres(at, before), metres(at, after)) > moved + 25:
        fail("places", f"home is at {at}, the car was at {before} before the form and {after} after ({moved:.0f} m apart)")
    send(driver, "place-edit", {"place-edit-radius": "250"})
    driver.get(base + "/garage/places")
    refused = send(driver, "place-add", {"place-add-id": "home", "place-add-lat": "48.1", "place-add-lon": "11.5"}, expect="bad")
    driver.get(base + "/garage/places/home")
    send(driver, "place-remove", {})
    print(f"web-browser: places: ok home saved at the car's last position ({home['lat']:.5f}, {home['lon']:.5f}), "
          f"resized to 250 m, removed; a duplicate refused (\"{refused}\")", flush=True)


def local(iso):
    """An ISO 8601 UTC time as a `datetime-local` value with seconds, in this machine's zone
    (the Pi's, where logbook-web runs)."""
    t = datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone()
    return t.strftime("%Y-%m-%dT%H:%M:%S")


def trip(driver, base, shots, cli):
    _, body = status(base + "/api/trips/1")
    t = json.loads(body)
    start = datetime.datetime.fromisoformat(t["started_at"].replace("Z", "+00:00"))
    end = datetime.datetime.fromisoformat(t["ended_at"].replace("Z", "+00:00"))
    before = (start - datetime.timedelta(hours=1)).replace(microsecond=0)
    driver.get(base + "/trips/1")
    refused = send(driver, "split-form", {"split-form-at": local(before.isoformat())}, expect="bad")
    # The same split with `logbook`, now: the same one line, exit 64, nothing written.
    said = subprocess.run(cli + ["trips", "split", "1", "--at", before.strftime("%Y-%m-%dT%H:%M:%SZ")], capture_output=True, text=True)
    if said.returncode != 64 or said.stderr.strip() != "logbook: " + refused:
        fail("refusal", f"the page said {refused!r}; logbook said {said.stderr.strip()!r} (exit {said.returncode})")
    if driver.find_element(By.ID, "split-form-at").get_attribute("value") != local(before.isoformat()):
        fail("trip", "the refused split lost the time typed")
    middle = (start + (end - start) / 2).replace(microsecond=0)
    split = send(driver, "split-form", {"split-form-at": local(middle.isoformat())})
    _, body = status(base + "/api/trips/2")
    second = json.loads(body)
    if second.get("split_from") != "1":
        fail("trip", f"trip 2 after the split: {second!r}")
    driver.get(base + "/trips")
    listed = driver.find_element(By.CSS_SELECTOR, '#trips tr[data-id="2"]').text
    driver.get(base + "/trips/1")
    if driver.find_element(By.ID, "merge-form-with").get_attribute("value") != "2":
        fail("trip", "the merge form does not offer the next trip, 2")
    merged = send(driver, "merge-form", {})
    driver.find_element(By.ID, "merged-state")
    send(driver, "assign-form", {"assign-form-vehicle": "polo", "assign-form-driver": "Anna"})
    title, driver_shown = driver.find_element(By.TAG_NAME, "h1").text, driver.find_element(By.ID, "driver").text
    if "Polo" not in title or driver_shown != "Anna":
        fail("trip", f"after the assignment the page says {title!r}, driver {driver_shown!r}")
    send(driver, "assign-form", {"assign-form-vehicle": "golf"})
    voided = send(driver, "void-form", {"void-form-reason": "test drive"})
    driver.find_element(By.ID, "void-state")
    driver.get(base + "/trips")
    totals = driver.find_element(By.ID, "totals").text
    if "1 void not counted" not in totals:
        fail("trip", f"the Trips list's totals with trip 1 void: {totals!r}")
    driver.get(base + "/trips/1")
    send(driver, "restore-form", {"restore-form-reason": "it was a real trip"})
    changes = history(driver)
    wanted = ["classified business", "split at", "merged into trip 1", "assigned to vehicle polo driver Anna", "assigned to vehicle golf",
              "voided: test drive", "restored: it was a real trip"]
    texts = [c for _, c, _ in changes]
    if len(changes) != len(wanted) or any(w not in c for w, c in zip(wanted, texts)) or any(by != "web" for _, _, by in changes):
        fail("history", f"the history panel lists {changes!r}")
    driver.execute_script("document.getElementById('history').scrollIntoView()")
    driver.save_screenshot(f"{shots}/web-trip-history.png")
    print(f"web-browser: refusal: ok split before the trip refused on its page: \"{refused}\" (the time typed kept); "
          "logbook trips split says the same line, exit 64", flush=True)
    print(f"web-browser: trip: ok split (\"{split}\"; the list shows {listed!r}), merged back (\"{merged}\"), assigned to Polo "
          f"driven by Anna and back, voided (\"{voided}\"; list totals \"{totals}\"), restored", flush=True)
    print(f"web-browser: history: ok the trip page lists {len(changes)} changes, each by web: " + "; ".join(texts), flush=True)


def retire(driver, base):
    driver.get(base + "/garage/vehicles/polo")
    retired = send(driver, "vehicle-retire", {"vehicle-retire-reason": "sold"})
    driver.get(base + "/")
    offered = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#vehicle option")]
    if "polo" in offered:
        fail("retire", f"the Live picker still offers polo: {offered!r}")
    print(f"web-browser: retire: ok \"{retired}\"; the Live picker offers {offered}", flush=True)


def run(driver, base, shots, cli):
    started = time.monotonic()
    fuel(driver, base, shots)
    vehicles(driver, base)
    odometer(driver, base)
    service(driver, base)
    places(driver, base)
    trip(driver, base, shots, cli)
    retire(driver, base)
    print(f"web-browser: writes: ok every write the CLI makes, done in the browser in {time.monotonic() - started:.0f} s", flush=True)
