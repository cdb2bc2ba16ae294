"""The round-trip oracle itself (python/unpyc/roundtrip.py), on every
installed CPython 3.8-3.13.

Before the oracle can judge the decompiler it must be shown to judge right:
the original source, given back as the "decompiled" text, must come out
equivalent (modules, every code object, and every def decompiled alone);
one small semantic change per module must be caught; and compare_code must
see each kind of difference SPEC section 2 names while ignoring line
numbers and NOPs.  The worker machinery must turn a hanging decompiler into
"timeout" and a dying one into "crash".
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any, Dict, List

import pytest

from conftest import VERSIONS, run_python

# Stdlib modules present in every version from 3.8 to 3.13, chosen for
# variety (classes, closures, generators, async, decorators, try/with,
# comprehensions, match and except* where the version has them).
MODULES = [
    "abc.py", "argparse.py", "ast.py", "asyncio/locks.py", "base64.py", "bisect.py",
    "calendar.py", "collections/__init__.py", "contextlib.py", "copy.py", "csv.py",
    "dataclasses.py", "difflib.py", "email/message.py", "enum.py", "fractions.py",
    "functools.py", "heapq.py", "json/decoder.py", "json/encoder.py",
    "logging/__init__.py", "operator.py", "pprint.py", "queue.py", "shlex.py",
    "statistics.py", "string.py", "textwrap.py", "threading.py", "traceback.py",
    "typing.py", "unittest/case.py", "weakref.py", "test/test_coroutines.py",
    "test/test_grammar.py", "test/test_scope.py", "test/test_super.py",
]
NEWER = ["test/test_patma.py", "test/test_except_star.py", "test/test_type_params.py"]

AVAILABLE = """
import os, sys, sysconfig
root = sysconfig.get_paths()["stdlib"]
print("\\n".join(f for f in sys.argv[1:] if os.path.isfile(os.path.join(root, f))))
"""


def _modules(version: str, unpyc_path: str) -> List[str]:
    proc = run_python(version, unpyc_path, ["-c", AVAILABLE] + MODULES + NEWER)
    assert proc.returncode == 0, proc.stderr
    found = proc.stdout.split()
    assert set(MODULES) <= set(found)
    return found


def _run(version: str, unpyc_path: str, out: Path, args: List[str]) -> Dict[str, Any]:
    """Runs the command line; its JSON result, with "returncode" added."""
    jobs = "1" if os.environ.get("PYTEST_XDIST_WORKER") else "2"
    proc = run_python(version, unpyc_path, [
        "-m", "unpyc.roundtrip", "--jobs", jobs, "--json", str(out)] + args)
    assert out.exists(), proc.stdout[-2000:] + proc.stderr[-4000:]
    result: Dict[str, Any] = json.loads(out.read_text())
    result["returncode"] = proc.returncode
    return result


@pytest.mark.parametrize("version", VERSIONS)
def test_identity_is_equivalent(version: str, unpyc_path: str, tmp_path: Path) -> None:
    modules = _modules(version, unpyc_path)
    result = _run(version, unpyc_path, tmp_path / "identity.json", [
        "--decompiler", "identity", "--sample-functions", "1", "--stdlib"] + modules)
    summary = result["summary"]
    problems = [
        "%s%s: %s %s" % (m["path"], "::" + f["qualname"] if f is not m else "",
                         f["status"], f.get("detail"))
        for m in result["modules"]
        for f in [m] + m["functions"] + m["standalone"]
        if f["status"] != "equivalent"
    ]
    assert not problems, "\n".join(problems[:40])
    assert summary["modules"] == len(modules) and summary["skipped"] == 0
    assert summary["function_status"]["equivalent"] > 2000
    # Every def was decompiled alone too (--sample-functions 1).
    assert summary["standalone_status"]["equivalent"] > 1500
    assert result["returncode"] == 0


@pytest.mark.parametrize("version", VERSIONS)
def test_mutants_are_caught(version: str, unpyc_path: str, tmp_path: Path) -> None:
    modules = _modules(version, unpyc_path)
    result = _run(version, unpyc_path, tmp_path / "mutant.json", [
        "--decompiler", "mutant", "--stdlib"] + modules)
    records = result["modules"]
    # Each of these modules has a "+", "==" or a statement whose change
    # alters the compiled code.
    assert all(m.get("mutation") for m in records), [m["path"] for m in records]
    missed = [(m["path"], m["mutation"]) for m in records
              if m["status"] not in ("differs", "invalid")]
    assert not missed
    assert result["summary"]["mutated_missed"] == 0
    assert result["returncode"] == 1


CASES = r'''
import json, math, sys
from unpyc.roundtrip import compare_code

def c(source):
    return compile(source, "<case>", "exec", dont_inherit=True)

def child(code, name):
    return next(k for k in code.co_consts if getattr(k, "co_name", None) == name)

def raw_differs(x, y):
    return x.co_code != y.co_code or any(
        raw_differs(p, q) for p, q in zip(x.co_consts, y.co_consts)
        if hasattr(p, "co_code") and hasattr(q, "co_code"))

results = {}
def case(name, a, b):
    x, y = c(a), c(b)
    results[name] = [compare_code(x, y), raw_differs(x, y)]

body = ("import os\ndef f(a, *b, c=1, **d):\n"
        "    return [x + a for x in b if x] or {k: v for k, v in d.items()}\n")
case("identical", body, body)
case("changed_constant", "x = 1\n", "x = 2\n")
# The same instructions but for where the jump lands.
case("jump_target", "if a:\n    f()\ng()\nh()\n", "if a:\n    f()\n    g()\nh()\n")
case("swapped_name", "x = a + b\n", "x = b + a\n")
case("extra_nested_function", "def f():\n    return 1\n",
     "def f():\n    def g():\n        pass\n    return 1\n")
case("negative_zero", "x = -0.0\n", "x = 0.0\n")
case("complex_negative_zero", "x = -0j\n", "x = 0j\n")
case("nested_tuple", "x = (1, (2.0, -0.0))\n", "x = (1, (2.0, 0.0))\n")
case("int_vs_float", "x = 1\n", "x = 1.0\n")
case("int_vs_bool", "x = 1\n", "x = True\n")
case("float_vs_bool", "x = 1.0\n", "x = True\n")
case("frozenset_order", "r = x in {1, 2, 3, 'a', 'b'}\n", "r = x in {'b', 3, 2, 'a', 1}\n")
case("frozenset_member", "r = x in {1, 2, 3}\n", "r = x in {1, 2, 4}\n")
case("nan_equals_nan", "x = 1e400 * 0\n", "x = 1e400 * 0\n")
results["nan_is_constant"] = [any(isinstance(k, float) and math.isnan(k)
                                  for k in c("x = 1e400 * 0\n").co_consts), False]
case("class_name", "class C:\n    pass\n", "class D:\n    pass\n")
case("line_numbers", "x = 1\ny = 2\n", "x = 1\n\n\n\ny = 2\n")
case("line_breaks", "x = f(a,\n      b)\ny = [1,\n     2]\n", "x = f(a, b)\ny = [1, 2]\n")
# 3.10+ keep a NOP for a `pass` on a line of its own.
case("pass_nop", "def f(a):\n    x = a\n    pass\n    return x\n",
     "def f(a):\n    x = a\n    return x\n")
# 3.13 fuses LOAD_FAST pairs on one line only; 3.11 threads a jump to a jump
# depending on lines.
case("superinstruction", "def f(a, b):\n    return g(a,\n             b)\n",
     "def f(a, b):\n    return g(a, b)\n")
case("swapped_locals", "def f(a, b):\n    return g(a, b)\n", "def f(a, b):\n    return g(b, a)\n")
case("jump_threading",
     "def f(parts):\n    return [p\n            for p in parts\n            if p and p is not S]\n",
     "def f(parts):\n    return [p for p in parts if p and p is not S]\n")
# 3.13 class bodies store their first line number as a constant, which may
# share its slot with an equal constant of the body.
case("class_line", "class C:\n    x = 1\n", "\n\n\nclass C:\n    x = 1\n")
case("class_line_equal_to_constant", "\n\n\nclass C:\n    x = 4\n    y = 1\n",
     "class C:\n    x = 4\n    y = 1\n")

f = child(c("def f():\n    return g(1)\n"), "f")
results["changed_flag"] = [compare_code(f, f.replace(co_flags=f.co_flags | 0x100)), True]
results["nested_flag_only"] = [compare_code(f, f.replace(co_flags=f.co_flags | 0x10)), True]
if sys.version_info >= (3, 11):
    t = child(c("def f():\n    try:\n        g()\n    except E:\n        h()\n"), "f")
    table = bytearray(t.co_exceptiontable)
    assert table[0] & 128 and all(b < 64 for b in table[1:4]), table
    table[3] += 2  # first entry: depth_lasti = depth << 1 | lasti
    results["exception_depth"] = [compare_code(t, t.replace(co_exceptiontable=bytes(table))), True]
print(json.dumps(results))
'''

# Case -> a fragment of the one-line report of the first difference.
DIFFER = {
    "changed_constant": re.compile(
        r"^<module>: instruction \d+: expected \(LOAD_CONST, '1'\), got \(LOAD_CONST, '2'\)$"),
    "jump_target": re.compile(
        r"instruction \d+: expected \(\w*JUMP\w*, 'to instruction (\d+)'\), "
        r"got \(\w*JUMP\w*, 'to instruction (?!\1)\d+'\)"),
    "swapped_name": re.compile(r"expected \(LOAD_NAME, 'a'\), got \(LOAD_NAME, 'b'\)"),
    "extra_nested_function": re.compile(r"^f: instruction \d+: .*code object"),
    "negative_zero": re.compile(r"'-0\.0'\), got \(LOAD_CONST, '0\.0'\)"),
    "complex_negative_zero": re.compile(r"got \(LOAD_CONST, '0j'\)"),
    "nested_tuple": re.compile(r"-0\.0"),
    "int_vs_float": re.compile(r"'1'\), got \(LOAD_CONST, '1\.0'\)"),
    "int_vs_bool": re.compile(r"'1'\), got \(LOAD_CONST, 'True'\)"),
    "float_vs_bool": re.compile(r"'1\.0'\), got \(LOAD_CONST, 'True'\)"),
    "frozenset_member": re.compile(r"frozenset"),
    "swapped_locals": re.compile(r"^f: instruction \d+: expected \(LOAD_FAST, 'a'\), got \(LOAD_FAST\w*, "),
    "class_name": re.compile(r"code object C'\), got \(LOAD_CONST, 'code object D'"),
    "changed_flag": re.compile(r"^f: co_flags: .*ITERABLE_COROUTINE"),
    "exception_depth": re.compile(r"^f: exception table entry 0: .*\[depth 0\], got .*\[depth 1\]"),
}
EQUIVALENT = [
    "identical", "frozenset_order", "nan_equals_nan", "line_numbers", "line_breaks",
    "pass_nop", "class_line", "class_line_equal_to_constant", "nested_flag_only",
    "superinstruction", "jump_threading",
]


@pytest.mark.parametrize("version", VERSIONS)
def test_compare_code_cases(version: str, unpyc_path: str) -> None:
    proc = run_python(version, unpyc_path, ["-c", CASES])
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    for name, pattern in DIFFER.items():
        if name == "exception_depth" and version in ("3.8", "3.9", "3.10"):
            assert name not in results  # no exception table before 3.11
            continue
        report, _ = results[name]
        assert report and pattern.search(report), (name, report)
    for name in EQUIVALENT:
        if name == "jump_threading" and version == "3.12":
            # 3.12 also lays this loop's blocks out by line (an inverted
            # jump over a JUMP_BACKWARD): not undone, the decompiler must
            # keep the comprehension's clauses on their lines.
            assert results[name][0], results[name]
            continue
        assert results[name][0] is None, (name, results[name][0])
    assert results["nan_is_constant"][0]
    # The equivalences above are not trivial: the bytes did differ.
    assert results["jump_target"][1] and results["line_numbers"][1] is False
    if version not in ("3.8", "3.9"):
        assert results["pass_nop"][1], "expected a NOP for `pass` on %s" % version
    if version == "3.11":
        assert results["jump_threading"][1]
    if version == "3.13":
        assert results["class_line"][1] and results["class_line_equal_to_constant"][1]
        assert results["superinstruction"][1]


STANDALONE = r'''
import inspect, json, os, symtable, sys, textwrap
from unpyc.roundtrip import roundtrip_function, roundtrip_source


def make_closure(y):
    def closure(a):
        nonlocal y
        y += a
        return [a + y for _ in range(3)]
    return closure


class Base:
    def greet(self):
        return "base"


class Child(Base):
    def greet(self):
        return super().greet() + "!"

    def hidden(self):
        return self.__secret


def generator(n):
    for i in range(n):
        yield i * 2
    yield from range(n)


async def coroutine(x):
    async with x as y:
        await y
    return [z async for z in x]


def uses_module(path):
    return os.fspath(path)


def main():
    source = open(__file__).read()
    table = symtable.symtable(source, __file__, "exec")

    def alone(fn, text=None, module=table):
        text = text or textwrap.dedent(inspect.getsource(fn))
        r = roundtrip_function(fn.__code__, decompile=lambda code: text,
                               qualname=fn.__qualname__, module=module)
        return [r.status, r.detail]

    closure = make_closure(1)
    results = {
        "closure": alone(closure),
        "super_method": alone(Child.greet),
        "private_name": alone(Child.hidden),
        "generator": alone(generator),
        "async_function": alone(coroutine),
        "module_method_call": alone(uses_module),
        "closure_changed": alone(closure, "def closure(a):\n    nonlocal y\n    y -= a\n"
                                          "    return [a + y for _ in range(3)]\n"),
        "invalid_output": alone(generator, "def generator(n):\n    yield n +\n"),
        # On 3.11+ `os.fspath(...)` is not a method call when `os` is
        # imported at the top of the module: without the table, it differs.
        "module_method_call_no_table": alone(uses_module, module=None),
    }

    def boom(code):
        raise RuntimeError("no")

    for name, decompile in (("source_identity", lambda code: source),
                            ("source_error", boom),
                            ("source_invalid", lambda code: source + "\n)\n"),
                            ("source_changed", lambda code: source.replace("i * " + "2", "i * 3"))):
        r = roundtrip_source(source, __file__, decompile=decompile)
        results[name] = [r.status, r.detail, sorted({f.status for f in r.functions}),
                         [f.qualname for f in r.functions if f.status != "equivalent"]]
    print(json.dumps(results))


main()
'''


@pytest.mark.parametrize("version", VERSIONS)
def test_standalone_functions(version: str, unpyc_path: str, tmp_path: Path) -> None:
    script = tmp_path / "standalone_case.py"
    script.write_text(STANDALONE)
    proc = run_python(version, unpyc_path, [str(script)])
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    for name in ("closure", "super_method", "private_name", "generator", "async_function",
                 "module_method_call"):
        assert results[name] == ["equivalent", None], (name, results[name])
    assert results["closure_changed"][0] == "differs"
    assert results["invalid_output"][0] == "invalid"
    new_calls = version not in ("3.8", "3.9", "3.10")
    assert results["module_method_call_no_table"][0] == ("differs" if new_calls else "equivalent")
    assert results["source_identity"][:3] == ["equivalent", None, ["equivalent"]]
    assert results["source_error"][0] == "error" and results["source_error"][2] == ["error"]
    assert results["source_invalid"][0] == "invalid" and results["source_invalid"][2] == ["invalid"]
    status, detail, _, failing = results["source_changed"]
    assert status == "differs" and detail.startswith("generator: instruction"), detail
    assert failing == ["generator"]


FAKE_DECOMPILER = '''

def decompile(obj, *, verify=False):
    """A stand-in for the test: hangs or dies on request, else the source."""
    import os, time
    if obj.co_filename.endswith("hang.py"):
        time.sleep(600)
    if obj.co_filename.endswith("crash.py"):
        os._exit(3)
    with open(obj.co_filename) as f:
        return f.read()
'''


@pytest.mark.parametrize("version", VERSIONS)
def test_timeouts_and_crashes(version: str, unpyc_path: str, tmp_path: Path) -> None:
    """A module over the time limit counts as "timeout", one whose worker
    dies as "crash"; the worker is replaced and the run goes on."""
    package = tmp_path / "path" / "unpyc"
    shutil.copytree(Path(unpyc_path) / "unpyc", package)
    with open(package / "__init__.py", "a") as f:
        f.write(FAKE_DECOMPILER)
    files = []
    for name in ("hang.py", "crash.py", "ok.py", "ok2.py"):
        (tmp_path / name).write_text("def f(x):\n    return lambda: x + 1\n")
        files.append(str(tmp_path / name))
    out = tmp_path / "result.json"
    proc = run_python(version, str(tmp_path / "path"), [
        "-m", "unpyc.roundtrip", "--jobs", "2", "--timeout", "5", "--json", str(out)] + files)
    result = json.loads(out.read_text())
    status = {Path(m["path"]).name: m for m in result["modules"]}
    assert status["hang.py"]["status"] == "timeout"
    assert status["crash.py"]["status"] == "crash"
    assert "exit code 3" in status["crash.py"]["detail"]
    for name in ("hang.py", "crash.py"):  # the functions were known before it failed
        assert {f["status"] for f in status[name]["functions"]} == {status[name]["status"]}
        assert len(status[name]["functions"]) == 2
    assert status["ok.py"]["status"] == status["ok2.py"]["status"] == "equivalent"
    assert proc.returncode == 1


def test_known_failures_ratchet(unpyc_path: str, tmp_path: Path) -> None:
    """--update-known records the failures; a rerun then passes; entries
    that pass now come back as FIXED, entries with no result as STALE."""
    known = tmp_path / "3.11.txt"
    modules = ["--stdlib", "bisect.py", "json/decoder.py", "textwrap.py"]
    mutant = ["--decompiler", "mutant", "--known", str(known)] + modules
    first = _run("3.11", unpyc_path, tmp_path / "a.json", mutant + ["--update-known"])
    entries = [line for line in known.read_text().splitlines() if not line.startswith("#")]
    assert first["returncode"] == 0 and sorted(first["new"]) == sorted(entries)
    assert {"bisect.py", "json/decoder.py", "textwrap.py"} <= set(entries)
    again = _run("3.11", unpyc_path, tmp_path / "b.json", mutant)
    assert again["returncode"] == 0 and not again["new"] + again["fixed"] + again["stale"]
    with open(known, "a") as f:
        f.write("bisect.py::no_such_function  # gone\nabc.py  # not run: not stale\n")
    identity = _run("3.11", unpyc_path, tmp_path / "c.json", [
        "--decompiler", "identity", "--known", str(known)] + modules)
    assert identity["returncode"] == 1 and not identity["new"]
    assert identity["fixed"] == sorted(entries)
    assert identity["stale"] == ["bisect.py::no_such_function"]
