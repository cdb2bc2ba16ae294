"""Generated-program differential testing, the way compiler projects use
Csmith and C-Reduce: ``python -m unpyc.campaign``.

Random valid programs come from pysource-codegen (and hypothesmith), which
run here, under the interpreter that runs the campaign (the project's
venv), or with --generate-in-target pysource-codegen runs in each target
interpreter, in its own syntax.  Each target CPython gets every program as source: it keeps those it
compiles, and the round-trip oracle (roundtrip.roundtrip_code) decompiles,
recompiles and compares them, in a worker process of that interpreter
(``python3.X -m unpyc.campaign --serve``) that the campaign kills when a
program takes too long and restarts when it dies.  Each program gets one
verdict:

* equivalent: the output compiles to equivalent code;
* marked: the output holds an "unpyc: could not recover" region, or a
  comment that an instruction is not supported yet (3.8-3.10 SETUP_*: the
  code it starts is left out) or that a block stack or finally body is not
  read (the function is left out), what makes the command exit 9 (counted
  here whatever the oracle says; "equivalent anyway" is a false alarm);
* differs: unmarked output that compiles to different code, a lie
  ("noted" counts those where a "# unpyc:" comment says something);
* invalid: the output does not compile;
* error: the decompiler raised;
* crash: the worker died; timeout: it ran over the limit.

Each failure gets a category: for a difference in the instructions, the
construct of the first one (the innermost statement on its line in the one
holding it, and on 3.11+ the expression at its exact position) and the
opnames expected and got ("Match/Pass: JUMP_FORWARD -> RETURN_CONST"); else
the part that differs (co_names, exception table...) or the kind of
failure.  Failures are shrunk with pysource-minimize to small programs that
still fail the same way (same
verdict, same category), written to --minimize-dir.
"""

from __future__ import annotations

import argparse
import ast
import dis
import glob
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from types import CodeType
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from . import roundtrip

MARK = "unpyc: could not recover this "
# The engine's comment where normalize met an instruction it cannot lower,
# or a 3.8-3.10 block stack or finally body it cannot read: the code (from
# there, or the whole function) is left out, so the output is as
# incomplete as a marked region, and the command exits 9 on it.
UNSUPPORTED = re.compile(r"# unpyc: ([\w' ]+?) at offset \d+(?: is not supported by the"
                         r" decompiler yet|: a (?:block stack|finally body) the decompiler"
                         r" does not read yet)")
# The engine's comment where it recovered a return / break / continue
# outside a function or loop: structure read wrong, counted as unrecovered
# (the command exits 9 on it), so as marked as a region.
OUTSIDE = re.compile(r"# unpyc: the code (?:leaves|jumps out|jumps back) [^(]*\((a `\w+`) outside")
# Any comment of the engine's about the output ("# unpyc: a value missing
# from the stack...").
NOTE = "# unpyc: "
VERSIONS = ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")
MARKED = "marked"
SKIPPED = roundtrip.SKIPPED
FAILURES = (roundtrip.DIFFERS, roundtrip.INVALID, MARKED, roundtrip.ERROR,
            roundtrip.CRASH, roundtrip.TIMEOUT)
# Never acceptable, listed or not.
BROKEN = (roundtrip.CRASH, roundtrip.TIMEOUT)

# ------------------------------------------------- the target's side (3.8+)


def _unpyc_source(code: CodeType) -> str:
    import unpyc

    return unpyc.decompile(code, verify=False)


def check_program(source: str, filename: str = "<generated>",
                  decompiler: Callable[[CodeType], str] = _unpyc_source) -> Dict[str, Any]:
    """The verdict on one program under this interpreter: {"status",
    "category", "detail", "functions": [equivalent, total], "output"}.
    decompiler stands in for unpyc where a test plants a fault."""
    try:
        expected = roundtrip._compile(source, filename)
    except Exception as e:  # SyntaxError, ValueError, RecursionError...
        return {"status": SKIPPED, "category": "", "detail": roundtrip._compile_error(e)}
    outputs: List[str] = []

    def decompile(code: CodeType) -> str:
        outputs.append(decompiler(code))
        return outputs[-1]

    result = roundtrip.roundtrip_code(expected, filename, decompile=decompile)
    output = outputs[0] if outputs else ""
    status = result.status
    category = _category(result.status, result.detail or "", source, expected)
    left_out = _left_out(output)
    if left_out is not None:
        status = MARKED
        category = left_out + (
            " (equivalent anyway)" if result.status == roundtrip.EQUIVALENT else "")
    equivalent = sum(1 for f in result.functions if f.status == roundtrip.EQUIVALENT)
    return {"status": status, "category": category, "detail": result.detail or "",
            "functions": [equivalent, len(result.functions)], "output": output,
            "noted": NOTE in output}


