"""depyf 0.20.0's source distribution from PyPI, whose tests/ folder the
suite uses (its torch scripts in test_depyf_compat.py, its decompiler
inputs in test_roundtrip_depyf.py).  Downloaded once with `pip download
--no-deps --no-binary :all: depyf==0.20.0`, cached under build/depyf-sdist
and checked against its sha256; none of depyf's code is committed here."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

DEPYF = "depyf==0.20.0"
SDIST = REPO / "build" / "depyf-sdist" / "depyf-0.20.0.tar.gz"
SDIST_SHA256 = "fb7683bd72c44f67b56029df2c47721e9a02ffa4d7b19095f1c54c4ebf797a98"
# The folder of the sdist holding depyf's tests.
TESTS = "depyf-0.20.0/tests/"


def sdist() -> Path:
    """The path of the sdist, downloaded first when missing."""
    if not SDIST.is_file():
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
             DEPYF, "-d", str(SDIST.parent)],
            capture_output=True, text=True, timeout=600)
        if proc.returncode != 0 or not SDIST.is_file():
            pytest.fail("cannot take depyf's tests from PyPI: `pip download --no-deps "
                        "--no-binary :all: %s` failed (exit %d):\n%s"
                        % (DEPYF, proc.returncode, (proc.stdout + proc.stderr)[-3000:]),
                        pytrace=False)
    digest = hashlib.sha256(SDIST.read_bytes()).hexdigest()
    if digest != SDIST_SHA256:
        pytest.fail("%s has sha256 %s, not %s (the release these tests were written for); "
                    "delete it to download it again" % (SDIST, digest, SDIST_SHA256),
                    pytrace=False)
    return SDIST
