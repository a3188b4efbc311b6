"""What the browser tests share: Debian's chromium (or a skip, and in CI an error, where it is
missing), a `referee serve` server for the module, and one headless browser for the module.
Imported by the page tests (`from tests.browser import address, browser`); nothing else imports
Playwright."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.commands.server import make_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("the browser tests need Debian's chromium: apt-get install -y chromium (.ci/run does)")
    pytest.skip("Debian's chromium is not installed (apt-get install -y chromium); CI runs these tests", allow_module_level=True)

from playwright.sync_api import sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """The page's address on a server of this module's own."""
    httpd = make_server("127.0.0.1", 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's chromium, headless, for this module's pages."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()
