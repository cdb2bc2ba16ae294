"""What a round-trip suite asserts on one result of ``python -m
unpyc.roundtrip --json`` (tests/test_roundtrip_stdlib.py,
tests/test_roundtrip_realworld.py): no crash, no timeout, no failure
missing from the known-failures list, no listed entry that passes now."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Dict, List

from conftest import REPO


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


def assert_roundtrip_clean(
    result: Dict[str, Any], known: Path, proc: subprocess.CompletedProcess
) -> None:
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
