"""How unpyc's time and memory grow with the size of one function.

For each shape below, a module holding one function of that shape is
generated at sizes from about 10 to about 100,000 bytecode instructions
(counted over the function and every code object nested in it), compiled
by the running interpreter to a .pyc, and decompiled:

  - time: the CPU time of `unpyc._engine.decompile_pyc` on the file's
    bytes, in this process (no verification, no Python run on the output:
    CPU time, not wall-clock time, since on a machine shared with other
    jobs a run longer than a scheduler time slice waits for the CPU for
    as long as the load makes it: at a load average of 24 on 2 CPUs, runs
    of 40 ms took 15 times their CPU time), the median of
    --repeat runs or more (the machine may be shared: the median is
    steadier than one run, and than the best, under a varying load);
  - peak memory: the maximum resident set of the `unpyc --no-verify`
    command decompiling the same file (its whole process, so the smallest
    sizes show the command's own footprint).

Per shape, a straight line time = a + b * instructions is fitted to the
sizes from FIT_FROM instructions on (least squares of the relative error,
so small and large sizes count alike; below FIT_FROM the fixed costs of a
call and of each code object, a few microseconds, are most of the time),
and its deviation is the largest relative distance of a measured point
from it: linear growth keeps that small, quadratic growth makes it large.
The last column, time per instruction at the largest size over that at
about 1,000, says the same without a fit (1.0: linear; 100: quadratic
over the range).
Sizes CPython itself refuses to compile (nesting and recursion limits of
its parser and compiler) are reported as such, not decompiled.

    python benchmarks/scaling.py [--repeat 5] [--max 100000] [--shape NAME]

The output is Markdown: one table of every measurement, one of the fits.
"""

from __future__ import annotations

import argparse
import dis
import importlib.util
import marshal
import os
import platform
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Callable, Dict, List, Optional, Tuple

from results_file import machine
from unpyc import _engine

# CPython's own limits, which no generated function may pass: statically
# nested blocks (for / while / try / with) stop at 20 (CO_MAXBLOCKS), and
# the tokenizer allows 100 levels of indentation (MAXINDENT).
MAX_BLOCK_NESTING = 19
MAX_INDENT_NESTING = 90

TIME = "/usr/bin/time"
MIN_SECONDS = 0.05
FIT_FROM = 1000

SIZES = (10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000)


def _indent(depth: int) -> str:
    return "    " * depth


def straight(k: int) -> str:
    return "".join("    x%d = a * %d + b\n" % (i, i) for i in range(k))


def _nested(k: int, limit: int, opener: Callable[[int, int], List[str]],
            leaf: str) -> str:
    """k levels of a block, nested up to limit deep, then again beside."""
    lines: List[str] = []
    done = 0
    while done < k:
        depth = min(limit, k - done)
        for level in range(depth):
            lines.extend(opener(done + level, level + 1))
        lines.append(_indent(depth + 1) + leaf + "\n")
        done += depth
    return "".join(lines)


def nested_if(k: int) -> str:
    return _nested(k, MAX_INDENT_NESTING,
                   lambda i, d: [_indent(d) + "if a > %d:\n" % i], "b += 1")


def nested_for(k: int) -> str:
    return _nested(k, MAX_BLOCK_NESTING,
                   lambda i, d: [_indent(d) + "for i%d in a:\n" % i], "b += 1")


def nested_with(k: int) -> str:
    return _nested(k, MAX_BLOCK_NESTING,
                   lambda i, d: [_indent(d) + "with a as w%d:\n" % i], "b += 1")


def nested_try(k: int) -> str:
    # Each level's body is the next level's try statement.
    lines: List[str] = []
    done = 0
    while done < k:
        depth = min(MAX_BLOCK_NESTING, k - done)
        for level in range(depth):
            lines.append(_indent(level + 1) + "try:\n")
        lines.append(_indent(depth + 1) + "b += 1\n")
        for level in reversed(range(depth)):
            lines.append(_indent(level + 1) + "except E%d:\n" % (done + level))
            lines.append(_indent(level + 2) + "b -= 1\n")
        done += depth
    return "".join(lines)


def elif_chain(k: int) -> str:
    lines = ["    if a == 0:\n        b = 0\n"]
    for i in range(1, k):
        lines.append("    elif a == %d:\n        b = %d\n" % (i, i))
    return "".join(lines)


def bool_chain(k: int) -> str:
    terms = " and ".join("(a%d or b > %d)" % (i % 50, i) for i in range(k))
    return "    return " + terms + "\n"


def big_literal(k: int) -> str:
    items = ", ".join("'k%d': a + %d" % (i, i) for i in range(k))
    return "    return {" + items + "}\n"


def closures(k: int) -> str:
    lines = ["    fs = []\n"]
    for i in range(k):
        lines.append("    fs.append(lambda: a + b + %d)\n" % i)
    return "".join(lines) + "    return fs\n"


def nested_defs(k: int) -> str:
    lines = []
    for i in range(k):
        lines.append("    def g%d(x):\n        return x + %d\n" % (i, i))
    return "".join(lines)


def try_break_in_while(k: int) -> str:
    lines = ["    while a:\n"]
    for i in range(k):
        lines.append("        try:\n            b = f(%d)\n"
                     "        except E:\n            break\n" % i)
    return "".join(lines)


SHAPES: Dict[str, Callable[[int], str]] = {
    "straight code": straight,
    "nested if": nested_if,
    "nested for": nested_for,
    "nested try": nested_try,
    "nested with": nested_with,
    "elif chain": elif_chain,
    "boolean chain": bool_chain,
    "big literal": big_literal,
    "closures": closures,
    "nested defs": nested_defs,
    "try/except: break in while": try_break_in_while,
}


