"""Every installed CPython 3.8-3.13 round-trips a real-world corpus: the
.py files of the 42 PyPI packages pinned in tests/realworld/packages.txt
(async code, match statements, dataclasses, typing-heavy and generator-heavy
code nobody here wrote), unpacked by scripts/setup.sh under
build/realworld/corpus.

For each version, ``python -m unpyc.roundtrip --root build/realworld/corpus``
decompiles every module, and alone a fixed sample of about one def in ten,
compiles the output with the same interpreter and compares the bytecode
(SPEC section 2).  A module whose source that version cannot compile (newer
syntax) is skipped and counted in the table, not failed.  Failures listed
in tests/known_failures/realworld-3.X.txt are tolerated; the test fails on
any other failure, on a listed entry that passes now (the list only
shrinks), on a timeout and on a crashed worker.  To rewrite a list after a
fix, run the same command with ``--update-known``.

Two chunks per version, spread over the cores by pytest-xdist as in
test_roundtrip_stdlib.py.  Deselect with ``-m "not roundtrip"``.
"""

from __future__ import annotations

import os

import pytest

from conftest import REPO, RESULTS, VERSIONS, run_python
from roundtrip_checks import assert_roundtrip_passed

pytestmark = pytest.mark.roundtrip

CHUNKS = 2
CORPUS = REPO / "build" / "realworld" / "corpus"
KNOWN = REPO / "tests" / "known_failures"


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("version", VERSIONS)
def test_realworld_roundtrip(version: str, chunk: int, unpyc_path: str) -> None:
    if not any(CORPUS.glob("*/*")):
        pytest.fail("no corpus in %s: run `bash scripts/setup.sh`" % CORPUS.relative_to(REPO))
    known = KNOWN / ("realworld-%s.txt" % version)
    out = RESULTS / "realworld" / ("%s-%d.json" % (version, chunk))
    jobs = "1" if os.environ.get("PYTEST_XDIST_WORKER") else "auto"
    proc = run_python(version, unpyc_path, [
        "-m", "unpyc.roundtrip", "--root", str(CORPUS), "--chunk", "%d/%d" % (chunk, CHUNKS),
        "--jobs", jobs, "--sample-functions", "10", "--known", str(known),
        "--json", str(out)])
    assert_roundtrip_passed(proc, out, known)
