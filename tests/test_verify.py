"""Never silently wrong: verification on by default (issue 16, item 4).

unpyc.decompile verifies its output with the running interpreter and
annotates a mismatch on top; decompile_pyc and the unpyc command have a
.pyc checked by CPython of its own version, named per function.  The cases
that differ are real: a stdlib module the known-failures list of that
version says the engine gets wrong (the smallest such file), so they stay
real as the engine improves and the list shrinks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Set, Tuple

import pytest

from conftest import REPO, VERSIONS, interpreter, run_python

OK_SOURCE = '''\
import os


def walk(top, *, limit=3):
    for root, dirs, files in os.walk(top):
        yield [os.path.join(root, f) for f in files if f]


class Box:
    def __init__(self, x):
        self.x = x
'''
# Functions of OK_SOURCE: walk, Box, Box.__init__, and from 3.12 on no
# code object for the list comprehension (PEP 709 inlines it).
OK_FUNCTIONS = {"3.8": 4, "3.9": 4, "3.10": 4, "3.11": 4, "3.12": 3, "3.13": 3}


def _stdlib(version: str, unpyc_path: str) -> Path:
    proc = run_python(version, unpyc_path, [
        "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"])
    assert proc.returncode == 0, proc.stderr
    return Path(proc.stdout.strip())


def known_differing_module(version: str, unpyc_path: str) -> Tuple[Path, Set[str]]:
    """The smallest stdlib module of version with functions listed as
    failing the module round trip, and those functions' keys."""
    listed: Dict[str, Set[str]] = {}
    for line in (REPO / "tests" / "known_failures" / ("%s.txt" % version)).read_text().splitlines():
        if line.startswith("#") or "::" not in line or line.endswith(" (standalone)"):
            continue
        module, qualname = line.split("::", 1)
        listed.setdefault(module, set()).add(qualname)
    root = _stdlib(version, unpyc_path)
    present = [m for m in listed if (root / m).is_file()]
    assert present, "no listed module of %s is in its stdlib" % version
    module = min(present, key=lambda m: (root / m).stat().st_size)
    return root / module, listed[module]


def make_pyc(version: str, unpyc_path: str, source: Path, target: Path) -> Path:
    proc = run_python(version, unpyc_path, [
        "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2],"
        " doraise=True)", str(source), str(target)])
    assert proc.returncode == 0, proc.stderr
    return target


def _ok_pyc(version: str, unpyc_path: str, tmp_path: Path) -> Path:
    source = tmp_path / "ok.py"
    source.write_text(OK_SOURCE)
    return make_pyc(version, unpyc_path, source, tmp_path / ("ok-%s.pyc" % version))


def _note_keys(note: str) -> Set[str]:
    """The keys of the functions a NOT-equivalent note names."""
    return {line.split("# unpyc:   ", 1)[1].split(": ", 1)[0]
            for line in note.splitlines() if line.startswith("# unpyc:   ")}


@pytest.mark.parametrize("version", VERSIONS)
def test_cli_verify_equivalent(version: str, unpyc_path: str, unpyc_cli: str,
                               tmp_path: Path) -> None:
    """`unpyc FILE.pyc` on a .pyc the interpreter wrote: checked by that
    very version, said on top, the rest of the output what --no-verify
    gives; the same from standard input, and with --verify."""
    pyc = _ok_pyc(version, unpyc_path, tmp_path)
    plain = subprocess.run([unpyc_cli, "--no-verify", str(pyc)], capture_output=True, text=True)
    assert plain.returncode == 0 and not plain.stdout.startswith("#")
    for args, stdin in (([str(pyc)], None), (["--verify", str(pyc)], None), (["-"], pyc)):
        with open(stdin or os.devnull, "rb") as data:
            proc = subprocess.run([unpyc_cli] + args, capture_output=True, stdin=data)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        note, rest = proc.stdout.decode().split("\n", 1)
        assert note.startswith("# unpyc: verified with Python %s." % version), note
        assert note.endswith(
            "the module and its %d functions are equivalent" % OK_FUNCTIONS[version])
        assert rest == plain.stdout


@pytest.mark.parametrize("version", VERSIONS)
def test_cli_verify_names_each_function_that_differs(
        version: str, unpyc_path: str, unpyc_cli: str, tmp_path: Path) -> None:
    """A stdlib module the engine gets wrong: the note names exactly the
    functions its known-failures list names, and the exit code says it."""
    interpreter(version)
    source, listed = known_differing_module(version, unpyc_path)
    pyc = make_pyc(version, unpyc_path, source, tmp_path / "differs.pyc")
    proc = subprocess.run([unpyc_cli, str(pyc)], capture_output=True, text=True)
    assert proc.returncode in (9, 11), proc.stderr  # 9: also marked unrecovered
    assert proc.stdout.startswith("# unpyc: NOT equivalent (verified with Python %s." % version)
    assert _note_keys(proc.stdout) == listed, proc.stdout[:3000]


