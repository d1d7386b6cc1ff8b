"""Headless Chromium for the tests that drive a page: Debian's browser and driver, a fresh profile, no network.

Needs ``apt-get install chromium chromium-driver`` and ``pip install selenium`` (the ``browser``
extra; ``.ci/run`` installs all three); without them the tests skip, which CI turns into a failure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# Flags that keep headless Chromium off the network and away from any profile but a fresh one.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
)


@contextmanager
def chromium(profile: Path, prefs: dict[str, object] | None = None) -> Iterator[Any]:
    """Starts headless Chromium with a fresh profile in ``profile``; skips the test if it is not installed."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("Debian's Chromium is not installed: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    if prefs:
        options.add_experimental_option("prefs", prefs)
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver: Any, condition: Callable[[Any], object], seconds: float, what: str) -> Any:
    """Waits for ``condition(driver)`` to be true, failing with ``what`` after ``seconds``."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(condition, message=f"waited for {what}")
