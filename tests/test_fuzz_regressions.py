"""The inputs that once broke the engine (fuzz/regressions, each named for
its bug) run again on every test run, under AddressSanitizer and
UndefinedBehaviorSanitizer: fuzz/fuzz_engine.c's target built with gcc
and a plain driver (tests/c/fuzz_replay.c), no libFuzzer needed.  The
engine must survive them: no sanitizer report, no crash."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import REPO, engine_sources

REGRESSIONS = sorted((REPO / "fuzz" / "regressions").iterdir())


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> str:
    gcc = shutil.which("gcc")
    if not gcc:
        pytest.fail("gcc is needed to build tests/c/fuzz_replay.c")
    binary = tmp_path_factory.mktemp("fuzz-replay") / "fuzz_replay"
    proc = subprocess.run(
        [gcc, "-std=c11", "-O1", "-g", "-fsanitize=address,undefined",
         "-fno-sanitize-recover=undefined", "-Iengine/include", "-Iengine",
         "-o", str(binary), "tests/c/fuzz_replay.c", "fuzz/fuzz_engine.c"]
        + engine_sources() + ["-lm"],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return str(binary)


def test_there_are_regressions() -> None:
    assert len(REGRESSIONS) >= 14, [p.name for p in REGRESSIONS]


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_regression_runs_clean(replay: str, path: Path) -> None:
    proc = subprocess.run([replay, str(path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-6000:]
    assert "ERROR: AddressSanitizer" not in proc.stderr, proc.stderr[-6000:]
    assert "runtime error" not in proc.stderr, proc.stderr[-6000:]
    assert proc.stdout.strip() == "%s: ran" % path, proc.stdout
