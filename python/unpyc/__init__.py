"""unpyc: a Python bytecode decompiler written in C.

The engine (libunpyc) reads marshal data and .pyc files of CPython 3.8 to
3.13 itself, whichever Python runs it.  This package hands it a code object
of the running interpreter (read by the extension as marshal data of it
would read; marshal.dumps where that reader leaves it) or the bytes of a
file.
"""

from __future__ import annotations

import importlib
import json as _json
import marshal
import sys
from types import CodeType
from typing import Any, Dict, Iterable, Optional, Tuple

from . import _engine
from ._objects import assumed_imports, code_of, inferred_imports, module_symbols, with_valid_names
from ._placeholders import _VALUE_OPS, StandIns
from .errors import (
    BadMagicError,
    BadReferenceError,
    CorruptError,
    EngineMemoryError,
    NotPycError,
    TooLargeError,
    TruncatedError,
    UnpycError,
    UnsupportedError,
    VerificationError,
)

__all__ = [
    "decompile",
    "decompile_pyc",
    "dis",
    "dis_json",
    "dis_pyc",
    "prepare_debug",
    "debug",
    "install",
    "uninstall",
    "UnpycError",
    "NotPycError",
    "BadMagicError",
    "TruncatedError",
    "CorruptError",
    "BadReferenceError",
    "TooLargeError",
    "UnsupportedError",
    "EngineMemoryError",
    "VerificationError",
]

__version__ = "0.1.0"

# The running interpreter's version, that of what marshal.dumps writes.
_MAJOR, _MINOR = sys.version_info[:2]


def __getattr__(name: str) -> Any:
    # What touches torch is imported on first use; `import unpyc` must not
    # import torch.  With these, `import unpyc as depyf` keeps depyf's
    # names: prepare_debug, debug, install, uninstall, optimization.
    if name in ("prepare_debug", "debug"):
        from . import explorer

        return getattr(explorer, name)
    if name in ("install", "uninstall"):
        from . import bytecode_log

        return getattr(bytecode_log, name)
    if name in ("optimization", "utils"):
        return importlib.import_module("." + name, __name__)
    raise AttributeError("module 'unpyc' has no attribute %r" % (name,))


def _raise_engine_error(error: Exception, path: Optional[str] = None) -> None:
    from .errors import from_engine

    status, message, offset = error.args
    raise from_engine(status, message, offset, path) from None


def _dis_code(obj: Any, as_json: bool) -> str:
    stand_ins = StandIns(code_of(obj))
    try:
        text = _engine.dis_marshal(marshal.dumps(stand_ins.code), _MAJOR, _MINOR, as_json)
    except _engine.EngineError as e:
        _raise_engine_error(e)
        raise  # unreachable: keeps type checkers informed
    # JSON has no place for the comment block saying what the names are.
    return stand_ins.named(text) if as_json else stand_ins.shown(text)


def decompile(obj: Any, *, verify: bool = True, on_mismatch: str = "annotate",
              stable_globals: Iterable[str] = ()) -> str:
    """Python source for obj: a code object, function, method,
    functools.partial, class or module of the running interpreter, or a
    callable wrapping a function (functools.wraps / lru_cache wrapper,
    callable instance, staticmethod, classmethod).

    A module gives the module's source; a function (or its code object) the
    whole def statement (without defaults, annotations and decorators,
    which live outside the code object), a lambda's the lambda expression;
    a class its class statement.  Constants no literal makes (devices,
    functions, modules... in code made by tools such as Dynamo) are shown
    as names, __unpyc_const_N, listed in a comment block on top.

    By default the source is verified: the running interpreter compiles
    it again and the result is compared with the code it came from (the
    round-trip oracle's comparison, SPEC section 2; constants named as
    above compared as what they stand for).  When they differ, on_mismatch
    says what happens: "annotate" (the default) returns the source with a
    first line "# unpyc: not equivalent: <first difference>", naming the
    function and instruction; "raise" raises VerificationError naming it.
    verify=False skips the check (its cost is one compile of the output
    and a comparison: see benchmarks/verify_cost.py); the output is then
    unchecked.

    stable_globals names globals the caller vouches for: bound before the
    code runs and rebound by nothing while it runs (bytecode cannot tell;
    any call may rebind a global).  Where the engine held values the
    bytecode keeps on the stack in __stack temporaries, it then moves
    reads of these names past calls as it folds the temporaries back into
    expressions (engine/recover/fold.c).  Such source does not compile
    back to the same bytecode; a check of its effects
    (unpyc.effects.same_effects) must be given the same names.  The
    torch.compile explorer vouches for the globals Dynamo installs
    (unpyc._torch_hooks.stable_globals).
    """
    if on_mismatch not in ("raise", "annotate"):
        raise ValueError("on_mismatch must be 'raise' or 'annotate', not %r" % (on_mismatch,))
    code = code_of(obj)
    stable = tuple(sorted(stable_globals)) if stable_globals else ()
    # The usual case in one call: the extension reads the code object as it
    # is (no marshal data) and says None where the general way is needed,
    # False where only the names are (a comprehension's code).
    read = _engine.decompile_code(code, _MAJOR, _MINOR, stable, _VALUE_OPS)
    if read:
        text, unrecovered = read
        compilable, name = text, code.co_name
    else:
        text, unrecovered, stand_ins, code = _decompile_generally(
            code, stable, as_is=read is None)
        compilable, name = stand_ins.compilable(text), stand_ins.code.co_name
    if not verify:
        return text
    problem = _verification_problem(obj, code, compilable)
    if problem is None:
        return text
    verdict = "not equivalent"
    if name in _COMPREHENSIONS:
        verdict = "not verified (a comprehension's code alone, as a def, need not compile back to it)"
    if on_mismatch == "annotate":
        return "# unpyc: %s: %s\n%s" % (verdict, " ".join(problem.split()), text)
    raise VerificationError(
        "the decompiled source is %s: %s" % (verdict, problem),
        detail=problem,
        source=text,
        unrecovered=unrecovered,
    )


