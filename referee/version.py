"""referee's version: written once, here (hatch reads it for the package's metadata)."""

__version__ = "0.1.0"
