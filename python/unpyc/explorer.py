"""The torch.compile explorer: prepare_debug(dump_dir) and debug() (SPEC
section 5).

prepare_debug records, while its block runs, what torch.compile does and
writes it under dump_dir as it happens: transformed code and graph files as
they are made; full_code_for_<fn>.py of the function compiled, and
index.html, at the end of each compile and again once torch lists the
compile's cache entry (with its guards); all of them once more when the
block ends.  So a long run, or one that crashes inside the block, has them.
debug() does the same and also makes the code that runs come from the
dumped files, so breakpoints set in them are hit.  Everything
torch-specific goes through _torch_hooks; a failure here costs one artifact
and a warning, never the user's compile.
"""

from __future__ import annotations

import contextlib
import dis
import functools
import gc
import hashlib
import html
import inspect
import io
import json
import os
import re
import textwrap
import threading
import traceback
import types
import warnings
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

import unpyc

from . import _torch_hooks as hooks
from . import effects
from ._objects import identifier, without_addresses
from ._placeholders import StandIns
from ._shared_dump_dir import dump_dir_of_this_process
from .errors import UnpycError, VerificationError

COMPILED_FN_PREFIX = "__compiled_fn"
RESUME_GLOBAL_PREFIX = "__resume_at_"
BUILTINS_DICT_PREFIX = "__builtins_dict___"
# The comment the engine (engine/recover/spill.c) puts where bytecode keeps
# values on the stack across statements, as Dynamo's does: the __stack
# temporaries it names give the same effects, not the same bytecode.
KEPT_STACK_NOTE = "unpyc: this bytecode keeps values on the stack across statements"
# The trace events that end a compile: Dynamo's of a frame (its transformed
# code, graphs, reasons and guard tree are known by then) and AOTAutograd's
# of a backward graph compiled on its first use.
_COMPILE_END_EVENTS = ("compilation_metrics", "bwd_compilation_metrics")
# What a graph file holds between the code FX runs and the graph torch logged.
_READABLE_NOTE = "\n\n# unpyc: the graph above, with shapes (from torch's trace):\n"
# co_flags that change how a frame runs its code.
_FRAME_FLAGS = (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_GENERATOR
                | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR)


class DumpWarning(UserWarning):
    """Part of the dump could not be made; the rest and the user's program
    go on."""


@dataclass
class _Entry:
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
class _Function:
    """A code object Dynamo compiled: a user function or a resume function."""

    code: types.CodeType
    stem: str
    is_resume: bool
    globals: Optional[Dict[str, Any]]
    entries: List[_Entry] = field(default_factory=list)


