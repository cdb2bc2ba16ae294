"""The unpyc command on real .pyc files of every installed CPython."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import VERSIONS, run_python

SAMPLE = '''
import os

def walk(top, *, limit=3):
    """Yield files."""
    for root, dirs, files in os.walk(top):
        try:
            yield from (os.path.join(root, f) for f in files if f)
        except OSError as e:
            print(f"{e!r:>10}")
        finally:
            limit -= 1

class Box:
    def __init__(self, x):
        self.x = x
'''


def make_pyc(version: str, unpyc_path: str, tmp_path: Path) -> Path:
    src = tmp_path / "sample.py"
    src.write_text(SAMPLE)
    pyc = tmp_path / ("sample-%s.pyc" % version)
    proc = run_python(
        version,
        unpyc_path,
        ["-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
         str(src), str(pyc)],
    )
    assert proc.returncode == 0, proc.stderr
    return pyc


@pytest.mark.parametrize("version", VERSIONS)
def test_cli_json_equals_dis(version: str, unpyc_path: str, unpyc_cli: str, tmp_path: Path) -> None:
    """`unpyc --dis --json` on a file the interpreter wrote equals dis's view,
    computed by that interpreter."""
    pyc = make_pyc(version, unpyc_path, tmp_path)
    proc = subprocess.run([unpyc_cli, "--dis", "--json", str(pyc)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    actual = json.loads(proc.stdout)
    ref = run_python(
        version,
        unpyc_path,
        ["-c",
         "import json, marshal, sys; sys.path.insert(0, sys.argv[2]);"
         "import dis_reference; code = marshal.loads(open(sys.argv[1], 'rb').read()[16:]);"
         "print(json.dumps(dis_reference.document(code)))",
         str(pyc), str(Path(__file__).parent / "support")],
    )
    assert ref.returncode == 0, ref.stderr
    assert actual == json.loads(ref.stdout)
    assert actual["version"] == version
    names = [c["name"] for c in actual["code"]["children"]]
    assert names == ["walk", "Box"]


@pytest.mark.parametrize("version", VERSIONS)
def test_cli_text_listing(version: str, unpyc_path: str, unpyc_cli: str, tmp_path: Path) -> None:
    pyc = make_pyc(version, unpyc_path, tmp_path)
    proc = subprocess.run([unpyc_cli, "--dis", str(pyc)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "LOAD_CONST" in text and "'>10'" in text
    assert "Disassembly of <code object walk at 0x0, file" in text
    assert "Disassembly of <code object __init__ at 0x0, file" in text
    has_exception_table = tuple(map(int, version.split("."))) >= (3, 11)
    assert ("ExceptionTable:" in text) == has_exception_table


def test_cli_reads_stdin(unpyc_path: str, unpyc_cli: str, tmp_path: Path) -> None:
    pyc = make_pyc("3.11", unpyc_path, tmp_path)
    from_file = subprocess.run([unpyc_cli, "--dis", str(pyc)], capture_output=True).stdout
    from_stdin = subprocess.run(
        [unpyc_cli, "--dis", "-"], input=pyc.read_bytes(), capture_output=True
    ).stdout
    assert from_stdin == from_file and from_file


def test_cli_usage(unpyc_cli: str) -> None:
    proc = subprocess.run([unpyc_cli, "--help"], capture_output=True, text=True)
    assert proc.returncode == 0
    assert "--dis" in proc.stdout and "--json" in proc.stdout
    proc = subprocess.run([unpyc_cli, "--no-such-flag"], capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.startswith("unpyc: ")


CODE_AS_VALUE = r'''
import importlib._bootstrap_external as ext, sys
# `x = <code object>`: no source loads a code object other than to make a
# function of it (tools' bytecode may), so there is no source to print.
module = compile("x = 1\n", "crafted.py", "exec")
inner = compile("pass\n", "inner.py", "exec")
consts = tuple(inner if c == 1 else c for c in module.co_consts)
with open(sys.argv[1], "wb") as f:
    f.write(ext._code_to_timestamp_pyc(module.replace(co_consts=consts), 0, 0))
'''


@pytest.mark.parametrize("version", VERSIONS)
def test_cli_marks_code_object_value(version: str, unpyc_path: str, unpyc_cli: str,
                                     tmp_path: Path) -> None:
    pyc = tmp_path / ("crafted-%s.pyc" % version)
    proc = run_python(version, unpyc_path, ["-c", CODE_AS_VALUE, str(pyc)])
    assert proc.returncode == 0, proc.stderr
    out = subprocess.run([unpyc_cli, str(pyc)], capture_output=True, text=True)
    # The `...` standing for it is said on its line, and the run exits 9
    # (incomplete), never 0 as if `x = ...` were the source.
    assert out.returncode == 9, (out.stdout, out.stderr)
    assert "x = ...  # unpyc: a code object used as a value prints as ..." in out.stdout
