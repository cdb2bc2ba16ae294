"""unpyc.decompile / decompile_pyc on every installed CPython: each kind of
object it takes, verify=True, and what it does on a mismatch.

Decompilation is held to the round-trip bar on 3.11-3.13 hosts (issue 3).
On 3.8-3.10 hosts the engine does not yet structure the block-stack
instructions of try and with (SETUP_FINALLY, POP_BLOCK, ...): code without
them decompiles as anywhere, and a try statement comes out marked as not
recovered, which verify=True reports instead of passing it off as correct.
"""

from __future__ import annotations

import json

import pytest

from conftest import VERSIONS, run_python

CHECK = r'''
import functools, json, os, sys, tempfile, types
import unpyc
from unpyc.roundtrip import verify_decompiled

SOURCE = """\
import os.path

LIMIT = 3


def helper(a, b=2, *rest, key=None, **extra):
    \"\"\"Add things up.\"\"\"
    total = 0
    for item in (a, b) + rest:
        if item is None:
            continue
        total += item
    return os.path.join(str(total), str(key))


class Shape:
    sides: int = 0

    def __init__(self, name):
        self.name = name

    def describe(self):
        return '%s with %d sides' % (self.name, self.sides)

    @staticmethod
    def unit():
        return Shape('unit')


def guarded(x):
    try:
        return 1 / x
    except ZeroDivisionError:
        return None
"""

folder = tempfile.mkdtemp()
with open(os.path.join(folder, "sample_mod.py"), "w") as f:
    f.write(SOURCE)
sys.path.insert(0, folder)
import sample_mod

at_bar = sys.version_info >= (3, 11)
results = {}
# The try statement: at the bar from 3.11 on; before, marked and caught.
guarded_text = unpyc.decompile(sample_mod.guarded)
if at_bar:
    results["try"] = unpyc.decompile(sample_mod.guarded, verify=True) == guarded_text
else:
    try:
        unpyc.decompile(sample_mod.guarded, verify=True)
        results["try"] = "verify passed"
    except unpyc.VerificationError as e:
        results["try"] = "# unpyc: " in guarded_text and bool(e.detail)
objects = {
    "module": sample_mod,
    "function": sample_mod.helper,
    "code": sample_mod.helper.__code__,
    "method": sample_mod.Shape("sq").describe,
    "staticmethod": sample_mod.Shape.__dict__["unit"],
    "partial": functools.partial(sample_mod.helper, 1),
    "class": sample_mod.Shape,
}
for label, obj in objects.items():
    text = unpyc.decompile(obj)
    compile(text, "<decompiled>", "exec")
    if at_bar or label != "module":
        # verify=True passes and gives the same text.
        results[label] = unpyc.decompile(obj, verify=True) == text
    else:
        # The module holds the try statement.
        try:
            unpyc.decompile(obj, verify=True)
            results[label] = "verify passed"
        except unpyc.VerificationError as e:
            results[label] = e.source == text
module_text = unpyc.decompile(sample_mod)
results["module_shape"] = (
    "def helper(a, b=2, *rest, key=None, **extra):" in module_text
    and '"""Add things up."""' in module_text
    and "sides: int = 0" in module_text
)

# A wrong text is caught, and named.
code = sample_mod.helper.__code__
wrong = unpyc.decompile(code).replace("total += item", "total -= item")
results["wrong_caught"] = verify_decompiled(code, wrong) is not None
results["invalid_caught"] = "does not compile" in (verify_decompiled(code, "def helper(:\n") or "")

# on_mismatch="annotate" returns the text with the difference on top; the
# engine's own output is replaced here by a wrong one, as no correct
# decompiler output can be made to differ.
engine = unpyc._engine
real = engine.decompile_marshal
def wrong_engine(data, major, minor):
    text, unrecovered = real(data, major, minor)
    return text.replace("total += item", "total -= item"), unrecovered
engine.decompile_marshal = wrong_engine
try:
    annotated = unpyc.decompile(sample_mod.helper, verify=True, on_mismatch="annotate")
    results["annotate"] = annotated.startswith("# unpyc: not equivalent: ")
    try:
        unpyc.decompile(sample_mod.helper, verify=True)
        results["raise"] = False
    except unpyc.VerificationError as e:
        results["raise"] = "total -= item" in e.source and bool(e.detail)
finally:
    engine.decompile_marshal = real
try:
    unpyc.decompile(code, verify=True, on_mismatch="ignore")
    results["bad_flag"] = False
except ValueError:
    results["bad_flag"] = True

# A .pyc file of this interpreter.
import py_compile
pyc = py_compile.compile(os.path.join(folder, "sample_mod.py"), cfile=os.path.join(folder, "s.pyc"))
results["pyc"] = unpyc.decompile_pyc(pyc) == module_text
print(json.dumps(results))
'''


@pytest.mark.parametrize("version", VERSIONS)
def test_decompile_api_on_host_objects(version: str, unpyc_path: str) -> None:
    proc = run_python(version, unpyc_path, ["-c", CHECK])
    assert proc.returncode == 0, proc.stderr[-4000:]
    results = json.loads(proc.stdout)
    assert results == {
        "try": True,
        "module": True,
        "function": True,
        "code": True,
        "method": True,
        "staticmethod": True,
        "partial": True,
        "class": True,
        "module_shape": True,
        "wrong_caught": True,
        "invalid_caught": True,
        "annotate": True,
        "raise": True,
        "bad_flag": True,
        "pyc": True,
    }


def test_deep_expression_round_trips() -> None:
    """A long chain of + nests 1500 deep: real source, printed whole."""
    import unpyc

    source = "def f(a):\n    return " + " + ".join(["a"] * 1500) + "\n"
    namespace: dict = {}
    exec(compile(source, "deep.py", "exec"), namespace)
    text = unpyc.decompile(namespace["f"], verify=True)
    assert text.count("a + ") == 1499


def test_expression_nested_too_deep_is_refused() -> None:
    """Crafted bytecode nesting an expression deeper than the printer goes
    gets a clear error, not a crash (the engine's recursion is bounded)."""
    import dis
    import sys

    import unpyc
    from unpyc import errors

    if sys.version_info[:2] != (3, 11):
        pytest.skip("the crafted co_code is 3.11 bytecode; the suite runs on 3.11")

    def f(a):  # type: ignore[no-untyped-def]
        return a

    op = dis.opmap
    load, add = bytes([op["LOAD_FAST"], 0]), bytes([op["BINARY_OP"], 0, 0, 0])
    code = bytes([op["RESUME"], 0]) + load + (load + add) * 3500 + bytes([op["RETURN_VALUE"], 0])
    crafted = f.__code__.replace(co_code=code, co_stacksize=2, co_linetable=b"",
                                 co_exceptiontable=b"")
    with pytest.raises(errors.TooLargeError, match="nested more than 3000 levels"):
        unpyc.decompile(crafted)
