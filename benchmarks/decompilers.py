"""Decompilers side by side on one corpus, each output judged by unpyc's
round-trip oracle: unpyc, pycdc, depyf, decompyle3 and uncompyle6, with
CPython's compile() and marshal.loads as references.

    .venv/bin/python benchmarks/decompilers.py [--pycdc-src DIR] [--sample N]
        [--rows ROW,...] [--versions 3.11,3.8] [--function-timeout S]
        [--results FILE] [--profile K]

The corpus: the standard library of CPython 3.11 (tests included), compiled
by 3.11 into .pyc files in a folder of the run's own; for the tools that stop
at 3.8 (decompyle3, uncompyle6) the 3.8 standard library, with unpyc, pycdc
and the references beside them.  --sample N takes N modules (spread
evenly over the sorted list), for quick runs.

The peers come from PyPI, each into a venv of its own under build/bench/
(depyf 0.20.0 in a 3.11 venv; decompyle3 and uncompyle6 in a 3.8 venv made
from pyenv's 3.8).  pycdc has no package: it is built with cmake from the
source checkout given as --pycdc-src; without one its rows are left out (said
below the table).  The unpyc rows use the build installed in the running
Python (scripts/setup.sh).

Rows (--rows picks some):
  unpyc-cli        the unpyc command, one process per module, --no-verify
  unpyc-api        unpyc.decompile(module code, verify=False), in process
  unpyc-functions  unpyc.decompile of each code object below a module alone
  pycdc            pycdc FILE.pyc, one process per module
  depyf            depyf.decompile of each code object alone (3.11 only)
  decompyle3       decompyle3.main.decompile of the module code (3.8 only)
  uncompyle6       uncompyle6.main.decompile of the module code (3.8 only)
  compile          compile() of the module's source (reference)
  marshal          marshal.loads of the .pyc's code (reference)

Every Python tool runs in worker processes of its interpreter fed one item
at a time; an item taking longer than its limit (--function-timeout for one
function, --module-timeout for one module) has its worker killed and counts
as a timeout, at the limit, instead of being waited for.  Times are CPU
seconds (time.process_time in a worker, the rusage of a process per module):
the machine may be shared, and CPU time is what other load disturbs least.
A function is timed twice: cold, the first call, made after the oracle judged
the previous item (its compile() and comparisons leave the caches full of
other data), and warm, the same call repeated at once (made only when the
cold one took under WARM_BELOW seconds; the column says how many were).
Peak memory: for a process per module, the median and largest peak RSS
(GNU time's); for workers, the largest peak RSS (VmHWM) a worker had, its
interpreter and the tool's imports included.  Equivalence: the output of
that same run compiled by the corpus's interpreter and compared by
unpyc.roundtrip (roundtrip_code for a module's source, roundtrip_function
for a function alone), per code object below the modules and per module.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import marshal
import os
import re
import resource
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from types import CodeType
from typing import IO, Any, Callable, Deque, Dict, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BUILD = os.path.join(REPO, "build", "bench")
PEERS = {"3.11": ["depyf==0.20.0"], "3.8": ["decompyle3==3.9.3", "uncompyle6==3.9.3"]}
ROWS = ("unpyc-cli", "unpyc-api", "unpyc-functions", "pycdc", "depyf", "decompyle3",
        "uncompyle6", "compile", "marshal")
PEER_VERSION = {"depyf": "3.11", "decompyle3": "3.8", "uncompyle6": "3.8"}
REFERENCE = "reference"
# A function's warm call is made only when its cold call took less: a
# repeat of a slow one would bring it near its time limit.
WARM_BELOW = 0.5
Item = Dict[str, Any]
Result = Dict[str, Any]


# ------------------------------------------------------------------ worker
# `decompilers.py --worker TOOL` runs under the corpus's interpreter: it
# reads one JSON item a line, times the tool on it, judges the output with
# the oracle (untimed) and writes one JSON result a line.


def _module_code(pyc: str) -> CodeType:
    with open(pyc, "rb") as f:
        code = marshal.loads(f.read()[16:])
    assert isinstance(code, CodeType)
    return code


def _decompyle(package: str) -> Callable[[CodeType], str]:
    import io

    decompile = importlib.import_module(package + ".main").decompile

    def run(code: CodeType) -> str:
        out = io.StringIO()
        decompile(code, bytecode_version=sys.version_info[:2], out=out)
        return out.getvalue()
    return run


def _tool(name: str) -> Callable[[CodeType], str]:
    """The decompiler a worker times: code object -> source."""
    if name == "unpyc":
        import unpyc
        return lambda code: unpyc.decompile(code, verify=False)
    if name == "depyf":
        depyf = importlib.import_module("depyf")  # in the peers' venv only
        return lambda code: str(depyf.decompile(code))
    return _decompyle(name)


class _Judge:
    """unpyc's oracle on one tool's outputs, with the module's symbol table
    and code objects kept while items of one module follow each other."""

    def __init__(self) -> None:
        self.pyc = ""
        self.module: Optional[CodeType] = None
        self.functions: Dict[str, CodeType] = {}
        self.table: Any = None

    def load(self, item: Item) -> CodeType:
        if item["pyc"] != self.pyc:
            from unpyc.roundtrip import code_objects
            self.pyc, self.module, self.table = item["pyc"], _module_code(item["pyc"]), None
            self.functions = dict(code_objects(self.module))
        assert self.module is not None
        return self.functions[item["key"]] if "key" in item else self.module

    def module_result(self, item: Item, text: Optional[str], failure: str) -> Result:
        from unpyc.roundtrip import roundtrip_code

        def given(_code: CodeType) -> str:
            if text is None:
                raise RuntimeError(failure)
            return text
        result = roundtrip_code(self.load(item), item["source"], decompile=given)
        return {"module": result.status, "functions": [f.status for f in result.functions]}

    def function_result(self, item: Item, text: Optional[str], failure: str) -> Result:
        import symtable
        from unpyc.roundtrip import roundtrip_function

        def given(_code: CodeType) -> str:
            if text is None:
                raise RuntimeError(failure)
            return text
        code = self.load(item)
        if self.table is None:
            with open(item["source"], "rb") as f:
                source = importlib.util.decode_source(f.read())  # its coding cookie
            self.table = symtable.symtable(source, item["source"], "exec")
        qualname = re.sub(r"\[\d+\]$", "", item["key"])
        result = roundtrip_function(code, decompile=given, qualname=qualname, module=self.table)
        return {"module": None, "functions": [result.status]}


def _timed(action: Callable[[], Any]) -> Tuple[Any, float, str]:
    """action's value (None when it raised), its CPU seconds, the error."""
    started = time.process_time()
    try:
        value = action()
        error = ""
    except Exception as e:  # a decompiler's failure is a result, not a crash
        value, error = None, "%s: %s" % (type(e).__name__, str(e).strip()[:200])
    return value, time.process_time() - started, error


