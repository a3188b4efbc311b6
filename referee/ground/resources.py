"""Where the bundled data lives: inside the wheel (`referee/_data`) or beside the package."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # referee/ (this module lies in referee/ground/)


def data_dir(name: str) -> Path:
    """The directory of bundled `rulesets` or `schemas`, from a wheel or a source checkout."""
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / name
