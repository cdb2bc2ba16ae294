"""Dynamo's transformed code as a file a person reads and debug() runs:
the decompiled def, checked to recompile to Dynamo's bytecode or to have
its effects (unpyc.effects), else followed by Dynamo's bytecode, one
instruction a line, which is then what runs; and the code objects made
from such a file.
"""

from __future__ import annotations

import dis
import inspect
import re
import textwrap
import types
import warnings
from pathlib import Path
from typing import List, Tuple

import unpyc

from . import _torch_hooks as hooks
from . import effects
from ._dump_files import DumpWarning, commented, compiles
from ._dump_names import NameMap
from ._objects import without_addresses
from ._placeholders import StandIns
from .errors import UnpycError, VerificationError

# The comment the engine (engine/recover/spill.c) puts where bytecode keeps
# values on the stack across statements, as Dynamo's does: the __stack
# temporaries it names give the same effects, not the same bytecode.
KEPT_STACK_NOTE = "unpyc: this bytecode keeps values on the stack across statements"
# co_flags that change how a frame runs its code.
_FRAME_FLAGS = (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_GENERATOR
                | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR)


def code_of_def(text: str, name: str, filename: str, original: types.CodeType) -> types.CodeType:
    """The code of the def called name in the module source text (at the
    top level, or in a closure_wrapper) decompiled from original, with
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


def closure_wrapper(source: str, name: str, freevars: Tuple[str, ...]) -> str:
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


def renamed_def(source: str, name: str) -> str:
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


# ---- the transformed-code file ----


def transformed_text(code: types.CodeType, name: str, header: str,
                     problems: List[str]) -> Tuple[str, str, bool, bool]:
    """The transformed-code file (after header), the def statement in it,
    whether that def is equivalent to code, and whether debug() runs it:
    when it is equivalent, or when it has the same effects (the engine
    held values Dynamo keeps on the stack across statements in
    temporaries, left nothing unrecovered, and effects.same_effects finds
    the same effects in the same order) and fits the frame Dynamo runs
    code in.  Else the file ends with Dynamo's bytecode, one instruction a
    line, which is what debug() runs; why goes into problems."""
    equivalent = same_effects = True
    problem = ""
    # The globals Dynamo installed, told alike to the engine (it may move
    # their reads past calls) and to the effect check that proves it.
    stable = hooks.stable_globals(code)
    try:
        # Checked as the top-level def the file holds, under its name
        # there: in the class its qualname names, the compiler would
        # mangle the __compiled_fn_* and __resume_* globals Dynamo's
        # code loads, and <lambda> is no def's name.
        source = unpyc.decompile(code.replace(co_name=name, co_qualname=name),
                                 on_mismatch="raise", stable_globals=stable)
    except VerificationError as error:
        equivalent = False
        problem = "not equivalent: %s" % (" ".join(str(error.detail).split()),)
        source = str(error.source)
        same_effects = error.unrecovered == 0 and KEPT_STACK_NOTE in source
    except UnpycError as error:
        equivalent = same_effects = False
        problem = "could not decompile: %s" % (error,)
        source = ""
    source = renamed_def(source, name) if source else ""
    # Checked as it is run: a def with free variables (declared nonlocal
    # where no statement reads them) compiles only in its wrapper.
    runnable = closure_wrapper(source, name, code.co_freevars)
    if source and not compiles(runnable):
        source = runnable = commented(source)
        same_effects = False
    if same_effects:
        misfit = ("its def does not fit the frame Dynamo runs it in (arguments, cells or"
                  " free variables differ)")
        try:
            def_code = code_of_def(runnable, name, name, code)
            same_effects = _same_frame_layout(def_code, code)
        except (SyntaxError, LookupError):
            same_effects = False
        except ValueError as error:  # Dynamo's constants cannot be put back in it
            same_effects, misfit = False, str(error)
        if not same_effects:
            problem = "%s; %s" % (problem or "equivalent", misfit)
        elif not equivalent:
            # Not Dynamo's bytecode: it runs only if the effects are proven the same.
            verdict = effects.same_effects(code, def_code, stable)
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
    problems.append("decompiling %s: %s" % (name, problem))
    warnings.warn("unpyc: the decompiled %s is %s; its bytecode is dumped beside it"
                  % (name, problem), DumpWarning, stacklevel=3)
    note = ("# unpyc: the decompiled source below is %s\n"
            "# (a decompiler limit).  Under unpyc.debug() Dynamo's own bytecode runs,\n"
            "# each instruction reporting the line of its entry in %s_bytecode\n"
            "# below, so breakpoints go there.\n" % (problem[:300], name))
    listing = ["%s_bytecode = [" % name] + _bytecode_listing(code) + ["]"]
    return (header + note + (runnable or "# (no source)") + "\n\n\n" + "\n".join(listing),
            source, False, False)


def code_from_file(path: Path, name: str, transformed: types.CodeType, runs_source: bool,
                   names: NameMap) -> types.CodeType:
    """What debug() runs for transformed: the def called name in the file
    at path (loading the globals under torch's names), or, where the file
    lists Dynamo's bytecode, that bytecode reporting the listing's lines."""
    text = path.read_text(encoding="utf-8")
    if runs_source:
        return names.torch_names_in(code_of_def(text, name, str(path), transformed)).replace(
            co_name=transformed.co_name, co_qualname=transformed.co_qualname)
    first = text.splitlines().index("%s_bytecode = [" % name) + 2
    return transformed.replace(co_filename=str(path), co_firstlineno=first,
                               co_linetable=_linetable(transformed, first))
