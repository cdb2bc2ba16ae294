"""The unpyc command on real .pyc files of every installed CPython."""

from __future__ import annotations

import json
import os
import pty
import subprocess
from pathlib import Path
from typing import Dict, List

import pytest

from conftest import INTERPRETERS, VERSIONS, run_python

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


# --- the batch mode: unpyc -o OUT PATH... ---------------------------------

TREE = {
    "pkg/__init__.py": "VERSION = (1, 2)\n",
    "pkg/mod.py": SAMPLE,
    "pkg/sub/__init__.py": "",
    "pkg/sub/deep.py": "def g(a, b=2):\n    return [x * b for x in a if x]\n",
    "top.py": "import sys\nprint(sys.argv[1:])\n",
}
INSTALLED = [v for v in VERSIONS if INTERPRETERS.get(v)]


def make_tree(root: Path, unpyc_path: str, versions: List[str]) -> None:
    """The sources of TREE under root, compiled by each of versions into
    their __pycache__ directories (compileall, as an installer does)."""
    for name, text in TREE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    for version in versions:
        proc = run_python(version, unpyc_path, ["-m", "compileall", "-q", str(root)])
        assert proc.returncode == 0, proc.stderr


def add_bad_files(cache: Path) -> Dict[str, int]:
    """Broken copies of a good .pyc in cache: their names and the exit code
    `unpyc FILE` gives each (5 truncated, 4 unknown magic, 3 not a .pyc)."""
    good = next(cache.glob("mod.*.pyc")).read_bytes()
    bad = {"truncated.cpython-311.pyc": (good[:40], 5),
           "badmagic.cpython-311.pyc": (b"\x01\x02\r\n" + good[4:], 4),
           "garbage.cpython-311.pyc": (b"this is no bytecode at all", 3)}
    for name, (data, _) in bad.items():
        (cache / name).write_bytes(data)
    return {name: code for name, (_, code) in bad.items()}


