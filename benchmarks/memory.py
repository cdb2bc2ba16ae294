"""Peak heap of the unpyc command per module, against the module's .pyc size.

For each .pyc, `valgrind --tool=massif unpyc --no-verify FILE.pyc` (output to
/dev/null) gives the peak of the heap the process requested (massif's
mem_heap_B, allocator overhead left out); an empty module's peak, the
command's own fixed cost, is subtracted and the rest divided by the .pyc's
size.  Heap, not resident memory: massif counts every byte malloc handed
out, deterministically, where RSS is page-grained and leaves out pages never
touched.

The files: the 3.11 standard library's .pyc (site-packages left out) sorted
by size, every --step-th of them, plus the 3 biggest.

    python benchmarks/memory.py --unpyc BUILD/unpyc [--step 100] [--jobs 2]

The output is Markdown: one row per file, then the median and maximum.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import List, Tuple

STDLIB = Path("/root/.pyenv/versions/3.11.7/lib/python3.11")
TARGET = 10.0


def stdlib_pycs(root: Path) -> List[Path]:
    """The standard library's .pyc, site-packages left out, by size."""
    found = [p for p in root.rglob("*.cpython-311.pyc") if "site-packages" not in p.parts]
    return sorted(found, key=lambda p: (p.stat().st_size, str(p)))


def chosen(pycs: List[Path], step: int) -> List[Path]:
    picked = pycs[::step]
    for p in pycs[-3:]:
        if p not in picked:
            picked.append(p)
    return picked


def massif_peak(unpyc: str, pyc: Path) -> int:
    """The largest mem_heap_B of massif's snapshots of one run."""
    with tempfile.TemporaryDirectory(prefix="unpyc-massif-") as tmp:
        out = os.path.join(tmp, "massif.out")
        subprocess.run(
            ["valgrind", "--tool=massif", "--peak-inaccuracy=0.0", "--massif-out-file=" + out,
             unpyc, "--no-verify", str(pyc)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        with open(out, encoding="utf-8") as f:
            return max(int(m) for m in re.findall(r"^mem_heap_B=(\d+)", f.read(), re.MULTILINE))


def empty_module_pyc(tmp: str) -> Path:
    src = Path(tmp) / "empty.py"
    src.write_text("")
    pyc = Path(tmp) / "empty.cpython-311.pyc"
    subprocess.run([str(STDLIB.parent.parent / "bin" / "python3.11"), "-c",
                    "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2])",
                    str(src), str(pyc)], check=True)
    return pyc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--unpyc", required=True, help="the unpyc command to measure")
    parser.add_argument("--step", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    files = chosen(stdlib_pycs(STDLIB), args.step)
    with tempfile.TemporaryDirectory(prefix="unpyc-memory-") as tmp:
        empty = massif_peak(args.unpyc, empty_module_pyc(tmp))
    with ThreadPoolExecutor(args.jobs) as pool:
        peaks = list(pool.map(lambda p: massif_peak(args.unpyc, p), files))
    rows: List[Tuple[str, int, int, float]] = []
    for pyc, peak in zip(files, peaks):
        size = pyc.stat().st_size
        rows.append((str(pyc.relative_to(STDLIB)), size, peak, (peak - empty) / size))
    print("empty module: %d B of heap\n" % empty)
    print("| .pyc | size (B) | peak heap (B) | (peak - empty) / .pyc |")
    print("|---|---:|---:|---:|")
    for name, size, peak, ratio in rows:
        print("| %s | %d | %d | %.1fx |" % (name, size, peak, ratio))
    ratios = [r[3] for r in rows]
    print("\nmedian %.1fx, max %.1fx, %d of %d at %gx or more"
          % (statistics.median(ratios), max(ratios), sum(r >= TARGET for r in ratios),
             len(ratios), TARGET))
    return 0


if __name__ == "__main__":
    sys.exit(main())
