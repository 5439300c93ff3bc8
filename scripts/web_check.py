#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Drives the logbook web app in headless Chromium (Selenium) at a phone's size.

Against a real logbook-web in front of a real logbookd fed by a replaying gpsd:
  live   the Live page starts a trip with the Start button, the distance shown rises as the
         drive replays, Stop ends the trip (the page returns to idle);
  trips  the Trips list links the trip, its page shows the route picture (the SVG loads);
  garage the Garage form logs two fill-ups (they show in the list), a third with the odometer
         going back is refused on the page with what was typed kept; the Dashboard shows the
         fill-ups and the economy chart; trip 1 is classified business on its page; the Report
         counts it as business and its printable page opens;
  writes every other write the CLI makes, through the forms (web_writes.py), the trip's
         history panel, and a refusal that `logbook` words the same way;
  auth   (second server, with a password) pages redirect to the login, the API answers 401,
         a wrong password is refused, the right one opens the Live page.
Screenshots (phone-sized) go to --shots. One line per check: "web-browser: <check>: ok …".
Exit 1 on the first failure.
"""
import argparse
import json
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select

import web_writes
from web_browser import browser, fail, status, submit, waiting


def distance_km(driver):
    text = driver.find_element(By.CSS_SELECTOR, '[data-field="distance"]').text
    try:
        return float(text)
    except ValueError:
        return -1.0


def live(driver, base, shots):
    wait = waiting(driver, 60)
    driver.get(base + "/")
    wait.until(ec.visibility_of_element_located((By.ID, "start")))
    Select(driver.find_element(By.ID, "vehicle")).select_by_value("golf")
    submit(driver, driver.find_element(By.ID, "start"))
    wait.until(ec.visibility_of_element_located((By.ID, "stop")))
    wait.until(lambda d: distance_km(d) > 0)
    first, t0 = distance_km(driver), time.monotonic()
    wait.until(lambda d: distance_km(d) >= first + 1.5)
    last, t1 = distance_km(driver), time.monotonic()
    if driver.find_element(By.CSS_SELECTOR, '[data-field="vehicle"]').text != "Golf":
        fail("live", "the trip card does not name the vehicle Golf")
    driver.save_screenshot(f"{shots}/web-live.png")
    print(f"web-browser: live: ok Start, then the page's distance rose {first:.2f} → {last:.2f} km in {t1 - t0:.1f} s "
          "without a reload (SSE)", flush=True)
    driver.find_element(By.ID, "stop").click()  # asks first (web_phone.py tests both answers)
    submit(driver, wait.until(ec.element_to_be_clickable((By.ID, "stop-yes"))))
    wait.until(ec.visibility_of_element_located((By.ID, "start")))
    notices = driver.find_elements(By.CSS_SELECTOR, ".notice.good")
    notice = notices[0].text if notices else ""
    try:
        wait.until(lambda d: "By hand" in d.find_element(By.CSS_SELECTOR, '[data-field="last"]').text)
    except Exception:
        fail("stop", "the last-trip card never said By hand (manual): "
             + repr(driver.find_element(By.CSS_SELECTOR, '[data-field="last"]').text))
    last_trip = driver.find_element(By.CSS_SELECTOR, '[data-field="last"]').text
    print(f"web-browser: stop: ok \"{notice}\", last trip card: \"{last_trip}\"", flush=True)


def trips(driver, base, shots):
    wait = waiting(driver, 30)
    driver.get(base + "/trips")
    link = wait.until(ec.element_to_be_clickable((By.CSS_SELECTOR, '#trips a[href="/trips/1"]')))
    driver.save_screenshot(f"{shots}/web-trips.png")
    submit(driver, link)
    picture = wait.until(ec.presence_of_element_located((By.ID, "picture")))
    wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", picture) > 0)
    size = driver.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight]", picture)
    end = driver.find_element(By.ID, "end-reason").text
    if "By hand" not in end:
        fail("trip-page", f"end reason shown is {end!r}")
    driver.save_screenshot(f"{shots}/web-trip.png")
    print(f"web-browser: trip-page: ok /trips lists trip 1; its page shows the route SVG ({size[0]}x{size[1]}), ended: {end}",
          flush=True)


def fill_up(driver, wait, odometer, litres, price):
    driver.get(driver.base + "/garage")
    wait.until(ec.visibility_of_element_located((By.ID, "fuel-form")))
    Select(driver.find_element(By.ID, "fuel-vehicle")).select_by_value("golf")
    for field, value in (("fuel-odometer", odometer), ("fuel-litres", litres), ("fuel-price", price), ("fuel-currency", "EUR")):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    submit(driver, driver.find_element(By.CSS_SELECTOR, "#fuel-form button[type=submit]"))
    wait.until(ec.visibility_of_element_located((By.ID, "notice")))
    return driver.find_element(By.ID, "notice")


def garage(driver, base, shots):
    wait = waiting(driver, 30)
    driver.base = base
    notice = fill_up(driver, wait, "12345", "40.5", "72.10")
    if "good" not in notice.get_attribute("class"):
        fail("garage", f"the first fill-up was refused: {notice.text!r}")
    notice = fill_up(driver, wait, "12945", "36.2", "64.80")
    rows = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#fuel-logs tbody tr")]
    if len(rows) != 2 or "36.20 L" not in rows[0] or "40.50 L" not in rows[1]:
        fail("garage", f"the fuel log list after two fill-ups: {rows!r}")
    driver.save_screenshot(f"{shots}/web-garage.png")
    notice = fill_up(driver, wait, "11000", "30", "50")
    kept = driver.find_element(By.ID, "fuel-odometer").get_attribute("value")
    if "bad" not in notice.get_attribute("class") or kept != "11000":
        fail("garage", f"an odometer going back was not refused on the page: {notice.text!r}, field kept {kept!r}")
    if len(driver.find_elements(By.CSS_SELECTOR, "#fuel-logs tbody tr")) != 2:
        fail("garage", "the refused fill-up appears in the list")
    print(f"web-browser: garage: ok two fill-ups added through the form show in the list; odometer going back refused "
          f"(\"{notice.text}\")", flush=True)

    driver.get(base + "/dashboard?range=all")
    wait.until(ec.presence_of_element_located((By.ID, "economy-chart")))
    fills = driver.find_element(By.ID, "kpi-fillups").text
    economy = driver.find_element(By.ID, "kpi-economy").text
    if fills != "2" or not economy.startswith("6.03"):
        fail("dashboard", f"fill-ups {fills!r}, economy {economy!r} (want 2 and 6.03 L/100 km: 36.2 L over 600 km)")
    driver.save_screenshot(f"{shots}/web-dashboard.png")
    print(f"web-browser: dashboard: ok fill-ups {fills}, economy {economy}, trend chart drawn", flush=True)

    driver.get(base + "/trips/1")
    form = wait.until(ec.visibility_of_element_located((By.ID, "class-form")))
    Select(driver.find_element(By.ID, "class-class")).select_by_value("business")
    driver.find_element(By.ID, "class-purpose").send_keys("Client visit")
    submit(driver, form.find_element(By.CSS_SELECTOR, "button[type=submit]"))
    wait.until(lambda d: "business" in d.find_element(By.ID, "class-now").text)
    code, body = status(base + "/api/trips/1")
    year = json.loads(body)["started_at"][:4]
    driver.get(f"{base}/report?year={year}")
    business = wait.until(ec.visibility_of_element_located((By.ID, "total-business"))).text
    if not business or business.startswith("0.00"):
        fail("report", f"the business total of {year} is {business!r} after classifying trip 1")
    driver.save_screenshot(f"{shots}/web-report.png")
    submit(driver, driver.find_element(By.ID, "report-print"))
    wait.until(lambda d: "Mileage report" in d.find_element(By.TAG_NAME, "h1").text)
    if "Client visit" not in driver.page_source:
        fail("report", "the printable report does not show the purpose typed on the trip page")
    print(f"web-browser: report: ok trip 1 classified business on its page; {year} report: business {business}; "
          "printable page shows the purpose", flush=True)


def auth(driver, base, password):
    wait = waiting(driver, 30)
    code, body = status(base + "/api/live")
    if code != 401 or json.loads(body)["error"]["code"] != "unauthorized":
        fail("auth", f"/api/live without login: {code} {body[:120]!r}")
    code, _ = status(base + "/api/trip/stop", headers={"Content-Type": "application/json"}, data=b"{}", method="POST")
    if code != 401:
        fail("auth", f"POST /api/trip/stop without login: {code}")
    code, _ = status(base + "/api/live", headers={"Authorization": "Bearer " + password})
    if code != 200:
        fail("auth", f"/api/live with the bearer token: {code}")
    driver.delete_all_cookies()
    driver.get(base + "/trips")
    wait.until(ec.visibility_of_element_located((By.ID, "password")))
    if "/login" not in driver.current_url:
        fail("auth", f"/trips without login did not redirect to the login page: {driver.current_url}")
    driver.find_element(By.ID, "password").send_keys("wrong-password")
    submit(driver, driver.find_element(By.CSS_SELECTOR, "form button[type=submit]"))
    wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, ".notice.bad")))
    refused = driver.find_element(By.CSS_SELECTOR, ".notice.bad").text
    driver.find_element(By.ID, "password").send_keys(password)
    submit(driver, driver.find_element(By.CSS_SELECTOR, "form button[type=submit]"))
    wait.until(lambda d: d.current_url.endswith("/trips"))
    cookie = driver.get_cookie("logbook_session") or {}
    if not cookie.get("httpOnly") or cookie.get("sameSite") != "Strict":
        fail("auth", f"session cookie flags: {cookie}")
    print(f"web-browser: auth: ok 401 for the API without login, /trips → /login, wrong password refused (\"{refused}\"), "
          "right one signs in (HttpOnly, SameSite=Strict)", flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--base", required=True)
    p.add_argument("--secure-base", required=True)
    p.add_argument("--password-file", required=True)
    p.add_argument("--shots", required=True)
    p.add_argument("--step", choices=["live", "rest"], required=True)
    p.add_argument("--logbook", required=True, help="the logbook command line (binary and --config), for the same refusal")
    a = p.parse_args()
    driver = browser()
    try:
        if a.step == "live":
            live(driver, a.base, a.shots)
        else:
            trips(driver, a.base, a.shots)
            garage(driver, a.base, a.shots)
            web_writes.run(driver, a.base, a.shots, a.logbook.split())
            auth(driver, a.secure_base, open(a.password_file).read().strip())
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
