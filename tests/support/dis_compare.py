"""Compares unpyc's JSON disassembly with CPython's dis over real .pyc files.

Run under one CPython 3.8-3.13 with the built unpyc package importable:

    python dis_compare.py --chunk K/N --out result.json [FILE.py ...]

Without files it takes every .py file of that interpreter's standard library
(Lib/, tests included; site-packages excluded), chunk K of N of them.  Each
file is compiled by this interpreter into a real .pyc with py_compile; files
the interpreter itself cannot compile are counted as skipped.  The .pyc is
disassembled by the engine (through the extension module, as bytes of the
file, and as marshal data of the loaded code object) and each result is
compared, code object by code object and instruction by instruction, with
the reference built from dis (dis_reference.py).
"""

from __future__ import annotations

import argparse
import json
import marshal
import os
import py_compile
import sys
import sysconfig
import tempfile
import time
import warnings
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dis_reference  # noqa: E402

from unpyc import _engine  # noqa: E402

# Big int constants exist in the test suite; dis itself would refuse to
# print them under the 3.11+ int-to-str limit.
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


def stdlib_sources() -> List[str]:
    root = sysconfig.get_paths()["stdlib"]
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(
            d for d in dirnames if d not in ("site-packages", "__pycache__")
        )
        for name in sorted(filenames):
            if name.endswith(".py"):
                found.append(os.path.join(dirpath, name))
    return found


def _frozenset_equal(expected: str, actual: str) -> bool:
    """A frozenset's repr lists its items in hash order, which for strings
    changes from process to process; unpyc prints them in marshal order."""
    if "frozenset(" not in expected:
        return False
    try:
        env = {"frozenset": frozenset, "__builtins__": {}}
        return bool(eval(expected, env) == eval(actual, env))
    except Exception:
        return False


class Comparison:
    def __init__(self) -> None:
        self.code_objects = 0
        self.instructions = 0
        self.mismatches: List[str] = []

    def mismatch(self, where: str, what: str) -> None:
        self.mismatches.append("%s: %s" % (where, what))

    def compare(
        self, where: str, exp: Dict[str, Any], act: Dict[str, Any], count: bool = True
    ) -> None:
        if count:
            self.code_objects += 1
        where = "%s/%s" % (where, exp["qualname"] or exp["name"])
        for key in ("name", "qualname", "firstlineno", "exception_table"):
            if exp[key] != act.get(key):
                self.mismatch(where, "%s %r != %r" % (key, act.get(key), exp[key]))
        ei, ai = exp["instructions"], act.get("instructions", [])
        if count:
            self.instructions += len(ei)
        if len(ei) != len(ai):
            self.mismatch(where, "%d instructions, expected %d" % (len(ai), len(ei)))
        for e, a in zip(ei, ai):
            if e == a:
                continue
            if {k: v for k, v in e.items() if k != "argrepr"} == {
                k: v for k, v in a.items() if k != "argrepr"
            } and _frozenset_equal(e["argrepr"], a["argrepr"]):
                continue
            self.mismatch(where, "offset %s: got %r, expected %r" % (e["offset"], a, e))
            break
        ec, ac = exp["children"], act.get("children", [])
        if len(ec) != len(ac):
            self.mismatch(where, "%d children, expected %d" % (len(ac), len(ec)))
        for e, a in zip(ec, ac):
            self.compare(where, e, a, count)


def check_file(
    path: str, workdir: str, comparison: Comparison
) -> Tuple[str, Optional[str]]:
    """Returns ("ok" | "skipped" | "engine-error", detail)."""
    cfile = os.path.join(workdir, "module.pyc")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            py_compile.compile(path, cfile=cfile, doraise=True)
        except (py_compile.PyCompileError, ValueError, OSError, RecursionError):
            return "skipped", None
    with open(cfile, "rb") as f:
        data = f.read()
    code = marshal.loads(data[16:])
    expected = dis_reference.document(code)
    try:
        from_file = _engine.dis_pyc(data, True)
        from_marshal = _engine.dis_marshal(
            marshal.dumps(code), sys.version_info[0], sys.version_info[1], True
        )
    except _engine.EngineError as e:
        return "engine-error", "%s: %s" % (path, e)
    # Both entry points are held to the reference.  They need not agree
    # byte for byte: marshal.dumps writes a frozenset in this process's
    # hash order, the file in the order of the process that compiled it.
    for label, text in (("pyc", from_file), ("marshal", from_marshal)):
        actual = json.loads(text)
        if actual.get("version") != expected["version"]:
            comparison.mismatch(path, "%s: version %r" % (label, actual.get("version")))
        comparison.compare(
            path + " (" + label + ")", expected["code"], actual["code"], label == "pyc"
        )
    return "ok", None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunk", default="0/1")
    parser.add_argument("--out", required=True)
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    k, n = (int(x) for x in args.chunk.split("/"))
    files = args.files or stdlib_sources()[k::n]
    comparison = Comparison()
    counts = {"ok": 0, "skipped": 0, "engine-error": 0}
    errors: List[str] = []
    start = time.time()
    with tempfile.TemporaryDirectory() as workdir:
        for path in files:
            status, detail = check_file(path, workdir, comparison)
            counts[status] += 1
            if detail:
                errors.append(detail)
    result = {
        "version": "%d.%d" % sys.version_info[:2],
        "chunk": args.chunk,
        "modules": counts["ok"],
        "skipped": counts["skipped"],
        "engine_errors": counts["engine-error"],
        "code_objects": comparison.code_objects,
        "instructions": comparison.instructions,
        "mismatches": len(comparison.mismatches),
        "examples": comparison.mismatches[:20] + errors[:20],
        "seconds": round(time.time() - start, 1),
    }
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
