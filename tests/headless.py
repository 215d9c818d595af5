"""A headless Chromium driven by Selenium, for the pages the tool writes (coverage, mutation).

The tests that use it are skipped only where no Chromium and chromedriver can be found
(`.ci/run` installs them).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest


def _browser() -> tuple[str, str] | None:
    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser",
                                                   "google-chrome", "chrome"))), None)
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


def browser_found() -> bool:
    return _browser() is not None


needs_browser = pytest.mark.skipif(
    not browser_found(), reason="no headless browser: install Chromium and chromedriver "
    "(apt-get install chromium chromium-driver), as .ci/run does")


@contextmanager
def headless_page(path: Path) -> Iterator[Any]:
    """A headless Chromium session on a page (a file: URL), 1400 px wide."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.service import Service

    binary, chromedriver = _browser()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-extensions", "--window-size=1400,900"):
        options.add_argument(argument)
    # the driver's path is given, so Selenium Manager (which could download one) never runs
    driver = webdriver.Chrome(options=options, service=Service(chromedriver))
    driver.url_of_page = path.as_uri()
    driver.get(driver.url_of_page)
    try:
        yield driver
    finally:
        driver.quit()


def scrolls_sideways(driver, selector: str) -> list[str]:
    """What scrolls sideways at the window's width: the page, or a box around `selector`
    (a table may scroll inside its box on a narrow screen only when the box says so)."""
    page, viewport, inner, box = driver.execute_script(
        "const t = document.querySelector(arguments[0]); "
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth, "
        "t.scrollWidth, t.parentElement.clientWidth]", selector)
    return (["the page"] if page > viewport else []) + ([selector] if inner > box else [])
