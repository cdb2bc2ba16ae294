"""benchmarks/decompilers.py runs: on three 3.11 stdlib modules, the unpyc
rows and the references (no peer is installed), its table has the columns
it says and an equivalence figure computed by the oracle on that run; pycdc
asked for without its source gets a note, not a row."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import REPO

ROWS = ("unpyc-cli", "unpyc-api", "unpyc-functions", "compile", "marshal")


def test_decompilers_table_on_a_tiny_sample(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    proc = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "decompilers.py"), "--sample", "3",
         "--versions", "3.11", "--rows", ",".join(ROWS + ("pycdc",)), "--results", str(results)],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    written = results.read_text()
    assert written.startswith("# Benchmarks\n") and "\n## Decompilers\n" in written
    assert "Machine: " in written and " cores (" in written
    header, rule, *rows = [line for line in written.splitlines() if line.startswith("|")]
    columns = [cell.strip() for cell in header.strip("|").split("|")]
    assert columns == ["Python", "tool", "items", "total CPU s",
                       "median CPU ms per item (cold)",
                       "median CPU ms per function, warm (functions timed)",
                       "peak memory", "modules equivalent", "functions equivalent",
                       "timeouts / failed runs"]
    assert rule == "|" + "---|" * len(columns)
    cells = {row.split("|")[2].strip(): [c.strip() for c in row.strip("|").split("|")]
             for row in rows}
    assert list(cells) == list(ROWS)
    for tool in ROWS:
        assert len(cells[tool]) == len(columns)
        assert re.fullmatch(r"\d+ (modules|functions)", cells[tool][2])
        assert float(cells[tool][3]) > 0 or tool == "marshal"
        assert re.fullmatch(r"[\d.]+ MiB \((max [\d.]+ MiB|worker)\)", cells[tool][6])
    # Only functions alone are timed warm too (a repeated call), each of them here.
    functions = int(cells["unpyc-functions"][2].split()[0])
    warm = re.fullmatch(r"([\d.]+) \((\d+)\)", cells["unpyc-functions"][5])
    assert warm and float(warm.group(1)) > 0 and int(warm.group(2)) == functions
    assert all(cells[tool][5] == "-" for tool in ROWS if tool != "unpyc-functions")
    # The oracle judged every unpyc row: a percentage of counted items.
    for tool, column in (("unpyc-cli", 7), ("unpyc-cli", 8), ("unpyc-api", 7),
                         ("unpyc-api", 8), ("unpyc-functions", 8)):
        match = re.fullmatch(r"([\d.]+)% \((\d+)/(\d+)\)", cells[tool][column])
        assert match, (tool, cells[tool][column])
        equivalent, total = int(match.group(2)), int(match.group(3))
        assert total > 0 and 0 <= equivalent <= total
        assert abs(float(match.group(1)) - 100.0 * equivalent / total) < 0.06
    assert cells["compile"][8] == "-" and cells["marshal"][7] == "-"
    assert "unpyc / compile() on the 3.11 stdlib" in written
    assert "- pycdc: not measured, no source checkout given (--pycdc-src DIR)." in written