def _work_item(tool: str, item: Item, judge: _Judge,
               decompile: Optional[Callable[[CodeType], str]]) -> Result:
    if tool == "judge":  # the output of a process per module, in a file
        text = None
        if os.path.getsize(item["out"]):
            with open(item["out"], encoding="utf-8", errors="replace") as f:
                text = f.read()
        return judge.module_result(item, text, item.get("failure") or "no output")
    if tool == "compile":
        with open(item["source"], "rb") as f:
            source = f.read()
        _, seconds, error = _timed(lambda: compile(source, item["source"], "exec",
                                                   dont_inherit=True))
        return {"seconds": seconds, "module": REFERENCE, "functions": [], "error": error}
    if tool == "marshal":
        with open(item["pyc"], "rb") as f:
            data = f.read()
        _, seconds, error = _timed(lambda: marshal.loads(data[16:]))
        return {"seconds": seconds, "module": REFERENCE, "functions": [], "error": error}
    assert decompile is not None
    code = judge.load(item)
    text, seconds, error = _timed(lambda: decompile(code))
    warm = _warm_seconds(decompile, code) if "key" in item and seconds < WARM_BELOW else None
    verdict = (judge.function_result if "key" in item else judge.module_result)(
        item, text, error)
    verdict.update(seconds=seconds, error=error, warm_seconds=warm)
    return verdict


def _warm_seconds(decompile: Callable[[CodeType], str], code: CodeType) -> float:
    """The same function decompiled again at once: the CPU time of a call
    whose code and data are in the caches (the timed call above comes after
    the oracle judged the previous item, its compile() and comparisons having
    evicted them: the cold time)."""
    return _timed(lambda: decompile(code))[1]


