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

The parts, in the order a newcomer meets them:
  _recorder.Recorder    receives torch's events (through the hooks wired
                        below) and keeps what they say;
  _dump_files           writes the dump's files, graph files included;
  _transformed_code     Dynamo's code as a def that reads and runs;
  _dump_names           the names debug() shares with prepare_debug's files;
  _full_code, _report   full_code_for_<fn>.py and index.html.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from pathlib import Path
from typing import Iterator, List

from . import _torch_hooks as hooks
from ._dump_files import DumpWarning
from ._recorder import Recorder
from ._shared_dump_dir import dump_dir_of_this_process


# ---- the context managers ----

_active: List[Recorder] = []
_last_dump_dir: List[Path] = []


@contextlib.contextmanager
def _recording(dump_dir: Path, run_from_files: bool, keep_fx_code: bool = False,
               log_bytecode: bool = False) -> Iterator[Recorder]:
    hooks.check_version()
    dump_dir.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as undo:
        with warnings.catch_warnings(record=True) as missing:
            warnings.simplefilter("always", hooks.MissingHookWarning)
            dump = Recorder(dump_dir, run_from_files, log_bytecode)  # looks up the guard-check hook
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
            dump.files.problems.append(str(warning.message))
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
    (see _dump_names.NameMap).  Dynamo's caches are reset on entry (so the block compiles afresh, from
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
