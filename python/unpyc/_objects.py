"""Finding the code object behind what a user hands to unpyc."""

from __future__ import annotations

import functools
import types
from typing import Any


def code_of(obj: Any) -> types.CodeType:
    """The code object of a code object, function, method, partial, module
    or source string; TypeError for anything else."""
    if isinstance(obj, types.CodeType):
        return obj
    if isinstance(obj, str):
        return compile(obj, "<string>", "exec")
    if isinstance(obj, functools.partial):
        return code_of(obj.func)
    if isinstance(obj, types.MethodType):
        return code_of(obj.__func__)
    if isinstance(obj, (staticmethod, classmethod)):
        return code_of(obj.__func__)
    if isinstance(obj, types.FunctionType):
        return obj.__code__
    if isinstance(obj, types.ModuleType):
        return _module_code(obj)
    raise TypeError(
        "unpyc cannot find code in a %s object; give a code object, function, "
        "method, functools.partial, module or source string" % type(obj).__name__
    )


def _module_code(module: types.ModuleType) -> types.CodeType:
    spec = getattr(module, "__spec__", None)
    loader = getattr(spec, "loader", None)
    get_code = getattr(loader, "get_code", None)
    code = get_code(module.__name__) if get_code else None
    if not isinstance(code, types.CodeType):
        raise TypeError("module %s has no code to read" % module.__name__)
    return code
