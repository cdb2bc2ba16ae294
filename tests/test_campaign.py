"""Generated-program differential testing (python -m unpyc.campaign).

A fixed-seed smoke run of the campaign on every installed CPython 3.8-3.13:
the same 40 pysource-codegen and 10 hypothesmith programs each time,
round-tripped, with the failing ones listed per version in
tests/known_failures/campaign/smoke-3.X.txt (the list only shrinks; a crash
or a timeout always fails).  Then the shrinking itself, on a planted
failure, and the programs a real campaign shrank
(tests/campaign_failures/), round-tripped like the construct tests with
their own known-failures lists.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import CodeType
from typing import Any, Dict

import pytest

from unpyc import campaign, roundtrip
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


PLANTED = "planted_difference = name_0 - name_1"


def _planted_fault(code: CodeType) -> str:
    """unpyc's output, except that the planted subtraction comes out as an
    addition: a decompiler wrong on purpose, so that the shrinking is
    tested on a failure whatever the engine gets right."""
    import unpyc

    return unpyc.decompile(code, verify=False).replace(PLANTED, PLANTED.replace("-", "+"))


class PlantedTarget(campaign.Target):
    """This interpreter, checking programs with _planted_fault in place of
    unpyc (no worker process)."""

    def __init__(self) -> None:
        super().__init__(sys.version[:4].rstrip("."), sys.executable, "", 60)

    def check(self, source: str) -> Dict[str, Any]:
        return campaign.check_program(source, decompiler=_planted_fault)


def test_failure_shrinks_to_the_same_failure() -> None:
    """A generated program with a planted wrong output, shrunk by
    pysource-minimize: smaller, still failing with the same verdict and
    category, and the planted statement is what is left of it."""
    source = campaign.Programs(0, 60, 4).codegen(0).source + "\n" + PLANTED + "\n"
    target = PlantedTarget()
    verdict = target.check(source)
    key = (verdict["status"], verdict["category"])
    assert key[0] == roundtrip.DIFFERS, verdict
    assert campaign.check_program(source)["output"] != verdict["output"], verdict
    smaller = campaign.minimize_failure(target, source, key, 120)
    again = target.check(smaller)
    assert len(smaller) < len(source), smaller
    assert (again["status"], again["category"]) == key, (smaller, again)
    assert smaller.strip() == PLANTED, smaller


def test_unread_code_counts_as_marked() -> None:
    """The engine's comment on a function it left out (a 3.8-3.10 block
    stack or finally body it does not read, which the command exits 9 on)
    makes the verdict marked, not differs: seed 4242 filed such output of
    `raise` / `try:` ... `except E:` as three lies on 3.8 and 3.9."""
    left_out = campaign._left_out(
        "# unpyc: unreachable exception code at offset 14: a block stack the"
        " decompiler does not read yet\npass\n")
    assert left_out == "unreachable exception code not supported"
    assert campaign._left_out(
        "def f():\n    # unpyc: a way out of a finally body at offset 58: a finally"
        " body the decompiler does not read yet\n    pass\n") is not None
    assert campaign._left_out("# unpyc: SETUP_WITH at offset 4 is not supported"
                              " by the decompiler yet\n") == "SETUP_WITH not supported"
    assert campaign._left_out("x = 1\n# unpyc: numbers a constant\n") is None


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
