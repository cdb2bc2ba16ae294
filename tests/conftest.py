"""Shared fixtures: the installed interpreters and the built unpyc package.

The suite runs under the project's venv (CPython 3.11) and drives the other
installed CPythons in subprocesses.  The engine's extension module is built
once for the stable ABI (abi3), so the very package installed in the venv is
imported by every interpreter: the fixture copies it to a folder that goes on
their PYTHONPATH.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, Iterator, List, Optional

import pytest

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "build" / "test-results"
VERSIONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]


def _pyenv_root() -> Optional[str]:
    root = os.environ.get("PYENV_ROOT")
    if root:
        return root
    try:
        return subprocess.run(
            ["pyenv", "root"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        home = os.path.expanduser("~/.pyenv")
        return home if os.path.isdir(home) else None


def _patch_level(path: str) -> int:
    try:
        return int(path.split(os.sep)[-3].split(".")[2])
    except (IndexError, ValueError):
        return -1


def engine_sources() -> List[str]:
    """The engine's .c files, as CMakeLists lists them (fuzz/run.sh reads
    them the same way): the tests that build the engine with gcc directly."""
    text = (REPO / "CMakeLists.txt").read_text()
    return re.findall(r"^ *(engine/[a-z_/]*\.c)$", text, flags=re.M)


def find_interpreters() -> Dict[str, Optional[str]]:
    """Maps "3.X" to the newest installed CPython 3.X, or None."""
    root = _pyenv_root()
    found: Dict[str, Optional[str]] = {}
    for version in VERSIONS:
        candidates: List[str] = []
        if root:
            candidates = glob.glob(
                os.path.join(root, "versions", version + ".*", "bin", "python3")
            )
        candidates = [c for c in candidates if os.access(c, os.X_OK)]
        if not candidates:
            on_path = shutil.which("python" + version)
            candidates = [on_path] if on_path else []
        found[version] = max(candidates, key=_patch_level) if candidates else None
    return found


INTERPRETERS = find_interpreters()


def interpreter(version: str) -> str:
    """The interpreter for version, or a skip that says it is absent."""
    path = INTERPRETERS.get(version)
    if not path:
        pytest.skip("CPython %s is not installed on this machine" % version)
    return path


@pytest.fixture(scope="session")
def unpyc_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A folder holding a copy of the built unpyc package, for PYTHONPATH."""
    import unpyc

    package = Path(unpyc.__file__).resolve().parent
    if package.parent == REPO / "python":
        pytest.fail("unpyc is imported from the source tree; run `pip install .`")
    target = tmp_path_factory.mktemp("unpyc-path")
    shutil.copytree(
        package, target / "unpyc", ignore=shutil.ignore_patterns("__pycache__")
    )
    return str(target)


def run_python(
    version: str,
    unpyc_path: str,
    args: List[str],
    timeout: float = 1800,
    cwd: Optional[Path] = None,
) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = unpyc_path
    env["PYTHONHASHSEED"] = "0"
    env.pop("PYTHONHOME", None)
    return subprocess.run(
        [interpreter(version)] + args,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
    )


@pytest.fixture(scope="session")
def unpyc_cli() -> str:
    path = shutil.which("unpyc", path=os.path.dirname(sys.executable))
    if not path:
        pytest.fail("the unpyc command is not installed next to " + sys.executable)
    return path


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    """Prints the per-version table of the stdlib disassembly comparison."""
    files = sorted(glob.glob(str(RESULTS / "dis" / "*.json")))
    if not files:
        return
    rows: Dict[str, Dict[str, float]] = {}
    for name in files:
        with open(name) as f:
            result = json.load(f)
        row = rows.setdefault(result["version"], {})
        for key in ("modules", "skipped", "code_objects", "instructions",
                    "mismatches", "engine_errors", "seconds"):
            row[key] = row.get(key, 0) + result[key]
    tr = terminalreporter
    tr.section("stdlib disassembly vs dis")
    tr.write_line(
        "%-7s %8s %8s %12s %13s %10s %8s" % (
            "version", "modules", "skipped", "code objects", "instructions",
            "mismatches", "errors")
    )
    for version in VERSIONS:
        row = rows.get(version)
        if not row:
            tr.write_line("%-7s  not run" % version)
            continue
        tr.write_line(
            "%-7s %8d %8d %12d %13d %10d %8d" % (
                version, row["modules"], row["skipped"], row["code_objects"],
                row["instructions"], row["mismatches"], row["engine_errors"])
        )


