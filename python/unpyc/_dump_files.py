"""Writing a dump's files: each written whole (a reader or a kill never
meets half of one), a file prepare_debug wrote kept as it is under
debug(), and the graph files, one per graph and stage.

What goes into the files is decided elsewhere: the recorder (what torch
did), _transformed_code (Dynamo's code as a def), _full_code and _report.
A failure to make a file becomes a warning and a line in the dump's list
of what is missing (attempt), never the user's compile's failure.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import traceback
import warnings
from pathlib import Path
from typing import Dict, Iterator, List, Optional

from . import _torch_hooks as hooks

# What a graph file holds between the code FX runs and the graph torch logged.
READABLE_NOTE = "\n\n# unpyc: the graph above, with shapes (from torch's trace):\n"

AOT_STAGES = ("aot_joint_graph", "aot_forward_graph", "aot_backward_graph",
              "aot_inference_graph")
# Every stage a graph file may show (the recorder's graph_stage).
STAGES = (("captured_graph", "pre_grad_graph") + AOT_STAGES
          + ("post_grad_graph", "post_grad_backward_graph", "inductor_forward",
             "inductor_backward", "inductor_inference"))


class DumpWarning(UserWarning):
    """Part of the dump could not be made; the rest and the user's program
    go on."""


@functools.lru_cache(maxsize=4096)
def compiles(text: str, mode: str = "exec") -> bool:
    """Whether text is valid Python: a module ("exec") or an expression
    ("eval").  Cached: the full_code files, rewritten after each compile,
    ask it again of every part they hold."""
    try:
        compile(text, "<unpyc dump>", mode, dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def commented(text: str) -> str:
    return "\n".join(("# " + line).rstrip() for line in text.splitlines())


def inductor_stage(source: str) -> str:
    """inductor_forward / _backward / _inference, from the module's
    "# AOT ID: ['0_forward']" first line."""
    match = re.search(r"# AOT ID: \['[^']*?_(forward|backward|inference)'\]", source[:500])
    return "inductor_" + (match.group(1) if match else "output")


class DumpFiles:
    """The files of one dump folder, and what the dump could not make."""

    def __init__(self, dump_dir: Path, run_from_files: bool) -> None:
        self.dump_dir = dump_dir
        self.problems: List[str] = []
        self.graph_files: Dict[str, Dict[str, str]] = {}  # name -> stage -> file name
        self.graph_texts: Dict[str, str] = {}  # file name -> readable graph
        self.runnable_files: Dict[str, str] = {}  # file name -> code that runs
        self.runnable_inputs: Dict[str, List[str]] = {}  # file name -> its graph's inputs
        self.inductor_modules: Dict[str, str] = {}  # file name -> Inductor's output module
        # The code files there before the block: debug() keeps them, and
        # warns at its end about those its compiles changed, since
        # breakpoints set in them may have moved.
        self.found_texts = code_files(dump_dir) if run_from_files else {}

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
        if written == found and found is not None and same_code_lines(found, text, prefix=True):
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

    # -- graph files: <graph name>.<stage>.py --

    def graph_file(self, name: str, stage: str) -> str:
        file_name = "%s.%s.py" % (name, stage)
        self.graph_files.setdefault(name, {})[stage] = file_name
        return file_name

    def stage_files(self, name: str) -> Dict[str, str]:
        """The files of graph name's stages, stage -> file name: those of
        this block, and under debug() those prepare_debug wrote of stages
        this block's compile did not log (it was loaded from a cache)."""
        files = dict(self.graph_files.get(name, {}))
        for stage in STAGES:
            file_name = "%s.%s.py" % (name, stage)
            if stage not in files and file_name in self.found_texts:
                files[stage] = file_name
        return files

    def write_graph(self, name: str, stage: str, event: hooks.TraceEvent) -> None:
        file_name = self.graph_file(name, stage)
        payload = event.payload.rstrip("\n")
        about = "# %s of %s (compile id %s), written by unpyc from torch's trace." % (
            stage, name, event.compile_id)
        sizes = event.metadata.get("sizes")
        if sizes:
            about += "\n# sizes: %s" % (sizes,)
        if stage.startswith("inductor_"):
            # Byte for byte the module Inductor loads (debug() loads it from
            # here), so notes go after it.
            self.inductor_modules[file_name] = payload
            self.write(file_name, payload + "\n\n" + about + "\n")
            return
        if not compiles(payload):
            payload = commented(payload)
        self.graph_texts[file_name] = payload
        if file_name in self.runnable_files and (
                self.runnable_inputs.get(file_name) != forward_parameters(payload)):
            # The last graph routed here was another one of the compile's:
            # the file shows the logged graph until its own code comes.
            del self.runnable_files[file_name]
        if file_name in self.runnable_files:
            self.write_runnable(file_name)
        elif not self._found_under_its_code(file_name, payload):
            self.write(file_name, about + "\n" + payload + "\n")

    def _found_under_its_code(self, file_name: str, readable: str) -> bool:
        """Under debug(), whether the file prepare_debug wrote still shows
        this graph after the code FX ran for it then (write_runnable): a
        compile loaded from torch's caches makes no AOTAutograd graph
        modules, so debug() may meet only the logged graph of a file
        prepare_debug compiled; the file is kept, breakpoints and all."""
        found = self.found_texts.get(file_name)
        if found is None or not found.endswith(READABLE_NOTE + commented(readable) + "\n"):
            return False
        with contextlib.suppress(OSError, UnicodeDecodeError):
            return (self.dump_dir / file_name).read_text(encoding="utf-8") == found
        return False

    def write_runnable(self, file_name: str) -> Path:
        """The graph code FX runs, first (breakpoints go there), then the
        readable graph with shapes as comments."""
        text = self.runnable_files[file_name].rstrip("\n") + "\n"
        readable = self.graph_texts.get(file_name)
        if readable:
            text += READABLE_NOTE + commented(readable) + "\n"
        return self.write(file_name, text)

    def write_inductor_module(self, file_name: str, source: str) -> Path:
        """Inductor's output module, loaded from file_name under debug():
        kept when the file already holds it (then unpyc's notes)."""
        target = self.dump_dir / file_name
        try:
            written = target.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            written = ""
        # The file holds the module, then unpyc's notes (write_graph).
        if not same_code_lines(written, source, prefix=True):
            self.write(file_name, source)
        self.inductor_modules[file_name] = source
        return target

    def inductor_module(self, file_name: str) -> Optional[str]:
        """The text of the Inductor module in file_name: of this block, or
        under debug() the one prepare_debug wrote there."""
        return self.inductor_modules.get(file_name, self.found_texts.get(file_name))

    def warn_changed(self) -> None:
        """Under debug(), at the block's end: a warning for each code file
        prepare_debug wrote that this block's compiles changed."""
        now = code_files(self.dump_dir)
        for file_name, text in self.found_texts.items():
            if not same_code_lines(text, now.get(file_name, "")):
                warnings.warn("unpyc: %s changed under debug(): a compile differed from "
                              "the dump's, so breakpoints set in it may have moved (%s)"
                              % (self.dump_dir / file_name,
                                 _first_difference(text, now.get(file_name, ""))),
                              DumpWarning, stacklevel=5)


def code_files(dump_dir: Path) -> Dict[str, str]:
    """The text of each .py file of the dump whose code may run (all but
    the full_code_for_* files, which describe a run)."""
    texts = {}
    for path in dump_dir.glob("*.py"):
        if not path.name.startswith("full_code_for_"):
            with contextlib.suppress(OSError, UnicodeDecodeError):
                texts[path.name] = path.read_text(encoding="utf-8")
    return texts


def same_code_lines(old: str, new: str, prefix: bool = False) -> bool:
    """Whether two texts differ at most in comment lines, line for line;
    with prefix, whether new is so the start of old."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    if prefix:
        old_lines = old_lines[:len(new_lines)]
    return len(old_lines) == len(new_lines) and all(
        a == b or (a.lstrip().startswith("#") and b.lstrip().startswith("#"))
        for a, b in zip(old_lines, new_lines))


def forward_parameters(readable: str) -> List[str]:
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
