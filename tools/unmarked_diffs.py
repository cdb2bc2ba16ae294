#!/usr/bin/env python3
"""List the functions a round trip found not equivalent that carry no mark.

A function whose recompiled bytecode differs from the original's is either
benign (it runs the same; CPython compiled the printed code to other
bytecode) or a lie (it runs differently).  Where the engine's output says
so itself, with a ``# unpyc:`` mark in the function's text, the reader is
warned; where it does not, the function is a possible lie, and someone has
to read it.  This tool lists those, from the JSON a round trip wrote:

    python3.X -m unpyc.roundtrip --root DIR ... --json F.json
    python3.X tools/unmarked_diffs.py F.json --root DIR

Run it with the same Python 3.X and the same unpyc as the round trip (it
decompiles each listed module again, which gives the same output).  For
each function: module, qualname, the round trip's first difference, and a
short diff of source vs output around the first line that differs (both
printed by ``ast.unparse`` where it exists, 3.9+, so that comments and
layout do not count).

Not marks: the notes that only number a constant or names the compiler
dropped, or keep variables of code that never runs (``# unpyc: never runs``,
``# unpyc: numbers a constant``); the code they sit in is never run.  A
comprehension, lambda or generator expression is judged by the text of the
def or class it is in (the module's own lines for the module's).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import importlib
import importlib.util
import json
import re
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Union

_MARK = re.compile(r"^[ \t]*# unpyc: (.*)$", re.MULTILINE)
_NOTES = ("never runs", "numbers a constant")
_DUPLICATE = re.compile(r"\[(\d+)\]$")
_INLINE = frozenset(["<lambda>", "<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"])
Scope = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef]


@dataclass
class Unmarked:
    """One function that differs with no mark in its text."""

    module: str
    qualname: str
    status: str
    detail: str
    diff: List[str]


def _scopes(tree: ast.Module) -> Dict[str, List[Scope]]:
    """Every def and class by qualname, in source order (a redefinition is
    the second entry), and the module under ""."""
    found: Dict[str, List[Scope]] = {"": [tree]}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                found.setdefault(name, []).append(child)
                inner = ".<locals>." if not isinstance(child, ast.ClassDef) else "."
                walk(child, name + inner)
            else:
                walk(child, prefix)

    walk(tree, "")
    return found


def _scope_name(qualname: str) -> Tuple[str, int]:
    """The def or class whose text holds qualname's code, and which of the
    scopes of that name (0 for the first): inline code objects (lambdas,
    comprehensions) are judged by the text around them."""
    match = _DUPLICATE.search(qualname)
    index = int(match.group(1)) - 1 if match else 0
    parts = _DUPLICATE.sub("", qualname).split(".")
    inline = False
    while parts and (parts[-1] in _INLINE or parts[-1] == "<locals>"):
        inline = inline or parts[-1] in _INLINE
        parts.pop()
    return ".".join(parts), 0 if inline else index


def _own_lines(scope: Scope, lines: List[str]) -> List[int]:
    """The 0-based line numbers of scope's own text: from its first
    decorator to the line before the next statement at its indentation
    (comments after its last statement belong to it), less the lines of
    the defs and classes nested in it."""
    if isinstance(scope, ast.Module):
        start, end = 0, len(lines)
    else:
        start = min([scope.lineno] + [d.lineno for d in scope.decorator_list]) - 1
        end = scope.end_lineno or scope.lineno
        while end < len(lines) and (
                not lines[end].strip()
                or len(lines[end]) - len(lines[end].lstrip()) > scope.col_offset):
            end += 1
    nested: Set[int] = set()
    for node in ast.walk(scope):
        if node is not scope and isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
            nested.update(range(first, node.end_lineno or node.lineno))
    return [i for i in range(start, end) if i not in nested]


def is_marked(text: str) -> bool:
    """Whether text carries an engine mark (not one of the notes)."""
    return any(not m.group(1).startswith(_NOTES) for m in _MARK.finditer(text))


class _LocalAnnotations(ast.NodeTransformer):
    """Drops the annotations of a function's local variables, which the
    compiler drops too (the output never has them)."""

    def visit_AnnAssign(self, node: ast.AnnAssign) -> Optional[ast.AST]:
        if not isinstance(node.target, ast.Name):
            return node
        if node.value is None:
            return None
        return ast.Assign(targets=[node.target], value=node.value, lineno=node.lineno)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        return node  # a class body's annotations are kept (__annotations__)


def _printed(scope: Scope, text: str) -> List[str]:
    """scope's code as ast.unparse prints it (3.9+; a function's local
    annotations dropped), or its own text."""
    unparse = getattr(ast, "unparse", None)
    if unparse is not None:
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            scope.body = [_LocalAnnotations().visit(s) for s in scope.body]
            scope.body = [s for s in scope.body if s is not None] or [ast.Pass()]
        if isinstance(scope, ast.Module):
            printed: str = unparse(ast.Module(
                body=[s for s in scope.body if not isinstance(
                    s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))],
                type_ignores=[]))
        else:
            printed = unparse(scope)
        return printed.splitlines()
    lines = text.splitlines()
    return [lines[i] for i in _own_lines(scope, lines)]


def short_diff(before: List[str], after: List[str], context: int = 3,
               limit: int = 16) -> List[str]:
    """The first hunk of a unified diff of before and after, at most limit
    lines."""
    hunk: List[str] = []
    for line in difflib.unified_diff(before, after, "source", "output", n=context,
                                     lineterm=""):
        if line.startswith("@@") and hunk[2:]:
            break
        hunk.append(line)
    return hunk[2:][:limit]


def _decompile(code: CodeType) -> str:
    # The unpyc of the round trip: same Python, same PYTHONPATH.
    text: str = importlib.import_module("unpyc").decompile(code, verify=False)
    return text


def _scope_text(scope: Scope, lines: List[str]) -> str:
    return "\n".join(lines[i] for i in _own_lines(scope, lines))


def module_unmarked(record: Dict[str, Any], root: Path) -> Iterator[Unmarked]:
    """The functions of one module record that differ with no mark: in
    the module's output, and decompiled alone (the standalone sample)."""
    failing = [f for f in record.get("functions", []) if f["status"] != "equivalent"]
    alone = [f for f in record.get("standalone", []) if f["status"] != "equivalent"]
    if not (failing or alone) or record["status"] in ("skipped", "crash", "timeout"):
        return
    path = root / record["path"]
    with open(path, "rb") as f:
        source = importlib.util.decode_source(f.read())
    module = compile(source, str(path), "exec", dont_inherit=True)
    source_scopes = _scopes(ast.parse(source))
    if failing:
        yield from _differing(record["path"], failing, source_scopes, source, _decompile(module))
    codes = dict(importlib.import_module("unpyc.roundtrip").code_objects(module))
    for function in alone:
        code = codes[function["qualname"]]
        yield from _differing(record["path"], [function], source_scopes, source,
                              _decompile(code), code.co_name, " (standalone)")


