"""Every installed CPython 3.8-3.13 round-trips its own standard library.

For each version, ``python -m unpyc.roundtrip --stdlib`` decompiles every
module of that interpreter's Lib/ (tests included), and alone a fixed sample
of about one def in ten, compiles the output with the same interpreter and
compares the bytecode (SPEC section 2).  Failures listed in
tests/known_failures/3.X.txt are tolerated; the test fails on any other
failure, on a listed entry that passes now (remove it: the list only
shrinks), on a timeout and on a crashed worker.  To rewrite a list after a
fix, run the same command with ``--update-known``.

The work is split in chunks, as test_dis_stdlib.py does: pytest-xdist
spreads the 24 items over the cores and each item runs one worker process,
so on the 2-core CI machine both cores stay busy without oversubscribing
them, and the round trip interleaves with the disassembly suite.  (Run
without xdist, each item uses every core itself.)  Deselect the suite with
``-m "not roundtrip"``.
"""

from __future__ import annotations

import os

import pytest

from conftest import REPO, RESULTS, VERSIONS, run_python
from roundtrip_checks import assert_roundtrip_passed

pytestmark = pytest.mark.roundtrip

CHUNKS = 4
KNOWN = REPO / "tests" / "known_failures"


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("version", VERSIONS)
def test_stdlib_roundtrip(version: str, chunk: int, unpyc_path: str) -> None:
    known = KNOWN / (version + ".txt")
    out = RESULTS / "roundtrip" / ("%s-%d.json" % (version, chunk))
    jobs = "1" if os.environ.get("PYTEST_XDIST_WORKER") else "auto"
    proc = run_python(version, unpyc_path, [
        "-m", "unpyc.roundtrip", "--stdlib", "--chunk", "%d/%d" % (chunk, CHUNKS),
        "--jobs", jobs, "--sample-functions", "10", "--known", str(known),
        "--json", str(out)])
    assert_roundtrip_passed(proc, out, known)
