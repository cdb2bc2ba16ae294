"""The helpers of depyf.utils that depyf's own scripts import, so that they
run unchanged with `import unpyc as depyf`."""

from __future__ import annotations

import os


def safe_create_directory(path: "str | os.PathLike[str]") -> None:
    """Creates the folder path and its parents; no error when it exists,
    also when another process creates it at the same moment (several
    ranks making one dump dir)."""
    os.makedirs(path, exist_ok=True)
