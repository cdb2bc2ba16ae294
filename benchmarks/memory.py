"""Peak memory of the unpyc command per module, against the module's .pyc size.

The issue's target is peak memory per module under 10x the .pyc's size.  For
each .pyc, `unpyc --no-verify --memory-stats FILE` says (cli/memory_stats.h):

- engine peak: the most bytes the engine held from the system at once for
  the module (`unpyc_decompile_pyc_measured`: its arenas' chunks, spare ones
  kept for reuse included, chunk headers included, and the larger of its two
  text buffers, which it never holds together); exact and deterministic;
- input: the .pyc read in, which the command holds through the call (the
  engine's bytes objects point into it);
- the process's peak resident set (VmHWM).

The measure that answers the target is the engine's peak plus the input,
less an empty module's: what decompiling this module takes beyond what
decompiling nothing takes, over the .pyc's size.  Peak RSS less an empty
module's (what decompilers.py reported before) is not that measure: it is
page-grained; it counts the command's code and libraries as they are paged
in (file-backed pages, shared with every process running them, and more of
them the more of the engine's 500 KiB of code a module runs); and it moves
by more than 100 KiB between two runs of the same file (page cache and
fault-around), which is ten times the median .pyc.  It is printed beside,
the least of --rss-runs runs for each file and for the empty module.
--massif adds valgrind massif's heap peak (mem_heap_B: every byte the
process asked malloc for, the command's own buffers included).

The files: the 3.11 standard library's .pyc (site-packages left out), sorted
by size, every --step-th of them (all by default) plus the 3 biggest.

    python benchmarks/memory.py --unpyc BUILD/unpyc [--step 1] [--jobs 2]
        [--rss-runs 3] [--massif] [--table]

The output is Markdown: one row per measure (median, largest, modules at 10x
or more), and with --table one row per file.
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
from typing import Dict, List, Optional

STDLIB = Path("/root/.pyenv/versions/3.11.7/lib/python3.11")
TARGET = 10.0
STATS = re.compile(r"input (\d+) B, engine peak (\d+) B, output (\d+) B"
                   r"(?:, process peak RSS (\d+) KiB)?")


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


def memory_stats(unpyc: str, pyc: Path) -> Dict[str, int]:
    """What `unpyc --memory-stats` says of one run: input, engine (peak),
    output in bytes and rss (VmHWM) in KiB, -1 where it gave none."""
    err = subprocess.run([unpyc, "--no-verify", "--memory-stats", str(pyc)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, check=False).stderr
    found = STATS.search(err)
    if not found:
        raise RuntimeError("%s: no memory stats in %r" % (pyc, err[-300:]))
    values = [int(v) if v is not None else -1 for v in found.groups()]
    return dict(zip(("input", "engine", "output", "rss"), values))


def least_rss(unpyc: str, pyc: Path, runs: int) -> int:
    return min(memory_stats(unpyc, pyc)["rss"] for _ in range(runs))


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


def measure(unpyc: str, pyc: Path, args: argparse.Namespace) -> Dict[str, int]:
    found = memory_stats(unpyc, pyc)
    found["rss"] = least_rss(unpyc, pyc, args.rss_runs) if args.rss_runs else -1
    found["massif"] = massif_peak(unpyc, pyc) if args.massif else -1
    return found


def summary(name: str, ratios: List[float]) -> str:
    return "| %s | %.1fx | %.1fx | %d of %d |" % (
        name, statistics.median(ratios), max(ratios),
        sum(r >= TARGET for r in ratios), len(ratios))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--unpyc", required=True, help="the unpyc command to measure")
    parser.add_argument("--step", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rss-runs", type=int, default=3,
                        help="runs per file for its peak RSS, the least taken (0: none)")
    parser.add_argument("--massif", action="store_true", help="also massif's heap peak")
    parser.add_argument("--table", action="store_true", help="a row per file")
    args = parser.parse_args()

    files = chosen(stdlib_pycs(STDLIB), args.step)
    with tempfile.TemporaryDirectory(prefix="unpyc-memory-") as tmp:
        empty = measure(args.unpyc, empty_module_pyc(tmp), args)
        if args.rss_runs:
            empty["rss"] = least_rss(args.unpyc, empty_module_pyc(tmp), 2 * args.rss_runs)
    with ThreadPoolExecutor(args.jobs) as pool:
        found = list(pool.map(lambda p: measure(args.unpyc, p, args), files))
    sizes = [p.stat().st_size for p in files]

    def ratios(cost) -> Optional[List[float]]:
        values = [cost(f, empty) / size for f, size in zip(found, sizes)]
        return values if all(v == v for v in values) else None

    print("%d .pyc of the 3.11 standard library; an empty module: engine peak %d B, "
          "input %d B, peak RSS %s\n" % (
              len(files), empty["engine"], empty["input"],
              "%d KiB" % empty["rss"] if empty["rss"] >= 0 else "-"))
    print("| per module, over its .pyc size | median | largest | modules at %gx or more |"
          % TARGET)
    print("|---|---:|---:|---:|")
    print(summary("engine peak + input, less an empty module's (the target's measure)",
                  ratios(lambda f, e: f["engine"] + f["input"] - e["engine"] - e["input"])))
    print(summary("engine peak, less an empty module's",
                  ratios(lambda f, e: f["engine"] - e["engine"])))
    if args.rss_runs and empty["rss"] >= 0:
        print(summary("peak RSS less an empty module's (least of %d runs each; "
                      "page-grained, code pages included)" % args.rss_runs,
                      ratios(lambda f, e: max(0, f["rss"] - e["rss"]) * 1024.0)))
    if args.massif:
        print(summary("massif heap peak, less an empty module's",
                      ratios(lambda f, e: f["massif"] - e["massif"])))
    if args.table:
        print("\n| .pyc | size (B) | engine peak (B) | output (B) | peak RSS (KiB) "
              "| massif (B) |")
        print("|---|---:|---:|---:|---:|---:|")
        for pyc, size, f in zip(files, sizes, found):
            print("| %s | %d | %d | %d | %s | %s |" % (
                pyc.relative_to(STDLIB), size, f["engine"], f["output"],
                f["rss"] if f["rss"] >= 0 else "-", f["massif"] if f["massif"] >= 0 else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