def _peak_kib() -> int:
    """This process's peak RSS since it became this program: VmHWM, as
    ru_maxrss counts the memory of the parent it was vforked from."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def worker(tool: str) -> int:
    """Serves items on stdin; the tools' own printing goes to /dev/null so
    that stdout carries only results."""
    results = os.fdopen(os.dup(1), "w")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.stdout = open(os.devnull, "w")
    judge = _Judge()
    decompile = None if tool in ("judge", "compile", "marshal") else _tool(tool)
    for line in sys.stdin:
        result = _work_item(tool, json.loads(line), judge, decompile)
        result["maxrss_kb"] = _peak_kib()
        results.write(json.dumps(result) + "\n")
        results.flush()
    return 0


def corpus(out_dir: str, sample: int) -> int:
    """Compiles this interpreter's standard library into out_dir; prints
    the manifest (source, .pyc, size, code object keys) as JSON."""
    import ast
    import py_compile
    import sysconfig
    import warnings

    from unpyc.roundtrip import _def_lines, code_objects, python_sources
    stdlib = sysconfig.get_paths()["stdlib"]
    sources = python_sources(stdlib)
    if sample and sample < len(sources):  # evenly spread over the sorted list
        sources = [sources[i * len(sources) // sample] for i in range(sample)]
    manifest = []
    for source in sources:
        rel = os.path.relpath(source, stdlib)
        pyc = os.path.join(out_dir, rel + "c")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                py_compile.compile(source, cfile=pyc, doraise=True,
                                   invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        except (py_compile.PyCompileError, UnicodeDecodeError, ValueError):
            continue  # not Python 3 source (lib2to3's test data and the like)
        functions = code_objects(_module_code(pyc))
        with open(source, "rb") as f:
            defs = _def_lines(ast.parse(f.read()))
        manifest.append({
            "rel": rel, "source": source, "pyc": pyc, "size": os.path.getsize(pyc),
            "keys": [key for key, _ in functions],
            # What a function alone is judged on, as `python -m unpyc.roundtrip
            # --sample` does: functions of def statements whose free variables
            # the oracle's scaffolding can assign (lambdas, comprehensions and
            # class bodies only make sense inside their parent).
            "defs": [key for key, code in functions
                     if (code.co_name, code.co_firstlineno) in defs
                     and all(name.isidentifier() for name in code.co_freevars)]})
    print(json.dumps(manifest))
    return 0


# ------------------------------------------------------------------- pool


class _Worker:
    """One worker process and what it has sent back so far."""

    def __init__(self, argv: List[str], env: Dict[str, str], log: IO[str]) -> None:
        self.proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=log)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin, self.fd = self.proc.stdin, self.proc.stdout.fileno()
        self.buffer = b""

    def send(self, item: Item) -> None:
        self.stdin.write((json.dumps(item) + "\n").encode())
        self.stdin.flush()

    def read(self) -> Optional[Result]:
        """The result if a whole line is in; {} when the worker died."""
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            return {}
        self.buffer += chunk
        if b"\n" not in self.buffer:
            return None
        line, self.buffer = self.buffer.split(b"\n", 1)
        result: Result = json.loads(line)
        return result

    def stop(self, kill: bool) -> None:
        if kill:
            self.proc.kill()
        else:
            self.stdin.close()
        self.proc.wait()


def run_pool(argv: List[str], env: Dict[str, str], items: Sequence[Item], jobs: int,
             timeout: float, log: IO[str]) -> Tuple[List[Result], int]:
    """items through `jobs` workers; an item over timeout kills its worker
    and gets {"failure": "timeout"} (a dead worker: "crash").  Returns the
    results in order and the largest peak memory a worker reported, in KiB
    (a killed worker's last report)."""
    results: List[Result] = [{} for _ in items]
    pending: Deque[int] = deque(range(len(items)))
    idle = [_Worker(argv, env, log) for _ in range(min(jobs, len(items)))]
    busy: Dict[_Worker, Tuple[int, float]] = {}
    peak = 0
    while pending or busy:
        while idle and pending:
            worker_, index = idle.pop(), pending.popleft()
            worker_.send(items[index])
            busy[worker_] = (index, time.monotonic() + timeout)
        wait = min(deadline for _, deadline in busy.values()) - time.monotonic()
        ready, _, _ = select.select([w.fd for w in busy], [], [], max(0.0, wait))
        for worker_, (index, deadline) in list(busy.items()):
            result = worker_.read() if worker_.fd in ready else None
            if result is None and time.monotonic() < deadline:
                continue
            del busy[worker_]
            if result:
                results[index] = result
                peak = max(peak, int(result["maxrss_kb"]))
                idle.append(worker_)
                continue
            results[index] = {"failure": "crash" if result == {} else "timeout",
                              "seconds": timeout}
            worker_.stop(kill=True)
            idle.append(_Worker(argv, env, log))
    for worker_ in idle:
        worker_.stop(kill=False)
    return results, peak


def run_process(argv: List[str], out_path: str, timeout: float) -> Result:
    """One process per module, stdout to out_path: its CPU seconds (user +
    system) and wall seconds; a process over timeout is killed."""
    with open(out_path, "wb") as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err)
        lock, reaped = threading.Lock(), [False]

        def kill() -> None:
            with lock:
                if not reaped[0]:
                    proc.kill()
        timer = threading.Timer(timeout, kill)
        timer.start()
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
        with lock:
            reaped[0] = True
        timer.cancel()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        message = err.read().decode("utf-8", "replace").strip().splitlines()
    failure = ""
    if proc.returncode == -signal.SIGKILL:
        failure = "timeout"
    elif proc.returncode != 0:
        failure = "exit %d: %s" % (proc.returncode, message[-1] if message else "")
    return {"seconds": usage.ru_utime + usage.ru_stime, "wall": wall, "failure": failure}


