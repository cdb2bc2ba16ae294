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

import json
import os
from typing import Any, Dict, List

import pytest

from conftest import REPO, RESULTS, VERSIONS, run_python

pytestmark = pytest.mark.roundtrip

CHUNKS = 4
KNOWN = REPO / "tests" / "known_failures"


def _details(result: Dict[str, Any], keys: List[str], limit: int = 40) -> str:
    """The keys with the first difference of each, for the failure message."""
    details = {}
    for module in result["modules"]:
        details[module["path"]] = module.get("detail")
        for kind, suffix in (("functions", ""), ("standalone", " (standalone)")):
            for f in module[kind]:
                details["%s::%s%s" % (module["path"], f["qualname"], suffix)] = f.get("detail")
    lines = ["  %s: %s" % (key, details.get(key)) for key in keys[:limit]]
    if len(keys) > limit:
        lines.append("  ... and %d more" % (len(keys) - limit))
    return "\n".join(lines)


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("version", VERSIONS)
def test_stdlib_roundtrip(version: str, chunk: int, unpyc_path: str) -> None:
    import unpyc

    if not hasattr(unpyc, "decompile"):
        pytest.skip("unpyc.decompile does not exist yet: the round trip waits for the decompiler")
    known = KNOWN / (version + ".txt")
    out = RESULTS / "roundtrip" / ("%s-%d.json" % (version, chunk))
    jobs = "1" if os.environ.get("PYTEST_XDIST_WORKER") else "auto"
    proc = run_python(version, unpyc_path, [
        "-m", "unpyc.roundtrip", "--stdlib", "--chunk", "%d/%d" % (chunk, CHUNKS),
        "--jobs", jobs, "--sample-functions", "10", "--known", str(known),
        "--json", str(out)])
    assert out.exists(), proc.stdout[-2000:] + proc.stderr[-4000:]
    result = json.loads(out.read_text())
    summary = result["summary"]
    assert summary["modules"] > 0 and summary["function_status"], summary
    for status in ("crash", "timeout"):
        broken = [m["path"] for m in result["modules"] if m["status"] == status]
        assert not broken, "%s on %d modules:\n%s" % (status, len(broken), _details(result, broken))
    assert not result["new"], "%d new failures (not in %s):\n%s" % (
        len(result["new"]), known.relative_to(REPO), _details(result, result["new"]))
    listed = result["fixed"] + result["stale"]
    assert not listed, "remove these entries from %s, they no longer fail:\n%s" % (
        known.relative_to(REPO), "\n".join("  " + key for key in listed))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