def _left_out(output: str) -> Optional[str]:
    """What the output says it left out (its category), or None when it
    says nothing is."""
    if MARK in output:
        return _marked_category(output.split(MARK, 1)[1])
    unsupported = UNSUPPORTED.search(output)
    if unsupported:
        return unsupported.group(1) + " not supported"
    outside = OUTSIDE.search(output)
    return outside.group(1) + " outside its scope" if outside else None


def _marked_category(region: str) -> str:
    """"region from RERAISE": what the engine could not recover, and the
    first instruction its disassembly block lists."""
    why, _, listing = region.partition("\n")
    first = listing.split()[2:3] if listing.lstrip().startswith("#") else []
    return why.split(" (offsets", 1)[0] + (" from " + first[0] if first else "")


_DIFFERENCE = re.compile(r"^(.*?): (instruction (\d+)|exception table|co_\w+|missing)")
_OPNAMES = re.compile(r"expected (?:\((\w+), .*?\)|the end), got (?:\((\w+)|the end)")


def _category(status: str, detail: str, source: str, expected: CodeType) -> str:
    """What a failure is about (see the module docstring)."""
    if status == roundtrip.EQUIVALENT:
        return ""
    if status == roundtrip.INVALID:
        return re.sub(r" \(line \d+\)$", "", detail)
    if status == roundtrip.ERROR:
        return re.sub(r"\d+", "N", detail)[:80]
    m = _DIFFERENCE.match(detail)
    if not m:
        return detail[:60]
    if m.group(3) is None:
        return {"missing": "missing code object"}.get(m.group(2), m.group(2))
    opnames = _OPNAMES.search(detail)
    change = "%s -> %s" % (opnames.group(1) or "end", opnames.group(2) or "end") if (
        opnames) else "?"
    if change.startswith("SETUP_ANNOTATIONS "):
        # Set up on the module's first line for an annotation anywhere.
        return "annotations: " + change
    code = _code_named(expected, m.group(1))
    construct = _construct_at(source, code, int(m.group(3))) if code else "?"
    return "%s: %s" % (construct, change)


def _code_named(module: CodeType, where: str) -> Optional[CodeType]:
    if where == "<module>":
        return module
    for key, code in roundtrip.code_objects(module):
        if roundtrip._DUPLICATE.sub("", key) == where:
            return code
    return None


def _construct_at(source: str, code: CodeType, index: int) -> str:
    """The construct the index-th compared instruction of code comes from:
    the innermost statement on its line after the statement holding it
    ("While/AugAssign"; alone at the top level), and on 3.11+ the node at
    exactly its position when that is another one ("Return (GeneratorExp)")."""
    instructions = roundtrip._Normalized(code).instructions
    if not instructions:
        return "empty code"
    instruction = instructions[min(index, len(instructions) - 1)]
    line = _line_of(code, instruction.offset)
    chain: List[ast.stmt] = []
    body: Sequence[ast.AST] = ast.parse(source).body
    while True:
        inner = [n for n in body if isinstance(n, ast.stmt)
                 and _first_line(n) <= line <= (n.end_lineno or n.lineno)]
        if not inner:
            break
        chain.append(inner[-1])
        body = [c for c in ast.iter_child_nodes(inner[-1]) if isinstance(c, ast.stmt)] + [
            s for case in getattr(inner[-1], "cases", ()) for s in case.body] + [
            s for handler in getattr(inner[-1], "handlers", ()) for s in handler.body]
    if not chain:
        return "no statement"
    name = "/".join(type(n).__name__ for n in chain[-2:])
    positions = getattr(instruction, "positions", None)
    if positions is not None and positions.col_offset is not None:
        where = (positions.lineno, positions.col_offset, positions.end_lineno,
                 positions.end_col_offset)
        for node in ast.walk(chain[-1]):
            if node is not chain[-1] and isinstance(node, ast.expr) and (
                    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset) == where:
                return "%s (%s)" % (name, type(node).__name__)
    return name


