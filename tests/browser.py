"""What the browser tests share: Debian's chromium (or a skip, and in CI an error, where it is
missing), one `referee serve` server and one headless browser for the run, and the group that
keeps them on one worker (each test opens a context of its own: no storage is shared).
Imported by the page tests (`from tests import browser`) and by those two fixtures; nothing else
imports Playwright."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from referee.commands.server import make_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("the browser tests need Debian's chromium: apt-get install -y chromium (.ci/run does)")
    pytest.skip("Debian's chromium is not installed (apt-get install -y chromium); CI runs these tests", allow_module_level=True)

from playwright.sync_api import sync_playwright  # noqa: E402

# The page tests run on one worker, one after another: one chromium and one server for them all
# (the fixtures `address` and `browser` of tests/conftest.py, of the session: a fixture of this
# module would be one per test module), and never two browsers at once on two cores.
IN_THE_BROWSER = pytest.mark.xdist_group("browser")


@contextmanager
def served() -> Iterator[str]:
    """The page's address on a server of the browser tests' own (its tables in a database of its own)."""
    import tempfile

    folder = tempfile.TemporaryDirectory(prefix="referee-browser-tables-")
    httpd = make_server("127.0.0.1", 0, database=Path(folder.name) / "tables.sqlite3")
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()
    folder.cleanup()


@contextmanager
def headless() -> Iterator[object]:
    """Debian's chromium, headless, for the browser tests' pages."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()
