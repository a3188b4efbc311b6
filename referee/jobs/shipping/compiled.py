"""Which build of the search runs: the compiled one, or the plain Python of the same source.

Where a C compiler was present when the package was built, mypyc compiled the search modules
(`SEARCH`; `hatch_build.py` at the project's root) into extension modules beside their sources,
with `build.json`: the compiler, and the digest of each source it compiled. Python imports an
extension module in place of the `.py` beside it, so this module, imported by the package before
any search module, runs the `.py` sources instead (by a finder placed first on `sys.meta_path`)
when:

- `REFEREE_PURE_PYTHON=1` is set (to run the plain build where the compiled one is installed:
  CI runs the shipping tests so, beside the whole suite on the compiled build);
- a source no longer has the digest it was compiled from (an editable install whose source was
  edited since: the compiled module would run the old rules).

Nothing else differs: one source, the same answers (tests/test_shipping_build.py).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PACKAGE = "referee.jobs.shipping"
SEARCH = ("compact", "memo", "memo_native", "keys", "tails", "phase", "values", "outcomes")  # as hatch_build.py compiles them
PLAIN_SWITCH = "REFEREE_PURE_PYTHON"
STAMP = "build.json"
HERE = Path(__file__).resolve().parent


def source_digest(source: bytes) -> str:
    """A source's digest as `build.json` holds it (hatch_build.py writes the same): BLAKE2b, 32
    bytes, in hex; CPython's own, not hashlib's, which would load OpenSSL at every start."""
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover (another Python)
        from hashlib import blake2b
    return blake2b(source, digest_size=32).hexdigest()


def plain_reason() -> str | None:
    """Why the search runs as plain Python (None: the compiled modules are there, and current)."""
    switch = os.environ.get(PLAIN_SWITCH, "")
    if switch not in ("", "0"):
        return f"{PLAIN_SWITCH}={switch}"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    if not all((HERE / f"{name}{suffix}").exists() for name in SEARCH):
        return "not compiled when the package was built (no C compiler, or a plain build)"
    try:
        sources: dict[str, str] = json.loads((HERE / STAMP).read_text())["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return f"the compiled modules have no readable {STAMP}"
    for name in SEARCH:
        if sources.get(f"{name}.py") != source_digest((HERE / f"{name}.py").read_bytes()):
            return f"{name}.py changed since it was compiled (install the package again to compile it)"
    return None


class PlainSource:
    """A finder that gives the search modules their `.py` source, ahead of the compiled ones."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None) -> ModuleSpec | None:
        """The spec of a search module from its source; None for any other module."""
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in SEARCH:
            return None
        return importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")


REASON = plain_reason()
if REASON is not None and not any(isinstance(finder, PlainSource) for finder in sys.meta_path):
    sys.meta_path.insert(0, PlainSource())


def build() -> str:
    """Which build of the search runs: "compiled" (mypyc's extension modules, which Python
    imports ahead of the sources beside them) or "plain" (Python: `REASON` says why);
    tests/test_shipping_build.py checks it against each module as it was imported."""
    return "compiled" if REASON is None else "plain"

