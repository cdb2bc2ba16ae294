#!/usr/bin/env python3
"""List the layout predicates of the recovery layer and count them.

Issue 17 asks that recovery stop growing one yes/no question per CPython
layout habit (``handler_way_back``, ``copy_to_exit`` ...), and that the count
of such questions at least halve once normalize undoes the compiler's passes
by name.  This script is the measuring stick, run before and after.

A *layout predicate* here is a top-level C function in ``engine/recover``
that
  * returns ``int`` or ``bool``,
  * asks about the code's shape: one of its parameters is the recovery state
    (``rec``), the normalized code (``upy_ncode``), the control-flow graph
    (``upy_cfg``) or a ``region``, and
  * answers yes or no: every ``return`` gives 0, 1, a comparison, a logical
    expression, a negation, or the result of another predicate; none gives a
    count, an index, a pointer or an error code.

The test is textual, so it is a heuristic; ``--list`` prints every function
it counts, for a reader to check.

Each predicate left answers to a named CPython pass: the table in
docs/recover_predicates.md groups them so (``--unassigned`` lists any it
does not name).

Usage: python3 tools/count_predicates.py [--list] [--unassigned] [DIR]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
PASS_TABLE = ROOT / "docs" / "recover_predicates.md"
SHAPE_TYPES = ("rec", "upy_ncode", "upy_cfg", "region")
DEFINITION = re.compile(r"^(?:static\s+)?(?:inline\s+)?(int|bool)\s+(\w+)\(([^)]*)\)\s*\{",
                        re.MULTILINE)
RETURN = re.compile(r"\breturn\b([^;]*);")
BOOLEAN_OPERATOR = re.compile(r"==|!=|<=|>=|<|>|&&|\|\||^\s*!")
CALL = re.compile(r"^\s*!?\s*(\w+)\s*\(")
ERROR_CODE = re.compile(r"(?<![\w.])-1\b|\bERROR\b")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)


def function_bodies(text: str) -> Iterator[Tuple[str, str, str]]:
    """(name, parameters, body) of each function defined at the top level.
    Comments are blanked first: a "return" in one is no return (it hid
    returns_through_with and six others until stop 33)."""
    text = COMMENT.sub(lambda comment: "\n" * comment.group(0).count("\n"), text)
    for match in DEFINITION.finditer(text):
        depth, start = 1, match.end()
        position = start
        while depth and position < len(text):
            depth += {"{": 1, "}": -1}.get(text[position], 0)
            position += 1
        yield match.group(2), match.group(3), text[start:position - 1]


def asks_about_shape(parameters: str) -> bool:
    words = set(re.findall(r"\w+", parameters))
    return any(kind in words for kind in SHAPE_TYPES)


def returns_yes_or_no(body: str, predicates: set[str]) -> bool:
    values = [value.strip() for value in RETURN.findall(body)]
    if not values or ERROR_CODE.search(" ".join(values)):
        return False
    if len(set(values)) == 1 and values[0] in ("0", "1", "true", "false"):
        return False  # one answer whatever the code: a status, no question
    for value in values:
        if value in ("0", "1", "true", "false"):
            continue
        if BOOLEAN_OPERATOR.search(value.replace("->", ".")):
            continue
        call = CALL.match(value)
        if call and call.group(1) in predicates:
            continue
        return False
    return True


def layout_predicates(directory: Path) -> Dict[str, List[str]]:
    """File name -> its layout predicates, found by fixed point (a function
    returning another predicate's answer is one too)."""
    functions = []
    for path in sorted(directory.glob("*.c")):
        for name, parameters, body in function_bodies(path.read_text()):
            if asks_about_shape(parameters):
                functions.append((path.name, name, body))
    found: set[str] = set()
    while True:
        grown = {name for _, name, body in functions if returns_yes_or_no(body, found)}
        if grown == found:
            break
        found = grown
    result: Dict[str, List[str]] = {}
    for file_name, name, _ in functions:
        if name in found:
            result.setdefault(file_name, []).append(name)
    return result


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", default=str(ROOT / "engine" / "recover"))
    parser.add_argument("--list", action="store_true", help="print every predicate counted")
    parser.add_argument("--unassigned", action="store_true",
                        help="print the predicates docs/recover_predicates.md names no pass for")
    args = parser.parse_args(argv)
    per_file = layout_predicates(Path(args.directory))
    if args.unassigned:
        named = set(re.findall(r"\w+", PASS_TABLE.read_text()))
        missing = [f"{file_name}:{name}" for file_name, names in sorted(per_file.items())
                   for name in names if name not in named]
        print("\n".join(missing) if missing else "every predicate answers to a pass")
        return 1 if missing else 0
    counts = Counter({name: len(names) for name, names in per_file.items()})
    for file_name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        print(f"{count:5d}  {file_name}")
        if args.list:
            for name in per_file[file_name]:
                print(f"         {name}")
    print(f"{sum(counts.values()):5d}  total")
    return 0


if __name__ == "__main__":
    sys.exit(main())