def _first_line(statement: ast.stmt) -> int:
    """Where a statement starts: a decorated def or class at its first
    decorator, the line its code starts on."""
    decorators: List[ast.expr] = getattr(statement, "decorator_list", [])
    return min([statement.lineno] + [d.lineno for d in decorators])


def _line_of(code: CodeType, offset: int) -> int:
    line = code.co_firstlineno
    for start, number in dis.findlinestarts(code):
        if start > offset:
            break
        if number is not None:
            line = number
    return line


def serve(stdin: IO[str], stdout: IO[str]) -> None:
    """The worker: one JSON request a line ({"source"}), one verdict a line."""
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    for line in stdin:
        request = json.loads(line)
        if "generate" in request:
            stdout.write(json.dumps({"source": _generate(*request["generate"])}) + "\n")
            stdout.flush()
            continue
        if "minimize" in request:
            stdout.write(json.dumps({"source": _minimize_here(*request["minimize"])}) + "\n")
            stdout.flush()
            continue
        try:
            verdict = check_program(request["source"])
        except Exception as e:  # the campaign's own fault, not a crash of unpyc's
            verdict = {"status": roundtrip.ERROR, "category": "campaign: " + type(e).__name__,
                       "detail": "%s: %s" % (type(e).__name__, e)}
        stdout.write(json.dumps(verdict) + "\n")
        stdout.flush()


def _minimize_here(source: str, status: str, category: str, seconds: float) -> str:
    """minimize_failure in this process, for a program in syntax the
    campaign's interpreter cannot parse: a crash here loses the shrinking
    (the campaign then keeps the program whole), not the verdict."""
    from pysource_minimize import minimize

    deadline = time.monotonic() + seconds

    def fails_the_same(candidate: str) -> bool:
        verdict = check_program(candidate)
        return time.monotonic() < deadline and (
            verdict["status"], verdict["category"]) == (status, category)

    return str(minimize(source, fails_the_same))


def _generate(seed: int, node_limit: int, depth_limit: int) -> Optional[str]:
    """pysource-codegen's program for seed, in the syntax of the running
    interpreter; None when the generator fails (its own bug)."""
    try:
        from pysource_codegen import generate

        return str(generate(seed, node_limit=node_limit, depth_limit=depth_limit))
    except Exception:
        return None


# ------------------------------------------------------ the campaign's side


def find_interpreter(version: str) -> Optional[str]:
    """The newest pyenv CPython of version ("3.X"), else python3.X on PATH."""
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = glob.glob(os.path.join(root, "versions", version + ".*", "bin", "python3"))
    found = [p for p in found if re.search(r"/%s\.\d+/" % re.escape(version), p)]
    if found:
        return max(found, key=lambda p: int(p.split(os.sep)[-3].split(".")[2]))
    return shutil.which("python" + version)