# ------------------------------------------------------------ measuring


@dataclass
class Corpus:
    sampled: bool
    version: str
    python: str          # the interpreter that compiled it (and judges)
    env: Dict[str, str]  # its environment: unpyc importable
    modules: List[Item]


@dataclass
class Row:
    name: str
    version: str
    unit: str  # "module" or "function"
    results: List[Result]
    peak_kb: List[int] = field(default_factory=list)  # per module, or one per row
    per_process: bool = False
    start_seconds: float = 0.0  # a process per module: its CPU on an empty module


def _pyenv_python(version: str) -> Optional[str]:
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = sorted(
        (os.path.join(root, "versions", name, "bin", "python3")
         for name in (os.listdir(os.path.join(root, "versions"))
                      if os.path.isdir(os.path.join(root, "versions")) else [])
         if name.startswith(version + ".")),
        key=lambda path: int(path.split(os.sep)[-3].split(".")[2]))
    return found[-1] if found else None


def unpyc_path() -> str:
    """A folder with a copy of the installed unpyc package (its engine is
    abi3: the same build serves 3.8), for other interpreters' PYTHONPATH."""
    import unpyc
    target = os.path.join(BUILD, "unpyc-path")
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(os.path.dirname(unpyc.__file__), os.path.join(target, "unpyc"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    return target


def peer_python(version: str, log: IO[str]) -> Optional[str]:
    """build/bench/venv-VERSION with that version's peers installed (pip,
    from PyPI); None when the interpreter or the install is missing."""
    venv = os.path.join(BUILD, "venv-" + version)
    python = os.path.join(venv, "bin", "python")
    base = sys.executable if version == "3.11" else _pyenv_python(version)
    if base is None:
        return None
    if not os.path.exists(python):
        subprocess.run([base, "-m", "venv", venv], check=True, stdout=log, stderr=log)
    done = subprocess.run([python, "-m", "pip", "install", "--quiet"] + PEERS[version],
                          stdout=log, stderr=log)
    return python if done.returncode == 0 else None


def build_pycdc(source: str, log: IO[str]) -> str:
    """pycdc built with cmake (Release) from its source checkout."""
    build = os.path.join(BUILD, "pycdc-build")
    subprocess.run(["cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release"],
                   check=True, stdout=log, stderr=log)
    subprocess.run(["cmake", "--build", build, "--target", "pycdc", "-j", "2"],
                   check=True, stdout=log, stderr=log)
    return os.path.join(build, "pycdc")


def make_corpus(version: str, python: str, env: Dict[str, str], sample: int,
                work: str) -> Corpus:
    out_dir = os.path.join(work, "pyc-" + version)
    proc = subprocess.run([python, os.path.abspath(__file__), "--corpus", out_dir,
                           "--sample", str(sample)], env=env, capture_output=True,
                          text=True, check=True)
    return Corpus(bool(sample), version, python, env, json.loads(proc.stdout))


def function_items(modules: Sequence[Item]) -> List[Item]:
    return [{"pyc": m["pyc"], "source": m["source"], "key": key}
            for m in modules for key in m["defs"]]


def run_worker_row(name: str, tool: str, python: str, env: Dict[str, str], corpus_: Corpus,
                   unit: str, args: argparse.Namespace, log: IO[str]) -> Row:
    items = (function_items(corpus_.modules) if unit == "function"
             else [{"pyc": m["pyc"], "source": m["source"]} for m in corpus_.modules])
    timeout = args.function_timeout if unit == "function" else args.module_timeout
    print("%s %s: %d %ss" % (corpus_.version, name, len(items), unit), file=sys.stderr)
    results, peak = run_pool([python, os.path.abspath(__file__), "--worker", tool], env,
                             items, args.jobs, timeout, log)
    if unit == "module":
        for result, module in zip(results, corpus_.modules):
            _mark_failed(result, module)
    return Row(name, corpus_.version, unit, results, [peak])


def _mark_failed(result: Result, module: Item) -> None:
    """A module whose worker was killed or died: each of its code objects
    counts as that failure."""
    if "module" not in result:
        result["module"] = result["failure"]
        result["functions"] = [result["failure"]] * len(module["keys"])


def run_process_row(name: str, command: List[str], corpus_: Corpus,
                    args: argparse.Namespace, work: str, log: IO[str]) -> Row:
    """A command run once per module; then its outputs judged by the
    corpus's interpreter."""
    out_dir = os.path.join(work, "out", corpus_.version, name)
    print("%s %s: %d modules" % (corpus_.version, name, len(corpus_.modules)), file=sys.stderr)
    results, judged = [], []
    for number, module in enumerate(corpus_.modules):
        out = os.path.join(out_dir, "%05d.py" % number)
        os.makedirs(out_dir, exist_ok=True)
        result = run_process(command + [module["pyc"]], out, args.module_timeout)
        results.append(result)
        judged.append({"pyc": module["pyc"], "source": module["source"], "out": out,
                       "failure": result["failure"]})
    verdicts, _ = run_pool([corpus_.python, os.path.abspath(__file__), "--worker", "judge"],
                           corpus_.env, judged, args.jobs, args.module_timeout, log)
    for result, verdict, module in zip(results, verdicts, corpus_.modules):
        _mark_failed(verdict, module)
        result.update(module=verdict["module"], functions=verdict["functions"])
    peaks = [peak_rss(command + [module["pyc"]], args.module_timeout)
             for module in corpus_.modules]
    start = min(float(run_process(command + [empty_pyc(work)], os.devnull, 10)["seconds"])
                for _ in range(5))
    return Row(name, corpus_.version, "module", results, peaks, True, start)


def peak_rss(argv: List[str], timeout: float) -> int:
    """argv's peak RSS in KiB, as GNU time reports it: the rusage of a
    process started by this one would count this one's memory, shared with
    it until exec (vfork)."""
    with tempfile.NamedTemporaryFile("r") as report:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
        return int(report.read().split()[-1])


# ---------------------------------------------------------------- tables


def _percent(statuses: Sequence[Optional[str]]) -> str:
    if not statuses:
        return "-"
    equivalent = sum(1 for status in statuses if status == "equivalent")
    return "%.1f%% (%d/%d)" % (100.0 * equivalent / len(statuses), equivalent, len(statuses))


def _mib(kib: float) -> str:
    return "%.1f MiB" % (kib / 1024)


def row_cells(row: Row) -> List[str]:
    """The table's cells for one row (see table() for the columns)."""
    seconds = [float(r.get("seconds", 0.0)) for r in row.results]
    reference = bool(row.results) and row.results[0].get("module") == REFERENCE
    failures = [r.get("failure") or r.get("error") for r in row.results]
    timeouts = sum(1 for f in failures if f == "timeout")
    errors = sum(1 for f in failures if f and f != "timeout")
    if row.per_process:
        memory = "%s (max %s)" % (_mib(statistics.median(row.peak_kb)), _mib(max(row.peak_kb)))
    else:
        memory = "%s (worker)" % _mib(max(row.peak_kb))
    modules = "-" if reference or row.unit == "function" else _percent(
        [r.get("module") for r in row.results])
    functions: List[Optional[str]] = [s for r in row.results for s in r.get("functions", [])]
    if row.unit == "function":
        functions = [(r.get("functions") or [r.get("failure")])[0] for r in row.results]
    warm = [float(r["warm_seconds"]) for r in row.results if r.get("warm_seconds") is not None]
    return [row.name, "%d %ss" % (len(row.results), row.unit), "%.3f" % sum(seconds),
            "%.3f" % (1e3 * statistics.median(seconds)),
            "%.3f (%d)" % (1e3 * statistics.median(warm), len(warm)) if warm else "-",
            memory, modules,
            "-" if reference else _percent(functions), "%d / %d" % (timeouts, errors)]


def table(rows: Sequence[Row]) -> str:
    lines = ["| Python | tool | items | total CPU s | median CPU ms per item (cold) "
             "| median CPU ms per function, warm (functions timed) | peak memory "
             "| modules equivalent | functions equivalent | timeouts / failed runs |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        lines.append("| %s | %s |" % (row.version, " | ".join(row_cells(row))))
    return "\n".join(lines)


def _total(row: Optional[Row]) -> float:
    return sum(float(r.get("seconds", 0.0)) for r in row.results) if row else 0.0


def _work(row: Optional[Row]) -> float:
    """The total less a process start per module (0 for workers)."""
    return max(0.0, _total(row) - len(row.results) * row.start_seconds) if row else 0.0


def _median(row: Optional[Row]) -> float:
    return statistics.median(float(r.get("seconds", 0.0)) for r in row.results) if row else 0.0


def _warm_median(row: Optional[Row]) -> float:
    warm = [float(r["warm_seconds"]) for r in row.results
            if r.get("warm_seconds") is not None] if row else []
    return statistics.median(warm) if warm else 0.0


def memory_target(cli: Row, corpus_: Corpus, baseline_kb: int, command: str,
                  work: str) -> str:
    """Peak memory per module against its .pyc size, the issue's target:
    what the unpyc command holds for the module (`--memory-stats`, see
    benchmarks/memory.py: the engine's peak, counted by the engine, and the
    .pyc read in) less what it holds for an empty module.  Then the CLI's
    peak RSS less an empty module's, which is not that measure: page-grained,
    the command's code pages included (more of them the more of the engine
    a module runs), and +-100 KiB between two runs of one file."""
    sys.path.insert(0, HERE)
    from memory import memory_stats  # pylint: disable=import-outside-toplevel

    def held(pyc: str) -> int:
        found = memory_stats(command, pyc)
        return found["engine"] + found["input"]
    empty = held(empty_pyc(work))
    ratios = [(held(m["pyc"]) - empty) / m["size"] for m in corpus_.modules]
    over = sum(1 for ratio in ratios if ratio >= 10)
    rss = [max(0, peak - baseline_kb) * 1024 / m["size"]
           for peak, m in zip(cli.peak_kb, corpus_.modules)]
    return ("peak memory per module (what the unpyc command holds for it: the engine's "
            "peak and the .pyc read in, less %d B for an empty module) / .pyc size: median "
            "%.1fx, largest %.1fx; %d of %d modules at 10x or more: %s (the median module "
            "%s); by the CLI's peak RSS less %s for an empty module (page-grained, code pages "
            "included): median %.1fx, largest %.1fx" % (
                empty, statistics.median(ratios), max(ratios), over, len(ratios),
                "met" if over == 0 else "NOT met for all",
                "under 10x" if statistics.median(ratios) < 10 else "over 10x",
                _mib(baseline_kb), statistics.median(rss), max(rss)))


def targets(rows: Sequence[Row], corpora: Dict[str, Corpus], baseline_kb: int,
            command: str, work: str) -> List[str]:
    """The issue's targets, each with its figure and whether it is met."""
    found = {(row.version, row.name): row for row in rows}
    lines = []
    api, compiled = found.get(("3.11", "unpyc-api")), found.get(("3.11", "compile"))
    if api and compiled:
        ratio = _total(api) / _total(compiled)
        cli = found.get(("3.11", "unpyc-cli"))
        lines.append("unpyc / compile() on the 3.11 stdlib (total CPU, API): %.2f, target "
                     "<= 0.25: %s%s" % (ratio, "met" if ratio <= 0.25 else "NOT met",
                                        "; the CLI: %.2f, and %.2f less its process start" % (
                                            _total(cli) / _total(compiled),
                                            _work(cli) / _total(compiled)) if cli else ""))
    pairs = (("unpyc-functions", "depyf", 50, "per function"),
             ("unpyc-cli", "pycdc", 10, "per module (CLI against pycdc, both a process "
              "per module)"))
    for ours, theirs, goal, what in pairs:
        mine, peer = found.get(("3.11", ours)), found.get(("3.11", theirs))
        if mine and peer:
            ratio = _median(peer) / _median(mine)
            finished = sum(float(r["seconds"]) for r in peer.results
                           if r.get("failure") != "timeout")
            lines.append("%s faster than %s %s: %.1fx by medians, %.1fx by totals (%.1fx "
                         "leaving out its timeouts); target >= %dx: %s" % (
                             ours, theirs, what, ratio, _total(peer) / _total(mine),
                             finished / _total(mine), goal, "met" if ratio >= goal else "NOT met"))
            warm_ratio = _warm_median(peer) / max(_warm_median(mine), 1e-12)
            if warm_ratio:
                lines.append("the same by warm medians (each function decompiled a second "
                             "time at once, both tools): %.1fx" % warm_ratio)
            if mine.per_process and peer.per_process:
                lines.append("the same less each command's CPU on an empty module (%.2f ms for "
                             "%s, %.2f ms for %s: process start and exit): %.1fx by totals" % (
                                 1e3 * mine.start_seconds, ours, 1e3 * peer.start_seconds,
                                 theirs, _work(peer) / max(_work(mine), 1e-9)))
    cli = found.get(("3.11", "unpyc-cli"))
    if cli and baseline_kb:
        lines.append(memory_target(cli, corpora["3.11"], baseline_kb, command, work))
    return lines


def empty_pyc(work: str) -> str:
    """The .pyc of an empty module: what a process per module costs by
    itself (start, exit)."""
    import py_compile
    source = os.path.join(work, "empty.py")
    if not os.path.exists(source + "c"):
        with open(source, "w") as f:
            f.write("")
        py_compile.compile(source, cfile=source + "c", doraise=True)
    return source + "c"


def empty_module_peak(cli: str, work: str) -> int:
    """The unpyc command's peak RSS on an empty module, the least of 3."""
    return min(peak_rss([cli, "--no-verify", empty_pyc(work)], 10) for _ in range(3))


# -------------------------------------------------------------- profile


def cli_with_symbols(log: IO[str]) -> str:
    """The unpyc command built as the package builds it (Release) plus -g,
    so that callgrind names its functions (the installed one is stripped)."""
    build = os.path.join(BUILD, "cli-symbols")
    subprocess.run(["cmake", "-S", REPO, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                    "-DCMAKE_C_FLAGS=-g"], check=True, stdout=log, stderr=log)
    subprocess.run(["cmake", "--build", build, "--target", "unpyc_cli", "-j", "2"],
                   check=True, stdout=log, stderr=log)
    return os.path.join(build, "unpyc")


def profile(cli: str, corpus_: Corpus, count: int, work: str) -> str:
    """callgrind on the unpyc command over the `count` biggest .pyc files
    of the corpus: the functions with the most instructions of their own
    (self cost), as a Markdown table."""
    biggest = sorted(corpus_.modules, key=lambda m: -m["size"])[:count]
    totals: Dict[str, int] = {}
    grand = 0
    for number, module in enumerate(biggest):
        out = os.path.join(work, "callgrind.%d" % number)
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                        cli, "--no-verify", module["pyc"]], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)  # exit 9: parts marked, still profiled
        annotated = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no", out],
                                   capture_output=True, text=True, check=True).stdout
        for line in annotated.splitlines():
            match = re.match(r"^\s*([\d,]+) \([^)]*\)\s+(\S.*?)\s*$", line)
            if not match:
                continue
            cost, where = int(match.group(1).replace(",", "")), match.group(2)
            if "PROGRAM TOTALS" in where:
                grand += cost
            else:
                name = re.sub(r"'\d+$", "", where.split(":")[-1].split(" ")[0])
                totals[name] = totals.get(name, 0) + cost
    lines = ["| function | % of instructions |", "|---|---|"]
    for name, cost in sorted(totals.items(), key=lambda kv: -kv[1])[:15]:
        lines.append("| %s | %.1f%% |" % (name, 100.0 * cost / max(grand, 1)))
    names = ", ".join("%s (%d KiB)" % (m["rel"], m["size"] // 1024) for m in biggest)
    return ("`valgrind --tool=callgrind unpyc --no-verify` on the %d biggest .pyc files of the "
            "3.11 stdlib (%s); self cost per function, summed over the files, %d instructions "
            "in all:\n\n%s" % (count, names, grand, "\n".join(lines)))


# ----------------------------------------------------------------- main


def measure(args: argparse.Namespace, work: str,
            log: IO[str]) -> Tuple[str, List[str], Optional[str]]:
    """Runs the rows asked for: the Markdown table, the notes below it and
    the profile (with --profile)."""
    wanted = args.rows.split(",")
    notes: List[str] = []
    cli = shutil.which("unpyc", path=os.path.dirname(sys.executable))
    if cli is None:
        raise SystemExit("the unpyc command is not installed next to " + sys.executable)
    pycdc = None
    if "pycdc" in wanted:
        if args.pycdc_src:
            pycdc = build_pycdc(os.path.abspath(args.pycdc_src), log)
        else:
            notes.append("pycdc: not measured, no source checkout given (--pycdc-src DIR).")
    rows: List[Row] = []
    corpora: Dict[str, Corpus] = {}
    path = unpyc_path()
    for version in args.versions.split(","):
        peer_rows = [row for row in wanted if PEER_VERSION.get(row) == version]
        peer = peer_python(version, log) if peer_rows else None
        for row in peer_rows if peer is None else []:
            notes.append("%s: not measured, its venv or install failed (see %s)." % (
                row, log.name))
        python = sys.executable if version == "3.11" else peer or _pyenv_python(version)
        env = dict(os.environ) if version == "3.11" else dict(os.environ, PYTHONPATH=path)
        if not python:
            notes.append("Python %s: not installed, its rows are left out." % version)
            continue
        sample = args.sample_38 if version == "3.8" and args.sample_38 is not None else args.sample
        corpus_ = corpora[version] = make_corpus(version, python, env, sample, work)
        for row in wanted:
            if row == "unpyc-cli":
                rows.append(run_process_row(row, [cli, "--no-verify"], corpus_, args, work, log))
            elif row == "pycdc" and pycdc:
                rows.append(run_process_row(row, [pycdc], corpus_, args, work, log))
            elif row in ("unpyc-api", "compile", "marshal"):
                tool = "unpyc" if row == "unpyc-api" else row
                rows.append(run_worker_row(row, tool, python, env, corpus_, "module", args, log))
            elif row == "unpyc-functions" and version == "3.11":
                rows.append(run_worker_row(row, "unpyc", python, env, corpus_, "function",
                                           args, log))
            elif row in peer_rows and peer:
                unit = "function" if row == "depyf" else "module"
                peer_env = dict(os.environ, PYTHONPATH=path)
                rows.append(run_worker_row(row, row, peer, peer_env, corpus_, unit, args, log))
    baseline = empty_module_peak(cli, work) if "unpyc-cli" in wanted else 0
    notes = targets(rows, corpora, baseline, cli, work) + notes + [
        "Failed runs: a command that exited with an error (the unpyc command exits 9 when it "
        "marked parts as not recovered; its output is judged all the same) or a Python "
        "decompiler that raised; a timeout counts at its limit in the times.",
        "Peak memory of a worker: its interpreter, the tool's imports and the oracle judging "
        "in it included (the marshal row shows what the interpreter alone takes)."]
    for version, corpus_ in corpora.items():
        notes.append("Corpus %s: %d modules, %d code objects below them (%d functions of def "
                     "statements, what functions alone are judged on), %.1f MiB of .pyc%s." % (
            version, len(corpus_.modules), sum(len(m["keys"]) for m in corpus_.modules),
            sum(len(m["defs"]) for m in corpus_.modules),
            sum(m["size"] for m in corpus_.modules) / 2 ** 20,
            " (a sample spread evenly over the sorted module list)" if corpus_.sampled else ""))
    profiled = None
    if args.profile and "3.11" in corpora:
        profiled = profile(cli_with_symbols(log), corpora["3.11"], args.profile, work)
    return table(rows), notes, profiled


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pycdc-src", help="pycdc's source checkout (built with cmake)")
    parser.add_argument("--sample", type=int, default=0, help="about N modules (0: all)")
    parser.add_argument("--sample-3.8", type=int, dest="sample_38", metavar="N",
                        help="about N modules of 3.8 (default: as --sample); decompyle3 and "
                        "uncompyle6 take ~0.3 s a module")
    parser.add_argument("--rows", default=",".join(ROWS))
    parser.add_argument("--versions", default="3.11,3.8")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes per tool")
    parser.add_argument("--function-timeout", type=float, default=10.0)
    parser.add_argument("--module-timeout", type=float, default=120.0)
    parser.add_argument("--results", default=os.path.join(HERE, "RESULTS.md"))
    parser.add_argument("--profile", type=int, default=0, metavar="K",
                        help="callgrind on the CLI over the K biggest modules (a Profile section)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--corpus", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.worker)
    if args.corpus:
        return corpus(args.corpus, args.sample)
    sys.path.insert(0, HERE)
    from results_file import machine, write_section
    started = machine()
    os.makedirs(BUILD, exist_ok=True)
    with tempfile.TemporaryDirectory() as work, \
            open(os.path.join(BUILD, "decompilers.log"), "w") as log:
        body, notes, profiled = measure(args, work, log)
    text = "%s\n\n%s\n\nMachine: %s at the start; at the end: load average %.1f.\n" % (
        body, "\n".join("- " + note for note in notes), started, os.getloadavg()[0])
    text += "\nMade by `%s`.\n" % " ".join(
        ["benchmarks/decompilers.py"] + list(argv if argv is not None else sys.argv[1:]))
    print(text)
    write_section("Decompilers", text, args.results)
    if profiled:
        print(profiled)
        write_section("Profile of the unpyc command", profiled, args.results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
