"""unpyc: a Python bytecode decompiler written in C.

The engine (libunpyc) reads marshal data and .pyc files of CPython 3.8 to
3.13 itself, whichever Python runs it.  This package hands it the bytes of a
code object of the running interpreter (marshal.dumps) or of a file.
"""

from __future__ import annotations

import importlib
import json as _json
import marshal
import sys
from typing import Any, Dict, Optional

from . import _engine
from ._objects import code_of, module_symbols
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
    code = code_of(obj)
    major, minor = sys.version_info[:2]
    try:
        return _engine.dis_marshal(marshal.dumps(code), major, minor, as_json)
    except _engine.EngineError as e:
        _raise_engine_error(e)
        raise  # unreachable: keeps type checkers informed


def decompile(obj: Any, *, verify: bool = False, on_mismatch: str = "raise") -> str:
    """Python source for obj: a code object, function, method,
    functools.partial, class or module of the running interpreter.

    A module gives the module's source; a function (or its code object) the
    whole def statement (without defaults, annotations and decorators,
    which live outside the code object); a class its class statement.

    verify=True compiles the source again and compares the result with the
    code it came from (SPEC section 2).  When they differ, on_mismatch says
    what happens: "raise" raises VerificationError naming the first
    difference; "annotate" returns the source with that difference as a
    comment on its first line.
    """
    if on_mismatch not in ("raise", "annotate"):
        raise ValueError("on_mismatch must be 'raise' or 'annotate', not %r" % (on_mismatch,))
    code = code_of(obj)
    major, minor = sys.version_info[:2]
    try:
        source, unrecovered = _engine.decompile_marshal(
            marshal.dumps(code), major, minor
        )
    except _engine.EngineError as e:
        _raise_engine_error(e)
        raise
    text = str(source)
    if not verify:
        return text
    from .roundtrip import verify_decompiled

    problem = verify_decompiled(code, text, module=module_symbols(obj))
    if problem is None:
        return text
    if on_mismatch == "annotate":
        return "# unpyc: not equivalent: %s\n%s" % (" ".join(problem.split()), text)
    raise VerificationError(
        "the decompiled source is not equivalent: " + problem,
        detail=problem,
        source=text,
        unrecovered=unrecovered,
    )


def decompile_pyc(path: str) -> str:
    """Python source for a .pyc file of any supported version."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        source, _unrecovered = _engine.decompile_pyc(data)
    except _engine.EngineError as e:
        _raise_engine_error(e, path)
        raise
    return str(source)


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