@pytest.mark.parametrize("version", VERSIONS)
def test_the_oracle_names_a_changed_function(version: str, unpyc_path: str,
                                             tmp_path: Path) -> None:
    """`roundtrip --verify-pyc`, which the command and decompile_pyc run,
    on source changed by hand in one method (the oracle's "mutant" idea)
    and on source that does not compile."""
    pyc = _ok_pyc(version, unpyc_path, tmp_path)
    changed = tmp_path / "changed.py"
    changed.write_text(OK_SOURCE.replace("self.x = x", "self.y = x"))
    proc = run_python(version, unpyc_path, [
        "-m", "unpyc.roundtrip", "--verify-pyc", str(pyc), str(changed)])
    assert proc.returncode == 10, proc.stderr
    assert proc.stdout.startswith(
        "# unpyc: NOT equivalent (verified with Python %s." % version)
    # 3.13's class body stores the attributes its methods assign
    # (__static_attributes__): Box differs too.
    differing = {"Box.__init__", "Box"} if version == "3.13" else {"Box.__init__"}
    assert "%d of the module's %d functions differ%s\n" % (
        len(differing), OK_FUNCTIONS[version], "s" if len(differing) == 1 else "") in proc.stdout
    assert _note_keys(proc.stdout) == differing
    assert "expected (STORE_ATTR, 'x'), got (STORE_ATTR, 'y')" in proc.stdout
    changed.write_text("def walk(:\n")
    proc = run_python(version, unpyc_path, [
        "-m", "unpyc.roundtrip", "--verify-pyc", str(pyc), str(changed)])
    assert proc.returncode == 10, proc.stderr
    assert "the source does not compile: SyntaxError: " in proc.stdout