# Code objects of comprehensions: decompiled alone they come out as a def,
# whose code is not a comprehension's.
_COMPREHENSIONS = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")


def _verification_problem(obj: Any, code: CodeType, source: str) -> Optional[str]:
    """The first difference between code and source compiled (None when
    equivalent).  A code object of unknown module is compiled in up to
    three module scopes: that of no imports, that which its own calls tell
    (_objects.inferred_imports: where some globals are imports and others
    not, neither of the other two fits) and that where every global it
    uses is an import (_objects.assumed_imports); equivalent in any counts
    (the scope only decides how `name.attr(...)` is called)."""
    from .roundtrip import verify_decompiled

    module = module_symbols(obj)
    problem = verify_decompiled(code, source, module=module)
    if problem is None or module is not None or code.co_name == "<module>":
        return problem
    for scope in (inferred_imports, assumed_imports):
        if verify_decompiled(code, source, module=scope(code)) is None:
            return None
    return problem


def _decompile_generally(code: CodeType, stable_globals: Tuple[str, ...], as_is: bool = True
                         ) -> Tuple[str, int, StandIns, CodeType]:
    """The source of code (with its stand-ins shown), the count of parts not
    recovered, the stand-ins, and the code the source is to compile back to:
    by way of marshal.dumps, and a copy of the code with valid names where
    names_printable says they are not and the source is no lambda
    expression.  as_is=False: the caller knows that already (decompile_code
    said False), so the code is decompiled renamed only."""
    stand_ins = StandIns(code)
    code = stand_ins.code
    if as_is:
        source, unrecovered = _decompile_marshal(code, stable_globals)
        if _engine.names_printable(code) or source.startswith("lambda"):
            return stand_ins.shown(source), unrecovered, stand_ins, code
    code, note = with_valid_names(code)
    read = _engine.decompile_code(code, _MAJOR, _MINOR, stable_globals, _VALUE_OPS)
    source, unrecovered = read if read else _decompile_marshal(code, stable_globals)
    return stand_ins.shown(note + source), unrecovered, stand_ins, code


def _decompile_marshal(code: CodeType, stable_globals: Tuple[str, ...]) -> Tuple[str, int]:
    try:
        return _engine.decompile_marshal(marshal.dumps(code), _MAJOR, _MINOR, stable_globals)
    except _engine.EngineError as e:
        _raise_engine_error(e)
        raise


def decompile_pyc(path: str, *, verify: bool = True, on_mismatch: str = "annotate") -> str:
    """Python source for a .pyc file of any supported version.

    By default the source is verified by CPython of the file's version:
    this interpreter when the file is its own, else that version's
    interpreter if this machine has one (pyenv's, or pythonX.Y on PATH),
    run in a subprocess.  When the module or a function in it is not
    equivalent, the source starts with comment lines naming each function
    that differs and its first difference (on_mismatch="annotate", the
    default), or VerificationError is raised (on_mismatch="raise").  When
    no interpreter of the file's version is found, the first line says
    "# unpyc: not verified: ...".  verify=False skips all this."""
    if on_mismatch not in ("raise", "annotate"):
        raise ValueError("on_mismatch must be 'raise' or 'annotate', not %r" % (on_mismatch,))
    with open(path, "rb") as f:
        data = f.read()
    try:
        source, unrecovered = _engine.decompile_pyc(data)
        version = _engine.pyc_version(data)
    except _engine.EngineError as e:
        _raise_engine_error(e, path)
        raise
    source = str(source)
    if not verify:
        return source
    from ._pyc_verification import verify as verify_pyc

    equivalent, note = verify_pyc(path, data, version, source)
    if equivalent is False and on_mismatch == "raise":
        raise VerificationError(
            "the decompiled source is not equivalent:\n" + note,
            detail=note, source=source, unrecovered=unrecovered)
    return source if equivalent else note + source


def dis(obj: Any) -> str:
    """The disassembly of obj (code object, function, method, partial,
    module or source string) and of every code object nested in it."""
    return _dis_code(obj, False)


def dis_json(obj: Any) -> Dict[str, Any]:
    """The disassembly of obj as the JSON document of `unpyc --dis --json`,
    parsed: {"version": "3.X", "code": {...}} (see the README)."""
    result: Dict[str, Any] = _json.loads(_dis_code(obj, True))
    return result


def dis_pyc(path: str, *, json: bool = False) -> str:
    """The disassembly of a .pyc file of any supported version."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return _engine.dis_pyc(data, json)
    except _engine.EngineError as e:
        _raise_engine_error(e, path)
        raise
