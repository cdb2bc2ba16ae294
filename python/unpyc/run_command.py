"""`python -m unpyc run` and `python -m unpyc debug`: a whole program run
inside unpyc.prepare_debug or unpyc.debug without editing it, the way
`python -m pdb` and `python -m cProfile` run one.

The program sees what `python script.py ARGS` (or `python -m module ARGS`)
gives it: sys.argv (with the script's absolute path as sys.argv[0], as
runpy sets it), `__name__ == "__main__"`, sys.path[0] the script's folder
(the current folder for -m).  Its exit status and its uncaught
exception (printed by sys.excepthook, without the runner's frames) become
the command's, and its atexit functions run when the command exits.
`run --debug` is `run` and then `debug`, each in a process of its own.
"""

from __future__ import annotations

import importlib.util
import os
import runpy
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import ContextManager, List, Optional, Sequence

# In the folder the command runs in, not the script's: a module run with
# -m has no folder of its own, and the script's may be read-only or shared;
# one fixed name is easy to find and to ignore in version control.
DEFAULT_DUMP_DIR = "unpyc_dump"

USAGE = """\
usage: python -m unpyc run [--dump DIR] [--debug [--no-pause]] script.py [ARGS...]
       python -m unpyc run [--dump DIR] [--debug [--no-pause]] -m module [ARGS...]
       python -m unpyc debug [--dump DIR] [--no-pause] (script.py | -m module) [ARGS...]

run     runs the program inside unpyc.prepare_debug(DIR): everything
        torch.compile does is written under DIR (default ./%s);
        open DIR/index.html first.
        --debug: then runs it again, in a fresh process, under
        unpyc.debug(DIR), so that the code torch.compile made runs from
        the files in DIR and breakpoints set there are hit.
debug   that second run alone, on an earlier run's DIR.
        It first stops in the debugger (set breakpoints in DIR's files,
        then `continue`); --no-pause runs straight through.
""" % DEFAULT_DUMP_DIR


class UsageError(Exception):
    """The command line is not one USAGE allows."""


@dataclass(frozen=True)
class Program:
    """What to run: a script's path, or a module's name with is_module."""

    target: str
    is_module: bool
    args: List[str]

    def command_line(self) -> List[str]:
        """The arguments after `python` that run it."""
        return (["-m"] if self.is_module else []) + [self.target] + self.args


@dataclass(frozen=True)
class Options:
    """A parsed `run` or `debug` command line."""

    command: str
    dump_dir: str
    debug_after: bool
    pause: bool
    program: Program


def parse(command: str, argv: Sequence[str]) -> Optional[Options]:
    """Options of `run` or `debug` (None for -h); the first argument that
    is not one of ours is the script (or `-m module`), and every later one
    is the program's."""
    dump_dir, debug_after, pause = DEFAULT_DUMP_DIR, False, True
    index = 0
    while index < len(argv):
        arg = argv[index]
        if arg == "--dump" and index + 1 < len(argv):
            dump_dir, index = argv[index + 1], index + 2
        elif arg.startswith("--dump="):
            dump_dir, index = arg[len("--dump="):], index + 1
        elif arg == "--debug" and command == "run":
            debug_after, index = True, index + 1
        elif arg in ("-h", "--help"):
            return None
        elif arg == "--no-pause":
            pause, index = False, index + 1
        elif arg == "-m" and index + 1 < len(argv):
            program = Program(argv[index + 1], True, list(argv[index + 2:]))
            break
        elif arg == "--" and index + 1 < len(argv):
            program = Program(argv[index + 1], False, list(argv[index + 2:]))
            break
        elif arg.startswith("-") or not arg:
            raise UsageError("unknown option or missing value: %r" % (arg,))
        else:
            program = Program(arg, False, list(argv[index + 1:]))
            break
    else:
        raise UsageError("no script or -m module to run")
    if not pause and command == "run" and not debug_after:
        raise UsageError("--no-pause goes with --debug")
    return Options(command, dump_dir or DEFAULT_DUMP_DIR, debug_after, pause, program)


def _say(message: str) -> None:
    """A line of ours on stderr, after what the program printed so far."""
    sys.stdout.flush()
    print("unpyc: " + message, file=sys.stderr, flush=True)


def _exit_status(code: object) -> int:
    """The status python exits with on SystemExit(code)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _program_frames(tb: Optional[TracebackType]) -> Optional[TracebackType]:
    """tb without its leading frames of this module and runpy, so that it
    starts where python's own would: in the program."""
    runner_files = {_run_once.__code__.co_filename, runpy.run_path.__code__.co_filename}
    while tb is not None and tb.tb_frame.f_code.co_filename in runner_files:
        tb = tb.tb_next
    return tb


