"""Recording what torch.compile does in a prepare_debug (or debug) block.

The explorer's hooks (explorer._recording wires them through _torch_hooks)
call a Recorder: on_bytecode for each frame Dynamo compiles, on_trace for
each structured-trace event, on_guards_checked when compiled code is about
to run, and under debug() route_graph_code / route_inductor_module when
torch compiles graph code or loads an Inductor module.  The Recorder keeps
what it learns (functions, cache entries, graph names, reasons, guard
trees) and has the dump's files written as it happens: DumpFiles writes
them, _transformed_code, _full_code and _report make their text.
"""

from __future__ import annotations

import dis
import gc
import hashlib
import io
import threading
import types
import warnings
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

import unpyc

from . import _torch_hooks as hooks
from ._torch_hooks import COMPILED_FN_PREFIX, RESUME_GLOBAL_PREFIX
from ._dump_files import AOT_STAGES, DumpFiles, DumpWarning, commented, inductor_stage
from ._dump_files import forward_parameters
from ._dump_names import NAMES_FILE, NameMap
from ._dump_names import unique_id_number
from ._full_code import cache_entry, full_code
from ._objects import identifier
from ._report import index_html
from ._transformed_code import code_from_file, renamed_def, transformed_text
from .errors import UnpycError

# The trace events that end a compile: Dynamo's of a frame (its transformed
# code, graphs, reasons and guard tree are known by then) and AOTAutograd's
# of a backward graph compiled on its first use.
_COMPILE_END_EVENTS = ("compilation_metrics", "bwd_compilation_metrics")


@dataclass
class Entry:
    """One compile of a code object: its transformed code and what it calls."""

    index: int
    compile_id: Optional[str]
    file_name: str
    source: str  # the def statement as written in the file
    graph_names: List[str]
    resume_names: List[str]
    codes: List[types.CodeType]  # Dynamo's transformed code and what replaced it
    equivalent: bool  # whether source recompiles to Dynamo's bytecode
    # Whether debug() runs source: equivalent, or with the same effects
    # (KEPT_STACK_NOTE); else it runs Dynamo's bytecode, listed in the file.
    runs_source: bool


@dataclass
class Compile:
    """What the structured trace says of one compile (a compile id)."""

    graph_names: List[str] = field(default_factory=list)  # __compiled_fn_*, dump's names
    # Graph events that came before the compile's graph names were known.
    waiting_graphs: List[hooks.TraceEvent] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)  # graph-break and recompile reasons
    guard_tree: str = ""  # the C++ guard tree torch checks
    # Compile-end event kind -> the time of each phase.
    phase_times: Dict[str, List[hooks.PhaseTime]] = field(default_factory=dict)


@dataclass
class Function:
    """A code object Dynamo compiled: a user function or a resume function."""

    code: types.CodeType
    stem: str
    is_resume: bool
    globals: Optional[Dict[str, Any]]
    entries: List[Entry] = field(default_factory=list)


def _function_globals(code: types.CodeType) -> Optional[Dict[str, Any]]:
    """The globals of a function whose code is code: Dynamo installs resume
    functions and compiled graphs there, and the bytecode hook does not
    pass them.  Those of the frame Dynamo is compiling when its code is
    code (always so where the explorer meets a new function); else those
    of a function found among the objects referring to code, a walk over
    every object of the process (slow, but exact)."""
    found = hooks.globals_of_frame_being_compiled(code)
    if found is not None:
        return found
    for referrer in gc.get_referrers(code):
        if isinstance(referrer, types.FunctionType) and referrer.__code__ is code:
            return referrer.__globals__
    return None


