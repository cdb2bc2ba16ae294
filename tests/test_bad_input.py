"""Bad input gets the documented error: from the CLI (message and exit code)
and from the Python package (the package's own exception types)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Dict

import pytest

import unpyc
from unpyc import errors

CORPUS = Path(__file__).resolve().parent / "corpus" / "bad"
EXPECTED: Dict[str, Dict[str, str]] = json.loads((CORPUS / "expected.json").read_text())

# The CLI's exit code per error class (README, "Exit codes").
EXIT_CODES = {
    "not-pyc": 3,
    "bad-magic": 4,
    "truncated": 5,
    "corrupt": 6,
    "bad-reference": 7,
    "too-large": 8,
    "unsupported": 9,
}

EXCEPTIONS = {
    "not-pyc": errors.NotPycError,
    "bad-magic": errors.BadMagicError,
    "truncated": errors.TruncatedError,
    "corrupt": errors.CorruptError,
    "bad-reference": errors.BadReferenceError,
    "too-large": errors.TooLargeError,
    "unsupported": errors.UnsupportedError,
}


def test_corpus_is_complete() -> None:
    files = sorted(p.name for p in CORPUS.glob("*.pyc"))
    assert files == sorted(EXPECTED)
    assert len(files) >= 30


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("json_output", [False, True])
def test_cli_reports_error(name: str, json_output: bool, unpyc_cli: str) -> None:
    expected = EXPECTED[name]
    path = CORPUS / name
    args = [unpyc_cli, "--dis"] + (["--json"] if json_output else []) + [str(path)]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert proc.returncode == EXIT_CODES[expected["status"]], proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("unpyc: %s: " % path)
    assert expected["word"].lower() in lines[0].lower()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_package_raises_typed_error(name: str) -> None:
    expected = EXPECTED[name]
    path = CORPUS / name
    with pytest.raises(errors.UnpycError) as info:
        unpyc.dis_pyc(str(path))
    assert type(info.value) is EXCEPTIONS[expected["status"]]
    assert expected["word"].lower() in str(info.value).lower()
    assert str(path) in str(info.value)
    if expected["status"] not in ("not-pyc", "bad-magic"):
        # Errors inside the data say where: past the 16-byte header.
        assert info.value.offset is not None and info.value.offset >= 16


def test_missing_file_is_io_error(unpyc_cli: str, tmp_path: Path) -> None:
    missing = tmp_path / "missing.pyc"
    proc = subprocess.run([unpyc_cli, "--dis", str(missing)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert str(missing) in proc.stderr
