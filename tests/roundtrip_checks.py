"""What every round-trip test of a corpus (the stdlib, the real-world
corpus, depyf's decompiler inputs) asserts about the JSON that
`python -m unpyc.roundtrip ... --known LIST --json OUT` wrote: no crash,
no timeout, no failure missing from the known-failures list, no listed
entry that passes now (the list only shrinks), and a clean exit."""

from __future__ import annotations

import json
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


def assert_roundtrip_passed(proc: subprocess.CompletedProcess, out: Path, known: Path
                            ) -> Dict[str, Any]:
    """Asserts the run that wrote out passed against known; returns its result."""
    assert out.exists(), proc.stdout[-2000:] + proc.stderr[-4000:]
    result: Dict[str, Any] = json.loads(out.read_text())
    summary = result["summary"]
    assert summary["modules"] > 0 and summary["function_status"], summary
    for status in ("crash", "timeout"):
        broken = [m["path"] for m in result["modules"] if m["status"] == status]
        assert not broken, "%s on %d modules:\n%s" % (status, len(broken), _details(result, broken))
    listed = known.relative_to(REPO)
    assert not result["new"], "%d new failures (not in %s):\n%s" % (
        len(result["new"]), listed, _details(result, result["new"]))
    gone = result["fixed"] + result["stale"]
    assert not gone, "remove these entries from %s, they no longer fail:\n%s" % (
        listed, "\n".join("  " + key for key in gone))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    return result
