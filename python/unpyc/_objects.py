"""Finding the code object behind what a user hands to unpyc."""

from __future__ import annotations

import dis
import functools
import keyword
import re
import symtable
import sys
import types
from typing import Any, Optional, Set, Tuple


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
    module, source string or callable wrapping one (see target_of);
    TypeError for anything else."""
    if type(obj) is types.CodeType:  # the usual case, without target_of's walk
        return obj
    obj = target_of(obj)
    if isinstance(obj, types.CodeType):
        return obj
    if isinstance(obj, str):
        return compile(obj, "<string>", "exec")
    if isinstance(obj, types.FunctionType):
        return obj.__code__
    if isinstance(obj, types.ModuleType):
        return _module_code(obj)
    if isinstance(obj, type):
        return class_body_code(obj)
    raise TypeError(
        "unpyc cannot find code in a %s object; give a code object, function, "
        "method, functools.partial, class, module, source string, or a callable "
        "wrapping a function (functools.wraps or lru_cache wrapper, callable instance)"
        % type(obj).__name__
    )


def target_of(obj: Any) -> Any:
    """What obj runs when called, as far as Python code goes: a partial's,
    method's, staticmethod's or classmethod's function; what a wrapper
    made by functools.wraps or lru_cache wraps (__wrapped__, followed the
    way inspect.signature and inspect.getsource do); a callable instance's
    __call__.  Code objects, source strings, functions without
    __wrapped__, modules, classes and anything else are themselves."""
    seen = set()
    while id(obj) not in seen:
        seen.add(id(obj))
        if isinstance(obj, functools.partial):
            obj = obj.func
        elif isinstance(obj, (types.MethodType, staticmethod, classmethod)):
            obj = obj.__func__
        elif isinstance(obj, (types.CodeType, str, types.ModuleType, type)):
            return obj
        elif hasattr(obj, "__wrapped__"):
            obj = obj.__wrapped__
        elif not isinstance(obj, types.FunctionType) and isinstance(
                getattr(type(obj), "__call__", None), types.FunctionType):
            obj = type(obj).__call__
        else:
            return obj
    raise TypeError("%r wraps itself (a cycle of __wrapped__ or __func__)" % (obj,))


def identifier(name: str) -> str:
    """A Python name for a code object's name that is none: <lambda> is
    lambda_, <genexpr> genexpr, torch_dynamo_resume_in_<lambda>_at_3
    torch_dynamo_resume_in_lambda_at_3."""
    if name.isidentifier() and not keyword.iskeyword(name):
        return name
    text = re.sub(r"\W", "_", name.replace("<", "").replace(">", "")) or "_"
    if text[0].isdigit():
        text = "_" + text
    return text + "_" if keyword.iskeyword(text) else text


def without_addresses(text: str) -> str:
    """text (a repr) without the memory addresses default reprs carry
    ("<function f at 0x7f...>"): they differ from run to run, so a dumped
    file showing them would differ between prepare_debug and debug() for
    the same compile."""
    return re.sub(r" at 0x[0-9a-fA-F]+", "", text)


def with_valid_names(code: types.CodeType) -> Tuple[types.CodeType, str]:
    """code under Python names where it has none (a comprehension's or
    lambda's own name, a comprehension's .0 parameter), so that its def
    is valid Python, and a comment line saying so; (code, "") when every
    name is valid."""
    name = identifier(code.co_name)
    taken = set(code.co_varnames) | set(code.co_cellvars) | set(code.co_freevars)
    renamed = {}
    for variable in code.co_varnames:
        if not variable.isidentifier():
            new = identifier(variable)
            while new in taken:
                new = "_" + new
            taken.add(new)
            renamed[variable] = new
    original = code.co_name
    if name == original and not renamed:
        return code, ""
    code = code.replace(co_name=name, co_varnames=tuple(
        renamed.get(variable, variable) for variable in code.co_varnames))
    qualname = getattr(code, "co_qualname", None)
    if qualname is not None:  # 3.11+
        outer = qualname[:-len(original)] if qualname.endswith(original) else ""
        code = code.replace(co_qualname=outer + name)
    note = "# unpyc: %s has no Python name; shown as def %s%s.\n" % (
        original, name, "".join(", its variable %s as %s" % pair for pair in renamed.items()))
    return code, note


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
    obj = target_of(obj)
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


def inferred_imports(code: types.CodeType) -> symtable.SymbolTable:
    """The module scope code's own bytecode tells: on 3.11+ the compiler
    loads a global (or, in a class body, a name) with the NULL of a call in
    front and then reads the attribute, `name.attr(...)` as an attribute
    call, only when name is an import in the module; else it loads the
    method.  The names code and its nested code load so, as imports (the
    scope in which the source compiles as the original did); empty before
    3.11."""
    names: Set[str] = set()
    pending = [code]
    while pending:
        current = pending.pop()
        pending.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
        names.update(_attribute_call_bases(current))
    imports = "".join("import %s\n" % name for name in sorted(names))
    return symtable.symtable(imports, "<module scope>", "exec")


def _attribute_call_bases(code: types.CodeType) -> Set[str]:
    """Names code loads with the NULL of a call next to them and then
    reads an attribute of without the method load (see inferred_imports)."""
    found: Set[str] = set()
    if sys.version_info < (3, 11):
        return found
    instructions = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
    for k, ins in enumerate(instructions[:-1]):
        after = instructions[k + 1]
        # (dis writes the NULL before the name to 3.12, after it on 3.13.)
        if after.opname != "LOAD_ATTR" or "NULL|self" in after.argrepr:
            continue
        pushes_null = ins.opname == "LOAD_GLOBAL" and (
            ins.argrepr.startswith("NULL + ") or ins.argrepr.endswith(" + NULL"))
        if ins.opname == "LOAD_NAME" and k and instructions[k - 1].opname == "PUSH_NULL":
            pushes_null = True
        # (3.13 pushes that NULL after the attribute.)
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME") and k + 2 < len(instructions) and \
                instructions[k + 2].opname == "PUSH_NULL":
            pushes_null = True
        name = ins.argval
        if pushes_null and isinstance(name, str) and name.isidentifier() and \
                not keyword.iskeyword(name):
            found.add(name)
    return found


def assumed_imports(code: types.CodeType) -> symtable.SymbolTable:
    """A module scope in which every name code and its nested code load
    from co_names is bound by an import (but super, which the compiler
    would then no longer specialize): what verifying a bare code object,
    whose module is unknown, tries when its module scope taken as empty
    does not compile to the same bytecode.  On 3.11+ `name.attr(...)` is
    compiled as an attribute call instead of a method call when name is an
    import; both call the same function with the same arguments, so
    either scope is a fair one to compile the source in."""
    names: Set[str] = set()
    pending = [code]
    while pending:
        current = pending.pop()
        names.update(current.co_names)
        pending.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    imports = "".join(
        "import %s\n" % name for name in sorted(names)
        if name.isidentifier() and not keyword.iskeyword(name) and name != "super")
    return symtable.symtable(imports, "<module scope>", "exec")