def _parent_marked(name: str, scopes: Dict[str, List[Scope]], lines: List[str]) -> bool:
    """Whether the def or class around name (the module for a top-level
    name) is in the output with a mark in its own text."""
    parent = name.rsplit(".", 1)[0] if "." in name else ""
    if parent.endswith(".<locals>"):
        parent = parent[: -len(".<locals>")]
    return any(is_marked(_scope_text(scope, lines)) for scope in scopes.get(parent, []))


def _nested_marked(function: Dict[str, Any], output_name: str,
                   scopes: Dict[str, List[Scope]], lines: List[str]) -> bool:
    """Whether the round trip's first difference lies in a def nested in
    the function (its detail names that code object) whose text in the
    output carries a mark: that mark stands for the difference.  A def's
    own text leaves out its nested defs, so the function's own text has
    no mark (chess XBoardProtocol.play, standalone, 3.8 / 3.9)."""
    where = function.get("detail", "").split(":", 1)[0]
    own = _DUPLICATE.sub("", function["qualname"])
    if not where.startswith(own + "."):
        return False
    nested, _ = _scope_name(output_name + where[len(own):])
    return any(is_marked(_scope_text(scope, lines)) for scope in scopes.get(nested, []))


def _differing(module: str, failing: List[Dict[str, Any]], source_scopes: Dict[str, List[Scope]],
               source: str, output: str, alone: str = "", suffix: str = "") -> Iterator[Unmarked]:
    """Those of failing whose text in output carries no mark; alone: the
    def's name where output is the function decompiled alone."""
    try:
        output_scopes = _scopes(ast.parse(output))
    except SyntaxError:
        return  # the round trip says "invalid": it does not run
    output_lines = output.splitlines()
    for function in failing:
        name, index = _scope_name(function["qualname"])
        found = output_scopes.get(alone or name, [])
        at = 0 if alone else index
        before = source_scopes.get(name, [])
        if at >= len(found):
            if _parent_marked(name, output_scopes, output_lines):
                continue  # the def is in a region its parent's mark stands for
            diff = ["(no def %s in the output)" % name]
        elif is_marked(_scope_text(found[at], output_lines)) or _nested_marked(
                function, alone or name, output_scopes, output_lines):
            continue
        else:
            diff = short_diff(_printed(before[index], source), _printed(found[at], output)) \
                if index < len(before) else []
        yield Unmarked(module, function["qualname"] + suffix, function["status"],
                       function.get("detail", ""), diff)


def unmarked(report: Dict[str, Any], root: Path) -> List[Unmarked]:
    """Every function of a round-trip report that differs with no mark."""
    found: List[Unmarked] = []
    for record in report["modules"]:
        found.extend(module_unmarked(record, root))
    return found


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", help="the JSON of python3.X -m unpyc.roundtrip --json")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--root", type=Path, help="the --root the round trip was run on")
    where.add_argument("--stdlib", action="store_true", help="the round trip ran --stdlib")
    parser.add_argument("--json", help="also write the list here")
    args = parser.parse_args(argv)
    root = Path(sysconfig.get_paths()["stdlib"]) if args.stdlib else args.root
    with open(args.report) as f:
        report = json.load(f)
    found = unmarked(report, root)
    for item in found:
        print("%s::%s  [%s] %s" % (item.module, item.qualname, item.status, item.detail))
        for line in item.diff:
            print("    " + line)
    print("%d functions differ with no mark (Python %d.%d)" % (
        len(found), sys.version_info[0], sys.version_info[1]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([vars(item) for item in found], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
