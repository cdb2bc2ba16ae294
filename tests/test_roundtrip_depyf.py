"""depyf's own decompiler tests round-trip on every installed CPython.

depyf 0.20.0's source distribution (tests/depyf_sdist.py) carries the
inputs of its decompiler tests: tests/test.py (one function per opcode
and construct), test_advanced.py, assert.py, test_code_owner.py and
test_ensure.py.  Each is round-tripped as a module by `python -m
unpyc.roundtrip` with every installed interpreter: every function
decompiled, recompiled with the same interpreter and compared with the
original (SPEC section 2).  Failures listed in
tests/known_failures/depyf-3.X.txt are tolerated, and the list only
shrinks (tests/roundtrip_checks.py); to rewrite it after a fix, run the
same command with --update-known.  The scripts are only compiled, never
run, so depyf itself is not needed.
"""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

from conftest import REPO, RESULTS, VERSIONS, run_python
from depyf_sdist import TESTS, sdist
from roundtrip_checks import assert_roundtrip_passed

pytestmark = pytest.mark.roundtrip

# depyf's decompiler inputs: the Python files directly in its tests/ folder
# (tests/test_pytorch holds its torch scripts, test_depyf_compat.py's).
INPUTS = ("assert.py", "test.py", "test_advanced.py", "test_code_owner.py", "test_ensure.py")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("depyf-tests")
    with tarfile.open(sdist()) as archive:
        for name in INPUTS:
            member = archive.extractfile(TESTS + name)
            assert member is not None, name
            (folder / name).write_bytes(member.read())
    return folder


@pytest.mark.parametrize("version", VERSIONS)
def test_depyf_decompiler_inputs_roundtrip(version: str, inputs: Path, unpyc_path: str) -> None:
    known = REPO / "tests" / "known_failures" / ("depyf-%s.txt" % version)
    out = RESULTS / "roundtrip" / ("depyf-%s.json" % version)
    proc = run_python(version, unpyc_path, [
        "-m", "unpyc.roundtrip", *INPUTS, "--jobs", "1", "--known", str(known),
        "--json", str(out)], cwd=inputs)
    assert_roundtrip_passed(proc, out, known)