def module_source(body: str) -> str:
    names = ", ".join("a%d" % i for i in range(50))
    return "def f(a, b, E, f, %s):\n%s    return b\n" % (names, body)


def instruction_count(code: CodeType) -> int:
    count = sum(1 for _ in dis.get_instructions(code))
    return count + sum(instruction_count(c) for c in code.co_consts
                       if isinstance(c, CodeType))


def function_code(source: str) -> Optional[CodeType]:
    """The generated function's code, or None where CPython refuses it."""
    try:
        module = compile(source, "<scaling>", "exec", dont_inherit=True)
    except (SyntaxError, RecursionError, MemoryError):
        return None
    return next(c for c in module.co_consts if isinstance(c, CodeType))


def units_for(shape: Callable[[int], str], target: int) -> int:
    """How many units of shape make about target instructions."""
    probe = function_code(module_source(shape(100)))
    base = function_code(module_source(shape(1)))
    assert probe is not None and base is not None
    per_unit = (instruction_count(probe) - instruction_count(base)) / 99
    return max(1, round((target - instruction_count(base)) / per_unit) + 1)


@dataclass
class Point:
    instructions: int
    seconds: float
    peak_mib: float
    note: str = ""


def peak_mib(cli: str, pyc: Path, workdir: Path) -> Tuple[float, str]:
    """The maximum resident set of the command decompiling pyc; and what
    went wrong, if it did.  GNU time measures it: a child of this process
    would count this process's own memory (Linux keeps the high-water mark
    across fork and exec), a child of the small time process does not."""
    report = workdir / "time.txt"
    proc = subprocess.run([TIME, "-f", "%M", "-o", str(report), cli,
                           "--no-verify", str(pyc)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    error = proc.stderr.decode().strip() if proc.returncode not in (0, 9) else ""
    # The last line is the peak in KiB (before it: "Command exited ...").
    return int(report.read_text().split()[-1]) / 1024, error


def measure(source: str, cli: str, workdir: Path, repeat: int) -> Optional[Point]:
    code = function_code(source)
    if code is None:
        return None
    pyc = workdir / "case.pyc"
    module = compile(source, "<scaling>", "exec", dont_inherit=True)
    # A .pyc header: magic number, flags 0, then mtime and size (unused).
    pyc.write_bytes(importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(module))
    data = pyc.read_bytes()
    times: List[float] = []
    note = ""
    spent = 0.0
    # Small cases run until they add up to MIN_SECONDS: one run of a
    # 10-instruction function is too short to time alone.
    while len(times) < repeat or (spent < MIN_SECONDS and len(times) < 1000):
        started = time.thread_time()
        try:
            _, unrecovered = _engine.decompile_pyc(data)
            note = "%d unrecovered" % unrecovered if unrecovered else ""
        except _engine.EngineError as e:
            note = "error: %s" % e
        elapsed = time.thread_time() - started
        spent += elapsed
        times.append(elapsed)
    memory, error = peak_mib(cli, pyc, workdir)
    return Point(instruction_count(code), statistics.median(times), memory,
                 note or error)


def line_fit(points: List[Point]) -> Tuple[float, float, float]:
    """a, b of time = a + b * n minimizing the relative error, and the
    largest relative deviation of a point from that line."""
    # Weighted least squares with weights 1 / t^2.
    sw = swx = swxx = swy = swxy = 0.0
    for p in points:
        w = 1.0 / (p.seconds * p.seconds)
        sw += w
        swx += w * p.instructions
        swxx += w * p.instructions * p.instructions
        swy += w * p.seconds
        swxy += w * p.instructions * p.seconds
    det = sw * swxx - swx * swx
    b = (sw * swxy - swx * swy) / det
    a = (swy - b * swx) / sw
    deviation = max(abs(p.seconds - (a + b * p.instructions)) / p.seconds
                    for p in points)
    return a, b, deviation


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--max", type=int, default=100000,
                        help="the largest size, in instructions")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES),
                        help="only this shape (may be repeated)")
    parser.add_argument("--cli", default=shutil.which("unpyc") or "unpyc",
                        help="the unpyc command (default: on PATH)")
    args = parser.parse_args(argv)
    shapes = args.shape or list(SHAPES)
    results: Dict[str, List[Point]] = {}
    refused: Dict[str, List[int]] = {}
    print("Machine: %s; Python %s\n" % (machine(), platform.python_version()))
    print("| shape | instructions | time (ms) | peak memory (MiB) | note |")
    print("|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in shapes:
            shape = SHAPES[name]
            results[name], refused[name] = [], []
            for target in (s for s in SIZES if s <= args.max):
                source = module_source(shape(units_for(shape, target)))
                point = measure(source, args.cli, Path(tmp), args.repeat)
                if point is None:
                    refused[name].append(target)
                    print("| %s | ~%d | | | CPython refuses to compile it |"
                          % (name, target))
                    continue
                results[name].append(point)
                print("| %s | %d | %.3f | %.1f | %s |" % (
                    name, point.instructions, point.seconds * 1e3,
                    point.peak_mib, point.note), flush=True)
    print("\n| shape | largest (instructions) | its time (ms) | fit: µs per "
          "1000 instructions | fit's largest deviation | growth of time per "
          "instruction, ~1000 to largest |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in shapes:
        points = [p for p in results[name] if p.instructions >= FIT_FROM]
        if len(points) < 2:
            continue
        _, b, deviation = line_fit(points)
        largest = max(points, key=lambda p: p.instructions)
        first = min(points, key=lambda p: p.instructions)
        growth = (largest.seconds / largest.instructions) / (
            first.seconds / first.instructions)
        print("| %s | %d | %.1f | %.1f | %.0f %% | %.1f |" % (
            name, largest.instructions, largest.seconds * 1e3, b * 1e9,
            deviation * 100, growth))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
