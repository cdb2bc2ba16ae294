"""depyf's own torch scripts, run with `import unpyc as depyf` (SPEC section 4).

At set-up the module takes depyf 0.20.0's source distribution from PyPI
(`pip download --no-deps --no-binary :all: depyf==0.20.0`, cached under
build/depyf-sdist and checked against its sha256), copies its
tests/test_pytorch folder into a temporary folder laid out as depyf's
repository (the scripts use paths relative to its root), and changes only
the imports, as a user switching does:

    import depyf                 ->  import unpyc as depyf
    from depyf.X import ...      ->  from unpyc.X import ...

There is no shim module named depyf: one would pass a script that uses a
name unpyc lacks by supplying it from the shim.  Each script runs in a
subprocess with this venv's python, the way depyf's CI runs it
(.github/workflows/test_pytorch.yml), and must succeed; its own asserts run
inside it, and the tests here add what each one leaves to look at.  None of
depyf's code is committed here.

Known exclusions (not run, and why):
- spawn_tests.py runs test_pytorch.py under `coverage run`, which is not a
  dependency here, 3 processes at a time in each of its 24 configurations.
  test_test_pytorch_matrix runs the same 24 configurations, one process
  each, with the same stdin ("c"), and test_processes_side_by_side runs two
  programs on one dump dir at once.
- cmp_output.py compares file names with depyf's own dump layout
  (full_code_for_<fn>_<n>.py counters, __compiled_fn_1.Captured_Graph.0.py
  and uuid-named files).  unpyc names files after the globals that run
  (SPEC section 5) and gives each process its own folder; the matrix test
  checks the facts behind those names in unpyc's layout instead: a
  full_code file for the compiled function and depyf's count of
  transformed codes per process.
None needs a GPU.  depyf's tests outside tests/test_pytorch test its
decompiler on plain functions, not torch.compile, and are not run here.

Known gaps in the dumps (KNOWN_DUMP_WARNINGS) are listed per script with
their reason; a test fails when one disappears, so the list only shrinks.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from conftest import REPO
from depyf_sdist import TESTS, sdist

pytest.importorskip("torch", reason="torch is installed by scripts/setup.sh (extra [torch])")

SCRIPTS = TESTS + "test_pytorch/"
EXPECTED_OUTPUT = TESTS + "depyf_output/"

# What unpyc's dump still lacks in a script's run: one regular expression
# per DumpWarning the run prints, and the reason.
KNOWN_DUMP_WARNINGS: Dict[str, Dict[str, str]] = {}


# ---- depyf's scripts, switched to unpyc ----


def switched_to_unpyc(text: str) -> str:
    """A script of depyf's with its imports of depyf changed to unpyc's."""
    text = re.sub(r"^(\s*)import depyf$", r"\1import unpyc as depyf", text, flags=re.M)
    text = re.sub(r"^(\s*)from depyf((?:\.\w+)*) import", r"\1from unpyc\2 import", text,
                  flags=re.M)
    left = re.search(r"^\s*(import|from)\s+depyf\b.*$", text, flags=re.M)
    assert left is None, "an import of depyf this rewrite does not know: %s" % left.group(0)
    return text


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder laid out as depyf's repository: tests/test_pytorch holds
    depyf's scripts, switched to unpyc."""
    folder = tmp_path_factory.mktemp("depyf-repo")
    scripts = folder / "tests" / "test_pytorch"
    scripts.mkdir(parents=True)
    with tarfile.open(sdist()) as archive:
        for member in archive.getmembers():
            name = member.name[len(SCRIPTS):]
            if not member.isfile() or not member.name.startswith(SCRIPTS) or "/" in name:
                continue
            data = archive.extractfile(member)
            assert data is not None
            text = data.read().decode("utf-8")
            (scripts / name).write_text(switched_to_unpyc(text) if name.endswith(".py")
                                        else text)
    assert (scripts / "test_debug.py").is_file(), sorted(os.listdir(scripts))
    return folder


