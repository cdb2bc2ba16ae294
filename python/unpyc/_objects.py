"""Finding the code object behind what a user hands to unpyc."""

from __future__ import annotations

import functools
import keyword
import symtable
import sys
import types
from typing import Any, Optional


def class_body_code(cls: type) -> types.CodeType:
    """The code object of a class statement: found in the code of the
    module that defines the class, by the class's qualified name."""
    module = sys.modules.get(cls.__module__)
    if module is None:
        raise TypeError("the module of class %s is not loaded" % cls.__qualname__)
    names = cls.__qualname__.split(".")
    code: Optional[types.CodeType] = _module_code(module)
    for name in names:
        code = _nested_code(code, name)
        if code is None:
            break
    if code is None:
        raise TypeError("no code found for class %s" % cls.__qualname__)
    return code


def _nested_code(code: Optional[types.CodeType], name: str) -> Optional[types.CodeType]:
    """The code object named `name` among the constants of `code`, looking
    through code objects that are not named (comprehensions)."""
    if code is None:
        return None
    for const in code.co_consts:
        if isinstance(const, types.CodeType) and const.co_name == name:
            return const
    return None


def code_of(obj: Any) -> types.CodeType:
    """The code object of a code object, function, method, partial, class,
    module or source string; TypeError for anything else."""
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
    if isinstance(obj, type):
        return class_body_code(obj)
    raise TypeError(
        "unpyc cannot find code in a %s object; give a code object, function, "
        "method, functools.partial, class, module or source string"
        % type(obj).__name__
    )


def _module_code(module: types.ModuleType) -> types.CodeType:
    spec = getattr(module, "__spec__", None)
    loader = getattr(spec, "loader", None)
    get_code = getattr(loader, "get_code", None)
    code = get_code(module.__name__) if get_code else None
    if not isinstance(code, types.CodeType):
        raise TypeError("module %s has no code to read" % module.__name__)
    return code


def module_symbols(obj: Any) -> Optional[symtable.SymbolTable]:
    """What verification needs of the module scope of obj's code (see
    unpyc.roundtrip.roundtrip_function): the names of its globals that hold
    modules, as a symbol table of the imports that would bind them.  3.11+
    compiles `name.attr(...)` differently when `name` is an import there.
    None when obj is no function, method, partial or class."""
    while isinstance(obj, (functools.partial, types.MethodType, staticmethod, classmethod)):
        obj = obj.func if isinstance(obj, functools.partial) else obj.__func__
    if isinstance(obj, types.FunctionType):
        namespace = obj.__globals__
    elif isinstance(obj, type) and obj.__module__ in sys.modules:
        namespace = vars(sys.modules[obj.__module__])
    else:
        return None
    imports = "".join(
        "import %s\n" % name
        for name, value in namespace.items()
        if isinstance(value, types.ModuleType)
        and name.isidentifier()
        and not keyword.iskeyword(name)
    )
    return symtable.symtable(imports, "<module scope>", "exec")