@functools.lru_cache(maxsize=4096)
def _compiles(text: str, mode: str = "exec") -> bool:
    """Whether text is valid Python: a module ("exec") or an expression
    ("eval").  Cached: the full_code files, rewritten after each compile,
    ask it again of every part they hold."""
    try:
        compile(text, "<unpyc dump>", mode, dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


@functools.lru_cache(maxsize=256)
def _source_in_its_file(code: types.CodeType) -> Optional[str]:
    """code's def as its file has it, dedented; None without one.  Cached:
    each rewrite of a full_code file shows it again, and inspect reads and
    tokenizes the file for it each time."""
    try:
        return textwrap.dedent(inspect.getsource(code))
    except (OSError, TypeError):
        return None


def _commented(text: str) -> str:
    return "\n".join(("# " + line).rstrip() for line in text.splitlines())


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


def _signature(code: types.CodeType) -> Tuple[str, str]:
    """The parameter list of code's def, and the call passing them on."""
    names = code.co_varnames
    positional = code.co_argcount
    keyword_only = code.co_kwonlyargcount
    params: List[str] = []
    call: List[str] = []
    for i in range(positional):
        params.append(names[i])
        call.append(names[i])
        if code.co_posonlyargcount and i == code.co_posonlyargcount - 1:
            params.append("/")
    position = positional + keyword_only
    keywords = names[positional:positional + keyword_only]
    if code.co_flags & inspect.CO_VARARGS:
        params.append("*" + names[position])
        call.append("*" + names[position])
        position += 1
    elif keywords:
        params.append("*")
    params.extend(keywords)
    call.extend("%s=%s" % (name, name) for name in keywords)
    if code.co_flags & inspect.CO_VARKEYWORDS:
        params.append("**" + names[position])
        call.append("**" + names[position])
    return ", ".join(params), ", ".join(call)


def _def_code(text: str, name: str, filename: str, original: types.CodeType) -> types.CodeType:
    """The code of the def called name in the module source text (at the
    top level, or in a _closure_wrapper) decompiled from original, with
    original's objects where the text names its constants that have no
    literal (unpyc._placeholders)."""
    pending = [StandIns(original).compile_with_objects(text, filename)]
    while pending:
        for const in pending.pop().co_consts:
            if isinstance(const, types.CodeType):
                if const.co_name == name:
                    return const
                pending.append(const)
    raise LookupError("%s has no def %s" % (filename, name))


def _closure_wrapper(source: str, name: str, freevars: Tuple[str, ...]) -> str:
    """source (the def called name) as a def with free variables: nested in
    a function whose parameters are those variables, so that compiled it
    takes its closure like the code it stands for."""
    if not freevars:
        return source
    return ("def __closure_of_%s(%s):\n"
            "    # The free variables of %s; Dynamo passes their cells.\n"
            "%s\n" % (name, ", ".join(freevars), name, textwrap.indent(source, "    ")))


def _same_frame_layout(code: types.CodeType, transformed: types.CodeType) -> bool:
    """Whether code can run in the frame Dynamo prepares for transformed:
    the same arguments, cells and free variables (Dynamo checks arguments
    and free variables of what a bytecode hook returns) and frame kind."""
    # The argument counts and the *args / **kwargs flags being equal, the
    # parameters are the first n names of both.
    n = (transformed.co_argcount + transformed.co_kwonlyargcount
         + bool(transformed.co_flags & inspect.CO_VARARGS)
         + bool(transformed.co_flags & inspect.CO_VARKEYWORDS))
    return (code.co_argcount == transformed.co_argcount
            and code.co_posonlyargcount == transformed.co_posonlyargcount
            and code.co_kwonlyargcount == transformed.co_kwonlyargcount
            and code.co_flags & _FRAME_FLAGS == transformed.co_flags & _FRAME_FLAGS
            and code.co_varnames[:n] == transformed.co_varnames[:n]
            and code.co_cellvars == transformed.co_cellvars
            and code.co_freevars == transformed.co_freevars)


def _renamed_def(source: str, name: str) -> str:
    """source (one def statement) with the function called name."""
    return re.sub(r"^(\s*(?:async\s+)?def\s+)[A-Za-z_][A-Za-z_0-9]*", r"\g<1>" + name,
                  source, count=1, flags=re.M)


# ---- Dynamo's bytecode, attributed to lines of a dumped file ----


def _encode_svarint(value: int) -> bytes:
    number = (-value << 1) | 1 if value < 0 else value << 1
    out = bytearray()
    while number >= 64:
        out.append((number & 63) | 64)
        number >>= 6
    out.append(number)
    return bytes(out)


def _linetable(code: types.CodeType, first_line: int) -> bytes:
    """A 3.11+ location table giving instruction k (with its caches) line
    first_line + k and no columns (Objects/locations.md: code 13)."""
    starts = [instruction.offset for instruction in dis.get_instructions(code)]
    ends = starts[1:] + [len(code.co_code)]
    table = bytearray()
    previous = first_line
    for k, (start, end) in enumerate(zip(starts, ends)):
        units = (end - start) // 2
        line = first_line + k
        while units > 0:
            chunk = min(units, 8)
            table.append(0x80 | (13 << 3) | (chunk - 1))
            table += _encode_svarint(line - previous)
            previous = line
            units -= chunk
    return bytes(table)


def _bytecode_listing(code: types.CodeType) -> List[str]:
    """One line per instruction of code, each a string literal in a list, so
    the debugger accepts a breakpoint on any of them."""
    lines = []
    for instruction in dis.get_instructions(code):
        argument = instruction.argrepr or ("" if instruction.arg is None else instruction.arg)
        text = without_addresses("%d %s %s" % (instruction.offset, instruction.opname, argument))
        source_line = instruction.positions.lineno if instruction.positions else None
        lines.append("    %r,  # source line %s" % (text.strip(), source_line))
    return lines


# The file where a dump keeps the names its files use, in the order torch
# made them, so that a later debug() shows its compiles under the same names.
NAMES_FILE = ".unpyc_names.json"


class _NameMap:
    """The names a dump gives the globals Dynamo installs, __compiled_fn_*
    (graphs), __resume_at_* (resume functions), __builtins_dict___* and
    the others hooks.installed_global_kind knows (modules, wrappers).

    torch makes them from process-wide counters, graphs with a random
    uuid, so a second run of the same program (debug() after
    prepare_debug) gets other names for the same graphs.  debug() must run
    the very files prepare_debug wrote, so it shows the names torch makes
    in a compile as the names the dump recorded for the same compile: the
    k-th name of a kind made while Dynamo compiles entry i of function f
    (the compile key "f#i") is shown as the k-th the dump recorded under
    that key.  Keys make the mapping independent of the order in which
    functions compile (data decides which resume function compiles
    first).  Whether a compile really is the same is checked where it
    counts: a file whose code comes out different is rewritten, with a
    warning.  Without a record (the first run), every name is shown as
    torch made it."""

    # The kinds of names, by the prefix torch gives them: compiled graphs,
    # resume functions, and the dicts of builtins Dynamo's code reads.
    KINDS = {"graph": COMPILED_FN_PREFIX, "resume": RESUME_GLOBAL_PREFIX,
             "builtins": BUILTINS_DICT_PREFIX}

    def __init__(self, recorded: Dict[str, Dict[str, List[str]]]) -> None:
        self.recorded = recorded  # compile key -> kind -> names
        self.made: Dict[str, Dict[str, List[str]]] = {}  # the same, of this run
        self.shown: Dict[str, str] = {}  # torch's name -> the dump's

    @classmethod
    def read(cls, dump_dir: Path) -> "_NameMap":
        try:
            data = json.loads((dump_dir / NAMES_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        recorded = {key: {kind: [n for n in listed if isinstance(n, str)]
                          for kind, listed in names.items() if isinstance(listed, list)}
                    for key, names in (data.items() if isinstance(data, dict) else [])
                    if isinstance(names, dict)}
        return cls(recorded)

    def show(self, kind: str, name: str, key: str) -> str:
        """The dump's name for torch's global called name, made in the
        compile key names."""
        shown = self.shown.get(name)
        if shown is None:
            made = self.made.setdefault(key, {}).setdefault(kind, [])
            recorded = self.recorded.get(key, {}).get(kind, [])
            shown = recorded[len(made)] if len(made) < len(recorded) else name
            made.append(shown)
            self.shown[name] = shown
        return shown

    def show_in(self, code: types.CodeType, key: str) -> types.CodeType:
        """code, nested code included, loading the globals under the dump's
        names (what the decompiled source shows); the names not met before
        taken in the order torch made them."""
        for kind, prefix in self.KINDS.items():
            for name in sorted((n for n in code.co_names if n.startswith(prefix)),
                               key=_unique_id_number):
                self.show(kind, name, key)
        # The others in the order the code first names them, which is the
        # same in the same compile.
        for name in _global_names(code):
            installed = hooks.installed_global_kind(name)
            if installed is not None:
                self.show(installed, name, key)
        return _renamed_globals(code, self.shown)

    def torch_names_in(self, code: types.CodeType) -> types.CodeType:
        """code compiled from the dump, loading the globals torch installed."""
        return _renamed_globals(code, {shown: name for name, shown in self.shown.items()})

    def to_json(self) -> str:
        return json.dumps(self.made, indent=1, sort_keys=True)


def _global_names(code: types.CodeType) -> List[str]:
    """The names code and its nested code load, in order, each once."""
    names = dict.fromkeys(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names.update(dict.fromkeys(_global_names(const)))
    return list(names)


def _renamed_globals(code: types.CodeType, renames: Dict[str, str]) -> types.CodeType:
    names = tuple(renames.get(name, name) for name in code.co_names)
    consts = tuple(_renamed_globals(const, renames) if isinstance(const, types.CodeType)
                   else const for const in code.co_consts)
    # Compared by identity: Dynamo's constants include tensors.
    if names == code.co_names and all(a is b for a, b in zip(consts, code.co_consts)):
        return code
    return code.replace(co_names=names, co_consts=consts)


class _Dump:
    """What one prepare_debug (or debug) block records and writes."""

    def __init__(self, dump_dir: Path, run_from_files: bool, log_bytecode: bool = False) -> None:
        self.dump_dir = dump_dir
        self.run_from_files = run_from_files
        self.log_bytecode = log_bytecode
        self.functions: Dict[types.CodeType, _Function] = {}
        self.stems: Set[str] = set()
        self.graph_names: Dict[str, List[str]] = {}  # compile id -> __compiled_fn_*
        self.pending: Dict[str, List[hooks.TraceEvent]] = {}
        self.graph_files: Dict[str, Dict[str, str]] = {}  # name -> stage -> file name
        self.graph_texts: Dict[str, str] = {}  # file name -> readable graph
        self.runnable_files: Dict[str, str] = {}  # file name -> code that runs
        self.runnable_inputs: Dict[str, List[str]] = {}  # file name -> its graph's inputs
        self.routed_modules: "weakref.WeakKeyDictionary[Any, str]" = (
            weakref.WeakKeyDictionary())  # graph module -> its file
        self.notes: Dict[str, List[str]] = {}  # compile id -> reasons
        self.guard_trees: Dict[str, str] = {}  # compile id -> C++ guard tree
        # Graph name -> the compile id that loaded it from AOTAutograd's cache.
        self.aot_cache_hits: Dict[str, str] = {}
        # Entries whose guards torch has not listed yet: it adds a cache
        # entry only after the compile has returned.
        self.unlisted: List[Tuple[_Function, _Entry]] = []
        self.guard_checks = hooks.GuardCheckListener(self.on_guards_checked)
        self.decompiled_defs: Dict[Tuple[types.CodeType, str], str] = {}
        self.problems: List[str] = []
        self.lock = threading.RLock()
        self.names = _NameMap.read(dump_dir) if run_from_files else _NameMap({})
        # The code files there before the block: debug() keeps them, and
        # warns at its end about those its compiles changed, since
        # breakpoints set in them may have moved.
        self.found_texts = _code_files(dump_dir) if run_from_files else {}

    # -- failures --

    @contextlib.contextmanager
    def attempt(self, what: str) -> Iterator[None]:
        """Runs the block; a failure in it becomes a warning and a line in
        the dump's list of what is missing."""
        try:
            yield
        except Exception as error:  # noqa: BLE001 - never break the compile
            message = "%s: %s: %s" % (what, type(error).__name__, error)
            if message in self.problems:
                return  # the same failure of a file rewritten after each compile
            self.problems.append(message)
            warnings.warn("unpyc: could not dump " + message, DumpWarning, stacklevel=3)
            if os.environ.get("UNPYC_DEBUG_TRACEBACKS"):
                traceback.print_exc()

    def write(self, file_name: str, text: str) -> Path:
        """Writes the file whole: a temporary file renamed over it, since
        files are rewritten while the program runs and neither a reader nor
        a kill may meet half of one.  A file that already holds text is
        left alone: under debug() that is every file prepare_debug wrote
        for the same compiles, breakpoints and all."""
        path = self.dump_dir / file_name
        text = text if text.endswith("\n") else text + "\n"
        try:
            written = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            written = None
        if written == text:
            return path
        found = self.found_texts.get(file_name)
        if written == found and found is not None and _same_code_lines(found, text, prefix=True):
            # debug() builds a file in steps (the code FX runs, then the
            # readable graph after it) that prepare_debug's file holds
            # whole; and the counters in comments (Inductor's "# AOT
            # ID") of a second compile differ.  The file runs the same
            # code on the same lines: kept, breakpoints and all.
            return path
        partial = self.dump_dir / (".%s.%d.tmp" % (file_name, os.getpid()))
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
        return path

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
        the code Dynamo is compiling: "<stem>#<entry index>" (_NameMap)."""
        code = code or hooks.code_being_compiled()
        if code is None:
            return "?"
        record = self._function(code)
        return "%s#%d" % (record.stem, len(record.entries))

    def _function(self, code: types.CodeType) -> _Function:
        record = self.functions.get(code)
        if record is None:
            record = _Function(code=code, stem=self._new_stem(identifier(code.co_name)),
                               is_resume=code.co_name.startswith(hooks.RESUME_CODE_PREFIX),
                               globals=_function_globals(code))
            self.functions[code] = record
        return record

    def _note_resume_functions(self, record: _Function, names: List[Tuple[str, str]]) -> None:
        """Records the resume functions record's transformed code calls,
        (their global names, torch's and the dump's), under the dump's
        names, and writes each one's decompiled code."""
        if record.globals is None:
            return
        for torch_name, name in names:
            found = hooks.resume_function(record.globals.get(torch_name))
            if found is None or found[0] in self.functions:
                continue
            code, resume_globals = found
            self.stems.add(name)
            self.functions[code] = _Function(code=code, stem=name, is_resume=True,
                                             globals=resume_globals or record.globals)
            with self.attempt("resume function " + name):
                self.write(name + ".py", self._decompiled(code, name) + "\n")

    def _decompiled(self, code: types.CodeType, name: str) -> str:
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
                text = _renamed_def(unpyc.decompile(named), name)
            except UnpycError as error:
                self.problems.append("decompiling %s: %s" % (name, error))
                warnings.warn("unpyc: could not decompile %s (%s); its disassembly is dumped"
                              % (name, error), DumpWarning, stacklevel=2)
                text = "# unpyc could not decompile %s: %s\n%s\n" % (
                    name, error, _commented(unpyc.dis(code)))
            self.decompiled_defs[key] = text
        return self.decompiled_defs[key]

    def on_bytecode(self, original: types.CodeType, transformed: types.CodeType
                    ) -> Optional[types.CodeType]:
        replacement: Optional[types.CodeType] = None
        with self.lock, self.attempt("transformed code of " + original.co_name):
            record = self._function(original)
            compile_id = hooks.current_compile_id()
            key = self._compile_key(original)
            graph_names = [self.names.show("graph", n, key) for n in sorted(
                (n for n in transformed.co_names if n.startswith(COMPILED_FN_PREFIX)),
                key=_unique_id_number)]
            torch_resume_names = sorted(
                (n for n in transformed.co_names if n.startswith(RESUME_GLOBAL_PREFIX)),
                key=_unique_id_number)
            if compile_id is not None and compile_id not in self.graph_names and graph_names:
                self.graph_names[compile_id] = graph_names
                self._flush_pending(compile_id)
            resume_names = [self.names.show("resume", n, key) for n in torch_resume_names]
            self._note_resume_functions(record, list(zip(torch_resume_names, resume_names)))
            index = len(record.entries)
            name = "__transformed_code_%d_for_%s" % (index, record.stem)
            file_name = name + ".py"
            text, source, equivalent, runs_source = self._transformed_text(
                self.names.show_in(transformed, key), name, record, compile_id)
            path = self.write(file_name, text)
            if self.log_bytecode:
                self._write_bytecode_listings(name, compile_id, original, transformed)
            entry = _Entry(index=index, compile_id=compile_id, file_name=file_name,
                           source=source, graph_names=graph_names,
                           resume_names=resume_names, codes=[transformed],
                           equivalent=equivalent, runs_source=runs_source)
            record.entries.append(entry)
            self.unlisted.append((record, entry))
            self.guard_checks.switch_on()
            if self.run_from_files:
                replacement = self._code_from_file(path, name, transformed, runs_source)
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
            self.write("%s.%s_bytecode.txt" % (name, kind), listing.getvalue())

    def record_fx_code(self, source: str, graph_module: Any) -> None:
        """prepare_debug(clean_wild_fx_code=False): the Python code FX makes
        for each graph module in the block, as fx_graph_code_<hash>.py, the
        hash of its text (the same code is written once).  These are kept
        whether or not they are graphs of a compiled function (torch makes
        graph modules of its own while it compiles); the default, True,
        keeps only the graph files named after __compiled_fn_* globals.
        FX still compiles the code from memory."""
        digest = hashlib.sha1(source.encode("utf-8")).hexdigest()[:16]
        with self.lock, self.attempt("FX code " + digest):
            self.write("fx_graph_code_%s.py" % digest,
                       "# Code FX generated for %s, kept by unpyc.prepare_debug"
                       "(clean_wild_fx_code=False).\n%s" % (type(graph_module).__name__, source))

    def _transformed_text(self, code: types.CodeType, name: str, record: _Function,
                          compile_id: Optional[str]) -> Tuple[str, str, bool, bool]:
        """The transformed-code file, the def statement in it, whether that
        def is equivalent to code, and whether debug() runs it: when it is
        equivalent, or when it has the same effects (the engine held values
        Dynamo keeps on the stack across statements in temporaries, left
        nothing unrecovered, and effects.same_effects finds the same effects
        in the same order) and fits the frame Dynamo runs code in.  Else
        the file ends with Dynamo's bytecode, one instruction a line, which
        is what debug() runs."""
        header = ("# %s: the code Dynamo made of %s (compile id %s).\n"
                  "# Written by unpyc; see full_code_for_%s.py for its guards.\n"
                  % (name, record.stem, compile_id, self._main_stem(record)))
        equivalent = same_effects = True
        problem = ""
        try:
            # Checked as the top-level def the file holds, under its name
            # there: in the class its qualname names, the compiler would
            # mangle the __compiled_fn_* and __resume_* globals Dynamo's
            # code loads, and <lambda> is no def's name.
            source = unpyc.decompile(code.replace(co_name=name, co_qualname=name), verify=True)
        except VerificationError as error:
            equivalent = False
            problem = "not equivalent: %s" % (" ".join(str(error.detail).split()),)
            source = str(error.source)
            same_effects = error.unrecovered == 0 and KEPT_STACK_NOTE in source
        except UnpycError as error:
            equivalent = same_effects = False
            problem = "could not decompile: %s" % (error,)
            source = ""
        source = _renamed_def(source, name) if source else ""
        # Checked as it is run: a def with free variables (declared nonlocal
        # where no statement reads them) compiles only in its wrapper.
        runnable = _closure_wrapper(source, name, code.co_freevars)
        if source and not _compiles(runnable):
            source = runnable = _commented(source)
            same_effects = False
        if same_effects:
            misfit = ("its def does not fit the frame Dynamo runs it in (arguments, cells or"
                      " free variables differ)")
            try:
                def_code = _def_code(runnable, name, name, code)
                same_effects = _same_frame_layout(def_code, code)
            except (SyntaxError, LookupError):
                same_effects = False
            except ValueError as error:  # Dynamo's constants cannot be put back in it
                same_effects, misfit = False, str(error)
            if not same_effects:
                problem = "%s; %s" % (problem or "equivalent", misfit)
            elif not equivalent:
                # Not Dynamo's bytecode: it runs only if the effects are proven the same.
                verdict = effects.same_effects(code, def_code)
                same_effects = verdict.equal
                if not same_effects:
                    problem = "%s; its effects differ: %s" % (problem, verdict.reason)
        if equivalent and same_effects:
            return header + runnable, source, True, True
        if same_effects:
            note = ("# unpyc: the def below has the same effects as Dynamo's code, not the\n"
                    "# same bytecode (%s).\n"
                    "# Under unpyc.debug() it is what runs.\n" % problem[:300])
            return header + note + runnable, source, False, True
        self.problems.append("decompiling %s: %s" % (name, problem))
        warnings.warn("unpyc: the decompiled %s is %s; its bytecode is dumped beside it"
                      % (name, problem), DumpWarning, stacklevel=3)
        note = ("# unpyc: the decompiled source below is %s\n"
                "# (a decompiler limit).  Under unpyc.debug() Dynamo's own bytecode runs,\n"
                "# each instruction reporting the line of its entry in %s_bytecode\n"
                "# below, so breakpoints go there.\n" % (problem[:300], name))
        listing = ["%s_bytecode = [" % name] + _bytecode_listing(code) + ["]"]
        return (header + note + (runnable or "# (no source)") + "\n\n\n" + "\n".join(listing),
                source, False, False)

    def _code_from_file(self, path: Path, name: str, transformed: types.CodeType,
                        runs_source: bool) -> types.CodeType:
        text = path.read_text(encoding="utf-8")
        if runs_source:
            return self.names.torch_names_in(_def_code(text, name, str(path), transformed)).replace(
                co_name=transformed.co_name, co_qualname=transformed.co_qualname)
        first = text.splitlines().index("%s_bytecode = [" % name) + 2
        return transformed.replace(co_filename=str(path), co_firstlineno=first,
                                   co_linetable=_linetable(transformed, first))

    def _main_stem(self, record: _Function) -> str:
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
            with self.attempt("trace event " + event.kind):
                self._record(event)
            with self.attempt("full code and index after " + event.kind):
                self._write_as_it_happens(event)

    def _record(self, event: hooks.TraceEvent) -> None:
        compile_id = event.compile_id
        if compile_id is None:
            return
        if event.kind == "dynamo_output_graph":
            name = hooks.graph_name_being_compiled()
            if name is not None:
                name = self.names.show("graph", name, self._compile_key())
                names = self.graph_names.setdefault(compile_id, [])
                if name not in names:
                    names.append(name)
        self._note(event, compile_id)
        if _graph_stage(event) is None:
            return
        if compile_id in self.graph_names:
            self._write_graph(self.graph_names[compile_id][-1], event)
        else:
            self.pending.setdefault(compile_id, []).append(event)

    def _note(self, event: hooks.TraceEvent, compile_id: str) -> None:
        if event.kind == "artifact" and event.metadata.get("name") == "dynamo_graph_break_reason":
            reason = event.payload.split("\nUser code traceback:")[0].strip()
            self.notes.setdefault(compile_id, []).append("Graph break: " + reason)
        elif event.kind == "compilation_metrics" and event.metadata.get("recompile_reason"):
            self.notes.setdefault(compile_id, []).append(
                "Recompiled because: %s" % event.metadata["recompile_reason"])
        elif event.kind == "dynamo_cpp_guards_str":
            self.guard_trees[compile_id] = event.payload.strip("\n")
        elif event.kind == "artifact" and event.metadata.get("name") == hooks.AOT_CACHE_HIT:
            # Per graph: a frame's compile may make several (one it gave
            # up on, then the one it keeps), each loaded or compiled.
            name = hooks.graph_name_being_compiled()
            if name is not None:
                self.aot_cache_hits[self.names.show("graph", name, self._compile_key())] = \
                    compile_id

    def _stage_files(self, name: str) -> Dict[str, str]:
        """The files of graph name's stages, stage -> file name: those of
        this block, and under debug() those prepare_debug wrote of stages
        this block's compile did not log (it was loaded from a cache)."""
        files = dict(self.graph_files.get(name, {}))
        for stage in _STAGES:
            file_name = "%s.%s.py" % (name, stage)
            if stage not in files and file_name in self.found_texts:
                files[stage] = file_name
        return files

    def _not_emitted(self, name: str) -> Optional[str]:
        """What a dump says of graph name's pre-grad graph when torch did
        not log it because the graph came from AOTAutograd's cache (see
        hooks.AOT_CACHE_HIT); None otherwise.  Only that stage: on a hit
        torch logs the others, and which stages a graph has without one
        varies (a graph Dynamo gave up on has no Inductor module)."""
        compile_id = self.aot_cache_hits.get(name)
        if compile_id is None or "pre_grad_graph" in self._stage_files(name):
            return None
        return ("%s: pre_grad_graph not in the dump: compile %s loaded this graph from "
                "AOTAutograd's cache, and torch logs the pre-grad graph only when it "
                "compiles" % (name, compile_id))

    def _flush_pending(self, compile_id: str) -> None:
        for event in self.pending.pop(compile_id, []):
            self._write_graph(self.graph_names[compile_id][-1], event)

    def _graph_file(self, name: str, stage: str) -> str:
        file_name = "%s.%s.py" % (name, stage)
        self.graph_files.setdefault(name, {})[stage] = file_name
        return file_name

    def _write_graph(self, name: str, event: hooks.TraceEvent) -> None:
        stage = _graph_stage(event)
        assert stage is not None
        file_name = self._graph_file(name, stage)
        payload = event.payload.rstrip("\n")
        about = "# %s of %s (compile id %s), written by unpyc from torch's trace." % (
            stage, name, event.compile_id)
        sizes = event.metadata.get("sizes")
        if sizes:
            about += "\n# sizes: %s" % (sizes,)
        if stage.startswith("inductor_"):
            # Byte for byte the module Inductor loads (debug() loads it from
            # here), so notes go after it.
            self.write(file_name, payload + "\n\n" + about + "\n")
            return
        if not _compiles(payload):
            payload = _commented(payload)
        self.graph_texts[file_name] = payload
        if file_name in self.runnable_files and (
                self.runnable_inputs.get(file_name) != _forward_parameters(payload)):
            # The last graph routed here was another one of the compile's:
            # the file shows the logged graph until its own code comes.
            del self.runnable_files[file_name]
        if file_name in self.runnable_files:
            self._write_runnable(file_name)
        elif not self._found_under_its_code(file_name, payload):
            self.write(file_name, about + "\n" + payload + "\n")

    def _found_under_its_code(self, file_name: str, readable: str) -> bool:
        """Under debug(), whether the file prepare_debug wrote still shows
        this graph after the code FX ran for it then (_write_runnable): a
        compile loaded from torch's caches makes no AOTAutograd graph
        modules, so debug() may meet only the logged graph of a file
        prepare_debug compiled; the file is kept, breakpoints and all."""
        found = self.found_texts.get(file_name)
        if found is None or not found.endswith(_READABLE_NOTE + _commented(readable) + "\n"):
            return False
        with contextlib.suppress(OSError, UnicodeDecodeError):
            return (self.dump_dir / file_name).read_text(encoding="utf-8") == found
        return False

    # -- debug(): graph code and Inductor modules from the dump --

    def route_graph_code(self, source: str, graph_module: Any) -> Optional[str]:
        """Where FX compiles a graph module's code from under debug(): the
        file of its graph and stage, known while Dynamo compiles it and
        remembered for FX's lazy recompiles when it first runs."""
        if graph_module is None:
            return None
        with self.lock, self.attempt("graph code from the dump"):
            role = hooks.graph_module_role(graph_module)
            if role is not None:
                name, stage = role
                file_name = self._graph_file(
                    self.names.show("graph", name, self._compile_key()), stage)
                self.routed_modules[graph_module] = file_name
            else:
                file_name = self.routed_modules.get(graph_module, "")
                if not file_name:
                    return None
            readable = self.graph_texts.get(file_name)
            if readable is not None and (_forward_parameters(readable)
                                         != hooks.graph_inputs(graph_module)):
                # Not the graph torch logged for this stage: AOTAutograd
                # also makes graphs of the same inputs' kinds on its way
                # (the joint graph flattened), before or after it.
                self.routed_modules.pop(graph_module, None)
                return None
            self.runnable_files[file_name] = source
            self.runnable_inputs[file_name] = hooks.graph_inputs(graph_module)
            return str(self._write_runnable(file_name))
        return None  # FX runs its own source

    def _write_runnable(self, file_name: str) -> Path:
        """The graph code FX runs, first (breakpoints go there), then the
        readable graph with shapes as comments."""
        text = self.runnable_files[file_name].rstrip("\n") + "\n"
        readable = self.graph_texts.get(file_name)
        if readable:
            text += _READABLE_NOTE + _commented(readable) + "\n"
        return self.write(file_name, text)

    def route_inductor_module(self, path: str) -> Optional[str]:
        if not self.run_from_files:
            return None
        with self.lock, self.attempt("Inductor module from the dump"):
            names = self.graph_names.get(hooks.current_compile_id() or "")
            if not names:
                return None
            source = Path(path).read_text(encoding="utf-8")
            stage = _inductor_stage(source)
            file_name = self._graph_file(names[-1], stage)
            target = self.dump_dir / file_name
            try:
                written = target.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                written = ""
            # The file holds the module, then unpyc's notes (_write_graph).
            if not _same_code_lines(written, source, prefix=True):
                self.write(file_name, source)
            return str(target)
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
            stems.update(self._main_stem(record) for record in self.functions.values()
                         if any(entry.compile_id == event.compile_id
                                for entry in record.entries))
        if stems or compile_end:
            self._write_reports(stems)

    def on_guards_checked(self) -> None:
        """Dynamo has checked the guards of compiled code about to run: the
        entries of the compiles before are in its cache list."""
        with self.lock, self.attempt("full code and index after a guard check"):
            stems = self._newly_listed()
            if stems:
                self._write_reports(stems)

    def _newly_listed(self) -> Set[str]:
        """The main stems of the functions whose awaited entries torch now
        lists.  Those are no longer awaited, nor, when listing fails, those
        not looked at (it would fail again on every call of compiled code)."""
        stems: Set[str] = set()
        if not self.unlisted:
            return stems
        awaited, self.unlisted = self.unlisted, []
        with self.attempt("the cache entries torch lists"):
            for record, entry in awaited:
                listed = hooks.cache_entries(record.code)
                if listed is None:
                    continue  # torch cannot list them: nothing to wait for
                if _cache_entry(entry, listed) is None:
                    self.unlisted.append((record, entry))
                else:
                    stems.add(self._main_stem(record))
        if not self.unlisted:
            self.guard_checks.switch_off()
        return stems

    def _write_reports(self, stems: Set[str]) -> None:
        """Writes full_code_for_<stem>.py for each of stems that has one
        (a resume function is shown in its caller's), and index.html."""
        for record in list(self.functions.values()):
            if record.stem not in stems or self._main_stem(record) != record.stem:
                continue
            with self.attempt("full code of " + record.stem):
                self.write("full_code_for_%s.py" % record.stem, self._full_code(record))
        with self.attempt("index.html"):
            self.write("index.html", self._index())
        with self.attempt(NAMES_FILE):
            self.write(NAMES_FILE, self.names.to_json())

    def finish(self) -> None:
        """The final rewrite, when the block ends: entries torch has still
        not listed by then have left its cache (or never made it)."""
        with self.lock:
            self.unlisted = []
            self._write_reports({record.stem for record in self.functions.values()})
            now = _code_files(self.dump_dir)
            for file_name, text in self.found_texts.items():
                if not _same_code_lines(text, now.get(file_name, "")):
                    warnings.warn("unpyc: %s changed under debug(): a compile differed from "
                                  "the dump's, so breakpoints set in it may have moved (%s)"
                                  % (self.dump_dir / file_name,
                                     _first_difference(text, now.get(file_name, ""))),
                                  DumpWarning, stacklevel=4)

    def _full_code(self, record: _Function) -> str:
        parts = [
            "# What torch.compile did to %s, written by unpyc.prepare_debug." % record.stem,
            "# Each cache entry: its guards as a function, the graphs it calls (one",
            "# file per graph and stage, named after the __compiled_fn_* global), its",
            "# transformed code, the resume functions it calls (recursively); then the",
            "# original source and what Dynamo does on each call.",
            "# unpyc rewrites this file after each compile while the block runs, and",
            "# once more when it ends.",
            "",
        ]
        for problem in self.problems:
            parts.append("# unpyc could not dump: " + problem.replace("\n", " ")[:400])
        parts.append("")
        self._function_sections(record, parts, set())
        if not record.is_resume:
            parts.append("# The original source of %s:" % record.stem)
            parts.append(self._original_source(record))
        parts.append(self._dispatcher(record))
        return "\n".join(_checked(part) for part in parts) + "\n"

    def _function_sections(self, record: _Function, parts: List[str],
                           seen: Set[str]) -> None:
        if record.stem in seen:
            return
        seen.add(record.stem)
        listed = hooks.cache_entries(record.code)
        for entry in record.entries:
            parts.append(self._guard_function(record, entry, _cache_entry(entry, listed)))
            for note in self.notes.get(entry.compile_id or "", []):
                parts.append(_commented(note))
            for name in entry.graph_names:
                files = sorted(self._stage_files(name).values())
                parts.append("# Graphs of %s: %s" % (name, ", ".join(files) or "none dumped"))
                not_emitted = self._not_emitted(name)
                if not_emitted:
                    parts.append("# " + not_emitted)
                parts.append("def %s(*args, **kwargs):\n    pass\n" % name)
            parts.append("# Transformed code, also in %s%s:" % (
                entry.file_name, "" if entry.equivalent else
                " (the same effects as Dynamo's bytecode, not the same bytecode:"
                " __stack names hold what it keeps on the stack)" if entry.runs_source else
                " (the decompiled source is NOT equivalent to Dynamo's bytecode,"
                " which the file lists)"))
            parts.append(entry.source or "# (not decompiled; see the file)")
            for name in entry.resume_names:
                resume = next((f for f in self.functions.values() if f.stem == name), None)
                if resume is None:
                    parts.append("# Resume function %s: not found in the globals" % name)
                    continue
                parts.append("# Resume function %s (also in %s.py); Dynamo compiles it "
                             "when it runs:" % (name, name))
                parts.append(self._decompiled(resume.code, name))
                self._function_sections(resume, parts, seen)
                parts.append(self._dispatcher(resume))

    def _guard_function(self, record: _Function, entry: _Entry,
                        cache_entry: Optional[hooks.CacheEntry]) -> str:
        name = "__guard_%d_for_%s" % (entry.index, record.stem)
        lines = ["# Guards of cache entry %d of %s (compile id %s): the transformed code"
                 % (entry.index, record.stem, entry.compile_id),
                 "# runs only while they all hold.  L: the frame's locals, G: its globals."]
        tree = self.guard_trees.get(entry.compile_id or "")
        if tree:
            lines.append("# The guard tree torch checks (C++):")
            lines.append(_commented(tree))
        lines.append("def %s(L, G, **___kwargs_ignored):" % name)
        lines.append("    __guard_hit = True")
        if cache_entry is None and any(e is entry for _, e in self.unlisted):
            lines.append("    # (not listed by torch yet: it adds the entry to its cache after "
                         "the compile;")
            lines.append("    # this file is rewritten when it does: at the next call of compiled "
                         "code,")
            lines.append("    # the next compile or the block's end)")
        elif cache_entry is None:
            lines.append("    # (this entry is no longer in Dynamo's cache, or torch cannot "
                         "list the cache)")
        else:
            for part in cache_entry.guard_parts:
                if _compiles(part, "eval"):
                    lines.append("    __guard_hit = __guard_hit and (%s)" % part)
                else:
                    lines.append("    # %s" % part.replace("\n", " "))
        lines.append("    return __guard_hit\n")
        return "\n".join(lines)

    def _original_source(self, record: _Function) -> str:
        source = _source_in_its_file(record.code)
        return source if source is not None else self._decompiled(record.code,
                                                                   record.code.co_name)

    def _dispatcher(self, record: _Function) -> str:
        params, call = _signature(record.code)
        names = record.code.co_varnames[:record.code.co_argcount +
                                        record.code.co_kwonlyargcount]
        called = record.stem if record.is_resume else identifier(record.code.co_name)
        lines = ["def __dispatch_%s(%s):" % (record.stem, params),
                 "    # What Dynamo does on a call: the newest entry whose guards hold "
                 "runs its",
                 "    # transformed code; when none holds, it compiles again.",
                 "    __local_dict = {%s}" % ", ".join("%r: %s" % (n, n) for n in names),
                 "    __global_dict = globals()"]
        for entry in reversed(record.entries):
            lines.append("    if __guard_%d_for_%s(__local_dict, __global_dict):"
                         % (entry.index, record.stem))
            lines.append("        return __transformed_code_%d_for_%s(%s)"
                         % (entry.index, record.stem, call))
        lines.append("    return %s(%s)\n" % (called, call))
        return "\n".join(lines)

    def _index(self) -> str:
        def link(file_name: str) -> str:
            return '<a href="%s">%s</a>' % (html.escape(file_name), html.escape(file_name))

        out = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'>",
               "<title>unpyc: what torch.compile did</title></head><body>",
               "<h1>What torch.compile did</h1>",
               "<p>unpyc rewrites this page after each compile while the block runs, "
               "and once more when it ends.</p>"]
        not_emitted = [line for line in map(self._not_emitted, self.graph_files) if line]
        if self.problems or not_emitted:
            out.append("<h2>Missing from this dump</h2><ul>")
            out.extend("<li>%s</li>" % html.escape(p) for p in self.problems + not_emitted)
            out.append("</ul>")
        linked = {name for record in self.functions.values()
                  for entry in record.entries for name in entry.graph_names}
        unlinked = sorted(name for name in self.graph_files if name not in linked)
        if unlinked:
            out.append("<h2>Graphs no dumped function calls</h2><ul>")
            for name in unlinked:
                files = sorted(self.graph_files[name].values())
                out.append("<li>%s: %s</li>" % (
                    html.escape(name), ", ".join(link(f) for f in files)))
            out.append("</ul>")
        for record in self.functions.values():
            out.append("<h2>%s%s</h2><ul>" % (
                html.escape(record.stem), " (resume function)" if record.is_resume else ""))
            full = "full_code_for_%s.py" % record.stem
            if (self.dump_dir / full).exists():
                out.append("<li>start here: %s</li>" % link(full))
            if record.is_resume and (self.dump_dir / (record.stem + ".py")).exists():
                out.append("<li>decompiled: %s</li>" % link(record.stem + ".py"))
            for entry in record.entries:
                out.append("<li>entry %d (compile id %s): %s<ul>" % (
                    entry.index, html.escape(str(entry.compile_id)), link(entry.file_name)))
                for note in self.notes.get(entry.compile_id or "", []):
                    out.append("<li><pre>%s</pre></li>" % html.escape(note))
                for name in entry.graph_names:
                    files = sorted(self._stage_files(name).values())
                    out.append("<li>%s: %s</li>" % (
                        html.escape(name), ", ".join(link(f) for f in files)))
                out.append("</ul></li>")
            out.append("</ul>")
        out.append("</body></html>")
        return "\n".join(out)


def _cache_entry(entry: _Entry, listed: Optional[List[hooks.CacheEntry]]
                 ) -> Optional[hooks.CacheEntry]:
    """The cache entry torch keeps for entry, among those it listed."""
    return next((cache_entry for cache_entry in listed or [] for code in entry.codes
                 if cache_entry.transformed_code is code), None)


def _code_files(dump_dir: Path) -> Dict[str, str]:
    """The text of each .py file of the dump whose code may run (all but
    the full_code_for_* files, which describe a run)."""
    texts = {}
    for path in dump_dir.glob("*.py"):
        if not path.name.startswith("full_code_for_"):
            with contextlib.suppress(OSError, UnicodeDecodeError):
                texts[path.name] = path.read_text(encoding="utf-8")
    return texts


def _same_code_lines(old: str, new: str, prefix: bool = False) -> bool:
    """Whether two texts differ at most in comment lines, line for line;
    with prefix, whether new is so the start of old."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    if prefix:
        old_lines = old_lines[:len(new_lines)]
    return len(old_lines) == len(new_lines) and all(
        a == b or (a.lstrip().startswith("#") and b.lstrip().startswith("#"))
        for a, b in zip(old_lines, new_lines))


def _forward_parameters(readable: str) -> List[str]:
    """The parameters of the forward of a graph as torch logs it
    (GraphModule.print_readable: one line, or one parameter a line with a
    comment after it), self left out."""
    match = re.search(r"def forward\((.*?)\):\s*\n", readable, re.S)
    if match is None:
        return []
    text = re.sub(r"#[^\n]*", "", match.group(1))
    return [name for name in re.findall(r"(\w+)\s*:", text)]


def _first_difference(old: str, new: str) -> str:
    """Where new first differs from old, comment lines aside."""
    for number, (a, b) in enumerate(zip(old.splitlines(), new.splitlines()), 1):
        if a != b and not (a.lstrip().startswith("#") and b.lstrip().startswith("#")):
            column = next(i for i, (x, y) in enumerate(zip(a + "\0", b + "\1")) if x != y)
            start = max(0, column - 30)
            return "line %d, column %d: was %r, is %r" % (
                number, column + 1, a[start:column + 50], b[start:column + 50])
    return "%d lines, now %d" % (len(old.splitlines()), len(new.splitlines()))


def _checked(part: str) -> str:
    """part, or part commented out when it is not valid Python on its own
    (full_code_for_*.py must compile whatever the decompiler gave)."""
    return part if _compiles(part) else _commented(part)


def _unique_id_number(name: str) -> int:
    """The number Dynamo's counters gave a global it installs:
    __compiled_fn_<n>_<uuid>, __resume_at_<offset>_<n>,
    __builtins_dict___<n>.  Names of one compile sorted by it are in the
    order torch made them."""
    match = re.match(r"__(?:compiled_fn|resume_at_\d+|builtins_dict__)_(\d+)", name)
    return int(match.group(1)) if match else 0


_AOT_STAGES = ("aot_joint_graph", "aot_forward_graph", "aot_backward_graph",
               "aot_inference_graph")


def _graph_stage(event: hooks.TraceEvent) -> Optional[str]:
    if event.kind == "dynamo_output_graph":
        return "captured_graph"
    if event.kind in _AOT_STAGES:
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
        return _inductor_stage(event.payload)
    return None


# Every stage a graph file may show (_graph_stage).
_STAGES = (("captured_graph", "pre_grad_graph") + _AOT_STAGES
           + ("post_grad_graph", "post_grad_backward_graph", "inductor_forward",
              "inductor_backward", "inductor_inference"))
# The trace events the dump reads (others, such as chromium_event,
# describe_tensor and str, nine in ten of a model's, are dropped at once):
# those that carry a graph, a reason, guards or a cache hit, end a compile,
# or start one (by then torch lists the cache entry of the compile before).
_EVENTS_READ = frozenset(("dynamo_start", "dynamo_output_graph", "dynamo_cpp_guards_str",
                          "inductor_output_code", "inductor_post_grad_graph")
                         + _AOT_STAGES + _COMPILE_END_EVENTS)
_ARTIFACTS_READ = frozenset(("dynamo_graph_break_reason", "inductor_post_grad_graph",
                             "after_pre_grad_graph", hooks.AOT_CACHE_HIT))


def _read_by_the_dump(event: hooks.TraceEvent) -> bool:
    if event.kind == "artifact":
        return event.metadata.get("name") in _ARTIFACTS_READ
    return event.kind in _EVENTS_READ


def _inductor_stage(source: str) -> str:
    """inductor_forward / _backward / _inference, from the module's
    "# AOT ID: ['0_forward']" first line."""
    match = re.search(r"# AOT ID: \['[^']*?_(forward|backward|inference)'\]", source[:500])
    return "inductor_" + (match.group(1) if match else "output")


# ---- the context managers ----

_active: List[_Dump] = []
_last_dump_dir: List[Path] = []


@contextlib.contextmanager
def _recording(dump_dir: Path, run_from_files: bool, keep_fx_code: bool = False,
               log_bytecode: bool = False) -> Iterator[_Dump]:
    hooks.check_version()
    dump_dir.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as undo:
        with warnings.catch_warnings(record=True) as missing:
            warnings.simplefilter("always", hooks.MissingHookWarning)
            dump = _Dump(dump_dir, run_from_files, log_bytecode)  # looks up the guard-check hook
            _active.append(dump)
            undo.callback(_active.remove, dump)
            # Undone last: until the bytecode hook is gone, a compile on
            # another thread may switch it on again.
            undo.callback(dump.guard_checks.switch_off)
            undo.enter_context(hooks.local_pgo_profile_disabled())
            undo.callback(hooks.register_bytecode_hook(dump.on_bytecode))
            undo.callback(hooks.listen_to_trace(dump.on_trace))
            # Graph code is compiled from its file in both blocks, so that
            # prepare_debug writes the very text debug() runs.
            undo.enter_context(hooks.graph_modules_compiled_eagerly())
            undo.callback(hooks.route_fx_graph_code(dump.route_graph_code))
            if run_from_files:
                undo.callback(hooks.route_inductor_modules(dump.route_inductor_module))
            elif keep_fx_code:
                undo.callback(hooks.route_fx_graph_code(dump.record_fx_code))
        for warning in missing:
            # Said again outside the catch, and written into the dump.
            dump.problems.append(str(warning.message))
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)
        try:
            yield dump
        finally:
            dump.finish()


@contextlib.contextmanager
def prepare_debug(dump_src_dir: "str | os.PathLike[str]", clean_wild_fx_code: bool = True,
                  log_bytecode: bool = False) -> Iterator[None]:
    """Records what torch.compile does inside the block and writes it under
    dump_src_dir as it happens (SPEC section 5): full_code_for_<fn>.py per
    compiled function, __transformed_code_<i>_for_<fn>.py, one file per graph
    and stage named after its __compiled_fn_* global, index.html.  The
    full_code files and index.html are rewritten after each compile and
    once more when the block ends.  Functions compiled before the block keep
    their cache entries and are not dumped again.

    The arguments are depyf's, with depyf's meaning:
    clean_wild_fx_code=False also keeps the code FX generates for every
    graph module in the block, fx_graph_code_<hash>.py (Dynamo's graphs and
    those torch makes for itself); log_bytecode=True writes Dynamo's
    original and transformed bytecode, as dis listings, beside each
    transformed-code file (__transformed_code_<i>_for_<fn>.original_bytecode.txt
    and .transformed_bytecode.txt).

    When several processes dump into one dir (torch.distributed ranks,
    multiprocessing), each writes its own folder in it, rank_<rank> or
    pid_<pid>, so that none overwrites another's files (_shared_dump_dir)."""
    path = dump_dir_of_this_process(Path(dump_src_dir).resolve())
    with _recording(path, run_from_files=False, keep_fx_code=not clean_wild_fx_code,
                    log_bytecode=log_bytecode):
        yield
    _last_dump_dir[:] = [path]


@contextlib.contextmanager
def debug(dump_dir: "str | os.PathLike[str] | None" = None, *,
          pause: bool = True) -> Iterator[None]:
    """Runs the block with the code torch.compile makes coming from the
    files prepare_debug wrote under dump_dir (default: the last
    prepare_debug's): transformed code, resume functions' transformed
    code, graph forwards and Inductor modules, so breakpoints set in those
    files are hit.  The same program compiles the same graphs again under
    other names; each is shown, and run, under the name it has in the dump
    (see _NameMap).  Dynamo's caches are reset on entry (so the block compiles afresh, from
    the files) and on exit (so nothing compiled from the files outlives
    the block).

    Like depyf's debug(), it first stops once in the debugger (breakpoint(),
    so PYTHONBREAKPOINT decides which one, 0 none) for the user to set
    breakpoints in the dumped files; `continue` runs the block.
    pause=False runs it without stopping."""
    if dump_dir is None:
        if _active:
            path = _active[-1].dump_dir
        elif _last_dump_dir:
            path = _last_dump_dir[0]
        else:
            raise ValueError("unpyc.debug() needs a dump_dir or an earlier prepare_debug")
    else:
        path = dump_dir_of_this_process(Path(dump_dir).resolve())
    hooks.reset_dynamo()
    try:
        with _recording(path, run_from_files=True):
            if pause and os.environ.get("PYTHONBREAKPOINT") != "0":
                print("unpyc.debug(): paused once, before the block runs.  The dumped files "
                      "are in %s: full_code_for_<fn>.py shows each compiled function; set "
                      "breakpoints in its __transformed_code_*, __resume_at_* or "
                      "__compiled_fn_* files, then continue (c)." % path)
                breakpoint()
            yield
    finally:
        hooks.reset_dynamo()


__all__ = ["prepare_debug", "debug", "DumpWarning"]
