"""The Python side is typed: mypy --strict passes on the unpyc package."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO


def test_package_passes_mypy_strict() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "-p", "unpyc"],
        cwd=REPO / "python", capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
