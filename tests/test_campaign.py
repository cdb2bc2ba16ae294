"""Generated-program differential testing (python -m unpyc.campaign).

A fixed-seed smoke run of the campaign on every installed CPython 3.8-3.13:
the same 40 pysource-codegen and 10 hypothesmith programs each time,
round-tripped, with the failing ones listed per version in
tests/known_failures/campaign/smoke-3.X.txt (the list only shrinks; a crash
or a timeout always fails).  Then the shrinking itself, on a failure of
that list, and the programs a real campaign shrank
(tests/campaign_failures/), round-tripped like the construct tests with
their own known-failures lists.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

import pytest

from conftest import REPO, RESULTS, VERSIONS, interpreter, run_python

KNOWN = REPO / "tests" / "known_failures" / "campaign"
MINIMIZED = REPO / "tests" / "campaign_failures"
SMOKE = ["--programs", "40", "--hypothesmith", "10", "--seed", "0", "--timeout", "60"]


@pytest.mark.parametrize("version", VERSIONS)
def test_smoke_campaign(version: str) -> None:
    interpreter(version)
    out = RESULTS / "campaign" / ("smoke-%s.json" % version)
    out.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [sys.executable, "-m", "unpyc.campaign", "--versions", version, "--known-dir",
         str(KNOWN), "--json", str(out)] + SMOKE,
        capture_output=True, text=True, timeout=600)
    assert out.exists(), proc.stdout + proc.stderr[-3000:]
    run: Dict[str, Any] = json.loads(out.read_text())["versions"][0]
    ran = [r["program"].split(":")[0] for r in run["records"] if r["status"] != "skipped"]
    assert ran.count("pysource-codegen") == 40 and ran.count("hypothesmith") > 0, ran
    assert not run["counts"].get("crash") and not run["counts"].get("timeout"), proc.stdout
    assert proc.returncode == 0, proc.stdout


def test_failure_shrinks_to_the_same_failure(unpyc_path: str) -> None:
    """The first listed smoke failure on 3.11, shrunk by pysource-minimize
    in a 3.11 worker: smaller, and still failing with the same verdict and
    category."""
    from unpyc import campaign
    from unpyc.roundtrip import read_known

    known = sorted(read_known(str(KNOWN / "smoke-3.11.txt")))
    codegen = [name for name in known if name.startswith("pysource-codegen:")]
    if not codegen:
        pytest.skip("no pysource-codegen program of the 3.11 smoke run fails")
    _generator, seed, k = codegen[0].split(":")
    source = campaign.Programs(int(seed), 60, 4).codegen(int(k)).source
    target = campaign.Target("3.11", interpreter("3.11"), unpyc_path, 60)
    try:
        verdict = target.check(source)
        key = (verdict["status"], verdict["category"])
        assert key[0] in campaign.FAILURES, verdict
        smaller = campaign.minimize_failure(target, source, key, 120)
        again = target.check(smaller)
    finally:
        target.stop()
    assert len(smaller) < len(source), smaller
    assert (again["status"], again["category"]) == key, (smaller, again)


@pytest.mark.parametrize("version", VERSIONS)
def test_minimized_failures(version: str, unpyc_path: str) -> None:
    """The shrunk programs of tests/campaign_failures/ on every version: a
    failure not in known_failures/campaign/minimized-3.X.txt fails, so
    does a listed one that passes now, and a crash or timeout."""
    files = sorted(p.name for p in MINIMIZED.glob("*.py"))
    out = RESULTS / "campaign" / ("minimized-%s.json" % version)
    out.parent.mkdir(parents=True, exist_ok=True)
    proc = run_python(version, unpyc_path, [
        "-m", "unpyc.roundtrip", "--known", str(KNOWN / ("minimized-%s.txt" % version)),
        "--json", str(out)] + files, cwd=MINIMIZED, timeout=600)
    assert out.exists(), proc.stdout + proc.stderr[-3000:]
    result = json.loads(out.read_text())
    statuses = result["summary"]["module_status"]
    assert not statuses.get("crash") and not statuses.get("timeout"), proc.stdout
    assert proc.returncode == 0, proc.stdout