def _run_once(program: Program) -> int:
    """Runs the program as `__main__` and gives its exit status; an
    exception it does not catch is printed as python prints it."""
    try:
        if program.is_module:
            runpy.run_module(program.target, run_name="__main__", alter_sys=True)
        else:
            # Absolute, as python makes __file__ and the code's file name:
            # tracebacks, breakpoints and the dump name the script wherever
            # the program changes folder to.  runpy puts it in sys.argv[0] too.
            runpy.run_path(os.path.abspath(program.target), run_name="__main__")
    except SystemExit as exit_request:
        return _exit_status(exit_request.code)
    except BaseException as error:
        tb = _program_frames(error.__traceback__)
        sys.excepthook(type(error), error.with_traceback(tb), tb)
        # Python ends on an uncaught Ctrl-C by SIGINT: 128 + 2 to a shell.
        return 128 + signal.SIGINT if isinstance(error, KeyboardInterrupt) else 1
    return 0


def _enter_program_context(program: Program) -> None:
    """sys.argv and sys.path[0] as python sets them for the program; left
    so afterwards, as its atexit functions may need them."""
    sys.argv = [program.target] + program.args
    if program.is_module:
        sys.path[0] = os.getcwd()
    else:
        sys.path[0] = os.path.dirname(os.path.realpath(program.target))


def _top_package_exists(module: str) -> bool:
    """Whether the module's top-level package can be found, without running
    any of it: a mistyped name is told before the dump is started (and an
    earlier dump overwritten); the rest is imported inside the block, where
    what it compiles at import time is recorded."""
    return importlib.util.find_spec(module.partition(".")[0]) is not None


def _child_status(command: List[str]) -> int:
    """Runs `python -m unpyc COMMAND...` and gives its exit status (128 + N
    when signal N ended it, as shells report it)."""
    sys.stdout.flush()
    child = subprocess.Popen([sys.executable, "-m", "unpyc"] + command)
    # Ctrl-C belongs to the child (to the debugger, where it breaks into the
    # running program); ignored only once the child has started, as it
    # would inherit the ignore.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        status = child.wait()
    finally:
        signal.signal(signal.SIGINT, previous)
    return 128 - status if status < 0 else status


def _run_then_debug(options: Options, dump_dir: Path) -> int:
    """`run --debug`: `run` and then `debug`, each in a process of its own,
    as a program runs once per process: state the first run leaves in the
    modules it imported (a model built at import time, then trained) would
    change what a second run in the same process computes, and its atexit
    functions would run after the second run.  The exit status is the
    first run's if it failed, else the second's; a first run ended by
    Ctrl-C ends the command."""
    program = options.program.command_line()
    status = _child_status(["run", "--dump", str(dump_dir)] + program)
    if status == 128 + signal.SIGINT:
        return status
    _say("running %s again under unpyc.debug(%r)" % (" ".join(program), str(dump_dir)))
    pause = [] if options.pause else ["--no-pause"]
    return status or _child_status(["debug", "--dump", str(dump_dir)] + pause + program)


def _recording_context(options: Options, dump_dir: Path) -> Optional[ContextManager[None]]:
    """prepare_debug(dump_dir) for run, debug(dump_dir) for debug; None,
    said why, when this python has no torch."""
    try:
        from . import explorer
    except ImportError as error:
        _say("%s needs torch, which this python cannot import: %s" % (options.command, error))
        return None
    if options.command == "run":
        return explorer.prepare_debug(dump_dir)
    return explorer.debug(dump_dir, pause=options.pause)


def _run_here(options: Options, dump_dir: Path) -> int:
    """The program run in this process inside prepare_debug or debug; its
    exit status."""
    context = _recording_context(options, dump_dir)
    if context is None:
        return 1
    try:
        with context:
            status = _run_once(options.program)
    finally:
        verb = "wrote" if options.command == "run" else "ran the program from"
        _say("%s the dump in %s; open %s first" % (verb, dump_dir, dump_dir / "index.html"))
    return status


def execute(options: Options) -> int:
    """Runs the command; its exit status."""
    program = options.program
    if not program.is_module and not os.path.exists(program.target):
        _say("can't open file %r: no such file or directory" % (program.target,))
        return 2
    dump_dir = Path(options.dump_dir).resolve()
    if options.command == "debug" and not (dump_dir / "index.html").exists():
        _say("no dump in %s: make one with `python -m unpyc run`" % (dump_dir,))
        return 2
    _enter_program_context(program)
    if program.is_module and not _top_package_exists(program.target):
        _say("No module named %r" % (program.target.partition(".")[0],))
        return 1
    if options.debug_after:
        return _run_then_debug(options, dump_dir)
    return _run_here(options, dump_dir)


def main(command: str, argv: Sequence[str]) -> int:
    """`python -m unpyc COMMAND ARGV...` for COMMAND run or debug."""
    try:
        options = parse(command, argv)
    except UsageError as error:
        print("unpyc %s: %s\n%s" % (command, error, USAGE), end="", file=sys.stderr)
        return 2
    if options is None:
        print(USAGE, end="")
        return 0
    return execute(options)

