"""The Python package on every installed CPython: unpyc.dis / dis_json on the
running interpreter's own objects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import VERSIONS, run_python

SUPPORT = str(Path(__file__).resolve().parent / "support")

CHECK = r'''
import json, sys, types
sys.path.insert(0, sys.argv[1])
import dis_reference
import unpyc

def outer(a, *args, k=1, **kw):
    total = 0
    def inner(b):
        nonlocal total
        total += b
        return [x * b for x in args if x]
    try:
        inner(a)
    except (ValueError, TypeError) as e:
        raise RuntimeError("bad") from e
    return total

class K:
    def method(self):
        return super().method()

results = {}
# Functions, methods, code objects and source strings all work, and agree
# with dis of this very interpreter.
for label, obj, code in [
    ("function", outer, outer.__code__),
    ("method", K().method, K.method.__code__),
    ("code", outer.__code__, outer.__code__),
]:
    doc = unpyc.dis_json(obj)
    results[label] = doc == dis_reference.document(code)
text = unpyc.dis(outer)
results["text"] = "LOAD_FAST" in text and "Disassembly of <code object inner" in text
source_doc = unpyc.dis_json("x = 1\ny = x + 2\n")
results["source"] = source_doc["code"]["name"] == "<module>"
module_doc = unpyc.dis_json(types)
results["module"] = module_doc["code"]["name"] == "<module>" and len(module_doc["code"]["children"]) > 3
try:
    unpyc.dis(42)
except TypeError:
    results["type_error"] = True
print(json.dumps(results))
'''


@pytest.mark.parametrize("version", VERSIONS)
def test_dis_api_on_host_objects(version: str, unpyc_path: str) -> None:
    proc = run_python(version, unpyc_path, ["-c", CHECK, SUPPORT])
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    assert results == {
        "function": True,
        "method": True,
        "code": True,
        "text": True,
        "source": True,
        "module": True,
        "type_error": True,
    }
