"""What verification costs unpyc.decompile: a table of median times.

For a fixed sample of standard-library modules (every Nth .py file, sorted),
compiled by the running interpreter: the module's code object decompiled
with verify=False and with verify=True (the default), and each function
below it (def, lambda, comprehension, class body) likewise; and the time
of StandIns(code) alone, the stand-in scan every decompile starts with.
Medians over the sample, each item timed as the best of `--repeat` runs.

    python benchmarks/verify_cost.py [--every 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import sysconfig
import time
import warnings
from types import CodeType
from typing import Callable, List, Tuple

import unpyc
from unpyc._placeholders import StandIns
from unpyc.roundtrip import code_objects, python_sources


def _best(action: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best


def _sample(every: int) -> List[CodeType]:
    codes = []
    for path in python_sources(sysconfig.get_paths()["stdlib"])[::every]:
        try:
            with open(path, encoding="utf-8") as f:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    codes.append(compile(f.read(), path, "exec", dont_inherit=True))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
    return codes


def _times(codes: List[CodeType], repeat: int) -> Tuple[List[float], List[float], List[float]]:
    plain, verified, scan = [], [], []
    for code in codes:
        try:
            unpyc.decompile(code, verify=False)
        except unpyc.UnpycError:
            continue
        plain.append(_best(lambda: unpyc.decompile(code, verify=False), repeat))
        verified.append(_best(
            lambda: unpyc.decompile(code, verify=True, on_mismatch="annotate"), repeat))
        scan.append(_best(lambda: StandIns(code), repeat))
    return plain, verified, scan


def _row(label: str, count: int, plain: List[float], verified: List[float],
         scan: List[float]) -> str:
    p, v, s = (statistics.median(x) * 1e3 for x in (plain, verified, scan))
    ratios = statistics.median(b / a for a, b in zip(plain, verified))
    return "| %s | %d | %.3f | %.3f | %.2fx | %.3f (%.0f%%) |" % (
        label, count, p, v, ratios, s, 100 * statistics.median(
            b / a for a, b in zip(plain, scan)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--every", type=int, default=20, help="every Nth stdlib file")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()
    modules = _sample(args.every)
    functions = [code for module in modules for _, code in code_objects(module)]
    print("Python %s, %d modules, %d functions (every %dth stdlib file)" % (
        sys.version.split()[0], len(modules), len(functions), args.every))
    print("| sample | n | verify=False ms | verify=True ms | median ratio |"
          " StandIns ms (of verify=False) |")
    print("|---|---|---|---|---|---|")
    for label, codes in (("modules", modules), ("functions", functions)):
        plain, verified, scan = _times(codes, args.repeat)
        print(_row(label, len(plain), plain, verified, scan))
    return 0


if __name__ == "__main__":
    sys.exit(main())