class Recorder:
    """What one prepare_debug (or debug) block records and writes."""

    def __init__(self, dump_dir: Path, run_from_files: bool, log_bytecode: bool = False) -> None:
        self.files = DumpFiles(dump_dir, run_from_files)
        self.run_from_files = run_from_files
        self.log_bytecode = log_bytecode
        self.functions: Dict[types.CodeType, Function] = {}
        self.stems: Set[str] = set()
        # The dump's name of each resume function global -> its function.
        self.resume_functions: Dict[str, Function] = {}
        self.compiles: Dict[str, Compile] = {}  # compile id -> what the trace says
        self.routed_modules: "weakref.WeakKeyDictionary[Any, str]" = (
            weakref.WeakKeyDictionary())  # graph module -> its file
        # Graph name -> the compile id that loaded it from AOTAutograd's cache.
        self.aot_cache_hits: Dict[str, str] = {}
        # Entries whose guards torch has not listed yet: it adds a cache
        # entry only after the compile has returned.
        self.unlisted: List[Tuple[Function, Entry]] = []
        self.guard_checks = hooks.GuardCheckListener(self.on_guards_checked)
        self.decompiled_defs: Dict[Tuple[types.CodeType, str], str] = {}
        self.lock = threading.RLock()
        self.names = NameMap.read(dump_dir) if run_from_files else NameMap({})

    @property
    def dump_dir(self) -> Path:
        return self.files.dump_dir

    def compile_of(self, entry: Entry) -> Compile:
        """What the trace said of entry's compile (nothing, if it said nothing)."""
        return self.compiles.get(entry.compile_id or "") or Compile()

    # -- functions and their transformed code (the bytecode hook) --

    def _new_stem(self, wanted: str) -> str:
        stem = wanted
        n = 1
        while stem in self.stems:
            n += 1
            stem = "%s_%d" % (wanted, n)
        self.stems.add(stem)
        return stem

    def _compile_key(self, code: Optional[types.CodeType] = None) -> str:
        """The key of the compile under way on this thread, of code or of
        the code Dynamo is compiling: "<stem>#<entry index>" (NameMap)."""
        code = code or hooks.code_being_compiled()
        if code is None:
            return "?"
        record = self._function(code)
        return "%s#%d" % (record.stem, len(record.entries))

    def _function(self, code: types.CodeType) -> Function:
        record = self.functions.get(code)
        if record is None:
            record = Function(code=code, stem=self._new_stem(identifier(code.co_name)),
                              is_resume=code.co_name.startswith(hooks.RESUME_CODE_PREFIX),
                              globals=_function_globals(code))
            self.functions[code] = record
        return record

    def _note_resume_functions(self, record: Function, names: List[Tuple[str, str]]) -> None:
        """Records the resume functions record's transformed code calls,
        (their global names, torch's and the dump's), under the dump's
        names, and writes each one's decompiled code."""
        if record.globals is None:
            return
        for torch_name, name in names:
            found = hooks.resume_function(record.globals.get(torch_name))
            if found is None:
                continue
            code, resume_globals = found
            if code in self.functions:
                # A recompile installs the resume code it made before
                # under a new global.
                self.resume_functions[name] = self.functions[code]
            else:
                self.stems.add(name)
                self.functions[code] = self.resume_functions[name] = Function(
                    code=code, stem=name, is_resume=True,
                    globals=resume_globals or record.globals)
            with self.files.attempt("resume function " + name):
                self.files.write(name + ".py", self.decompiled(code, name) + "\n")

    def decompiled(self, code: types.CodeType, name: str) -> str:
        """code's def statement named name; when the engine fails, its
        disassembly as a comment block.  Made once per dump: the same def
        is shown in several files, each written more than once."""
        key = (code, name)
        if key not in self.decompiled_defs:
            try:
                # Named name in the decompiler too: Dynamo's names, such as
                # torch_dynamo_resume_in_<lambda>_at_3, need not be Python.
                named = code if name == code.co_name else code.replace(
                    co_name=name, co_qualname=name)
                text = renamed_def(unpyc.decompile(named), name)
            except UnpycError as error:
                self.files.problems.append("decompiling %s: %s" % (name, error))
                warnings.warn("unpyc: could not decompile %s (%s); its disassembly is dumped"
                              % (name, error), DumpWarning, stacklevel=2)
                text = "# unpyc could not decompile %s: %s\n%s\n" % (
                    name, error, commented(unpyc.dis(code)))
            self.decompiled_defs[key] = text
        return self.decompiled_defs[key]

    def on_bytecode(self, original: types.CodeType, transformed: types.CodeType
                    ) -> Optional[types.CodeType]:
        replacement: Optional[types.CodeType] = None
        with self.lock, self.files.attempt("transformed code of " + original.co_name):
            record = self._function(original)
            compile_id = hooks.current_compile_id()
            key = self._compile_key(original)
            graph_names = [self.names.show("graph", n, key) for n in sorted(
                (n for n in transformed.co_names if n.startswith(COMPILED_FN_PREFIX)),
                key=unique_id_number)]
            torch_resume_names = sorted(
                (n for n in transformed.co_names if n.startswith(RESUME_GLOBAL_PREFIX)),
                key=unique_id_number)
            if compile_id is not None and graph_names:
                compiled = self.compiles.setdefault(compile_id, Compile())
                if not compiled.graph_names:
                    compiled.graph_names = graph_names
                    self._write_waiting_graphs(compiled)
            resume_names = [self.names.show("resume", n, key) for n in torch_resume_names]
            self._note_resume_functions(record, list(zip(torch_resume_names, resume_names)))
            index = len(record.entries)
            name = "__transformed_code_%d_for_%s" % (index, record.stem)
            file_name = name + ".py"
            header = ("# %s: the code Dynamo made of %s (compile id %s).\n"
                      "# Written by unpyc; see full_code_for_%s.py for its guards.\n"
                      % (name, record.stem, compile_id, self.main_stem(record)))
            text, source, equivalent, runs_source = transformed_text(
                self.names.show_in(transformed, key), name, header, self.files.problems)
            path = self.files.write(file_name, text)
            if self.log_bytecode:
                self._write_bytecode_listings(name, compile_id, original, transformed)
            entry = Entry(index=index, compile_id=compile_id, file_name=file_name,
                          source=source, graph_names=graph_names,
                          resume_names=resume_names, codes=[transformed],
                          equivalent=equivalent, runs_source=runs_source)
            record.entries.append(entry)
            self.unlisted.append((record, entry))
            self.guard_checks.switch_on()
            if self.run_from_files:
                replacement = code_from_file(path, name, transformed, runs_source, self.names)
                entry.codes.append(replacement)
        return replacement

    def _write_bytecode_listings(self, name: str, compile_id: Optional[str],
                                 original: types.CodeType, transformed: types.CodeType) -> None:
        """prepare_debug(log_bytecode=True): beside the transformed-code file
        name.py, Dynamo's input and output bytecode as dis listings,
        name.original_bytecode.txt and name.transformed_bytecode.txt (depyf
        writes dill pickles of the code objects there; a listing needs no
        dill and takes any constant Dynamo puts in its code)."""
        for kind, role in (("original", "input"), ("transformed", "output")):
            code = original if kind == "original" else transformed
            listing = io.StringIO()
            listing.write("# Dynamo's %s (%s) bytecode for %s.py (compile id %s), as dis\n"
                          "# lists it; written by unpyc.prepare_debug(log_bytecode=True).\n"
                          % (role, kind, name, compile_id))
            dis.dis(code, file=listing)
            self.files.write("%s.%s_bytecode.txt" % (name, kind), listing.getvalue())

    def record_fx_code(self, source: str, graph_module: Any) -> None:
        """prepare_debug(clean_wild_fx_code=False): the Python code FX makes
        for each graph module in the block, as fx_graph_code_<hash>.py, the
        hash of its text (the same code is written once).  These are kept
        whether or not they are graphs of a compiled function (torch makes
        graph modules of its own while it compiles); the default, True,
        keeps only the graph files named after __compiled_fn_* globals.
        FX still compiles the code from memory."""
        digest = hashlib.sha1(source.encode("utf-8")).hexdigest()[:16]
        with self.lock, self.files.attempt("FX code " + digest):
            self.files.write("fx_graph_code_%s.py" % digest,
                             "# Code FX generated for %s, kept by unpyc.prepare_debug"
                             "(clean_wild_fx_code=False).\n%s"
                             % (type(graph_module).__name__, source))

    def main_stem(self, record: Function) -> str:
        """The stem of the function whose full_code file shows record: the
        one whose transformed code calls it, followed up to a function no
        transformed code calls."""
        seen = {record.stem}
        while True:
            caller = next((f for f in self.functions.values() if f.stem not in seen and any(
                record.stem in entry.resume_names for entry in f.entries)), None)
            if caller is None:
                return record.stem
            record = caller
            seen.add(record.stem)

    # -- graphs, reasons and guards (the structured trace) --

    def on_trace(self, event: hooks.TraceEvent) -> None:
        if not _read_by_the_dump(event):
            return
        with self.lock:
            with self.files.attempt("trace event " + event.kind):
                self._record(event)
            with self.files.attempt("full code and index after " + event.kind):
                self._write_as_it_happens(event)

    def _record(self, event: hooks.TraceEvent) -> None:
        compile_id = event.compile_id
        if compile_id is None:
            return
        compiled = self.compiles.setdefault(compile_id, Compile())
        if event.kind == "dynamo_output_graph":
            name = hooks.graph_name_being_compiled()
            if name is not None:
                name = self.names.show("graph", name, self._compile_key())
                if name not in compiled.graph_names:
                    compiled.graph_names.append(name)
        self._note(event, compile_id, compiled)
        stage = _graph_stage(event)
        if stage is None:
            return
        if compiled.graph_names:
            self.files.write_graph(compiled.graph_names[-1], stage, event)
        else:
            compiled.waiting_graphs.append(event)

    def _note(self, event: hooks.TraceEvent, compile_id: str, compiled: Compile) -> None:
        if event.kind in _COMPILE_END_EVENTS:
            compiled.phase_times[event.kind] = hooks.compile_phase_times(event)
        if event.kind == "artifact" and event.metadata.get("name") == "dynamo_graph_break_reason":
            reason = event.payload.split("\nUser code traceback:")[0].strip()
            compiled.notes.append("Graph break: " + reason)
        elif event.kind == "compilation_metrics" and event.metadata.get("recompile_reason"):
            compiled.notes.append("Recompiled because: %s" % event.metadata["recompile_reason"])
        elif event.kind == "dynamo_cpp_guards_str":
            compiled.guard_tree = event.payload.strip("\n")
        elif event.kind == "artifact" and event.metadata.get("name") == hooks.AOT_CACHE_HIT:
            # Per graph: a frame's compile may make several (one it gave
            # up on, then the one it keeps), each loaded or compiled.
            name = hooks.graph_name_being_compiled()
            if name is not None:
                self.aot_cache_hits[self.names.show("graph", name, self._compile_key())] = \
                    compile_id

    def not_emitted(self, name: str) -> Optional[str]:
        """What a dump says of graph name's pre-grad graph when torch did
        not log it because the graph came from AOTAutograd's cache (see
        hooks.AOT_CACHE_HIT); None otherwise.  Only that stage: on a hit
        torch logs the others, and which stages a graph has without one
        varies (a graph Dynamo gave up on has no Inductor module)."""
        compile_id = self.aot_cache_hits.get(name)
        if compile_id is None or "pre_grad_graph" in self.files.stage_files(name):
            return None
        return ("%s: pre_grad_graph not in the dump: compile %s loaded this graph from "
                "AOTAutograd's cache, and torch logs the pre-grad graph only when it "
                "compiles" % (name, compile_id))

    def _write_waiting_graphs(self, compiled: Compile) -> None:
        waiting, compiled.waiting_graphs = compiled.waiting_graphs, []
        for event in waiting:
            stage = _graph_stage(event)
            assert stage is not None
            self.files.write_graph(compiled.graph_names[-1], stage, event)

    # -- debug(): graph code and Inductor modules from the dump --

    def route_graph_code(self, source: str, graph_module: Any) -> Optional[str]:
        """Where FX compiles a graph module's code from under debug(): the
        file of its graph and stage, known while Dynamo compiles it and
        remembered for FX's lazy recompiles when it first runs."""
        if graph_module is None:
            return None
        with self.lock, self.files.attempt("graph code from the dump"):
            role = hooks.graph_module_role(graph_module)
            if role is not None:
                name, stage = role
                file_name = self.files.graph_file(
                    self.names.show("graph", name, self._compile_key()), stage)
                self.routed_modules[graph_module] = file_name
            else:
                file_name = self.routed_modules.get(graph_module, "")
                if not file_name:
                    return None
            readable = self.files.graph_texts.get(file_name)
            if readable is not None and (forward_parameters(readable)
                                         != hooks.graph_inputs(graph_module)):
                # Not the graph torch logged for this stage: AOTAutograd
                # also makes graphs of the same inputs' kinds on its way
                # (the joint graph flattened), before or after it.
                self.routed_modules.pop(graph_module, None)
                return None
            self.files.runnable_files[file_name] = source
            self.files.runnable_inputs[file_name] = hooks.graph_inputs(graph_module)
            return str(self.files.write_runnable(file_name))
        return None  # FX runs its own source

    def route_inductor_module(self, path: str) -> Optional[str]:
        if not self.run_from_files:
            return None
        with self.lock, self.files.attempt("Inductor module from the dump"):
            compiled = self.compiles.get(hooks.current_compile_id() or "")
            if compiled is None or not compiled.graph_names:
                return None
            names = compiled.graph_names
            source = Path(path).read_text(encoding="utf-8")
            file_name = self.files.graph_file(names[-1], inductor_stage(source))
            return str(self.files.write_inductor_module(file_name, source))
        return None  # Inductor loads its own file

    # -- full_code_for_<fn>.py and index.html, after each compile --

    def _write_as_it_happens(self, event: hooks.TraceEvent) -> None:
        """Rewrites index.html and the full_code_for_<fn>.py files the event
        completes: at a compile's end (of a frame, or of a backward graph
        compiled on its first use), that of the function whose entry it
        made; at a compile's start or end, when awaited entries are now in
        torch's cache list, those of their functions, now with their
        guards.  No event of a compile sees its own entry: torch adds it
        after the compile returns, so the first to see it is the next
        compile's start (dynamo_start) or the next call of compiled code
        (on_guards_checked), whichever comes first.  The events in between
        change no full_code file: they do not look (listing the cache
        entries of every awaited function for each of a compile's hundreds
        of events was most of what the trace cost)."""
        compile_end = event.kind in _COMPILE_END_EVENTS
        if not compile_end and event.kind != "dynamo_start":
            return
        stems = self._newly_listed()
        if compile_end:
            stems.update(self.main_stem(record) for record in self.functions.values()
                         if any(entry.compile_id == event.compile_id
                                for entry in record.entries))
        if stems or compile_end:
            self._write_reports(stems)

    def on_guards_checked(self) -> None:
        """Dynamo has checked the guards of compiled code about to run: the
        entries of the compiles before are in its cache list."""
        with self.lock, self.files.attempt("full code and index after a guard check"):
            stems = self._newly_listed()
            if stems:
                self._write_reports(stems)

    def awaits_listing(self, entry: Entry) -> bool:
        """Whether torch has not listed entry in its cache yet."""
        return any(awaited is entry for _, awaited in self.unlisted)

    def _newly_listed(self) -> Set[str]:
        """The main stems of the functions whose awaited entries torch now
        lists.  Those are no longer awaited, nor, when listing fails, those
        not looked at (it would fail again on every call of compiled code)."""
        stems: Set[str] = set()
        if not self.unlisted:
            return stems
        awaited, self.unlisted = self.unlisted, []
        with self.files.attempt("the cache entries torch lists"):
            for record, entry in awaited:
                listed = hooks.cache_entries(record.code)
                if listed is None:
                    continue  # torch cannot list them: nothing to wait for
                if cache_entry(entry, listed) is None:
                    self.unlisted.append((record, entry))
                else:
                    stems.add(self.main_stem(record))
        if not self.unlisted:
            self.guard_checks.switch_off()
        return stems

    def _write_reports(self, stems: Set[str]) -> None:
        """Writes full_code_for_<stem>.py for each of stems that has one
        (a resume function is shown in its caller's), and index.html."""
        for record in list(self.functions.values()):
            if record.stem not in stems or self.main_stem(record) != record.stem:
                continue
            with self.files.attempt("full code of " + record.stem):
                self.files.write("full_code_for_%s.py" % record.stem, full_code(self, record))
        with self.files.attempt("index.html"):
            self.files.write("index.html", index_html(self))
        with self.files.attempt(NAMES_FILE):
            self.files.write(NAMES_FILE, self.names.to_json())

    def finish(self) -> None:
        """The final rewrite, when the block ends: entries torch has still
        not listed by then have left its cache (or never made it)."""
        with self.lock:
            self.unlisted = []
            self._write_reports({record.stem for record in self.functions.values()})
            self.files.warn_changed()