def batch(unpyc_cli: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([unpyc_cli, *args], capture_output=True, text=True, timeout=600)


def test_batch_tree_of_every_interpreter(unpyc_path: str, unpyc_cli: str, tmp_path: Path) -> None:
    """A tree compiled by every installed CPython, with three broken files
    among them: each good file's source comes out under OUT (each
    interpreter's copy of a module keeps its cache tag), exactly as `unpyc
    FILE` prints it, verified by its own interpreter; each broken file
    costs its own output only, and the run exits 13."""
    assert INSTALLED, "no CPython 3.8-3.13 on this machine"
    src, out, report = tmp_path / "src", tmp_path / "out", tmp_path / "report.json"
    make_tree(src, unpyc_path, INSTALLED)
    bad = add_bad_files(src / "pkg" / "__pycache__")
    proc = batch(unpyc_cli, "-o", str(out), "--report", str(report), str(src))
    assert proc.returncode == 13, proc.stderr
    data = json.loads(report.read_text())
    results = {Path(r["source"]).relative_to(src).as_posix(): r for r in data["results"]}
    assert len(results) == len(TREE) * len(INSTALLED) + len(bad) == data["files"]
    assert data["errors"] == len(bad) and data["verify"] == "default"
    for name, code in bad.items():
        r = results["pkg/__pycache__/" + name]
        assert (r["status"], r["exit_code"], r["output"]) == ("error", code, None), r
        assert r["message"]
    tagged = len(INSTALLED) > 1
    for name in TREE:
        stem = name[:-3]
        for version in INSTALLED:
            tag = "cpython-" + version.replace(".", "")
            cached = "%s/__pycache__/%s.%s.pyc" % (os.path.dirname(name) or ".", os.path.basename(stem), tag)
            r = results[os.path.normpath(cached)]
            expected = out / (stem + (".%s.py" % tag if tagged else ".py"))
            assert r["output"] == str(expected)
            # What `unpyc FILE` prints and exits with, file by file.
            single = subprocess.run([unpyc_cli, r["source"]], capture_output=True, text=True)
            assert (expected.read_text(), r["exit_code"]) == (single.stdout, single.returncode)
            # 3.11+ are decompiled whole (README); older ones may be marked.
            if tuple(map(int, version.split("."))) >= (3, 11):
                assert (r["status"], r["verification"]) == ("recovered", "equivalent"), r
    tags = [".cpython-%s" % v.replace(".", "") if tagged else "" for v in INSTALLED]
    assert {p.name for p in (out / "pkg").iterdir() if p.is_file()} == {
        m + tag + ".py" for m in ("__init__", "mod") for tag in tags}
    assert "%d files" % data["files"] in proc.stdout and "3 errors" in proc.stdout
    # Piped: no progress line; one line for each file not fully recovered.
    assert "\r" not in proc.stderr
    said = [line.split(": ")[1] for line in proc.stderr.splitlines() if line.startswith("unpyc: ")]
    assert sorted(said) == sorted(r["source"] for r in data["results"] if r["status"] != "recovered")


def test_batch_names_after_sources(unpyc_path: str, unpyc_cli: str, tmp_path: Path) -> None:
    """One interpreter's cache: pkg/__pycache__/mod.cpython-311.pyc gives
    OUT/pkg/mod.py, its -O copy mod.cpython-311.opt-1.pyc beside it
    OUT/pkg/mod.cpython-311.opt-1.py; a plain .pyc (py_compile's own name)
    and a file named on the command line keep their names.  All
    recovered: exit 0; with --no-verify nothing is checked and the output
    is exactly `unpyc --no-verify FILE`'s."""
    src, out = tmp_path / "src", tmp_path / "out"
    make_tree(src, unpyc_path, ["3.11"])
    proc = run_python("3.11", unpyc_path, ["-m", "compileall", "-q", "-o", "1", str(src)])
    assert proc.returncode == 0, proc.stderr
    legacy = src / "pkg" / "legacy.pyc"
    proc = run_python("3.11", unpyc_path, [
        "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
        str(src / "top.py"), str(legacy)])
    assert proc.returncode == 0, proc.stderr
    alone = make_pyc("3.11", unpyc_path, tmp_path)
    proc = batch(unpyc_cli, "-o", str(out), "--no-verify", "--jobs", "3", str(src), str(alone))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.py"))
    optimized = [n[:-3] + ".cpython-311.opt-1.py" for n in TREE]
    assert written == sorted(list(TREE) + optimized + ["pkg/legacy.py", "sample-3.11.py"])
    single = subprocess.run([unpyc_cli, "--no-verify", str(src / "pkg/__pycache__/mod.cpython-311.pyc")],
                            capture_output=True, text=True)
    assert (out / "pkg" / "mod.py").read_text() == single.stdout
    assert "def walk(top, *, limit=3):" in single.stdout
    assert "fully recovered (0 verified equivalent)" in proc.stdout


def test_batch_verified_note_on_top(unpyc_path: str, unpyc_cli: str, tmp_path: Path) -> None:
    """Verification writes its note on top of each output, as `unpyc FILE`
    prints it."""
    version = INSTALLED[-1]
    pyc = make_pyc(version, unpyc_path, tmp_path)
    out = tmp_path / "out"
    proc = batch(unpyc_cli, "-o", str(out), str(pyc))
    assert proc.returncode == 0, proc.stderr
    single = subprocess.run([unpyc_cli, str(pyc)], capture_output=True, text=True)
    written = (out / ("sample-%s.py" % version)).read_text()
    assert written == single.stdout
    assert written.startswith("# unpyc: verified with Python %s" % version)


def test_batch_progress_on_terminal(unpyc_path: str, unpyc_cli: str, tmp_path: Path) -> None:
    """On a terminal, standard error shows a progress line, cleared at the
    end; the summary goes to standard output."""
    src = tmp_path / "src"
    make_tree(src, unpyc_path, ["3.11"])
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run([unpyc_cli, "-o", str(tmp_path / "out"), "--no-verify", str(src)],
                              stdout=subprocess.PIPE, stderr=follower, text=True, timeout=600)
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
    assert proc.returncode == 0
    assert b"\r\x1b[K[%d/%d] " % (len(TREE), len(TREE)) in shown
    assert shown.endswith(b"\r\x1b[K")
    assert proc.stdout.startswith("unpyc: %d files in " % len(TREE))


def test_batch_usage(unpyc_cli: str, tmp_path: Path) -> None:
    for args in (["--report", "r.json", "x.pyc"], ["-o", str(tmp_path), "--dis", "x.pyc"],
                 ["-o"], ["-o", str(tmp_path), "--jobs", "0", "x.pyc"], ["a.pyc", "b.pyc"]):
        proc = batch(unpyc_cli, *args)
        assert proc.returncode == 1, (args, proc.stderr)
    # A path that does not exist is one file in error, not the end of the run.
    proc = batch(unpyc_cli, "-o", str(tmp_path / "out"), str(tmp_path / "missing.pyc"))
    assert proc.returncode == 13 and "No such file or directory" in proc.stderr
