"""The engine's disassembly equals dis's on every stdlib module, per version.

Each installed CPython 3.8-3.13 compiles its own standard library to real
.pyc files; for every code object, the instructions (offset, opname, arg,
argrepr, line) and exception-table entries unpyc reports must equal what that
interpreter's dis module reports.  The work is split in chunks so xdist can
spread it over the cores.
"""

from __future__ import annotations

import json

import pytest

from conftest import REPO, RESULTS, VERSIONS, run_python

CHUNKS = 4
SCRIPT = str(REPO / "tests" / "support" / "dis_compare.py")


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("version", VERSIONS)
def test_stdlib_disassembly_matches_dis(version: str, chunk: int, unpyc_path: str) -> None:
    out = RESULTS / "dis" / ("%s-%d.json" % (version, chunk))
    proc = run_python(
        version, unpyc_path, [SCRIPT, "--chunk", "%d/%d" % (chunk, CHUNKS), "--out", str(out)]
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    result = json.loads(out.read_text())
    assert result["modules"] > 0
    assert result["code_objects"] > result["modules"]
    assert result["engine_errors"] == 0, "\n".join(result["examples"])
    assert result["mismatches"] == 0, "\n".join(result["examples"])
