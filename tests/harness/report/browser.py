"""A real browser for the site's tests: Debian's Chromium driven through its ChromeDriver.

Nothing is downloaded: the tests skip, saying why, where the system has no Chromium, no
ChromeDriver or no ``selenium`` (``.ci/install-browser`` installs the first two from the
system's packages, the test extra the third).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
ARTIFACTS = Path(os.environ.get("CUBEBENCH_ARTIFACTS", ".test-artifacts"))

# a page's own faults, read back after it loads: images that did not decode, and whether
# the site's script ran to its end (it marks the document) and its stylesheet applied
_CHECK = """
return {
  broken: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)
          .map(i => i.getAttribute('src')),
  ready: document.documentElement.getAttribute('data-site'),
  styled: getComputedStyle(document.querySelector('header')).backgroundColor,
};
"""
# every link of a served page to a file of the site, asked for: those that are missing
_LINKS = """
const done = arguments[arguments.length - 1];
if (!location.protocol.startsWith('http')) { done([]); return; }
const local = Array.from(document.querySelectorAll('a[href]')).map(a => a.href.split('#')[0])
  .filter(h => h.startsWith(location.origin));
Promise.all([...new Set(local)].map(h => fetch(h, {method: 'HEAD'})
  .then(r => r.ok ? null : h, () => h))).then(r => done(r.filter(x => x)));
"""
STYLED = "rgb(13, 42, 74)"  # the header's colour in site.css
WIDTH, HEIGHT = 1366, 900  # the laptop screen the site is laid out for


def find_browser() -> tuple[str, str] | None:
    """Chromium's and ChromeDriver's paths, or None."""
    browser = next((p for name in CHROMIUM if (p := shutil.which(name))), None)
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


def start_driver(profile: Path):
    """A headless Chromium that keeps its console log and talks to nothing outside."""
    found = find_browser()
    if found is None:
        pytest.skip("no Chromium and ChromeDriver here (bash .ci/install-browser installs them)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[test]')")
    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--disable-quic", f"--window-size={WIDTH},{HEIGHT}",
        f"--user-data-dir={profile}",
    ):  # fmt: skip
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=found[1]))
    fit_viewport(driver)
    return driver


def fit_viewport(driver) -> None:
    """Size the window so that the page itself sees WIDTH × HEIGHT (the window's own frame
    takes some of what ``--window-size`` gives)."""
    driver.set_window_size(WIDTH, HEIGHT)
    inner = viewport(driver)
    driver.set_window_size(2 * WIDTH - inner[0], 2 * HEIGHT - inner[1])


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """A static file server over ``folder`` on a free local port; yields its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def page_problems(driver, url: str) -> list[str]:
    """Load ``url`` and say what is wrong with it: console errors (a script error, a failed
    request), broken images, links to the site's own files that lead nowhere (a served
    page), a script that did not run, a stylesheet that did not apply."""
    driver.get_log("browser")  # what earlier pages left
    driver.get(url)
    found = driver.execute_script(_CHECK)
    problems = [
        f"console: {entry['message']}"
        for entry in driver.get_log("browser")
        if entry["level"] in ("SEVERE", "WARNING")
    ]
    problems += [f"broken image: {src}" for src in found["broken"]]
    problems += [f"broken link: {href}" for href in driver.execute_async_script(_LINKS)]
    if found["ready"] != "ready":
        problems.append("the site's script did not run to its end")
    if found["styled"] != STYLED:
        problems.append(f"the stylesheet did not apply (header colour {found['styled']})")
    return problems


def screenshot(driver, name: str, whole: bool = True) -> Path:
    """Save what the browser shows as ``ARTIFACTS/name.png``: the whole page's height, or
    (``whole=False``) the first screen only."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    if whole:
        driver.set_window_size(WIDTH, min(max(int(height), 600), 6000))
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    fit_viewport(driver)
    return path


def viewport(driver) -> tuple[int, int]:
    """The page's inner width and height (the window less its frame)."""
    size = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    return int(size[0]), int(size[1])