def test_cli_verify_through_the_interpreters_unpyc(
        unpyc_path: str, unpyc_cli: str, tmp_path: Path) -> None:
    """A copy of the command with no unpyc installed beside it runs
    `python3.X -m unpyc.roundtrip`: the unpyc that interpreter imports."""
    version = "3.12"
    interpreter(version)
    pyc = _ok_pyc(version, unpyc_path, tmp_path)
    alone = tmp_path / "bin" / "unpyc"
    alone.parent.mkdir()
    shutil.copy(unpyc_cli, alone)
    env = dict(os.environ, PYTHONPATH=unpyc_path)
    proc = subprocess.run([str(alone), str(pyc)], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# unpyc: verified with Python 3.12.")
    env.pop("PYTHONPATH")
    for args, code in (([], 0), (["--verify"], 12)):
        proc = subprocess.run([str(alone)] + args + [str(pyc)], capture_output=True, text=True,
                              env=env)
        assert proc.returncode == code
        assert proc.stdout.startswith("# unpyc: not verified: ")
        assert "No module named 'unpyc'" in proc.stderr


def test_no_interpreter_of_the_version(unpyc_path: str, unpyc_cli: str, tmp_path: Path) -> None:
    """No CPython of the file's version on the machine: said, not guessed,
    by the command (exit code 12 when --verify requires it) and by
    decompile_pyc."""
    version = "3.12"
    interpreter(version)
    pyc = _ok_pyc(version, unpyc_path, tmp_path)
    env = dict(os.environ, PYENV_ROOT=str(tmp_path / "no-pyenv"), PATH="")
    expected = ("# unpyc: not verified: no Python 3.12 on this machine (python3.12 on PATH,"
                " or pyenv's versions)\n")
    for args, code in (([], 0), (["--verify"], 12)):
        proc = subprocess.run([unpyc_cli] + args + [str(pyc)], capture_output=True, text=True,
                              env=env)
        assert proc.returncode == code
        assert proc.stdout.startswith(expected)
    check = "import sys, unpyc; print(unpyc.decompile_pyc(sys.argv[1]), end='')"
    proc = subprocess.run([sys.executable, "-c", check, str(pyc)], capture_output=True,
                          text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected + subprocess.run(
        [unpyc_cli, "--no-verify", str(pyc)], capture_output=True, text=True).stdout


@pytest.mark.parametrize("version", VERSIONS)
def test_decompile_pyc_verifies_with_the_files_version(
        version: str, unpyc_path: str, tmp_path: Path) -> None:
    """decompile_pyc, run by 3.11: a .pyc of any version is checked by its
    own interpreter (a subprocess for other versions); nothing is added when
    it is equivalent, each differing function is named when not."""
    import unpyc

    ok = _ok_pyc(version, unpyc_path, tmp_path)
    assert unpyc.decompile_pyc(str(ok)) == unpyc.decompile_pyc(str(ok), verify=False)
    source, listed = known_differing_module(version, unpyc_path)
    pyc = make_pyc(version, unpyc_path, source, tmp_path / "differs.pyc")
    text = unpyc.decompile_pyc(str(pyc))
    assert text.startswith("# unpyc: NOT equivalent (verified with Python %s." % version)
    assert _note_keys(text) == listed
    assert text.endswith(unpyc.decompile_pyc(str(pyc), verify=False))
    with pytest.raises(unpyc.VerificationError) as caught:
        unpyc.decompile_pyc(str(pyc), on_mismatch="raise")
    assert _note_keys(caught.value.detail) == listed


def test_decompile_annotates_a_real_difference(unpyc_path: str) -> None:
    """unpyc.decompile of a module the engine gets wrong (this
    interpreter's): the first line names the first differing function and
    instruction; verify=False gives the bare text; a function that
    round-trips gets no note."""
    import unpyc

    version = "%d.%d" % sys.version_info[:2]
    path, listed = known_differing_module(version, unpyc_path)
    code = compile(path.read_text(encoding="utf-8"), str(path), "exec")
    text = unpyc.decompile(code)
    first, rest = text.split("\n", 1)
    assert first.startswith("# unpyc: not equivalent: ")
    assert first[len("# unpyc: not equivalent: "):].split(": ", 1)[0] in listed | {"<module>"}
    assert rest == unpyc.decompile(code, verify=False)
    with pytest.raises(unpyc.VerificationError):
        unpyc.decompile(code, on_mismatch="raise")
    namespace: Dict[str, object] = {}
    exec(compile(OK_SOURCE, "ok.py", "exec"), namespace)
    assert unpyc.decompile(namespace["walk"]) == unpyc.decompile(namespace["walk"], verify=False)
    assert not unpyc.decompile(namespace["walk"]).startswith("#")


def test_no_false_alarm_on_a_bare_code_object(tmp_path: Path) -> None:
    """A code object says nothing of its module, where an import changes
    how 3.11+ compiles `name.attr(...)`: verified in a scope without
    imports and in one where its globals are imports, it is equivalent in
    the right one.  A comprehension's code object, shown as a def, is said
    to be not verified rather than not equivalent."""
    import unpyc

    source = ("import os\n\nclass Path:\n    def cwd():\n        pass\n\n"
              "def f():\n    return os.getcwd()\n\n"
              "def g():\n    return Path.cwd()\n\n"
              "def h(xs):\n    return sum(x + 1 for x in xs)\n")
    namespace: Dict[str, object] = {}
    exec(compile(source, str(tmp_path / "mod.py"), "exec"), namespace)
    for name in ("f", "g"):
        function = namespace[name]
        code = getattr(function, "__code__")
        plain = unpyc.decompile(code, verify=False)
        assert unpyc.decompile(code) == plain == unpyc.decompile(function)
    comprehension = next(c for c in getattr(namespace["h"], "__code__").co_consts
                         if hasattr(c, "co_code"))
    text = unpyc.decompile(comprehension)
    assert text.startswith("# unpyc: not verified (a comprehension's code alone, as a def,"), text


LOOP_ELSE_BREAK = "while a:\n    if b:\n        break\nelse:\n    z = 3\n"


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("body", ["module", "class"])
def test_module_break_copy_skipping_else_is_no_lie(version: str, body: str, unpyc_path: str,
                                                   unpyc_cli: str, tmp_path: Path) -> None:
    """3.10+ copy a module's (a class body's) implicit return into a loop's
    break; where the loop has an else part, that copy skips it, so it is
    no `break` then `z = 3`: it is a break past the else part, and the
    output is the source (rec_breaks_to_tail settles such breaks; where it
    cannot, the return stays and is marked, exit 9)."""
    text = LOOP_ELSE_BREAK if body == "module" else "class C:\n" + "".join(
        "    " + line + "\n" for line in LOOP_ELSE_BREAK.splitlines())
    source = tmp_path / "loop_else.py"
    source.write_text(text)
    pyc = make_pyc(version, unpyc_path, source, tmp_path / "loop_else.pyc")
    proc = subprocess.run([unpyc_cli, "--no-verify", str(pyc)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == text, proc.stdout


TRY_AROUND_INNER_LOOP = (
    "def merge(h):\n"
    "    while len(h) > 1:\n"
    "        try:\n"
    "            while True:\n"
    "                s = h[0]\n"
    "                s[0] = next()\n"
    "        except StopIteration:\n"
    "            pop(h)\n"
)


@pytest.mark.parametrize("version", VERSIONS)
def test_try_around_inner_loop_is_no_lie(version: str, unpyc_path: str, unpyc_cli: str,
                                         tmp_path: Path) -> None:
    """The try around an inner `while True:` that shares its header with the
    outer loop (stdlib heapq.merge): read as a try inside the inner loop,
    its except clause would go on in the inner loop instead of back to the
    outer loop's test (3.11 printed that, unmarked).  The output is the
    source, or the region is marked (exit 9)."""
    source = tmp_path / "merge.py"
    source.write_text(TRY_AROUND_INNER_LOOP)
    pyc = make_pyc(version, unpyc_path, source, tmp_path / "merge.pyc")
    proc = subprocess.run([unpyc_cli, "--no-verify", str(pyc)], capture_output=True, text=True)
    if proc.returncode == 0:
        assert proc.stdout == TRY_AROUND_INNER_LOOP, proc.stdout
    else:
        assert proc.returncode == 9, proc.stdout + proc.stderr
        assert "# unpyc: " in proc.stdout, proc.stdout
