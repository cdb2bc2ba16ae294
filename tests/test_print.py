"""The source printer (engine/print/source.c).

tests/c/test_print.c builds syntax trees by hand and checks the printed
text against the expected one.  Here it is compiled against the engine's
sources and run, and then every text it prints goes through the parser of
each installed CPython 3.8-3.13 on which the construct exists:

- an expression must parse back to the very tree it was printed from (the
  C side dumps the tree, the checker below dumps CPython's ast the same
  way, after folding constant arithmetic as CPython's compiler does), which
  proves the parentheses keep the tree's shape;
- a module must parse;
- a float or complex constant must fold back to the same bits (signed
  zeros, inf, nan), which is what the round-trip to bytecode needs.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import tokenize
from pathlib import Path
from typing import Any, Dict, List

import pytest

from conftest import INTERPRETERS, REPO, VERSIONS, engine_sources

TEST_SOURCE = REPO / "tests" / "c" / "test_print.c"

# Runs inside each interpreter (so it must read as 3.8 code): the cases
# come as JSON on stdin, the failures go out as JSON on stdout.
CHECKER = r'''
import ast, json, math, struct, sys

BINOPS = {ast.Add: "+", ast.BitAnd: "&", ast.FloorDiv: "//",
          ast.LShift: "<<", ast.MatMult: "@", ast.Mult: "*", ast.Mod: "%",
          ast.BitOr: "|", ast.Pow: "**", ast.RShift: ">>", ast.Sub: "-",
          ast.Div: "/", ast.BitXor: "^"}
CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!=",
          ast.Gt: ">", ast.GtE: ">=", ast.Is: "is", ast.IsNot: "isnot",
          ast.In: "in", ast.NotIn: "notin"}
UNOPS = {ast.Not: "not", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}


def is_number(node):
    return (isinstance(node, ast.Constant)
            and type(node.value) in (int, float, complex))


def fold(node):
    """Folds arithmetic on number constants, bottom-up, like CPython."""
    for field, value in ast.iter_fields(node):
        if isinstance(value, ast.AST):
            setattr(node, field, fold(value))
        elif isinstance(value, list):
            setattr(node, field,
                    [fold(v) if isinstance(v, ast.AST) else v for v in value])
    foldable = (
        (isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not)
         and is_number(node.operand))
        or (isinstance(node, ast.BinOp) and is_number(node.left)
            and is_number(node.right)))
    if foldable:
        expression = ast.fix_missing_locations(ast.Expression(node))
        return ast.Constant(eval(compile(expression, "<fold>", "eval")))
    return node


def dump_list(nodes, sep=","):
    return sep.join(dump(n) for n in nodes)


def dump_params(a):
    positional = list(getattr(a, "posonlyargs", [])) + list(a.args)
    first_default = len(positional) - len(a.defaults)
    out = []
    for i, p in enumerate(positional):
        text = p.arg
        if i >= first_default:
            text += "=" + dump(a.defaults[i - first_default])
        out.append(text)
        if i + 1 == len(getattr(a, "posonlyargs", [])):
            out.append("/")
    if a.vararg or a.kwonlyargs:
        out.append("*" + (a.vararg.arg if a.vararg else ""))
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append(p.arg + ("=" + dump(d) if d is not None else ""))
    if a.kwarg:
        out.append("**" + a.kwarg.arg)
    return ",".join(out)


def dump_generators(generators):
    out = ""
    for g in generators:
        out += ";afor(" if g.is_async else ";for("
        out += dump(g.target) + "," + dump(g.iter)
        for cond in g.ifs:
            out += "," + dump(cond)
        out += ")"
    return out


def dump(n):
    """The form tests/c/test_print.c's dump_expr gives the engine's tree."""
    if n is None:
        return "_"
    kind = type(n).__name__
    if kind == "Index":
        return dump(n.value)
    if kind == "ExtSlice":
        return "Tuple(" + dump_list(n.dims) + ")"
    if isinstance(n, ast.Constant):
        return "C(%r)" % (n.value,)
    if isinstance(n, ast.Name):
        return "Name(%s)" % n.id
    if isinstance(n, ast.Attribute):
        return "Attr(%s,%s)" % (dump(n.value), n.attr)
    if isinstance(n, ast.Subscript):
        return "Sub(%s,%s)" % (dump(n.value), dump(n.slice))
    if isinstance(n, ast.Slice):
        return "Slice(%s,%s,%s)" % (dump(n.lower), dump(n.upper), dump(n.step))
    if isinstance(n, ast.Call):
        keywords = ",".join(
            (k.arg + "=" if k.arg else "**") + dump(k.value)
            for k in n.keywords)
        return "Call(%s;%s;%s)" % (dump(n.func), dump_list(n.args), keywords)
    if isinstance(n, ast.BinOp):
        return "Bin(%s,%s,%s)" % (BINOPS[type(n.op)], dump(n.left),
                                  dump(n.right))
    if isinstance(n, ast.UnaryOp):
        return "Un(%s,%s)" % (UNOPS[type(n.op)], dump(n.operand))
    if isinstance(n, ast.BoolOp):
        return "Bool(%s,%s)" % ("and" if isinstance(n.op, ast.And) else "or",
                                dump_list(n.values))
    if isinstance(n, ast.Compare):
        return "Cmp(%s%s)" % (dump(n.left), "".join(
            ",%s,%s" % (CMPOPS[type(op)], dump(c))
            for op, c in zip(n.ops, n.comparators)))
    if isinstance(n, ast.IfExp):
        return "IfExp(%s,%s,%s)" % (dump(n.test), dump(n.body),
                                    dump(n.orelse))
    if isinstance(n, ast.Lambda):
        return "Lambda(%s;%s)" % (dump_params(n.args), dump(n.body))
    if isinstance(n, (ast.Tuple, ast.List, ast.Set)):
        return "%s(%s)" % (kind, dump_list(n.elts))
    if isinstance(n, ast.Dict):
        return "Dict(%s)" % ",".join(
            (dump(k) + ":" if k is not None else "**") + dump(v)
            for k, v in zip(n.keys, n.values))
    if isinstance(n, ast.DictComp):
        return "DictComp(%s:%s%s)" % (dump(n.key), dump(n.value),
                                      dump_generators(n.generators))
    if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        name = "GenExp" if kind == "GeneratorExp" else kind
        return "%s(%s%s)" % (name, dump(n.elt), dump_generators(n.generators))
    if isinstance(n, ast.Starred):
        return "Star(%s)" % dump(n.value)
    if isinstance(n, ast.Await):
        return "Await(%s)" % dump(n.value)
    if isinstance(n, ast.Yield):
        return "Yield(%s)" % dump(n.value)
    if isinstance(n, ast.YieldFrom):
        return "YieldFrom(%s)" % dump(n.value)
    if isinstance(n, ast.JoinedStr):
        # 3.12.1 ends a nested format spec with an empty Constant.
        return "JStr(%s)" % dump_list(
            [v for v in n.values
             if not (isinstance(v, ast.Constant) and v.value == "")])
    if isinstance(n, ast.FormattedValue):
        return "Fmt(%s,%d,%s)" % (dump(n.value), n.conversion,
                                  dump(n.format_spec))
    if isinstance(n, ast.NamedExpr):
        return "Named(%s,%s)" % (dump(n.target), dump(n.value))
    return "?" + kind


def same_bits(value, bits, exact_nan):
    want = struct.unpack(">d", bytes.fromhex(bits))[0]
    if math.isnan(want) and not exact_nan:
        return math.isnan(value)
    return struct.pack(">d", value).hex() == bits


def check_const(case):
    code = compile("x = " + case["text"], "<const>", "exec")
    bits = case["bits"].split()
    kind = float if len(bits) == 1 else complex
    found = [c for c in code.co_consts if type(c) is kind]
    if len(found) != 1:
        return "folds to %r" % (code.co_consts,)
    value = found[0]
    if kind is float:
        ok = same_bits(value, bits[0], True)
    else:
        ok = (same_bits(value.real, bits[0], False)
              and same_bits(value.imag, bits[1], False))
    return None if ok else "folds to %r" % (value,)


def check(case):
    text = case["text"]
    try:
        if case["kind"] == "module":
            ast.parse(text)
            return None
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as e:
        return "SyntaxError: %s" % e
    if case["kind"] == "const":
        return check_const(case)
    if "tree" in case:
        got = dump(fold(tree))
        if got != case["tree"]:
            return "parses as %s, not %s" % (got, case["tree"])
    return None


failures = []
for case in json.load(sys.stdin):
    problem = check(case)
    if problem:
        failures.append("%s: %r: %s" % (case["name"], case["text"], problem))
json.dump(failures, sys.stdout)
'''


@pytest.fixture(scope="module")
def test_binary(tmp_path_factory: pytest.TempPathFactory) -> str:
    gcc = shutil.which("gcc")
    if not gcc:
        pytest.fail("gcc is needed to build tests/c/test_print.c")
    sources = engine_sources()
    assert "engine/print/source.c" in sources
    assert "engine/ast/ast.c" in sources
    binary = tmp_path_factory.mktemp("test-print") / "test_print"
    # -O2 -g as CMake's RelWithDebInfo: gcc's maybe-uninitialized check runs
    # only when it optimizes, and it stopped that build of main once
    # (normalize/finally.c take_bodies) while Release and Debug built.
    proc = subprocess.run(
        [gcc, "-std=c11", "-O2", "-g", "-Wall", "-Wextra", "-Werror", "-Iengine/include",
         "-Iengine", "-o", str(binary), str(TEST_SOURCE)] + sources + ["-lm"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return str(binary)


@pytest.fixture(scope="module")
def cases(test_binary: str) -> List[Dict[str, Any]]:
    proc = subprocess.run(
        [test_binary, "--list"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    found = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(found) > 200
    return found


def test_c_printer_cases(test_binary: str) -> None:
    proc = subprocess.run([test_binary], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-2000:]
    assert re.search(r"^\d+ passed, 0 failed$", proc.stdout, flags=re.M), proc.stdout


def test_layout(cases: List[Dict[str, Any]]) -> None:
    """PEP 8 basics: 4-space indents, no trailing whitespace, one final
    newline (none for an empty module).  Lines inside a string are the
    string's own text."""
    for case in cases:
        if case["kind"] != "module" or not case["text"]:
            continue
        text = case["text"]
        assert text.endswith("\n") and not text.endswith("\n\n\n"), case
        inside_strings = set()
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING:
                inside_strings.update(range(token.start[0] + 1, token.end[0] + 1))
        for number, line in enumerate(text.splitlines(), 1):
            if number in inside_strings:
                continue
            assert line == line.rstrip(), case
            assert "\t" not in line[: len(line) - len(line.lstrip())], case
            assert (len(line) - len(line.lstrip(" "))) % 4 == 0, case


@pytest.mark.parametrize("version", VERSIONS)
def test_printed_text_is_valid_python(version: str, cases: List[Dict[str, Any]]) -> None:
    python = INTERPRETERS.get(version)
    if not python:
        pytest.skip("CPython %s is not installed on this machine" % version)
    minor = int(version.split(".")[1])
    selected = [c for c in cases if c["min"] <= minor <= c["max"]]
    assert selected
    proc = subprocess.run(
        [python, "-c", CHECKER],
        input=json.dumps(selected),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    failures = json.loads(proc.stdout)
    assert not failures, "\n".join(failures)


def test_every_construct_is_checked_somewhere(cases: List[Dict[str, Any]]) -> None:
    """Version-bound cases are not silently out of every range checked."""
    for case in cases:
        if case["max"] == 0:
            continue
        assert any(
            case["min"] <= int(v.split(".")[1]) <= case["max"] for v in VERSIONS
        ), case["name"]
    assert {c["kind"] for c in cases} == {"expr", "module", "const"}
    assert Path(TEST_SOURCE).is_file()
