# SPDX-License-Identifier: MIT
"""What the browser checks share: a phone-sized headless Chromium, waits that survive page
scripts, a click that waits for the page it loads, plain HTTP calls, and the failure line."""
import sys
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

PHONE = (412, 915)  # a common Android phone's CSS viewport


def browser(size=PHONE):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={size[0]},{size[1]}", "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": size[0], "height": size[1], "pixelRatio": 2.0},
        "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156 Mobile Safari/537.36"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def waiting(driver, seconds):
    """A wait whose conditions may meet an element that is not there yet, or one that a page
    script replaced: both are retried until the time is up."""
    return WebDriverWait(driver, seconds, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))


def submit(driver, element, seconds=30):
    """Clicks a button or link that loads a new page and waits until the new page has loaded.

    The old page is marked first (a property on its window object, which a new document does
    not have); the wait then asks the browser for that mark until a fully loaded document
    without it answers. It never asks about an element of the old page: an element of a page
    being unloaded can make Chromium answer "Node with given id does not belong to the
    document", an error a staleness wait does not retry. Errors while the navigation is in
    flight are retried, the wait ends on the new page's own state."""
    driver.execute_script("window.__logbookOldPage = true")
    element.click()

    def new_page_loaded(d):
        return d.execute_script(
            "return window.__logbookOldPage !== true && document.readyState === 'complete'")

    WebDriverWait(driver, seconds, ignored_exceptions=(WebDriverException,)).until(new_page_loaded)


def fail(check, why):
    print(f"web-browser: {check}: FAIL {why}", flush=True)
    sys.exit(1)


def status(url, headers=None, data=None, method=None):
    request = urllib.request.Request(url, headers=headers or {}, data=data, method=method)
    try:
        with urllib.request.urlopen(request) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
