"""Verifying source decompiled from a .pyc file (unpyc.decompile_pyc).

Only CPython of the file's own version can compile the source back to
comparable bytecode.  This interpreter does it in-process when the file is
its own; a .pyc of another version is checked by that version's
interpreter, found on this machine, running unpyc's roundtrip.py as a
script in isolated mode (`python3.X -I .../roundtrip.py --verify-pyc FILE
-`): the oracle imports only the standard library, so unpyc need not be
installed there.  The unpyc command runs the same (cli/verify.c).
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import subprocess
from typing import Optional, Tuple

from . import roundtrip

# Seconds a verifying interpreter may take: starting it, compiling the
# source and comparing take well under one for a module of thousands of
# lines.
_TIMEOUT = 300


def find_interpreter(major: int, minor: int) -> Optional[str]:
    """CPython major.minor on this machine: the newest pyenv build of it
    ($PYENV_ROOT, else ~/.pyenv), else pythonX.Y on PATH; None if neither.
    pyenv's own builds come first: its shims on PATH fail for a version
    that is installed but not selected."""
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    version = "%d.%d" % (major, minor)
    pattern = os.path.join(root, "versions", version + ".*", "bin", "python" + version)
    built = [path for path in glob.glob(pattern) if os.access(path, os.X_OK)]
    if built:
        return max(built, key=_patch_level)
    return shutil.which("python" + version)


def _patch_level(path: str) -> int:
    release = os.path.basename(os.path.dirname(os.path.dirname(path)))
    patch = release.split(".")[2] if release.count(".") >= 2 else ""
    digits = patch[:len(patch) - len(patch.lstrip("0123456789"))]
    return int(digits) if digits else -1


def verify(path: str, data: bytes, version: Tuple[int, int],
           source: str) -> Tuple[Optional[bool], str]:
    """Whether source, decompiled from the .pyc file at path (its bytes
    data, written by Python version), is equivalent to it: (True, note),
    (False, note) with the note naming each function that differs, or
    (None, note) when it could not be checked, the note saying why."""
    if data[:4] == importlib.util.MAGIC_NUMBER:
        result = roundtrip.verify_pyc(path, source)
        equivalent = result.status == roundtrip.EQUIVALENT
        return equivalent, roundtrip.verification_note(result, roundtrip.this_interpreter())
    name = "Python %d.%d" % version
    interpreter = find_interpreter(*version)
    if interpreter is None:
        return None, ("# unpyc: not verified: no %s on this machine (python%d.%d on PATH,"
                      " or pyenv's versions)\n" % ((name,) + version))
    script = roundtrip.__file__
    try:
        run = subprocess.run(
            [interpreter, "-I", script, "--verify-pyc", path, "-"],
            input=source.encode("utf-8"), capture_output=True, timeout=_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, "# unpyc: not verified: %s (%s) failed: %s\n" % (name, interpreter, e)
    if run.returncode in (0, roundtrip.VERIFY_DIFFERS):
        return run.returncode == 0, run.stdout.decode("utf-8")
    why = run.stderr.decode("utf-8", "replace").strip().splitlines()
    return None, "# unpyc: not verified: %s (%s) failed: %s\n" % (
        name, interpreter, why[-1] if why else "exit status %d" % run.returncode)