def expected_transformed_per_process() -> Dict[str, int]:
    """For each configuration of test_pytorch.py, how many transformed codes
    one process makes, by depyf's own expected output (3 processes each)."""
    transformed: Dict[str, int] = {}
    full_codes: Dict[str, int] = {}
    with tarfile.open(sdist()) as archive:
        for name in archive.getnames():
            parts = name[len(EXPECTED_OUTPUT):].split("/")
            if not name.startswith(EXPECTED_OUTPUT) or len(parts) != 2:
                continue
            if parts[1].startswith("__transformed_code_"):
                transformed[parts[0]] = transformed.get(parts[0], 0) + 1
            elif parts[1].startswith("full_code_for_"):
                full_codes[parts[0]] = full_codes.get(parts[0], 0) + 1
    return {config: transformed[config] // full_codes[config] for config in full_codes}


def run_script(root: Path, script: str, stdin: str = "", **env: str
               ) -> subprocess.CompletedProcess:
    environment = dict(os.environ, **env)
    # A breakpoint hook switched off around the suite would skip the pause
    # of debug() that the scripts answer on their stdin.
    environment.pop("PYTHONBREAKPOINT", None)
    return subprocess.run([sys.executable, "tests/test_pytorch/" + script], cwd=root,
                          input=stdin, capture_output=True, text=True, timeout=900,
                          env=environment)


# test_pytorch.py warms up on two shapes under prepare_debug (a static
# graph, then a dynamic one on the recompile) and calls once under debug()
# on the first shape.  With gradients, torch then compiles the dynamic
# graph at once: the files of the first entry change under debug(), which
# says so and runs the new code.  The cause is in the script's tensors, not
# in a cache: the script reuses its module-level input tensors, and
# AOTAutograd stamps the dynamic dimensions of the tensors it saves for the
# backward pass on them (runtime_wrappers.mark_dynamo_propagated_dynamic_
# indices, "_dynamo_propagated_dynamic_indices"), which Dynamo reads as
# weakly dynamic on the next compile, after any reset.  A run without
# unpyc does the same; the same script in a new process does not.
# (Dynamo's local profile is off in both blocks, see
# _torch_hooks.local_pgo_profile_disabled.)
KNOWN_CHANGED_UNDER_DEBUG: Dict[Tuple[str, str, str], Dict[str, str]] = {
    (backend, "1", "1"): {r"changed under debug\(\): a compile differed":
                          "the second run of the dynamic-shape training compiles dynamic at once"}
    for backend in ("aot_eager", "inductor")
}


def assert_succeeded(proc: subprocess.CompletedProcess, script: str,
                     known_here: Optional[Dict[str, str]] = None) -> None:
    """The script succeeded, and unpyc's warnings are those known for it
    (KNOWN_DUMP_WARNINGS), and for this run of it (known_here)."""
    assert proc.returncode == 0, "%s failed:\n%s\n%s" % (
        script, proc.stdout[-3000:], proc.stderr[-6000:])
    warnings = re.findall(r"DumpWarning: unpyc: (.*)", proc.stderr)
    known = dict(KNOWN_DUMP_WARNINGS.get(script, {}), **(known_here or {}))
    unknown = [w for w in warnings if not any(re.search(p, w) for p in known)]
    assert not unknown, "%s: parts of the dump missing: %s" % (script, unknown)
    for pattern, reason in known.items():
        assert any(re.search(pattern, w) for w in warnings), (
            "%s: the known gap (%s) is gone: remove it from KNOWN_DUMP_WARNINGS" % (
                script, reason))


def dumped(folder: Path) -> List[str]:
    assert folder.is_dir(), "no dump at %s" % folder
    names = sorted(path.name for path in folder.iterdir())
    for name in names:
        if name.endswith(".py"):
            path = folder / name
            compile(path.read_text(), str(path), "exec", dont_inherit=True)
    return names


# ---- the scripts depyf's CI runs, in its order ----


def test_test_wrapper(root: Path) -> None:
    """unpyc.optimization.TorchCompileWrapperWithCustomDispatcher: two
    compiled codes per wrapper, dispatched to directly (the script asserts
    the results and that each of 3 wrappers keeps its own codes)."""
    assert_succeeded(run_script(root, "test_wrapper.py"), "test_wrapper.py")


def test_test_mp(root: Path) -> None:
    """3 processes of torch.multiprocessing.spawn dump into one dir: each
    writes its own folder in it, none overwrites another's files."""
    assert_succeeded(run_script(root, "test_mp.py"), "test_mp.py")
    dump = root / "depyf_output" / "multiprocessing"
    folders = sorted(dump.iterdir())
    assert [f.name[:4] for f in folders] == ["pid_"] * 3, folders
    for folder in folders:
        names = dumped(folder)
        assert "full_code_for_f.py" in names and "__transformed_code_0_for_f.py" in names, names


def test_test_no_graph(root: Path) -> None:
    proc = run_script(root, "test_no_graph.py")
    assert_succeeded(proc, "test_no_graph.py")
    assert proc.stdout.split("\n")[:2] == ["Hello, world!", "2"], proc.stdout
    names = dumped(root / "temp_output")
    assert {"full_code_for_f.py", "full_code_for_g.py", "index.html"} <= set(names), names


def test_test_export(root: Path) -> None:
    """torch.export inside prepare_debug, and a 1000-character attribute name."""
    assert_succeeded(run_script(root, "test_export.py"), "test_export.py")
    assert "full_code_for_forward.py" in dumped(root / "export_output")


def test_test_irregular(root: Path) -> None:
    """A bytecode hook that puts objects into the code's constants: the
    script asserts that the replaced code ran (twice)."""
    assert_succeeded(run_script(root, "test_irregular.py"), "test_irregular.py")
    assert "full_code_for_f.py" in dumped(root / "test_irregular")


def test_test_simple_graph(root: Path) -> None:
    """prepare_debug(..., log_bytecode=True, clean_wild_fx_code=False)."""
    assert_succeeded(run_script(root, "test_simple_graph.py"), "test_simple_graph.py")
    names = dumped(root / "simple_output")
    transformed = [n[:-3] for n in names if n.startswith("__transformed_code_")
                   and n.endswith(".py")]
    assert transformed, names
    for stem in transformed:  # log_bytecode: both listings beside each file
        for kind in ("original", "transformed"):
            listing = (root / "simple_output" / ("%s.%s_bytecode.txt" % (stem, kind)))
            assert "RETURN_VALUE" in listing.read_text(), listing
    # clean_wild_fx_code=False: the code FX made of each graph module is kept
    fx_code = [n for n in names if n.startswith("fx_graph_code_")]
    assert fx_code and all("def forward(" in (root / "simple_output" / n).read_text()
                           for n in fx_code), names


def test_test_logging(root: Path) -> None:
    """install(): with TORCH_LOGS=+bytecode, unpyc's source of each
    transformed bytecode follows it in Dynamo's bytecode log."""
    proc = run_script(root, "test_logging.py", TORCH_LOGS="+bytecode")
    assert_succeeded(proc, "test_logging.py")
    assert "unpyc: source of the transformed bytecode of fn (" in proc.stderr, proc.stderr[-3000:]
    assert re.search(r"\[__bytecode\] def fn\(\):", proc.stderr), proc.stderr[-3000:]


def test_test_cellvars(root: Path) -> None:
    assert_succeeded(run_script(root, "test_cellvars.py"), "test_cellvars.py")
    assert "full_code_for_forward.py" in dumped(root / "cellvars")


CONFIGS = [(backend, grad, dynamic, kind)
           for backend in ("eager", "aot_eager", "inductor")
           for grad in ("0", "1") for dynamic in ("0", "1") for kind in ("function", "module")]


@pytest.mark.parametrize("backend,grad,dynamic,kind", CONFIGS)
def test_test_pytorch_matrix(root: Path, backend: str, grad: str, dynamic: str,
                             kind: str) -> None:
    """test_pytorch.py in spawn_tests.py's configurations, with its stdin:
    prepare_debug over a warm-up, then debug(), whose pause the "c" ends."""
    proc = run_script(root, "test_pytorch.py", stdin="c\n", TORCH_COMPILE_BACKEND=backend,
                      REQUIRES_GRAD=grad, DYNAMIC_SHAPE=dynamic, COMPILE_TYPE=kind,
                      USAGE_TYPE="debug")
    assert_succeeded(proc, "test_pytorch.py", KNOWN_CHANGED_UNDER_DEBUG.get((backend, dynamic, grad)))
    assert "unpyc.debug(): paused once" in proc.stdout and "(Pdb)" in proc.stdout, proc.stdout
    config = "debug_%s_%s_%s_dynamic_shape_%s_grad" % (
        kind, backend, "with" if dynamic == "1" else "without",
        "with" if grad == "1" else "without")
    names = dumped(root / "depyf_output" / config)
    function = "toy_function" if kind == "function" else "forward"
    assert "full_code_for_%s.py" % function in names, names
    transformed = [n for n in names if re.fullmatch(r"__transformed_code_\d+_for_%s\.py"
                                                     % function, n)]
    assert len(transformed) == expected_transformed_per_process()[config], names


def test_test_debug_and_check_debug_output(root: Path) -> None:
    """As depyf's CI runs the pair: test_debug.py with debug_input.txt on
    stdin and its output in debug_output.txt, then check_debug_output.py,
    which counts the debugger's stops.  depyf's CI installs depyf with
    `setup.py develop`, which puts its repository root on sys.path, where
    pdb looks up the relative file name debug_input.txt gives; so does
    PYTHONPATH here."""
    commands = (root / "tests" / "test_pytorch" / "debug_input.txt").read_text()
    proc = run_script(root, "test_debug.py", stdin=commands, PYTHONPATH=str(root))
    (root / "tests" / "test_pytorch" / "debug_output.txt").write_text(proc.stdout + proc.stderr)
    assert_succeeded(proc, "test_debug.py")
    assert "unpyc.debug(): paused once" in proc.stdout, proc.stdout
    check = run_script(root, "check_debug_output.py")
    assert check.returncode == 0, proc.stdout + check.stderr


# ---- what spawn_tests.py exercises: processes side by side on one dir ----

DUMPER = """
import os, sys, torch, unpyc

@torch.compile(backend="eager")
def f(x):
    return x + 1

with unpyc.prepare_debug(sys.argv[1]):
    f(torch.ones(3))
print("dumped by", os.getpid(), flush=True)
if sys.argv[2:] == ["hold"]:
    sys.stdin.readline()  # alive until told: it keeps the top of the dir
"""


def test_processes_side_by_side(root: Path) -> None:
    """A program run while another one that dumped into the same dir still
    lives writes its own folder, pid_<pid>; the first keeps the top."""
    dump = root / "side_by_side"
    first = subprocess.Popen([sys.executable, "-c", DUMPER, str(dump), "hold"], cwd=root,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        line = first.stdout.readline()
        assert line.startswith("dumped by "), first.communicate(timeout=60)[1][-3000:]
        second = subprocess.run([sys.executable, "-c", DUMPER, str(dump)], cwd=root,
                                capture_output=True, text=True, timeout=900)
        assert second.returncode == 0, second.stderr[-3000:]
    finally:
        first.communicate("\n", timeout=60)
    assert first.returncode == 0
    assert "full_code_for_f.py" in dumped(dump)
    second_pid = second.stdout.split()[-1]
    assert sorted(p.name for p in dump.iterdir() if p.is_dir()) == ["pid_" + second_pid]
    assert "full_code_for_f.py" in dumped(dump / ("pid_" + second_pid))


def test_distributed_rank_writes_its_folder(root: Path) -> None:
    """A torch.distributed rank (RANK / WORLD_SIZE, as torchrun sets them)
    writes rank_<rank>, the same folder on every run."""
    dump = root / "ranks"
    proc = subprocess.run([sys.executable, "-c", DUMPER, str(dump)], cwd=root,
                          capture_output=True, text=True, timeout=900,
                          env=dict(os.environ, RANK="1", WORLD_SIZE="2"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert sorted(p.name for p in dump.iterdir()) == ["rank_1"]
    assert "full_code_for_f.py" in dumped(dump / "rank_1")
