"""The wheel's build hook: the shipping calculator's search compiled from its one typed source.

The search modules (`SEARCH` below) are typed Python. Where a C compiler is present, mypyc
compiles them into extension modules, which Python imports in place of the `.py` files beside
them (`referee.jobs.shipping.build()` says which build runs). Where it is not, or mypyc cannot be had
(another Python than CPython), or `REFEREE_PURE_PYTHON=1` is set for the build, the wheel is the
plain one it always was: the same source runs as plain Python, and `pip install .` works on a
machine without a compiler (a warning says why the search is not compiled).

- A wheel (`python -m build`, `pip install .`): the compiled modules, their shared library and
  `referee/jobs/shipping/build.json` (the compiler, and the digest of each source compiled) go into
  the wheel, tagged for this Python and platform.
- An editable install (`pip install -e .`): the same files are written beside the sources, where
  the import of the package finds them. Python would import a compiled module even after its
  source changed, so `referee.jobs.shipping` checks `build.json` against the sources at import and
  runs the plain source where they differ (edit, test, no rebuild needed; `pip install -e .`
  again to compile once more).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGE = Path("referee") / "jobs" / "shipping"
# the search, compiled: summary.py (the answer read off the search) and __init__.py (which
# chooses the build at import) stay plain Python
SEARCH = ("compact", "memo", "memo_native", "keys", "tails", "phase", "values", "outcomes")
GROUP = "referee.jobs.shipping.search"  # mypyc's shared library of the compiled modules, in the package
LIBRARY = "search__mypyc"  # its file's name (before the extension suffix)
STAMP = "build.json"
PLAIN_SWITCH = "REFEREE_PURE_PYTHON"


class SearchCompiled(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles the search modules into the wheel (see the module), or leaves it plain."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile the search (a wheel, standard or editable), or say why the wheel stays plain."""
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        if version == "editable":
            remove_compiled(root)  # an earlier editable install's: a plain build leaves none behind
        reason = plain_reason()
        if reason is None:
            work = Path(tempfile.mkdtemp(prefix="referee-mypyc-"))
            try:
                built, reason = compile_search(root, work)
                if built:
                    self._use(version, build_data, root, work, built)
                    return
            finally:
                if version == "editable":
                    shutil.rmtree(work, ignore_errors=True)
                else:
                    self._work = work  # read by `finalize`, after the wheel is written
        self.app.display_warning(f"referee: the shipping search is not compiled ({reason}); it runs as plain Python")

    def _use(self, version: str, build_data: dict[str, Any], root: Path, work: Path, built: list[Path]) -> None:
        build_data["pure_python"] = False
        build_data["infer_tag"] = True  # the compiled modules are for this Python and platform
        # the compiled memo's buffers are mypyc's librt.vecs, imported at run time: the librt of the build, or newer
        build_data["dependencies"].append(f"librt>={librt_version()}")
        if version == "editable":
            for path in built:
                shutil.copy2(path, root / path.relative_to(work / "made"))
        else:
            build_data["force_include"].update({str(path): str(path.relative_to(work / "made")) for path in built})
        self.app.display_info(f"referee: the shipping search compiled by mypyc ({', '.join(SEARCH)})")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """The compiled files were copied into the wheel: their folder goes."""
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

    def clean(self, versions: list[str]) -> None:
        """`hatch clean`: the compiled modules written beside the sources go."""
        remove_compiled(Path(self.root))


def plain_reason() -> str | None:
    """Why the search cannot be compiled here (None: it may be tried)."""
    if os.environ.get(PLAIN_SWITCH, "") not in ("", "0"):
        return f"{PLAIN_SWITCH}={os.environ[PLAIN_SWITCH]}"
    if platform.python_implementation() != "CPython":
        return f"mypyc compiles for CPython, not {platform.python_implementation()}"
    try:
        import mypyc.build  # noqa: F401
    except ImportError as exc:
        return f"mypyc cannot be imported: {exc}"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not compiler or shutil.which(compiler[0]) is None:
        return f"no C compiler: {compiler[0] if compiler else 'none'} is not found"  # said at once, before mypyc's type check
    return None


def compile_search(root: Path, work: Path) -> tuple[list[Path], str]:
    """mypyc over the search modules, built in `work` (its own folder: setuptools never reads the
    project's pyproject.toml, nothing is written into the project): the files made, in
    `work/made` as in the package, or none and why."""
    sources = [root / PACKAGE / f"{name}.py" for name in SEARCH]
    setup = work / "setup.py"
    # mypy type-checks what the search imports: in an isolated build the referee's dependencies
    # are not installed (their types are unknown there, which changes nothing compiled), and
    # only the search's own modules must be free of errors
    arguments = ["--ignore-missing-imports", "--follow-imports=silent", *map(str, sources)]
    setup.write_text(
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"setup(name='referee-search', ext_modules=mypycify({arguments!r}, opt_level='3', group_name={GROUP!r}))\n"
    )
    try:
        process = subprocess.run(
            [sys.executable, str(setup), "build_ext", "--build-lib", "made"], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [], f"mypyc could not be run: {exc}"
    if process.returncode:
        last = [line for line in process.stdout.splitlines() if line.strip()][-3:]
        return [], "mypyc or the C compiler failed: " + " | ".join(last)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    made = work / "made"
    built = [made / PACKAGE / f"{name}{suffix}" for name in (*SEARCH, LIBRARY)]
    missing = [path.name for path in built if not path.exists()]
    if missing:
        return [], f"mypyc made no {', '.join(missing)}"
    stamp = made / PACKAGE / STAMP
    stamp.write_text(json.dumps({"compiler": f"mypyc {mypy_version()}", "sources": {path.name: digest(path) for path in sources}}, indent=1) + "\n")
    return [*built, stamp], ""


def digest(path: Path) -> str:
    """A source's digest, as `referee.jobs.shipping` reads it again at import."""
    return hashlib.blake2b(path.read_bytes(), digest_size=32).hexdigest()  # as referee.jobs.shipping.compiled.source_digest


def mypy_version() -> str:
    from mypy.version import __version__

    return __version__


def librt_version() -> str:
    """The version of mypyc's run-time library (`librt`) that the compiled modules are built against."""
    from importlib.metadata import version

    return version("librt")


def remove_compiled(root: Path) -> None:
    """The compiled modules and their stamp beside the sources, if an editable install wrote them."""
    folder = root / PACKAGE
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for name in (*SEARCH, LIBRARY):
        (folder / f"{name}{suffix}").unlink(missing_ok=True)
    (folder / STAMP).unlink(missing_ok=True)
