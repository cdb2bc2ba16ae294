"""The torch.compile explorer on real torch.compile runs (SPEC section 5).

One subprocess per backend runs every scenario of tests/torch_scenarios.py
(Inductor compiles are slow, so each process shares its imports and
caches); the tests here check the dumps it left.  The live test copies the
dump at moments inside the block.  The debugger test drives real pdb in a
subprocess under unpyc.debug(); the fault test breaks the decompiler and
removes a torch hook in a subprocess.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple

import pytest

from conftest import REPO
from headless_chromium import Browser, find_browser

pytest.importorskip("torch", reason="torch is installed by scripts/setup.sh (extra [torch])")

HERE = Path(__file__).resolve().parent
MANGLED_GLOBAL = re.compile(r"\b_[A-Za-z0-9]\w*__(compiled_fn|resume_at)_")
COMPILED_FN = re.compile(r"__compiled_fn_\d+_[0-9a-f_]+[0-9a-f]")
RESUME = re.compile(r"__resume_at_\d+_\d+")
# What a dump says of a graph's stage torch did not log because the graph
# came from AOTAutograd's cache (the pre-grad graph).
_NOT_EMITTED = (r": ([\w, ]+) not in the dump: compile \S+ loaded this graph from "
                r"AOTAutograd's cache")


def _run(args: List[str], cwd: Path, timeout: float = 900, **env: str
         ) -> subprocess.CompletedProcess:
    environment = dict(os.environ, PYTHONHASHSEED="0", **env)
    return subprocess.run([sys.executable] + args, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=environment)


@pytest.fixture(scope="module", params=["eager", "aot_eager", "inductor"])
def scenarios(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
              ) -> Dict[str, Any]:
    backend = request.param
    out = tmp_path_factory.mktemp("dump-" + backend)
    proc = _run([str(HERE / "torch_scenarios.py"), backend, str(out)], cwd=out)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-6000:]
    with open(out / "report.json") as f:
        report: List[Dict[str, Any]] = json.load(f)
    return {"backend": backend, "report": report}


def _stages(backend: str, grad: bool) -> List[str]:
    """The graph files each compiled graph must have for this backend."""
    stages = ["captured_graph"]
    if backend in ("aot_eager", "inductor"):
        stages += ["aot_joint_graph", "aot_forward_graph", "aot_backward_graph"] if grad \
            else ["aot_inference_graph"]
    if backend == "inductor":
        stages += ["pre_grad_graph", "post_grad_graph"]
        stages += ["post_grad_backward_graph"] if grad else []
        stages += ["inductor_forward", "inductor_backward"] if grad else ["inductor_inference"]
    return stages


def _known_change_under_debug(backend: str, cell: Dict[str, Any], warning: str) -> bool:
    """The files debug() is known to change (see the README's known
    limits): on aot_eager, AOTAutograd's graphs (prepare_debug's files hold
    the boxed forward / backward FX code that ran, debug() meets the
    unboxed code first and keeps it: a second compile in the process goes
    another way through AOTAutograd); with dynamic shapes, the captured
    graph of an nn.Module, which takes one more SymInt input the second
    time (torch's doing)."""
    stage = re.search(r"\.(\w+)\.py changed under debug", warning)
    if stage is None:
        return False
    if backend == "aot_eager" and stage.group(1).startswith("aot_"):
        return True
    return bool(cell.get("dynamic") and cell.get("module") and stage.group(1) == "captured_graph")


def test_dumps_are_complete_and_results_unchanged(scenarios: Dict[str, Any]) -> None:
    backend = scenarios["backend"]
    names = [cell["name"] for cell in scenarios["report"]]
    assert len(names) == 16, names
    for cell in scenarios["report"]:
        where = "%s (%s)" % (cell["name"], cell["dump_dir"])
        assert cell["restored"], "torch not restored after " + where
        if cell["name"] == "raising":
            assert cell["raised"] == 2, where
            assert (Path(cell["dump_dir"]) / "full_code_for_first_fn.py").is_file(), where
            continue
        assert cell["equal"], "results differ with prepare_debug: " + where
        assert cell["equal_under_debug"], "results differ under debug(): " + where
        # debug() ran the files prepare_debug wrote, as they were, but for
        # the known changes (said by a warning, the new code run).
        unexpected = [warning for warning in cell["changed_under_debug"]
                      if not _known_change_under_debug(backend, cell, warning)]
        assert not unexpected, (where, unexpected)
        # Under debug() every transformed code runs from its decompiled
        # source: none is left to Dynamo's bytecode listed in its file.
        for path in Path(cell["debug_dir"]).glob("__transformed_code_*.py"):
            assert "_bytecode = [" not in path.read_text(), "not run from source: %s" % path
        # Checked as the top-level def the file holds, a method's code names
        # Dynamo's globals as they are, not mangled with its class's name.
        for path in Path(cell["dump_dir"]).glob("__transformed_code_*.py"):
            assert not MANGLED_GLOBAL.search(path.read_text()), path
        dump = Path(cell["dump_dir"])
        files = {p.name: p for p in dump.iterdir()}
        for name, path in files.items():
            assert path.stat().st_size > 0, "empty %s in %s" % (name, where)
            if name.endswith(".py"):
                compile(path.read_text(), str(path), "exec", dont_inherit=True)
        full_codes = [n for n in files if n.startswith("full_code_for_")]
        assert full_codes, where
        for function in cell["functions"]:
            assert "full_code_for_%s.py" % function in files, (function, sorted(files))
        index = files["index.html"].read_text()
        full_text = "\n".join(files[n].read_text() for n in full_codes)
        for guarded in cell.get("guarded", []):
            assert guarded in full_text, "guards of %s do not name %s" % (where, guarded)
        assert "def __guard_0_for_" in full_text, where
        graph_names = set(COMPILED_FN.findall(full_text))
        assert graph_names, where
        for graph in graph_names:
            for stage in _stages(backend, cell.get("grad", False)):
                if "%s.%s.py" % (graph, stage) not in files:
                    # Only a stage torch does not log on a cache hit, said so.
                    note = re.search(re.escape(graph) + _NOT_EMITTED, full_text)
                    assert note and stage in note.group(1).split(", "), (graph, stage, where)
                    assert note.group(0) in html.unescape(index), (graph, stage, where)
                    continue
                assert "%s.%s.py" % (graph, stage) in index, (graph, stage, where)
        for resume in set(RESUME.findall(full_text)):
            assert resume + ".py" in files, (resume, where)
        for name in files:
            if name.startswith("__transformed_code_"):
                assert name in full_text and name in index, (name, where)
        if cell.get("dynamic"):
            captured = [text for n, text in cell["prepared"].items()
                        if n.endswith("captured_graph.py")]
            assert any(re.search(r"\[s\d+", text) for text in captured), \
                "no symbolic shape in " + where
        if cell.get("graph_breaks"):
            assert "Graph break" in full_text and RESUME.search(full_text), where
        if cell.get("recompiled"):
            assert "size mismatch" in full_text and "dtype mismatch" in full_text, where


def test_constants_and_lambdas_dump_fully(scenarios: Dict[str, Any]) -> None:
    """A device, dtype and slice Dynamo keeps as constants are named in the
    dumped code, nothing of the function is lost, and debug() runs the
    dumped def (results equal: test_dumps_are_complete_and_results_unchanged);
    a compiled lambda gets Python names in files and defs."""
    cells = {cell["name"]: cell for cell in scenarios["report"]}
    for name in ("constants", "lambda"):
        cell = cells[name]
        assert cell["equal"] and cell["equal_under_debug"], cell
        assert not any("could not" in warning for warning in cell["warnings"]), cell["warnings"]
        for folder in (Path(cell["dump_dir"]), Path(cell["debug_dir"])):
            for path in folder.iterdir():
                assert re.fullmatch(r"[\w.]+", path.name), path
                if not path.name.startswith("__compiled_fn_") and path.suffix == ".py":
                    # Code, not comments (they quote torch's guards).
                    assert not re.search(r"^\s*[^#\s][^#\n]*<lambda>", path.read_text(),
                                         re.M), path
    dump = Path(cells["constants"]["dump_dir"])
    transformed = (dump / "__transformed_code_0_for_constants_fn.py").read_text()
    for kind, value in (("torch.device", "device(type='cpu')"), ("torch.dtype", "torch.float32"),
                        ("slice", "slice(1, 3, None)")):
        named = re.search(r"^#   (__unpyc_const_\d+): %s = %s$" % (
            re.escape(kind), re.escape(value)), transformed, re.M)
        assert named and re.search(r"^[^#\n]*\b%s\b" % named.group(1), transformed, re.M), (
            kind, transformed)
    full_code = (dump / "full_code_for_constants_fn.py").read_text()
    assert "could not dump" not in full_code, full_code
    assert "def __guard_0_for_constants_fn(" in full_code
    assert "def __transformed_code_0_for_constants_fn(x):" in full_code
    lambda_dump = Path(cells["lambda"]["dump_dir"])
    assert (lambda_dump / "__transformed_code_0_for_lambda_.py").is_file()
    full_code = (lambda_dump / "full_code_for_lambda_.py").read_text()
    assert "def __transformed_code_0_for_lambda_(x):" in full_code
    assert "def __guard_0_for_lambda_(" in full_code


# A link's text names what it shows; a uuid is what it must not show.
UUID = re.compile(r"[0-9a-f]{8}_[0-9a-f]{4}_[0-9a-f]{4}")
# What each stage's link says (unpyc._report.STAGE_GROUPS).
_STAGE_LABELS = {
    "captured_graph": "captured graph", "pre_grad_graph": "pre-grad graph",
    "aot_inference_graph": "AOT inference graph", "post_grad_graph": "post-grad graph",
    "inductor_inference": "Inductor inference module",
}


def _follow_every_link(browser: Browser, page: Path) -> Tuple[List[Tuple[str, str]], Set[str]]:
    """Loads page in Chromium and every page it links to, and the pages
    those link to if they are HTML: each must load, be a file of page's
    folder, and hold the element an anchor names.  Returns page's links
    (url, text) and the files reached."""
    assert browser.load(page.as_uri()) is None, page
    links = browser.links()
    reached: Set[str] = set()
    pending = sorted({url for url, _ in links})
    visited: Set[str] = set()
    while pending:
        url = pending.pop()
        if url in visited:
            continue
        visited.add(url)
        error = browser.load(url)
        assert error is None, (url, error)
        base, _, fragment = url.partition("#")
        path = Path(urllib.request.url2pathname(urllib.parse.urlparse(base).path))
        assert path.parent == page.parent and path.is_file(), url
        reached.add(path.name)
        if fragment:
            assert browser.evaluate("document.getElementById(%s) !== null"
                                    % json.dumps(urllib.parse.unquote(fragment))), url
        else:  # the file's text is what the browser shows
            shown = browser.evaluate("document.body.innerText")
            assert shown.strip(), url
            if path.suffix == ".py":
                assert shown.strip() == path.read_text().strip(), url
        if path.suffix == ".html":
            pending += [linked for linked, _ in browser.links() if linked not in visited]
    return links, reached


def test_index_links_resolve_in_headless_chromium(scenarios: Dict[str, Any]) -> None:
    """index.html of the scenario that graph-breaks and recompiles (three
    cache entries of the function and of its resume function), loaded in
    headless Chromium: every link leads to a file of the dump that loads,
    or to an element that exists, and names what it shows.  The page shows
    each entry's guards, recompile and graph-break reasons, graphs by
    stage, compile times per phase and, on Inductor, each kernel."""
    executable = find_browser()
    if executable is None:
        pytest.fail("headless Chromium is needed for this test and none of %s is on PATH: "
                    "scripts/setup.sh installs the Debian package chromium where it can "
                    "(as root, with apt-get); else install it: apt-get install -y chromium"
                    % ", ".join(("chromium", "chromium-browser", "google-chrome")))
    backend = scenarios["backend"]
    cell = next(cell for cell in scenarios["report"] if cell["name"] == "recompiles")
    dump = Path(cell["dump_dir"])
    browser = Browser(executable)
    try:
        links, reached = _follow_every_link(browser, dump / "index.html")
        browser.load((dump / "index.html").as_uri())
        entries = browser.evaluate(
            "JSON.stringify(Array.from(document.querySelectorAll('section.entry'),"
            " s => [s.id, s.innerText]))")
    finally:
        browser.close()
    for url, text in links:
        assert text.strip() and not UUID.search(text) and len(text) <= 70, (url, text)
    # Every file of the dump a reader needs is reached from the page.
    for name in os.listdir(dump):
        if name.endswith(".py") and not name.startswith("full_code_for_") or \
                name.startswith("full_code_for_recompiled_fn"):
            assert name in reached, name
    sections = dict(json.loads(entries))
    full_code = (dump / "full_code_for_recompiled_fn.py").read_text()
    texts = {f: [sections.get("fn-%s-entry-%d" % (f, i), "") for i in range(3)]
             for f in ["recompiled_fn"] + sorted({n[len("fn-"):n.rindex("-entry-")]
                                                  for n in sections if "resume" in n})}
    assert len(texts) == 2, sorted(sections)  # the function and its resume function
    for function, shown in texts.items():
        for index, text in enumerate(shown):
            name = "%s · entry %d" % (function, index)
            assert name + " · transformed code" in text, (name, text)
            assert name + " · guards" in text and re.search(r"\b[1-9]\d* guards", text), text
            guards = re.search(r"\(def (__guard_%d_for_%s)\)" % (index, re.escape(function)),
                               text)
            assert guards and "def %s(" % guards.group(1) in full_code, (name, text)
            for stage in _stages(backend, grad=False):
                # The pre-grad graph of a graph loaded from AOTAutograd's
                # cache is not in torch's log: the page says so instead.
                assert "%s · %s" % (name, _STAGE_LABELS[stage]) in text or (
                    stage == "pre_grad_graph" and "pre_grad_graph not in the dump" in text), (
                    stage, text)
            timed = re.search(r"whole frame.*\(entire_frame_compile_time_s\)\s+(\S+)", text)
            assert timed and re.fullmatch(r"\d+\.\d{3}", timed.group(1)), (name, text)
            # Only Inductor reports Inductor's time, and not when the graph
            # came from AOTAutograd's cache (as here, after the reference run).
            inductor = re.search(r"Inductor \(inductor_compile_time_s\)\s+(\S+ \S+)", text)
            assert inductor, text
            assert backend == "inductor" or inductor.group(1) == "not reported", text
    reasons = texts["recompiled_fn"]
    assert "size mismatch" in reasons[1] and "dtype mismatch" in reasons[2], reasons
    assert all("Graph break in user code" in text for text in reasons), reasons
    if backend == "inductor":
        page = (dump / "index.html").read_text()
        modules = sorted(dump.glob("*.inductor_inference.py"))
        assert len(modules) == 6, modules  # two graphs a compile, three compiles
        for module in modules:
            kernels = re.findall(r"^(\w+) = async_compile\.\w+\(", module.read_text(), re.M)
            assert kernels, module
            for kernel in kernels:
                assert "<code>%s</code>" % kernel in page, (kernel, module)


DEBUGGED_PROGRAM = """
import pdb, torch, unpyc

@torch.compile(backend=BACKEND)
def toy_example(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b

def run():
    a = torch.arange(1.0, 5.0, requires_grad=True)
    out = toy_example(a, -torch.ones(4))
    out.sum().backward()
    print("RESULT", out.tolist(), a.grad.tolist())

with unpyc.prepare_debug(DUMP):
    run()
print("PREPARED")
pdb.set_trace()  # the driver sets breakpoints in the files prepare_debug wrote
with unpyc.debug(DUMP, pause=False):
    run()  # compiles again: the code that runs comes from those very files
"""


class _PdbSession:
    """A program under pdb, driven prompt by prompt."""

    def __init__(self, program: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-u", str(program)], cwd=program.parent, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=dict(os.environ, PYTHONHASHSEED="0"))
        self.transcript = ""

    def until_prompt(self) -> str:
        assert self.process.stdout is not None
        seen = ""
        while not seen.endswith("(Pdb) "):
            char = self.process.stdout.read(1)
            if not char:
                raise AssertionError("the program ended before a pdb prompt:\n" +
                                     (self.transcript + seen)[-4000:])
            seen += char
        self.transcript += seen
        return seen

    def send(self, command: str) -> str:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        self.transcript += command + "\n"
        return self.until_prompt()

    def finish(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write("continue\n")
            self.process.stdin.close()
        except BrokenPipeError:  # the program has already ended
            pass
        self.transcript += self.process.stdout.read()
        self.process.wait(timeout=600)


def _first_line(path: Path, pattern: str) -> int:
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if re.search(pattern, line):
            return number
    raise AssertionError("no %r in %s" % (pattern, path))


# The graph file whose code runs under each backend, the line to stop on
# and what to print there: Dynamo's captured graph runs as it is on eager,
# AOTAutograd's forward graph on aot_eager, Inductor's module on inductor.
_GRAPH_STOPS = {
    "eager": ("captured_graph", r"torch\.abs\(", "p l_a_"),
    "aot_eager": ("aot_forward_graph", r"torch\.ops\.aten", "p primals_1"),
    "inductor": ("inductor_forward", r"^        \S.*= args$", "p args"),
}


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
def test_breakpoints_set_in_prepared_files_are_hit(backend: str, tmp_path: Path) -> None:
    """depyf's workflow: run under prepare_debug, set breakpoints in the
    files it wrote, run under debug(): each breakpoint is hit, with live
    tensors in scope, and not one of those files was rewritten."""
    dump = tmp_path / "dump"
    program = tmp_path / "program.py"
    program.write_text("BACKEND = %r\nDUMP = %r\n" % (backend, str(dump)) + DEBUGGED_PROGRAM)
    session = _PdbSession(program)
    try:
        session.until_prompt()
        prepared = {path.name: path.read_text() for path in dump.glob("*.py")
                    if not path.name.startswith("full_code_for_")}
        transformed = dump / "__transformed_code_0_for_toy_example.py"
        (resumed,) = dump.glob("__transformed_code_0_for___resume_at_*.py")
        names = json.loads((dump / ".unpyc_names.json").read_text())
        first_graph = names["toy_example#0"]["graph"][0]
        stage, pattern, shown = _GRAPH_STOPS[backend]
        graph = dump / ("%s.%s.py" % (first_graph, stage))
        targets = []
        for path in (transformed, resumed):
            # The decompiled def runs (not Dynamo's bytecode, listed when
            # the engine cannot give source with the same effects): stop on
            # the call of the compiled graph.
            assert "_bytecode = [" not in path.read_text(), path
            targets.append((path, _first_line(path, r"^    \S+ = __compiled_fn_\w+\("),
                            "p b.shape"))
        targets.append((graph, _first_line(graph, pattern), shown))
        for path, line, _ in targets:
            reply = session.send("break %s:%d" % (path, line))
            assert "Breakpoint" in reply, reply
        hits = []
        for _ in targets:
            reply = session.send("continue")
            where = re.search(r"^> (\S+)\((\d+)\)", reply, re.M)
            assert where, reply
            stop = next((show for path, line, show in targets
                         if str(path) == where.group(1) and line == int(where.group(2))), None)
            assert stop, reply
            hits.append((os.path.basename(where.group(1)), session.send(stop)))
    finally:
        session.finish()
    assert {name for name, _ in hits} == {path.name for path, _, _ in targets}, hits
    for name, printed in hits:
        if "transformed_code" in name:
            assert "torch.Size([4])" in printed, (name, printed)
        else:
            assert re.search(r"tensor\(\[-?\d", printed), (name, printed)  # a live tensor
    results = re.findall(r"RESULT .*", session.transcript)
    assert len(results) == 2 and len(set(results)) == 1, session.transcript[-3000:]
    assert "changed under debug()" not in session.transcript, session.transcript[-3000:]
    for name, text in prepared.items():
        assert (dump / name).read_text() == text, "debug() rewrote %s" % name


CONSTANTS_PROGRAM = """
import pdb, torch, unpyc

@torch.compile(backend="aot_eager")
def constants_fn(x):
    return x + 1, x.device, x.dtype, slice(1, 3)

with unpyc.prepare_debug(DUMP):
    print("RESULT", constants_fn(torch.ones(4)))
with unpyc.debug(pause=False):
    print("RESULT", constants_fn(torch.ones(4)))  # compiles again, from the dumped files
    pdb.set_trace()
    print("RESULT", constants_fn(torch.ones(4)))
"""


def test_breakpoint_where_dumped_code_uses_a_constant_without_literal(tmp_path: Path) -> None:
    """Under debug() the dumped def that names a device, dtype and slice
    runs with the real objects, and a breakpoint on that line is hit."""
    dump = tmp_path / "dump"
    program = tmp_path / "program.py"
    program.write_text("DUMP = %r\n" % str(dump) + CONSTANTS_PROGRAM)
    session = _PdbSession(program)
    try:
        session.until_prompt()
        transformed = dump / "__transformed_code_0_for_constants_fn.py"
        assert "_bytecode = [" not in transformed.read_text(), transformed
        line = _first_line(transformed, r"^[^#]*__unpyc_const_\d")
        assert "Breakpoint" in session.send("break %s:%d" % (transformed, line))
        reply = session.send("continue")
        assert "> %s(%d)" % (transformed, line) in reply, reply
        shape = session.send("p x.shape")
    finally:
        session.finish()
    assert "torch.Size([4])" in shape, shape
    results = re.findall(r"RESULT .*", session.transcript)
    assert len(results) == 3 and len(set(results)) == 1, session.transcript[-3000:]
    assert "device(type='cpu'), torch.float32, slice(1, 3, None))" in results[0], results


LIVE_PROGRAM = """
import shutil, torch, unpyc
from torch._C._dynamo.eval_frame import set_guard_complete_hook

@torch.compile(backend="inductor")
def toy_example(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b

def snapshot(moment):
    # What someone looking at the dump sees now, while the block runs.
    shutil.copytree(DUMP, DUMP + "-" + moment)

checks = []

def users_hook(cache_hit):  # the user's, in the slot unpyc uses too
    checks.append(cache_hit)
    return cache_hit

set_guard_complete_hook(users_hook)
with unpyc.prepare_debug(DUMP):
    a = torch.arange(1.0, 5.0, requires_grad=True)
    first = toy_example(a, -torch.ones(4))
    snapshot("after_forward")
    second = toy_example(a, -torch.ones(4))  # no compile, only guard checks
    snapshot("after_second_forward")
    (first + second).sum().backward()  # Inductor compiles the backward graphs now
    snapshot("after_backward")
    toy_example(a, torch.ones(4)).sum().backward()  # the other branch's resume function
assert set_guard_complete_hook(None) is users_hook
assert checks and all(checks), checks
"""


def _guard_lines(full_code: str, function: str) -> List[str]:
    """The body of the guard function of cache entry 0 of function."""
    body = full_code.split("def __guard_0_for_%s(" % function, 1)[1].split("\n")[1:]
    return body[:next(i for i, line in enumerate(body) if line.startswith("    return"))]


def _readable_dump(dump: Path) -> str:
    """Checks what the dump shows of the toy example at one moment; returns
    its full_code_for_toy_example.py."""
    files = {p.name for p in dump.iterdir()}
    for name in files:
        assert not name.endswith(".tmp"), (name, dump)  # no write was cut short
        if name.endswith(".py"):
            path = dump / name
            compile(path.read_text(), str(path), "exec", dont_inherit=True)
    full_code = (dump / "full_code_for_toy_example.py").read_text()
    index = (dump / "index.html").read_text()
    assert index.rstrip().endswith("</html>"), dump
    linked = re.findall(r'<a href="([^"#]+)"', index)  # files, not anchors
    assert "full_code_for_toy_example.py" in linked, dump
    assert set(linked) <= files, (set(linked) - files, dump)
    named = set(re.findall(r"\b(__[\w.]+?\.py)\b", full_code))
    assert named <= files, (named - files, dump)
    assert "__transformed_code_0_for_toy_example.py" in named, dump
    # Both resume functions (one per branch), the one run compiled.
    resumes = set(RESUME.findall(full_code))
    assert len(resumes) == 2, (resumes, dump)
    for resume in resumes:
        assert resume + ".py" in named, (resume, dump)
    assert any("__transformed_code_0_for_%s.py" % resume in named for resume in resumes), dump
    guards = _guard_lines(full_code, "toy_example")
    for local in ("L['a']", "L['b']"):
        assert any(line.startswith("    __guard_hit = __guard_hit and (") and local in line
                   for line in guards), (local, guards, dump)
    assert full_code.count("# The guard tree torch checks") == full_code.count("def __guard_")
    return full_code


def test_dump_is_written_as_compiles_happen(tmp_path: Path) -> None:
    dump = tmp_path / "dump"
    program = tmp_path / "program.py"
    program.write_text("DUMP = %r\n" % str(dump) + LIVE_PROGRAM)
    # Compiled, not loaded from torch's caches: on an AOTAutograd cache hit
    # torch loads the backward graphs with the forward ones, at once.
    proc = _run([str(program)], cwd=tmp_path, TORCHINDUCTOR_FX_GRAPH_CACHE="0",
                TORCHINDUCTOR_AUTOGRAD_CACHE="0")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-4000:]
    after_forward = _readable_dump(tmp_path / "dump-after_forward")
    after_second_forward = _readable_dump(tmp_path / "dump-after_second_forward")
    after_backward = _readable_dump(tmp_path / "dump-after_backward")
    final = _readable_dump(dump)
    # The resume function's entry is listed after its compile has returned:
    # the next call of the toy example, checking guards, writes its guards.
    assert "not listed by torch yet" in after_forward
    assert "not listed by torch yet" not in after_second_forward
    # Inside the block, the forward's files are named at once; the backward
    # graphs Inductor compiles on the first backward, as soon as they are.
    graphs = set(COMPILED_FN.findall(after_forward))
    assert len(graphs) == 2, graphs  # the toy example's and its resume function's
    for graph in graphs:
        assert "%s.inductor_forward.py" % graph in after_forward, graph
        assert "%s.inductor_backward.py" % graph not in after_forward, graph
        assert "%s.inductor_backward.py" % graph in after_backward, graph
    # The block's end lists every entry's guards, both resume functions' too,
    # one entry each: the guard checks said what they said.
    assert "not listed by torch yet" not in final
    assert "def __guard_1_for_" not in final
    for function in ["toy_example"] + sorted(set(RESUME.findall(final))):
        assert any("__guard_hit and (" in line for line in _guard_lines(final, function)), \
            function


FAULTY_PROGRAM = '''
import warnings, torch, torch._dynamo.convert_frame, unpyc
from unpyc.errors import UnsupportedError

def broken_decompile(*args, **kwargs):
    raise UnsupportedError("forced failure")

unpyc.decompile = broken_decompile  # the decompiler fails on everything
del torch._dynamo.convert_frame.register_bytecode_hook  # a torch hook is gone

@torch.compile(backend="aot_eager")
def toy_example(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b

a, b = torch.arange(1.0, 5.0), -torch.ones(4)
expected = (a / (torch.abs(a) + 1)) * -b
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with unpyc.prepare_debug(DUMP):
        out = toy_example(a, b)
assert torch.equal(out, expected), (out, expected)
for w in caught:
    print("WARNING", w.message)
'''


def test_faults_cost_artifacts_not_the_compile(tmp_path: Path) -> None:
    dump = tmp_path / "dump"
    program = tmp_path / "program.py"
    program.write_text("DUMP = %r\n" % str(dump) + FAULTY_PROGRAM)
    proc = _run([str(program)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-4000:]
    assert "register_bytecode_hook is not available" in proc.stdout, proc.stdout
    index = (dump / "index.html").read_text()
    assert "register_bytecode_hook" in index
    # The trace still gives the graphs.
    assert list(dump.glob("__compiled_fn_*.captured_graph.py"))
    assert list(dump.glob("__compiled_fn_*.aot_inference_graph.py"))


def test_decompiler_failure_falls_back_to_disassembly(tmp_path: Path) -> None:
    dump = tmp_path / "dump"
    program = tmp_path / "program.py"
    program.write_text("DUMP = %r\n" % str(dump) + FAULTY_PROGRAM.replace(
        "del torch._dynamo.convert_frame.register_bytecode_hook", "pass"))
    proc = _run([str(program)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-4000:]
    transformed = (dump / "__transformed_code_0_for_toy_example.py").read_text()
    assert "could not decompile: forced failure" in transformed
    assert "LOAD_GLOBAL" in transformed  # Dynamo's bytecode, listed
    full_code = (dump / "full_code_for_toy_example.py").read_text()
    assert "unpyc could not decompile __resume_at_" in full_code
    compile(full_code, "full_code", "exec")
    assert "forced failure" in (dump / "index.html").read_text()


def test_importing_unpyc_does_not_import_torch() -> None:
    proc = _run(["-c", "import sys, unpyc; print('torch' in sys.modules, "
                 "callable(unpyc.prepare_debug), callable(unpyc.debug))"], cwd=REPO)
    assert proc.stdout.split() == ["False", "True", "True"], proc.stdout + proc.stderr
