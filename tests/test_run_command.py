"""`python -m unpyc run` and `python -m unpyc debug` on real programs, in
subprocesses of the venv's python: what the program prints, its exit status
and traceback equal those of running it with plain python, and the dump is
written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

# A program with a graph break; its arguments: backend, scale, and an
# optional exit status or "raise".
PROGRAM = '''\
import atexit
import sys

import torch

BACKEND = sys.argv[1]
SCALE = float(sys.argv[2])


@torch.compile(backend=BACKEND)
def toy(x):
    y = torch.sin(x) * SCALE
    print("graph break in toy")
    return y.sum() + 1


def fail():
    raise RuntimeError("failed after compiling")


atexit.register(print, "atexit ran")
print("argv", sys.argv[1:], "name", __name__, "path0", sys.path[0])
torch.manual_seed(0)
print("result %.6f" % toy(torch.randn(8)).item())
if sys.argv[3:] == ["raise"]:
    fail()
if sys.argv[3:]:
    sys.exit(int(sys.argv[3]))
'''

DUMP_FILES = ["index.html", "full_code_for_toy.py", "__transformed_code_0_for_toy.py"]


def python(args: List[str], cwd: Path, stdin: str = "") -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable] + args, cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=600)


def traceback_of(stderr: str) -> str:
    """The traceback python printed, without the warnings around it."""
    match = re.search(r"^Traceback \(most recent call last\):\n(?:  .*\n)*\S.*$", stderr,
                      re.MULTILINE)
    assert match, stderr
    return match.group(0)


@pytest.fixture
def program_dir(tmp_path: Path) -> Path:
    (tmp_path / "prog.py").write_text(PROGRAM)
    (tmp_path / "tinyprog").mkdir()
    (tmp_path / "tinyprog" / "__init__.py").write_text("")
    (tmp_path / "tinyprog" / "__main__.py").write_text(PROGRAM)
    return tmp_path


def assert_dumped(dump: Path, stderr: str) -> None:
    for name in DUMP_FILES:
        assert (dump / name).is_file(), (name, sorted(p.name for p in dump.iterdir()))
    assert list(dump.glob("__resume_at_*.py")), sorted(p.name for p in dump.iterdir())
    assert "open %s first" % (dump / "index.html",) in stderr, stderr


@pytest.mark.parametrize("backend", ["eager", "inductor"])
def test_run_script_prints_as_python_does(program_dir: Path, backend: str) -> None:
    plain = python(["prog.py", backend, "2.5"], program_dir)
    assert plain.returncode == 0, plain.stderr
    run = python(["-m", "unpyc", "run", "prog.py", backend, "2.5"], program_dir)
    assert run.returncode == 0, run.stderr
    assert run.stdout == plain.stdout
    assert "argv ['%s', '2.5'] name __main__ path0 %s\n" % (backend, program_dir) in run.stdout
    assert run.stdout.endswith("atexit ran\n")
    assert_dumped(program_dir / "unpyc_dump", run.stderr)
    if backend == "inductor":
        assert list((program_dir / "unpyc_dump").glob("__compiled_fn_*.inductor_*.py"))


def test_run_passes_exit_status_and_traceback(program_dir: Path) -> None:
    dump = program_dir / "out"
    plain = python(["prog.py", "eager", "1", "raise"], program_dir)
    run = python(["-m", "unpyc", "run", "--dump", "out", "prog.py", "eager", "1", "raise"],
                 program_dir)
    assert (run.returncode, plain.returncode) == (1, 1)
    assert traceback_of(run.stderr) == traceback_of(plain.stderr)
    assert "RuntimeError: failed after compiling" in traceback_of(run.stderr)
    assert run.stdout == plain.stdout
    assert_dumped(dump, run.stderr)
    run = python(["-m", "unpyc", "run", "--dump=out", "prog.py", "eager", "1", "3"], program_dir)
    assert run.returncode == 3, run.stderr
    assert run.stdout.endswith("atexit ran\n")


def test_run_module(program_dir: Path) -> None:
    plain = python(["-m", "tinyprog", "eager", "0.5"], program_dir)
    assert plain.returncode == 0, plain.stderr
    run = python(["-m", "unpyc", "run", "-m", "tinyprog", "eager", "0.5"], program_dir)
    assert run.returncode == 0, run.stderr
    assert run.stdout == plain.stdout
    assert "name __main__ path0 %s\n" % (program_dir,) in run.stdout
    assert_dumped(program_dir / "unpyc_dump", run.stderr)
    missing = python(["-m", "unpyc", "run", "-m", "no_such_module_here"], program_dir)
    assert missing.returncode == 1
    assert "No module named 'no_such_module_here'" in missing.stderr


def test_run_debug_prints_the_same_twice(program_dir: Path) -> None:
    plain = python(["prog.py", "eager", "1.5"], program_dir)
    run = python(["-m", "unpyc", "run", "--debug", "--no-pause", "prog.py", "eager", "1.5"],
                 program_dir)
    assert run.returncode == 0, run.stderr
    assert run.stdout == plain.stdout * 2
    assert "running prog.py eager 1.5 again under unpyc.debug(" in run.stderr
    assert "unpyc.debug(): paused" not in run.stdout
    assert_dumped(program_dir / "unpyc_dump", run.stderr)


def test_debug_pauses_and_stops_in_the_dumped_file(program_dir: Path) -> None:
    run = python(["-m", "unpyc", "run", "-m", "tinyprog", "eager", "2"], program_dir)
    assert run.returncode == 0, run.stderr
    transformed = program_dir / "unpyc_dump" / "__transformed_code_0_for_toy.py"
    lines = transformed.read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "__compiled_fn_" in text
                and not text.lstrip().startswith("#"))
    commands = "break %s:%d\ncontinue\np x\ncontinue\n" % (transformed, line)
    debug = python(["-m", "unpyc", "debug", "-m", "tinyprog", "eager", "2"], program_dir,
                   stdin=commands)
    assert debug.returncode == 0, debug.stdout + debug.stderr
    assert "unpyc.debug(): paused" in debug.stdout
    assert "> %s(%d)toy()" % (transformed, line) in debug.stdout, debug.stdout
    assert "(Pdb) tensor([" in debug.stdout, debug.stdout
    # The program's lines, among pdb's.
    for printed in run.stdout.splitlines():
        assert printed in debug.stdout.splitlines() or "(Pdb) " + printed in debug.stdout


def test_usage(program_dir: Path) -> None:
    for args in ([], ["bogus"], ["run"], ["run", "--bogus", "prog.py"],
                 ["run", "--no-pause", "prog.py"]):
        result = python(["-m", "unpyc"] + args, program_dir)
        assert result.returncode == 2, (args, result.stderr)
        assert "usage: python -m unpyc run" in result.stderr
    assert python(["-m", "unpyc", "--help"], program_dir).stdout.startswith("usage:")
    missing = python(["-m", "unpyc", "run", "nothing_here.py"], program_dir)
    assert (missing.returncode, missing.stdout) == (2, "")
    no_dump = python(["-m", "unpyc", "debug", "--dump", "empty", "prog.py"], program_dir)
    assert no_dump.returncode == 2 and "no dump in" in no_dump.stderr
    assert not os.path.exists(program_dir / "empty")
