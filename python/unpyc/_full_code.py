"""full_code_for_<fn>.py: what torch.compile did to one function, as a
Python file that compiles: each cache entry's guards as a function, its
graph-break and recompile reasons, the graphs it calls, its transformed
code and the resume functions it calls (recursively), the original
source, and a function showing Dynamo's dispatch."""

from __future__ import annotations

import functools
import inspect
import textwrap
import types
from typing import TYPE_CHECKING, List, Optional, Set, Tuple

from . import _torch_hooks as hooks
from ._dump_files import commented, compiles
from ._objects import identifier

if TYPE_CHECKING:
    from ._recorder import Entry, Function, Recorder


def full_code(recorder: "Recorder", record: "Function") -> str:
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
    for problem in recorder.files.problems:
        parts.append("# unpyc could not dump: " + problem.replace("\n", " ")[:400])
    parts.append("")
    _function_sections(recorder, record, parts, set())
    if not record.is_resume:
        parts.append("# The original source of %s:" % record.stem)
        parts.append(_original_source(recorder, record))
    parts.append(_dispatcher(record))
    return "\n".join(_checked(part) for part in parts) + "\n"


def _function_sections(recorder: "Recorder", record: "Function", parts: List[str],
                       seen: Set[str]) -> None:
    if record.stem in seen:
        return
    seen.add(record.stem)
    listed = hooks.cache_entries(record.code)
    for entry in record.entries:
        parts.append(_guard_function(recorder, record, entry, cache_entry(entry, listed)))
        for note in recorder.compile_of(entry).notes:
            parts.append(commented(note))
        for name in entry.graph_names:
            files = sorted(recorder.files.stage_files(name).values())
            parts.append("# Graphs of %s: %s" % (name, ", ".join(files) or "none dumped"))
            not_emitted = recorder.not_emitted(name)
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
            resume = recorder.resume_functions.get(name)
            if resume is None:
                parts.append("# Resume function %s: not found in the globals" % name)
                continue
            parts.append("# Resume function %s (also in %s.py); Dynamo compiles it "
                         "when it runs:" % (name, name))
            parts.append(recorder.decompiled(resume.code, name))
            if resume.stem in seen:
                # A recompile installs the resume code of an earlier one anew.
                parts.append("# The same code as %s: its cache entries are above."
                             % resume.stem)
                continue
            _function_sections(recorder, resume, parts, seen)
            parts.append(_dispatcher(resume))


def _guard_function(recorder: "Recorder", record: "Function", entry: "Entry",
                    listed: Optional[hooks.CacheEntry]) -> str:
    name = "__guard_%d_for_%s" % (entry.index, record.stem)
    lines = ["# Guards of cache entry %d of %s (compile id %s): the transformed code"
             % (entry.index, record.stem, entry.compile_id),
             "# runs only while they all hold.  L: the frame's locals, G: its globals."]
    tree = recorder.compile_of(entry).guard_tree
    if tree:
        lines.append("# The guard tree torch checks (C++):")
        lines.append(commented(tree))
    lines.append("def %s(L, G, **___kwargs_ignored):" % name)
    lines.append("    __guard_hit = True")
    if listed is None and recorder.awaits_listing(entry):
        lines.append("    # (not listed by torch yet: it adds the entry to its cache after "
                     "the compile;")
        lines.append("    # this file is rewritten when it does: at the next call of compiled "
                     "code,")
        lines.append("    # the next compile or the block's end)")
    elif listed is None:
        lines.append("    # (this entry is no longer in Dynamo's cache, or torch cannot "
                     "list the cache)")
    else:
        for part in listed.guard_parts:
            if compiles(part, "eval"):
                lines.append("    __guard_hit = __guard_hit and (%s)" % part)
            else:
                lines.append("    # %s" % part.replace("\n", " "))
    lines.append("    return __guard_hit\n")
    return "\n".join(lines)


@functools.lru_cache(maxsize=256)
def _source_in_its_file(code: types.CodeType) -> Optional[str]:
    """code's def as its file has it, dedented; None without one.  Cached:
    each rewrite of a full_code file shows it again, and inspect reads and
    tokenizes the file for it each time."""
    try:
        return textwrap.dedent(inspect.getsource(code))
    except (OSError, TypeError):
        return None


def _original_source(recorder: "Recorder", record: "Function") -> str:
    source = _source_in_its_file(record.code)
    return source if source is not None else recorder.decompiled(record.code,
                                                                 record.code.co_name)


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


def _dispatcher(record: "Function") -> str:
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


def cache_entry(entry: "Entry", listed: Optional[List[hooks.CacheEntry]]
                ) -> Optional[hooks.CacheEntry]:
    """The cache entry torch keeps for entry, among those it listed."""
    return next((found for found in listed or [] for code in entry.codes
                 if found.transformed_code is code), None)


def _checked(part: str) -> str:
    """part, or part commented out when it is not valid Python on its own
    (full_code_for_*.py must compile whatever the decompiler gave)."""
    return part if compiles(part) else commented(part)