@pytest.fixture(scope="session", autouse=True)
def _clean_results() -> Iterator[None]:
    # Each xdist worker runs this too; only remove results of earlier runs.
    if os.environ.get("PYTEST_XDIST_WORKER", "gw0") == "gw0":
        shutil.rmtree(RESULTS / "dis", ignore_errors=True)
    (RESULTS / "dis").mkdir(parents=True, exist_ok=True)
    yield


# ---- the stdlib and real-world round trips (tests/test_roundtrip_*.py) ----


class _RoundtripSummary:
    """Prints the per-version table of a round-trip suite whose results
    are in RESULTS / folder."""

    def __init__(self, folder: str, corpus: str) -> None:
        self.folder = folder
        self.corpus = corpus

    def pytest_terminal_summary(self, terminalreporter) -> None:  # type: ignore[no-untyped-def]
        files = sorted(glob.glob(str(RESULTS / self.folder / "*.json")))
        if not files:
            return
        from unpyc.roundtrip import summary_table

        summaries = []
        for name in files:
            with open(name) as f:
                summaries.append(json.load(f)["summary"])
        tr = terminalreporter
        tr.section("%s round trip: decompile, recompile, compare (m/f: modules/functions)"
                   % self.corpus)
        for line in summary_table(summaries).splitlines():
            tr.write_line(line)


class _ConstructSummary:
    """Prints the per-version table of the construct families
    (tests/test_constructs.py), with the number of known failures."""

    def __init__(self) -> None:
        self.started = time.time()

    def pytest_terminal_summary(self, terminalreporter) -> None:  # type: ignore[no-untyped-def]
        # Results of this run only (xdist workers write them; none removes
        # them, so that no worker removes another's).
        files = sorted(f for f in glob.glob(str(RESULTS / "constructs" / "*.json"))
                       if os.path.getmtime(f) >= self.started)
        if not files:
            return
        from unpyc.roundtrip import read_known, summary_table

        summaries = []
        known = []
        seen = set()
        for name in files:
            # <version>-<worker>.json: every worker that ran a version wrote
            # the same results.
            version = Path(name).stem.split("-")[0]
            if version in seen:
                continue
            seen.add(version)
            with open(name) as f:
                summaries.append(json.load(f)["summary"])
            listed = read_known(str(REPO / "tests" / "constructs" / "known_failures" /
                                    (version + ".txt")))
            known.append("%s: %d" % (version, len(listed)))
        tr = terminalreporter
        tr.section("construct families round trip (tests/constructs)")
        for line in summary_table(summaries).splitlines():
            tr.write_line(line)
        tr.write_line("known failures listed (tests/constructs/known_failures): " +
                      ", ".join(known))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "roundtrip: the stdlib and real-world round-trip suites, part of the default run "
        "(leave it out with -m 'not roundtrip')",
    )
    config.pluginmanager.register(_RoundtripSummary("roundtrip", "stdlib"),
                                  "unpyc-roundtrip-summary")
    config.pluginmanager.register(_RoundtripSummary("realworld", "real-world corpus"),
                                  "unpyc-realworld-summary")
    config.pluginmanager.register(_ConstructSummary(), "unpyc-construct-summary")


@pytest.fixture(scope="session", autouse=True)
def _clean_roundtrip_results() -> Iterator[None]:
    # As _clean_results: only the first xdist worker removes earlier results.
    for folder in ("roundtrip", "realworld"):
        if os.environ.get("PYTEST_XDIST_WORKER", "gw0") == "gw0":
            shutil.rmtree(RESULTS / folder, ignore_errors=True)
        (RESULTS / folder).mkdir(parents=True, exist_ok=True)
    yield