def _graph_stage(event: hooks.TraceEvent) -> Optional[str]:
    if event.kind == "dynamo_output_graph":
        return "captured_graph"
    if event.kind in AOT_STAGES:
        return event.kind
    if event.payload and (event.kind == "inductor_post_grad_graph" or (
            event.kind == "artifact" and event.metadata.get("name") == "inductor_post_grad_graph")):
        # An artifact when Inductor compiles the graph, an event of its own
        # when it loads it from the FX graph cache.  Inductor compiles the
        # forward and the backward graph of a training step apart; the
        # backward one takes the tangents.
        start = event.payload.find("def forward(")
        signature = event.payload[start:event.payload.find("):", start)]
        return "post_grad_backward_graph" if "tangents_" in signature else "post_grad_graph"
    if event.kind == "artifact" and event.metadata.get("name") == "after_pre_grad_graph":
        return "pre_grad_graph"
    if event.kind == "inductor_output_code" and event.payload:
        return inductor_stage(event.payload)
    return None


# The trace events the dump reads (others, such as chromium_event,
# describe_tensor and str, nine in ten of a model's, are dropped at once):
# those that carry a graph, a reason, guards or a cache hit, end a compile,
# or start one (by then torch lists the cache entry of the compile before).
_EVENTS_READ = frozenset(("dynamo_start", "dynamo_output_graph", "dynamo_cpp_guards_str",
                          "inductor_output_code", "inductor_post_grad_graph")
                         + AOT_STAGES + _COMPILE_END_EVENTS)
_ARTIFACTS_READ = frozenset(("dynamo_graph_break_reason", "inductor_post_grad_graph",
                             "after_pre_grad_graph", hooks.AOT_CACHE_HIT))


def _read_by_the_dump(event: hooks.TraceEvent) -> bool:
    if event.kind == "artifact":
        return event.metadata.get("name") in _ARTIFACTS_READ
    return event.kind in _EVENTS_READ