class Target:
    """A worker process of one interpreter, restarted when it dies or is
    killed for overrunning."""

    def __init__(self, version: str, python: str, path: str, timeout: float) -> None:
        self.version, self.python, self.path, self.timeout = version, python, path, timeout
        self.process: Optional["subprocess.Popen[str]"] = None

    def _start(self) -> "subprocess.Popen[str]":
        env = dict(os.environ, PYTHONPATH=self.path, PYTHONHASHSEED="0")
        env.pop("PYTHONHOME", None)
        return subprocess.Popen(
            [self.python, "-m", "unpyc.campaign", "--serve"], env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def check(self, source: str) -> Dict[str, Any]:
        return self._ask({"source": source})

    def generate(self, seed: int, node_limit: int, depth_limit: int) -> Optional[str]:
        """pysource-codegen's program for seed as this interpreter makes it
        (its own syntax: 3.12's type parameters...); None when that fails."""
        answer = self._ask({"generate": [seed, node_limit, depth_limit]})
        source = answer.get("source")
        return source if isinstance(source, str) else None

    def shrink_here(self, source: str, key: Tuple[str, str], seconds: float) -> str:
        """source shrunk by pysource-minimize inside the worker (see
        _minimize_here), or source itself when the worker dies or overruns."""
        answer = self._ask({"minimize": [source, key[0], key[1], seconds]}, seconds + 30)
        shrunk = answer.get("source")
        return shrunk if isinstance(shrunk, str) else source

    def _ask(self, request: Dict[str, Any], timeout: Optional[float] = None) -> Dict[str, Any]:
        """The worker's answer, or a crash or timeout verdict."""
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
        except OSError:
            pass
        ready, _, _ = select.select([process.stdout], [], [], timeout or self.timeout)
        line = process.stdout.readline() if ready else ""
        if line:
            answer: Dict[str, Any] = json.loads(line)
            return answer
        if not ready:
            self.stop()
            return {"status": roundtrip.TIMEOUT, "category": "timeout",
                    "detail": "over the %g s limit" % (timeout or self.timeout)}
        code = process.wait()
        self.process = None
        return {"status": roundtrip.CRASH, "category": "worker died (exit %s)" % code,
                "detail": "worker died (exit code %s)" % code}

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@dataclass
class Program:
    name: str
    generator: str
    source: Optional[str]  # None: the generator failed


class Programs:
    """The programs of a campaign, in order, made once and shared by the
    versions: program k of pysource-codegen is generate(seed * 100003 + k);
    hypothesmith's are the first examples of a seeded hypothesis run.
    With `target`, pysource-codegen runs in that interpreter instead (its
    programs are named pysource-codegen@3.X:seed:k)."""

    def __init__(self, seed: int, node_limit: int, depth_limit: int,
                 target: Optional["Target"] = None) -> None:
        self.seed, self.node_limit, self.depth_limit = seed, node_limit, depth_limit
        self.target = target
        self._codegen: Dict[int, Program] = {}
        self._hypothesmith: List[Program] = []
        self._lock = threading.Lock()

    def codegen(self, k: int) -> Program:
        with self._lock:
            if k not in self._codegen:
                self._codegen[k] = self._generate(k)
            return self._codegen[k]

    def _generate(self, k: int) -> Program:
        where = "@" + self.target.version if self.target else ""
        name = "pysource-codegen%s:%d:%d" % (where, self.seed, k)
        arguments = (self.seed * 100003 + k, self.node_limit, self.depth_limit)
        source = self.target.generate(*arguments) if self.target else _generate(*arguments)
        return Program(name, "pysource-codegen", source)

    def hypothesmith(self, count: int) -> List[Program]:
        with self._lock:
            if len(self._hypothesmith) < count:
                self._hypothesmith = _hypothesmith_programs(self.seed, count)
            return self._hypothesmith[:count]


def _hypothesmith_programs(seed: int, count: int) -> List[Program]:
    import hypothesis
    import hypothesmith
    from hypothesis import HealthCheck, Phase

    found: List[str] = []

    @hypothesis.seed(seed)
    @hypothesis.settings(max_examples=count, database=None, deadline=None,
                         phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @hypothesis.given(hypothesmith.from_grammar())
    def collect(source: str) -> None:
        if source not in found:
            found.append(source)

    collect()
    return [Program("hypothesmith:%d:%d" % (seed, k), "hypothesmith", source)
            for k, source in enumerate(found[:count])]


@dataclass
class Options:
    programs: int
    hypothesmith: int
    minutes: Optional[float]
    minimize_dir: Optional[str]
    minimize_per_category: int
    minimize_seconds: float


@dataclass
class VersionRun:
    version: str
    records: List[Dict[str, Any]] = field(default_factory=list)
    minimized: List[Dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0


def _program_stream(programs: Programs, options: Options) -> Iterator[Program]:
    yield from programs.hypothesmith(options.hypothesmith) if options.hypothesmith else ()
    k = 0
    while True:
        yield programs.codegen(k)
        k += 1


def run_version(target: Target, programs: Programs, options: Options) -> VersionRun:
    """options.programs pysource-codegen programs that compile on target's
    version (options.hypothesmith hypothesmith ones before them), or as
    many as options.minutes allow; then the failures minimized."""
    run = VersionRun(target.version)
    started = time.monotonic()
    deadline = started + options.minutes * 60 if options.minutes else None
    kept = {"pysource-codegen": 0, "hypothesmith": 0}
    wanted = {"pysource-codegen": options.programs, "hypothesmith": options.hypothesmith}
    for program in _program_stream(programs, options):
        if deadline is not None and time.monotonic() > deadline:
            break
        if kept[program.generator] >= wanted[program.generator]:
            if program.generator == "pysource-codegen":
                break
            continue
        clock = time.monotonic()
        verdict: Dict[str, Any] = target.check(program.source) if (
            program.source is not None) else {
            "status": SKIPPED, "category": "", "detail": "the generator failed"}
        verdict.pop("output", None)
        verdict.update(program=program.name, seconds=round(time.monotonic() - clock, 3))
        run.records.append(verdict)
        if verdict["status"] != SKIPPED:
            kept[program.generator] += 1
        if len(run.records) % 200 == 0:
            print("%s: %d programs, %.0f s: %s" % (
                target.version, len(run.records), time.monotonic() - started,
                counts(run.records)), file=sys.stderr, flush=True)
    if options.minimize_dir:
        run.minimized = _minimize_failures(target, programs, run.records, options)
    run.seconds = time.monotonic() - started
    return run


def _source_of(programs: Programs, name: str) -> str:
    """The source of a program that ran (so the generator made it)."""
    generator, _seed, k = name.rsplit(":", 2)
    if generator.startswith("pysource-codegen"):
        program = programs.codegen(int(k))
    else:
        program = programs.hypothesmith(int(k) + 1)[int(k)]
    assert program.source is not None
    return program.source


def _minimize_failures(target: Target, programs: Programs, records: List[Dict[str, Any]],
                       options: Options) -> List[Dict[str, Any]]:
    """The first options.minimize_per_category failures of each verdict and
    category (all when 0), each shrunk and written to options.minimize_dir."""
    assert options.minimize_dir is not None
    folder = os.path.join(options.minimize_dir, target.version)
    os.makedirs(folder, exist_ok=True)
    done: Dict[Tuple[str, str], int] = {}
    written: Dict[str, Dict[str, Any]] = {}
    for record in records:
        if record["status"] not in FAILURES:
            continue
        key = (record["status"], record["category"])
        done[key] = done.get(key, 0) + 1
        if options.minimize_per_category and done[key] > options.minimize_per_category:
            continue
        source = minimize_failure(target, _source_of(programs, record["program"]), key,
                                  options.minimize_seconds)
        if source in written:
            continue
        verdict = target.check(source)
        entry = {"program": record["program"], "status": key[0], "category": key[1],
                 "detail": verdict.get("detail", ""), "source": source,
                 "file": _file_name(folder, key, len(written))}
        _write_minimized(entry, verdict.get("output", ""), target.version)
        written[source] = entry
    return list(written.values())


def minimize_failure(target: Target, source: str, key: Tuple[str, str],
                     seconds: float) -> str:
    """source shrunk by pysource-minimize to a program that still fails on
    target with the same (status, category); after `seconds` every further
    candidate is refused, which ends the search with the smallest so far."""
    from pysource_minimize import CouldNotMinimize, minimize

    deadline = time.monotonic() + seconds

    def fails_the_same(candidate: str) -> bool:
        if time.monotonic() > deadline:
            return False
        verdict = target.check(candidate)
        return (verdict["status"], verdict["category"]) == key

    try:
        ast.parse(source)
    except SyntaxError:  # newer syntax than this interpreter's (--generate-in-target)
        return target.shrink_here(source, key, seconds)
    try:
        return str(minimize(source, fails_the_same))
    except CouldNotMinimize:
        return source


def _file_name(folder: str, key: Tuple[str, str], index: int) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "_", "%s %s" % key).strip("_")[:60]
    return os.path.join(folder, "%s_%d.py" % (slug, index))


def _write_minimized(entry: Dict[str, Any], output: str, version: str) -> None:
    lines = ["# %s on %s: %s" % (entry["status"], version, entry["category"]),
             "# shrunk from %s" % entry["program"],
             "# %s" % " ".join(str(entry["detail"]).split())]
    lines += ["# unpyc's output:"] + ["#   " + line for line in output.rstrip().split("\n")]
    with open(entry["file"], "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n" + entry["source"].rstrip() + "\n")


# ------------------------------------------------------------- reporting


def counts(records: Sequence[Dict[str, Any]]) -> Dict[str, int]:
    found: Dict[str, int] = {}
    for record in records:
        found[record["status"]] = found.get(record["status"], 0) + 1
    return found


def table(runs: Sequence[VersionRun], shown: int = 30) -> str:
    """Per version and generator: verdicts of the programs that compile
    there; then per version the failure categories with their counts and
    first programs (the `shown` first: other verdicts, then differs,
    largest first)."""
    columns = (roundtrip.EQUIVALENT,) + FAILURES
    lines = ["%-7s %-16s %8s %8s %7s " % ("version", "generator", "programs", "skipped", "eq%")
             + " ".join("%10s" % c for c in columns) + " %7s %7s" % ("noted", "fn eq%")]
    for run in runs:
        for generator in ("pysource-codegen", "hypothesmith"):
            records = [r for r in run.records
                       if r["program"].split(":")[0].split("@")[0] == generator]
            if records:
                lines.append(_row(run.version, generator, records, columns))
    for run in runs:
        categories: Dict[Tuple[str, str], List[str]] = {}
        for r in run.records:
            if r["status"] in FAILURES:
                categories.setdefault((r["status"], r["category"]), []).append(r["program"])
        if categories:
            lines.append("\n%s failures by category (%.0f s):" % (run.version, run.seconds))
        # The rarer verdicts first: a table cut short leaves out differs only.
        ranked = sorted(categories.items(), key=lambda item: (
            item[0][0] == roundtrip.DIFFERS, -len(item[1]), item[0]))
        for (status, category), names in ranked[:shown]:
            lines.append("  %4d  %-8s %-56s e.g. %s" % (len(names), status, category, names[0]))
        if len(ranked) > shown:
            lines.append("  ... %d more categories, %d programs" % (
                len(ranked) - shown, sum(len(names) for _, names in ranked[shown:])))
    return "\n".join(lines)


def _row(version: str, generator: str, records: Sequence[Dict[str, Any]],
         columns: Sequence[str]) -> str:
    found = counts(records)
    ran = sum(n for status, n in found.items() if status != SKIPPED)
    functions = [r["functions"] for r in records if "functions" in r]
    fn_total = sum(f[1] for f in functions)
    noted = sum(1 for r in records if r.get("noted") and r["status"] == roundtrip.DIFFERS)
    return ("%-7s %-16s %8d %8d %7s " % (
        version, generator, ran, found.get(SKIPPED, 0),
        "%.1f" % (100.0 * found.get(roundtrip.EQUIVALENT, 0) / ran) if ran else "-")
        + " ".join("%10d" % found.get(c, 0) for c in columns)
        + " %7d %7s" % (noted, "%.1f" % (100.0 * sum(f[0] for f in functions) / fn_total)
                        if fn_total else "-"))


def known_entries(run: VersionRun) -> Dict[str, str]:
    """The failing programs of a run as known-failures entries: name ->
    "status: category"."""
    return {r["program"]: "%s: %s" % (r["status"], r["category"])
            for r in run.records if r["status"] in FAILURES}


def compare_known(run: VersionRun, known: Sequence[str]) -> Tuple[List[str], List[str]]:
    """(new, fixed): failing programs not listed; listed programs that ran
    and did not fail (the list only shrinks: remove them)."""
    failing = known_entries(run)
    ran = {r["program"] for r in run.records if r["status"] != SKIPPED}
    new = sorted(name for name in failing if name not in known)
    fixed = sorted(name for name in known if name in ran and name not in failing)
    return new, fixed


def write_known(path: str, run: VersionRun) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Generated programs unpyc fails on CPython %s in the smoke campaign\n"
                "# (tests/test_campaign.py), `name  # verdict: category`.  Written by\n"
                "# python -m unpyc.campaign --update-known; this list only ever shrinks;\n"
                "# a crash or a timeout is never acceptable, listed or not.\n" % run.version)
        for name, why in sorted(known_entries(run).items()):
            f.write("%s  # %s\n" % (name, why))


# ------------------------------------------------------------- command line


def _copy_package(generator: bool) -> str:
    """A folder holding a copy of this unpyc package, for the targets'
    PYTHONPATH (the venv's site-packages would bring 3.11's packages), and
    of pysource-codegen, pysource-minimize and typing_extensions when
    generator (all pure Python)."""
    folder = tempfile.mkdtemp(prefix="unpyc-campaign-")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(os.path.dirname(os.path.abspath(__file__)),
                    os.path.join(folder, "unpyc"), ignore=ignore)
    if generator:
        import pysource_codegen
        import pysource_minimize
        import typing_extensions

        for package in (pysource_codegen, pysource_minimize):
            shutil.copytree(os.path.dirname(os.path.abspath(str(package.__file__))),
                            os.path.join(folder, package.__name__), ignore=ignore)
        shutil.copy(typing_extensions.__file__, folder)
    return folder


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m unpyc.campaign",
        description="Random programs, decompiled and recompiled on every CPython.")
    add = parser.add_argument
    add("--versions", default=",".join(VERSIONS), help="comma-separated, e.g. 3.11,3.12")
    add("--programs", type=int, default=1000,
        help="pysource-codegen programs per version (that compile there)")
    add("--hypothesmith", type=int, default=0, help="hypothesmith programs per version")
    add("--minutes", type=float, help="stop each version after this long")
    add("--seed", type=int, default=0)
    add("--node-limit", type=int, default=60)
    add("--depth-limit", type=int, default=4)
    add("--generate-in-target", action="store_true",
        help="run pysource-codegen in each target interpreter (its own syntax; 3.9+)")
    add("--timeout", type=float, default=20.0, help="seconds per program")
    add("--jobs", type=int, default=1, help="versions run at once")
    add("--json", help="write every verdict and the minimized programs here")
    add("--minimize-dir", help="shrink failures and write them here, per version")
    add("--minimize-per-category", type=int, default=0, metavar="K",
        help="shrink only the first K failures of each category (default 0: all)")
    add("--minimize-seconds", type=float, default=90.0, help="time limit per shrink")
    add("--known-dir", help="known failures: DIR/smoke-3.X.txt")
    add("--update-known", action="store_true", help="rewrite them with the current failures")
    add("--report", metavar="JSON", help="print the tables of an earlier run's --json")
    add("--serve", action="store_true", help=argparse.SUPPRESS)
    return parser


def _run_all(args: argparse.Namespace, versions: List[Tuple[str, str]]) -> List[VersionRun]:
    options = Options(args.programs, args.hypothesmith, args.minutes, args.minimize_dir,
                      args.minimize_per_category, args.minimize_seconds)
    shared = Programs(args.seed, args.node_limit, args.depth_limit)
    path = _copy_package(args.generate_in_target)
    results: Dict[str, VersionRun] = {}
    pending = list(versions)
    lock = threading.Lock()

    def work() -> None:
        while True:
            with lock:
                if not pending:
                    return
                version, python = pending.pop(0)
            target = Target(version, python, path, args.timeout)
            programs = Programs(args.seed, args.node_limit, args.depth_limit, target) if (
                args.generate_in_target) else shared
            try:
                results[version] = run_version(target, programs, options)
            finally:
                target.stop()

    threads = [threading.Thread(target=work) for _ in range(max(1, args.jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    shutil.rmtree(path, ignore_errors=True)
    return [results[v] for v, _ in versions if v in results]


def _check_known(args: argparse.Namespace, runs: List[VersionRun]) -> bool:
    """Prints new and fixed entries; True when there are none (or the lists
    were rewritten)."""
    clean = True
    for run in runs:
        path = os.path.join(args.known_dir, "smoke-%s.txt" % run.version)
        if args.update_known:
            write_known(path, run)
            continue
        new, fixed = compare_known(run, sorted(roundtrip.read_known(path)))
        why = known_entries(run)
        for name in new:
            print("%s NEW %s  # %s" % (run.version, name, why[name]))
        for name in fixed:
            print("%s FIXED %s (remove it from %s)" % (run.version, name, path))
        clean = clean and not new and not fixed
    return clean


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    if args.serve:
        serve(sys.stdin, sys.stdout)
        return 0
    if args.report:
        with open(args.report, encoding="utf-8") as f:
            saved = json.load(f)["versions"]
        print(table([VersionRun(v["version"], v["records"], v["minimized"], v["seconds"])
                     for v in saved]))
        return 0
    versions = []
    for version in args.versions.split(","):
        python = find_interpreter(version)
        if python is None:
            print("CPython %s is not installed: left out" % version)
        elif args.generate_in_target and version == "3.8":
            print("pysource-codegen needs astunparse on 3.8: 3.8 left out")
        else:
            versions.append((version, python))
    runs = _run_all(args, versions)
    print(table(runs))
    clean = _check_known(args, runs) if args.known_dir else True
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"seed": args.seed, "node_limit": args.node_limit,
                       "depth_limit": args.depth_limit,
                       "versions": [{"version": r.version, "seconds": round(r.seconds, 1),
                                     "counts": counts(r.records), "records": r.records,
                                     "minimized": r.minimized} for r in runs]}, f, indent=1)
    broken = sum(counts(r.records).get(s, 0) for r in runs for s in BROKEN)
    return 0 if clean and not broken else 1


if __name__ == "__main__":
    sys.exit(main())
