"""The round-trip oracle (SPEC section 2): is decompiled source exact?

Decompiled source is correct when this very interpreter compiles it to
*equivalent* bytecode: recursively over nested code objects, the same
instructions (opname and argument; jump targets as instruction positions;
line numbers, positions, NOP, CACHE and EXTENDED_ARG ignored), the same
names, local / cell / free variables, argument counts and relevant flags,
and equivalent constants.  `compare_code` decides that and names the first
difference; `roundtrip_source` and `roundtrip_function` run a decompiler and
score a module and each of its code objects; ``python -m unpyc.roundtrip``
runs it over the standard library, or every module under a folder, in
worker processes.  ``roundtrip.py --verify-pyc FILE.pyc SOURCE`` checks
source decompiled from a .pyc of this interpreter's version and prints
`verification_note` (per function): this is how unpyc.decompile_pyc and
the unpyc command have a .pyc of another version checked by that
version's interpreter.  It imports only the standard library, so it also
runs as a script under ``python3.X -I``.

What counts, and why:

* Flags: every co_flags bit except CO_NESTED.  CO_NESTED only says "defined
  inside a function", which the tree comparison already checks (3.8-3.10 set
  it, later versions do not); a function decompiled alone is compiled at a
  different depth.  Every other bit is relevant, the __future__ bits
  included: a module's source must carry its ``from __future__`` imports,
  and a function decompiled alone is compiled with its own future flags
  (the only way they can reach a lone ``def``).
* Nothing else of a code object counts: co_firstlineno, the line/position
  tables, co_stacksize and co_nlocals follow from what is compared.
  co_qualname (3.11+) counts except for a function decompiled alone, whose
  qualname depends on the scaffolding it is compiled in; there the qualname
  strings among the constants (3.8-3.10 MAKE_FUNCTION operands, class
  bodies' __qualname__) count relative to the function's own qualname.
* Instructions are compared by opname and by oparg as well as argval for
  everything but jumps and constants: since the name and variable tables
  must be equal too, that is the same as comparing argvals, except that it
  also catches the bits argval drops (3.11+ LOAD_GLOBAL / LOAD_ATTR "push
  NULL" bits, 3.13 COMPARE_OP's bool coercion).
* Three things the compiler does or not depending on line numbers alone are
  undone first, as line numbers do not count: 3.13 superinstructions
  (LOAD_FAST_LOAD_FAST and the like, fused only within one line) are split
  in two; a jump to an unconditional jump counts as a jump to where that
  one goes (threading is skipped across lines); and a jump's direction
  (3.11's FORWARD / BACKWARD opcodes, JUMP_ABSOLUTE against JUMP_FORWARD)
  is left to its target position.
* Constants must have the same type and value: 1, 1.0 and True differ;
  floats and complex compare by value with the sign of zero, nan equals
  nan; tuples elementwise, frozensets as sets; code objects as code.  One
  constant is a line number in disguise and does not count: the
  ``__firstlineno__`` a 3.13 class body stores (and since it can share its
  co_consts slot with an equal constant of the body, a class body's
  constants are compared in order of use).
* The exception table (3.11+) is compared with its offsets turned into
  instruction positions; ranges made empty or made adjacent by removed NOPs
  are dropped or merged.
"""

import __future__

import ast
import bisect
import dis
import importlib
import importlib.util
import io
import json
import marshal
import os
import re
import symtable
import sys
import sysconfig
import time
import tokenize
import warnings
import zlib
from dataclasses import dataclass, field
from types import CodeType
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    Tuple,
)

if TYPE_CHECKING:
    # Imported where used: the stdlib runner needs them, --verify-pyc (a
    # fresh interpreter for each .pyc the unpyc command checks) does not.
    import argparse
    import multiprocessing.connection

__all__ = [
    "FunctionResult",
    "ModuleResult",
    "code_objects",
    "compare_code",
    "roundtrip_code",
    "roundtrip_function",
    "roundtrip_source",
    "summary_table",
    "verification_note",
    "verify_decompiled",
    "verify_pyc",
]

Decompiler = Callable[[CodeType], str]

EQUIVALENT = "equivalent"
DIFFERS = "differs"
INVALID = "invalid"
ERROR = "error"
TIMEOUT = "timeout"
# Statuses only the command line can give: the original does not compile,
# or the worker process running the decompiler died.
SKIPPED = "skipped"
CRASH = "crash"

CO_NEWLOCALS = 0x2
CO_NESTED = 0x10
_FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag
# nested_scopes' "compiler flag" is CO_NESTED itself, which compile() ignores.
_FUTURE_FLAGS &= ~CO_NESTED

_DUPLICATE = re.compile(r"\[\d+\]$")  # the "[2]" of a repeated qualname key
# A comment by which the engine says its output is not the original code:
# a region it could not recover, a missing value, kept stack values.
_MARK = re.compile(r"^[ \t]*# unpyc: ", re.MULTILINE)
_IGNORED_OPS = frozenset(["NOP", "CACHE", "EXTENDED_ARG"])
_SUPERINSTRUCTIONS = {
    "LOAD_FAST_LOAD_FAST": ("LOAD_FAST", "LOAD_FAST"),
    "STORE_FAST_LOAD_FAST": ("STORE_FAST", "LOAD_FAST"),
    "STORE_FAST_STORE_FAST": ("STORE_FAST", "STORE_FAST"),
}
# Jump opnames without their direction (3.11 has one opcode per direction).
_JUMP_NAMES = {"JUMP_FORWARD": "JUMP", "JUMP_BACKWARD": "JUMP", "JUMP_ABSOLUTE": "JUMP"}
for _condition in ("FALSE", "TRUE", "NONE", "NOT_NONE"):
    for _direction in ("FORWARD", "BACKWARD"):
        _JUMP_NAMES["POP_JUMP_%s_IF_%s" % (_direction, _condition)] = "POP_JUMP_IF_" + _condition
_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)
_CONSTS = frozenset(dis.hasconst)
_TABLES = ("co_names", "co_varnames", "co_cellvars", "co_freevars")
_CLASS_FIRSTLINENO = sys.version_info >= (3, 13)
_STORES = ("STORE_NAME", "STORE_DEREF", "STORE_GLOBAL")


@dataclass
class FunctionResult:
    """The verdict on one code object below a module (function, lambda,
    comprehension, generator expression or class body)."""

    qualname: str
    status: str
    detail: Optional[str] = None


@dataclass
class ModuleResult:
    """The verdict on a module, and on each code object in it, keyed by
    qualname path (a repeated qualname gets "[2]", "[3]"... in tree order)."""

    filename: str
    status: str
    detail: Optional[str] = None
    functions: List[FunctionResult] = field(default_factory=list)
    seconds: float = 0.0


# ---------------------------------------------------------------- comparing


def _compile(source: str, filename: str, flags: int = 0) -> CodeType:
    """compile() as the import system does it; dont_inherit keeps this
    module's own __future__ flags out."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code: CodeType = compile(source, filename, "exec", flags, dont_inherit=True)
    return code


def _qualname(parent_qualname: str, parent: CodeType, child: CodeType) -> str:
    """child's qualname: co_qualname on 3.11+; before, built the way the
    compiler builds __qualname__ (a function's children are "<locals>")."""
    qualname = getattr(child, "co_qualname", None)
    if isinstance(qualname, str):
        return qualname
    if not parent_qualname:
        return child.co_name
    separator = ".<locals>." if parent.co_flags & CO_NEWLOCALS else "."
    return parent_qualname + separator + child.co_name


def _short_repr(value: object, limit: int = 80) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int over the int-to-str limit
        text = "<%s>" % type(value).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Normalized:
    """One code object's instructions without NOP / CACHE / EXTENDED_ARG,
    3.13 superinstructions split in two, its jump targets and exception
    table as positions in that list, and its opnames with the direction of
    jumps left out (the target position says it)."""

    __slots__ = (
        "instructions", "opnames", "targets", "exceptions", "firstlineno", "const_order")

    def __init__(self, code: CodeType) -> None:
        self.instructions: List[dis.Instruction] = []
        offsets: List[int] = []
        positions: List[int] = []
        for instruction in dis.get_instructions(code):
            offsets.append(instruction.offset)
            positions.append(len(self.instructions))
            if instruction.opname in _SUPERINSTRUCTIONS:
                self.instructions.extend(_split(instruction))
            elif instruction.opname not in _IGNORED_OPS:
                self.instructions.append(instruction)
        end = len(self.instructions)
        self.opnames = [_JUMP_NAMES.get(i.opname, i.opname) for i in self.instructions]

        def position(offset: int) -> int:
            """The position of the first kept instruction at or after offset
            (a jump to a NOP or EXTENDED_ARG lands on what follows it)."""
            i = bisect.bisect_left(offsets, offset)
            return positions[i] if i < len(offsets) else end

        self.targets = _threaded(self.opnames, [
            position(i.argval) if i.opcode in _JUMPS else None for i in self.instructions
        ])
        self.exceptions: List[Tuple[int, int, int, int, bool]] = []
        for start, stop, target, depth, lasti in _exception_table(code):
            entry = (position(start), position(stop), position(target), depth, lasti)
            if entry[0] == entry[1]:
                continue
            last = self.exceptions[-1] if self.exceptions else None
            if last and last[1] == entry[0] and last[2:] == entry[2:]:
                self.exceptions[-1] = (last[0],) + entry[1:]
            else:
                self.exceptions.append(entry)
        self.firstlineno, self.const_order = _class_firstlineno(
            self.instructions, len(code.co_consts))


def _threaded(opnames: List[str], targets: List[Optional[int]]) -> List[Optional[int]]:
    """targets where a jump to an unconditional jump goes where that one
    goes: the compiler threads such jumps or not depending on lines."""
    threaded = list(targets)
    for i, target in enumerate(threaded):
        seen = set()
        while target is not None and target < len(opnames) and opnames[target] == "JUMP":
            if target in seen:
                break
            seen.add(target)
            target = targets[target]
        threaded[i] = target
    return threaded


def _class_firstlineno(
    instructions: List[dis.Instruction], consts: int
) -> Tuple[Optional[int], Optional[List[int]]]:
    """A 3.13+ class body starts by storing its first line number: a line
    number as a constant, which counts no more than other lines do.  The
    position of that LOAD_CONST, and the order to compare the constants in:
    their indexes in order of use leaving it out (a line number equal to a
    constant of the body shares its index and shifts the others), then those
    never used.  (None, None) for other code."""
    stores = (
        i for i, x in enumerate(instructions)
        if x.opname in _STORES and x.argval == "__firstlineno__"
    ) if _CLASS_FIRSTLINENO else iter(())
    store = next(stores, 0)
    if not store or instructions[store - 1].opname != "LOAD_CONST":
        return None, None
    load = store - 1
    order: Dict[int, None] = {}
    for i, x in enumerate(instructions):
        if x.opcode in _CONSTS and i != load and x.arg is not None:
            order.setdefault(x.arg, None)
    skip = instructions[load].arg
    return load, list(order) + [i for i in range(consts) if i not in order and i != skip]


def _split(instruction: dis.Instruction) -> List[dis.Instruction]:
    """A 3.13 superinstruction as the two instructions it stands for: the
    compiler fuses them only when both are on one line."""
    first, second = _SUPERINSTRUCTIONS[instruction.opname]
    arg = instruction.arg or 0
    return [
        instruction._replace(
            opname=opname, opcode=dis.opmap[opname], arg=oparg, argval=name, argrepr=name)
        for opname, oparg, name in (
            (first, arg >> 4, instruction.argval[0]), (second, arg & 15, instruction.argval[1]))
    ]


def _exception_table(code: CodeType) -> Iterator[Tuple[int, int, int, int, bool]]:
    """(start, end, target, depth, lasti) byte offsets of the 3.11+ table:
    groups of four big-endian 6-bit varints (bit 6: more follows)."""
    numbers: List[int] = []
    value = 0
    for byte in getattr(code, "co_exceptiontable", b""):
        value = (value << 6) | (byte & 63)
        if not byte & 64:
            numbers.append(value)
            value = 0
    for i in range(0, len(numbers) - 3, 4):
        start, length, target, depth_lasti = numbers[i : i + 4]
        yield start * 2, (start + length) * 2, target * 2, depth_lasti >> 1, bool(
            depth_lasti & 1
        )


def _root_qualname(code: CodeType) -> str:
    """code's qualname: co_qualname on 3.11+; before, read off what is
    nested in it: a nested function's qualname is a constant of code (the
    MAKE_FUNCTION operand), a nested class's one of its own body (its
    __qualname__), both "<code's qualname>.<locals>.<name>"; or ""."""
    qualname = getattr(code, "co_qualname", None)
    if isinstance(qualname, str):
        return qualname
    if not code.co_flags & CO_NEWLOCALS and "__qualname__" in code.co_names:
        # A class body stores its own qualname.
        for const in code.co_consts:
            if isinstance(const, str) and (
                    const == code.co_name or const.endswith("." + code.co_name)):
                return const
    for child in _children(code):
        suffix = ".<locals>." + child.co_name
        for const in code.co_consts + child.co_consts:
            if isinstance(const, str) and const.endswith(suffix):
                return const[: -len(suffix)]
    return ""


def _children(code: CodeType) -> List[CodeType]:
    return [c for c in code.co_consts if isinstance(c, CodeType)]


class _Comparer:
    """compare_code's engine.  It caches each code object's normalized
    instructions (by id, so the trees must stay alive while it is used), so
    that scoring every function and then the whole module decodes each code
    object at most once.

    In standalone mode roots holds the qualnames of the two root functions:
    the qualnames of what is nested in them are constants too (3.8-3.10
    MAKE_FUNCTION operands, class bodies' __qualname__), which differ by
    that prefix only."""

    def __init__(self, standalone: bool, roots: Tuple[str, str] = ("", "")) -> None:
        self.standalone = standalone
        self.roots = roots
        self._normalized: Dict[int, _Normalized] = {}
        # Whether the code compared now is a class body (standalone only).
        self._class_body = False

    def _normalize(self, code: CodeType) -> _Normalized:
        found = self._normalized.get(id(code))
        if found is None:
            found = self._normalized[id(code)] = _Normalized(code)
        return found

    def const_key(self, value: object, root: str = "") -> object:
        """A hashable stand-in equal exactly for equivalent constants; a
        string under the qualname root is taken relative to it."""
        kind = type(value)
        if isinstance(value, float):
            return kind, value.hex()  # keeps -0.0 apart; every nan is 'nan'
        if isinstance(value, complex):
            return kind, value.real.hex(), value.imag.hex()
        if isinstance(value, tuple):
            return kind, tuple(self.const_key(v, root) for v in value)
        if isinstance(value, frozenset):
            return kind, frozenset(self.const_key(v, root) for v in value)
        if isinstance(value, CodeType):
            # A nested code object as a constant: the same when its name
            # matches; its contents are compared (or scored) on their own.
            qualname = None if self.standalone else getattr(value, "co_qualname", None)
            return kind, value.co_name, qualname
        if isinstance(value, str) and root and value.startswith(root + "."):
            return kind, None, value[len(root) :]
        if isinstance(value, str) and root and value == root and self._class_body:
            # (A class body's own __qualname__: the class stands where
            # the scaffolding put it.)
            return kind, None, ""
        try:
            hash(value)
        except TypeError:
            return kind, repr(value)
        return kind, value

    def compare(
        self, expected: CodeType, actual: CodeType, qualname: str, recurse: bool
    ) -> Optional[str]:
        """The first difference, or None; children too when recurse.
        qualname: expected's qualname path ("" for a module)."""
        where = qualname or "<module>"
        for attr in ("co_name", "co_argcount", "co_posonlyargcount", "co_kwonlyargcount"):
            if getattr(expected, attr) != getattr(actual, attr):
                return "%s: %s: expected %r, got %r" % (
                    where, attr, getattr(expected, attr), getattr(actual, attr))
        if not self.standalone and getattr(expected, "co_qualname", None) != getattr(
            actual, "co_qualname", None
        ):
            return "%s: co_qualname: expected %r, got %r" % (
                where, getattr(expected, "co_qualname"), getattr(actual, "co_qualname"))
        flags_e, flags_a = expected.co_flags & ~CO_NESTED, actual.co_flags & ~CO_NESTED
        if flags_e != flags_a:
            return "%s: co_flags: expected %s, got %s" % (
                where, dis.pretty_flags(flags_e), dis.pretty_flags(flags_a))
        self._class_body = self.standalone and not expected.co_flags & CO_NEWLOCALS
        keys_e = [self.const_key(c, self.roots[0]) for c in expected.co_consts]
        keys_a = [self.const_key(c, self.roots[1]) for c in actual.co_consts]
        # The same bytes and tables make the same instructions: decode only
        # when something differs, which also finds the instruction to blame
        # for a changed name or constant.
        if not (
            expected.co_code == actual.co_code
            and getattr(expected, "co_exceptiontable", None)
            == getattr(actual, "co_exceptiontable", None)
            and all(getattr(expected, t) == getattr(actual, t) for t in _TABLES)
            and keys_e == keys_a
        ):
            e, a = self._normalize(expected), self._normalize(actual)
            consts_e, consts_a = list(expected.co_consts), list(actual.co_consts)
            if e.const_order is not None and a.const_order is not None:
                consts_e = [consts_e[i] for i in e.const_order]
                consts_a = [consts_a[i] for i in a.const_order]
                keys_e = [keys_e[i] for i in e.const_order]
                keys_a = [keys_a[i] for i in a.const_order]
            problem = (
                self._compare_instructions(e, a, where)
                or _compare_tables(expected, actual, where)
                or _compare_exceptions(e, a, where)
                or _compare_consts(consts_e, consts_a, keys_e, keys_a, where)
            )
            if problem:
                return problem
        if recurse:
            for ec, ac in zip(_children(expected), _children(actual)):
                problem = self.compare(ec, ac, _qualname(qualname, expected, ec), True)
                if problem:
                    return problem
        return None

    def _compare_instructions(self, e: _Normalized, a: _Normalized, where: str) -> Optional[str]:
        """Opnames and operands first, jump targets after: an instruction
        added or removed moves the targets of the jumps before it, and the
        report should name the instruction, not the jump."""
        pairs = list(zip(e.instructions, a.instructions))
        for index, (ei, ai) in enumerate(pairs):
            if e.opnames[index] != a.opnames[index]:
                same = False
            elif e.targets[index] is not None:
                continue
            elif ei.opcode in _CONSTS:
                same = index == e.firstlineno == a.firstlineno or self.const_key(
                    ei.argval, self.roots[0]) == self.const_key(ai.argval, self.roots[1])
            else:
                same = ei.arg == ai.arg and ei.argval == ai.argval
            if not same:
                return "%s: instruction %d: expected %s, got %s" % (
                    (where, index) + _describe_apart(e, a, index))
        if len(e.instructions) != len(a.instructions):
            index = len(pairs)
            return "%s: instruction %d: expected %s, got %s" % (
                where, index, _describe(e, index), _describe(a, index))
        for index in range(len(pairs)):
            if e.targets[index] != a.targets[index]:
                return "%s: instruction %d: expected %s, got %s" % (
                    where, index, _describe(e, index), _describe(a, index))
        return None


def _compare_tables(expected: CodeType, actual: CodeType, where: str) -> Optional[str]:
    for attr in _TABLES:
        if getattr(expected, attr) != getattr(actual, attr):
            return "%s: %s: expected %s, got %s" % (
                where, attr, _short_repr(getattr(expected, attr)),
                _short_repr(getattr(actual, attr)))
    return None


def _compare_exceptions(e: _Normalized, a: _Normalized, where: str) -> Optional[str]:
    for index in range(max(len(e.exceptions), len(a.exceptions))):
        ee = e.exceptions[index] if index < len(e.exceptions) else None
        ae = a.exceptions[index] if index < len(a.exceptions) else None
        if ee != ae:
            return "%s: exception table entry %d: expected %s, got %s" % (
                where, index, _describe_entry(ee), _describe_entry(ae))
    return None


def _compare_consts(
    expected: List[object], actual: List[object], keys_e: List[object],
    keys_a: List[object], where: str,
) -> Optional[str]:
    if len(keys_e) != len(keys_a):
        return "%s: co_consts: expected %d constants, got %d" % (where, len(keys_e), len(keys_a))
    for index, (ke, ka) in enumerate(zip(keys_e, keys_a)):
        if ke != ka:
            return "%s: co_consts[%d]: expected %s, got %s" % (
                where, index, _short_repr(expected[index]), _short_repr(actual[index]))
    return None


# Operands dis leaves unnamed, where the number alone reads badly.
_ARG_WORDS = {"CONTAINS_OP": ("in", "not in"), "IS_OP": ("is", "is not")}


def _describe_apart(e: _Normalized, a: _Normalized, index: int) -> Tuple[str, str]:
    """Both instructions described so that they read differently: two loads
    of one name from different table slots (a local numbered after a
    variable the other code lacks) name their slots too."""
    expected, actual = _describe(e, index), _describe(a, index)
    if expected != actual:
        return expected, actual
    return ("%s at table index %s" % (expected, e.instructions[index].arg),
            "%s at table index %s" % (actual, a.instructions[index].arg))


def _describe(normalized: _Normalized, index: int) -> str:
    if index >= len(normalized.instructions):
        return "the end"
    instruction = normalized.instructions[index]
    target = normalized.targets[index]
    if target is not None:
        return "(%s, 'to instruction %d')" % (instruction.opname, target)
    if isinstance(instruction.argval, CodeType):
        return "(%s, 'code object %s')" % (
            instruction.opname, _root_qualname(instruction.argval) or instruction.argval.co_name)
    text = instruction.argrepr
    if not text and instruction.arg is not None:
        # dis leaves the operand of CONTAINS_OP and IS_OP (and some others)
        # unnamed: without it `in` and `not in` read the same.
        words = _ARG_WORDS.get(instruction.opname, ())
        text = words[instruction.arg] if instruction.arg < len(words) else (
            "arg %d" % instruction.arg)
    return "(%s, %s)" % (instruction.opname, _short_repr(text))


def _describe_entry(entry: Optional[Tuple[int, int, int, int, bool]]) -> str:
    if entry is None:
        return "no entry"
    start, end, target, depth, lasti = entry
    return "instructions %d to %d -> %d [depth %d%s]" % (
        start, end, target, depth, ", lasti" if lasti else "")


def compare_code(
    expected: CodeType, actual: CodeType, *, standalone: bool = False
) -> Optional[str]:
    """None when actual is equivalent to expected (see the module docstring),
    else a one-line description of the first difference, naming the code
    object's qualname path.  standalone: actual was compiled from a function
    decompiled alone, in scaffolding: qualnames do not count, and qualname
    strings count relative to the function's own qualname."""
    module = expected.co_name == "<module>"
    qualname = "" if module else _root_qualname(expected) or expected.co_name
    roots = (_root_qualname(expected), _root_qualname(actual)) if standalone else ("", "")
    return _Comparer(standalone, roots).compare(expected, actual, qualname, True)


# ------------------------------------------------------------- round trips


def _default_decompiler() -> Decompiler:
    """unpyc.decompile, looked up when needed (the oracle is older than
    it), with its own verification off: the oracle does that work."""
    decompile: Optional[Callable[..., str]] = getattr(
        importlib.import_module("unpyc"), "decompile", None)
    if decompile is None:
        raise RuntimeError("unpyc.decompile does not exist in this build of unpyc")
    unverified = decompile
    return lambda code: unverified(code, verify=False)


def code_objects(module: CodeType) -> List[Tuple[str, CodeType]]:
    """Every code object below module in tree order, keyed by qualname path;
    the second and later code objects with one qualname (property setters,
    lambdas, redefinitions) get "[2]", "[3]"..."""
    found: List[Tuple[str, CodeType]] = []
    seen: Dict[str, int] = {}

    def walk(code: CodeType, qualname: str) -> None:
        for const in code.co_consts:
            if isinstance(const, CodeType):
                name = _qualname(qualname, code, const)
                seen[name] = seen.get(name, 0) + 1
                key = name if seen[name] == 1 else "%s[%d]" % (name, seen[name])
                found.append((key, const))
                walk(const, name)

    walk(module, "")
    return found


def roundtrip_source(
    source: str,
    filename: str,
    *,
    decompile: Optional[Decompiler] = None,
    timeout: Optional[float] = None,
) -> ModuleResult:
    """Compiles source, decompiles the module code object (with
    unpyc.decompile unless another decompiler is given), compiles the output
    under the same filename and compares.  The original must compile: its
    SyntaxError (etc.) propagates."""
    return roundtrip_code(
        _compile(source, filename), filename, decompile=decompile, timeout=timeout
    )


def roundtrip_code(
    expected: CodeType,
    filename: str,
    *,
    decompile: Optional[Decompiler] = None,
    timeout: Optional[float] = None,
) -> ModuleResult:
    """roundtrip_source for an already compiled module code object.

    timeout: a decompilation taking longer counts as "timeout".  It cannot
    be interrupted (the engine is C): to bound the wall time, run this in a
    process you can kill, as the command line does."""
    decompile = decompile or _default_decompiler()
    functions = code_objects(expected)
    started = time.monotonic()

    def uniform(status: str, detail: str) -> ModuleResult:
        return ModuleResult(
            filename, status, detail,
            [FunctionResult(key, status, detail) for key, _ in functions],
            time.monotonic() - started,
        )

    try:
        text = decompile(expected)
    except Exception as e:
        return uniform(ERROR, "%s: %s" % (type(e).__name__, _first_line(e)))
    if timeout is not None and time.monotonic() - started > timeout:
        return uniform(TIMEOUT, "decompiling took over %g s" % timeout)
    if not isinstance(text, str):
        return uniform(ERROR, "the decompiler returned a %s" % type(text).__name__)
    try:
        actual = _compile(text, filename)
    except Exception as e:
        return uniform(INVALID, _compile_error(e))
    comparer = _Comparer(standalone=False)
    produced = dict(code_objects(actual))
    results = []
    for key, code in functions:
        other = produced.get(key)
        if other is None:
            results.append(FunctionResult(key, DIFFERS, "%s: missing from the output" % key))
            continue
        problem = comparer.compare(code, other, key, recurse=False)
        results.append(FunctionResult(key, DIFFERS if problem else EQUIVALENT, problem))
    problem = comparer.compare(expected, actual, "", recurse=True)
    return ModuleResult(
        filename, DIFFERS if problem else EQUIVALENT, problem, results,
        time.monotonic() - started,
    )


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else ""


def _compile_error(error: Exception) -> str:
    if isinstance(error, SyntaxError):
        return "%s: %s (line %s)" % (type(error).__name__, error.msg, error.lineno)
    return "%s: %s" % (type(error).__name__, _first_line(error))


def roundtrip_function(
    code: CodeType,
    *,
    decompile: Optional[Decompiler] = None,
    qualname: Optional[str] = None,
    module: Optional[symtable.SymbolTable] = None,
    timeout: Optional[float] = None,
) -> FunctionResult:
    """Decompiles one function's code object alone, compiles the `def` it
    gives and compares that function with compare_code(standalone=True).

    A lone def compiles differently from the original, so it is compiled
    inside scaffolding that recreates what its code depends on:
    - inside a class, private names are mangled with the class's name and
      super() / __class__ need the class's cell: when qualname shows an
      enclosing class, or the code uses __class__, it is put in a class of
      that name (``__unpyc_class__`` when the name is unknown);
    - its free variables would become globals: the class, or else the
      def, is put inside ``def __unpyc_outer__():`` that assigns each of
      them (``x = None``) and declares the class's name global (else a
      function using that name as a global would capture it);
    - two things of the module's top scope change code below it: on 3.11+
      ``name.attr(...)`` is not compiled as a method call when `name` is
      bound by an import there, and on 3.12+ super() is not specialized
      when `super` is mentioned there.  module, the module's symbol table
      (symtable.symtable(source, filename, "exec")), tells; the scaffolding
      then imports the names the function uses and mentions super;
    - the code object's own __future__ flags are passed to compile().
    qualname defaults to co_qualname (3.11+) or co_name; give the real one
    on 3.8-3.10 for methods."""
    decompile = decompile or _default_decompiler()
    qualname = qualname or str(getattr(code, "co_qualname", code.co_name))
    started = time.monotonic()
    try:
        text = decompile(code)
    except Exception as e:
        return FunctionResult(qualname, ERROR, "%s: %s" % (type(e).__name__, _first_line(e)))
    if timeout is not None and time.monotonic() - started > timeout:
        return FunctionResult(qualname, TIMEOUT, "decompiling took over %g s" % timeout)
    if not isinstance(text, str):
        return FunctionResult(
            qualname, ERROR, "the decompiler returned a %s" % type(text).__name__)
    try:
        source, path = _enclose(text, code, qualname, module)
        compiled = _compile(source, code.co_filename, code.co_flags & _FUTURE_FLAGS)
    except Exception as e:
        return FunctionResult(qualname, INVALID, _compile_error(e))
    found = _find(compiled, path)
    if found is None:
        return FunctionResult(
            qualname, DIFFERS, "%s: no def %s in the output" % (qualname, code.co_name))
    roots = (_root_qualname(code), _root_qualname(found))
    problem = _Comparer(True, roots).compare(code, found, qualname, True)
    return FunctionResult(qualname, DIFFERS if problem else EQUIVALENT, problem)


def verify_decompiled(
    code: CodeType, source: str, *, module: Optional[symtable.SymbolTable] = None
) -> Optional[str]:
    """None when source, the decompiled text of code, compiles back to
    equivalent code, else the first difference (or why it does not
    compile).  A module's code is compared with the module source compiled;
    any other code object with its def or class compiled alone, in the
    scaffolding roundtrip_function describes (module: as there)."""
    if code.co_name == "<module>":
        try:
            actual = _compile(source, code.co_filename, code.co_flags & _FUTURE_FLAGS)
        except Exception as e:
            return "the output does not compile: " + _compile_error(e)
        return compare_code(code, actual)
    result = roundtrip_function(code, decompile=lambda _code: source, module=module)
    if result.status == INVALID:
        return "the output does not compile: %s" % result.detail
    return None if result.status == EQUIVALENT else result.detail


# ------------------------------------------------------- verifying a .pyc

# The exit status of `--verify-pyc` when the output is not equivalent (0:
# it is; anything else: it could not be checked).
VERIFY_DIFFERS = 10


def verify_pyc(path: str, source: str) -> ModuleResult:
    """source, the decompiled text of the .pyc file at path, compiled by
    this interpreter and compared with the file's code: the module and each
    code object below it.  ValueError when the file is not a .pyc of this
    interpreter's version."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != importlib.util.MAGIC_NUMBER:
        raise ValueError("%s was not written by Python %s" % (path, _version()))
    expected = marshal.loads(data[16:])
    if not isinstance(expected, CodeType):
        raise ValueError("%s holds no code object" % path)
    return roundtrip_code(expected, expected.co_filename, decompile=lambda _code: source)


def this_interpreter() -> str:
    """How a verification note names the interpreter that did it."""
    return "Python %s (%s)" % (sys.version.split()[0], sys.executable)


def verification_note(result: ModuleResult, verifier: str) -> str:
    """The comment lines that go on top of the decompiled module saying
    what verification by verifier found: the whole module equivalent, or
    else each code object (function, class body, lambda, comprehension)
    that is not, with its first difference, and the module's own body when
    that differs."""
    functions = result.functions
    counted = "%d function%s" % (len(functions), "" if len(functions) == 1 else "s")
    if result.status == EQUIVALENT:
        return "# unpyc: verified with %s: the module and its %s are equivalent\n" % (
            verifier, counted)
    if result.status == INVALID:
        return "# unpyc: NOT equivalent (verified with %s): the source does not compile: %s\n" % (
            verifier, " ".join(str(result.detail).split()))
    differing = [r for r in functions if r.status != EQUIVALENT]
    lines = ["# unpyc: NOT equivalent (verified with %s): %d of the module's %s differ%s" % (
        verifier, len(differing), counted, "s" if len(differing) == 1 else "")]
    if str(result.detail).startswith("<module>:") or not differing:
        lines.append("# unpyc:   %s" % " ".join(str(result.detail).split()))
    lines.extend("# unpyc:   %s" % " ".join(str(r.detail).split()) for r in differing)
    return "\n".join(lines) + "\n"


def _verify_pyc_command(argv: Sequence[str]) -> int:
    """`--verify-pyc FILE.pyc SOURCE`: verifies SOURCE (a path, or - for
    standard input), decompiled from FILE.pyc, and prints its
    verification_note.  Exit status 0 when equivalent, VERIFY_DIFFERS when
    not, 2 when it cannot be checked (one line on stderr says why)."""
    if len(argv) != 2:
        print("usage: python -m unpyc.roundtrip --verify-pyc FILE.pyc SOURCE", file=sys.stderr)
        return 2
    pyc, source_path = argv
    try:
        if source_path == "-":
            source = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(source_path, encoding="utf-8") as f:
                source = f.read()
        result = verify_pyc(pyc, source)
    except (OSError, ValueError, EOFError, TypeError) as e:
        print("unpyc.roundtrip: %s: %s" % (pyc, e), file=sys.stderr)
        return 2
    sys.stdout.write(verification_note(result, this_interpreter()))
    sys.stdout.flush()
    return 0 if result.status == EQUIVALENT else VERIFY_DIFFERS


def _enclosing_class(qualname: str) -> Optional[str]:
    """The innermost class in a qualname path: a part followed by a member
    name rather than by "<locals>"."""
    parts = qualname.split(".")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] != "<locals>" and parts[i + 1] != "<locals>":
            return parts[i] if parts[i].isidentifier() else None
    return None


def _names(code: CodeType) -> Set[str]:
    """Every name, variable or not, that code and its nested code use."""
    found = set(code.co_names + code.co_varnames + code.co_cellvars + code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found |= _names(const)
    return found


def _enclose(
    text: str, code: CodeType, qualname: str, module: Optional[symtable.SymbolTable]
) -> Tuple[str, List[str]]:
    """text inside the scaffolding roundtrip_function describes, and the
    names of the code objects that lead to the function in it."""
    lines: List[str] = []
    if module is not None:
        used = _names(code)
        lines.extend(
            "import " + symbol.get_name() for symbol in module.get_symbols()
            if symbol.is_imported() and symbol.get_name() in used)
        if "super" in used and "super" in module.get_identifiers():
            lines.append("super")
    path = []
    outer = [name for name in code.co_freevars if name != "__class__"]
    cls = _enclosing_class(qualname)
    if cls is None and "__class__" in code.co_freevars:
        cls = "__unpyc_class__"
    if outer:
        lines.append("def __unpyc_outer__():")
        if cls and cls not in outer:
            lines.append("    global %s" % cls)
        lines.extend("    %s = None" % name for name in outer)
        path.append("__unpyc_outer__")
    if cls:
        lines.append("    " * len(path) + "class %s:" % cls)
        path.append(cls)
    lines.append(_indent(text, "    " * len(path)) if path else text)
    return "\n".join(lines), path + [code.co_name]


def _find(module: CodeType, path: Sequence[str]) -> Optional[CodeType]:
    """The code object reached from module by the names in path; a 3.12+
    generic function is found inside its "<generic parameters of f>"."""
    code: Optional[CodeType] = module
    for name in path:
        assert code is not None
        scopes = (name, "<generic parameters of %s>" % name)
        code = next((c for c in code.co_consts
                     if isinstance(c, CodeType) and c.co_name in scopes), None)
        if code is not None and code.co_name != name:
            code = next((c for c in code.co_consts
                         if isinstance(c, CodeType) and c.co_name == name), None)
        if code is None:
            return None
    return code


def _string_lines(text: str) -> Set[int]:
    """Line numbers of text that continue a string literal spanning lines:
    they must not be re-indented.  (Other lines of a multi-line expression
    are inside brackets or a backslash continuation, where indentation does
    not matter either way.)"""
    lines: Set[int] = set()
    if '"""' not in text and "'''" not in text and "\\\n" not in text:
        # Only a triple-quoted string or a backslash-newline continues a
        # string on the next line; tokenizing took most of the time of
        # verifying a method (unpyc.decompile does that by default).
        return lines
    fstrings: List[int] = []  # 3.12+ tokenizes f-strings into parts
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.STRING:
            lines.update(range(token.start[0] + 1, token.end[0] + 1))
        elif token.type == getattr(tokenize, "FSTRING_START", None):
            fstrings.append(token.start[0])
        elif token.type == getattr(tokenize, "FSTRING_END", None):
            lines.update(range(fstrings.pop() + 1, token.end[0] + 1))
    return lines


def _indent(text: str, prefix: str) -> str:
    keep = _string_lines(text)
    return "\n".join(
        line if number in keep or not line.strip() else prefix + line
        for number, line in enumerate(text.split("\n"), 1)
    )


# ------------------------------------------------- stand-in decompilers


def _def_lines(tree: ast.Module) -> Dict[Tuple[str, int], ast.stmt]:
    """A module's def statements by (name, co_firstlineno), where a
    function's first line is its first decorator's.  Only statement lists
    are walked: a def is never inside an expression."""
    found: Dict[Tuple[str, int], ast.stmt] = {}
    stack: List[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(node, name, ()))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            found[node.name, first] = node
    return found


class SourceDecompiler:
    """The command line's stand-ins for a decompiler, which prove the oracle
    itself: "identity" gives the original text (a module's source, or a
    function's def without its decorators, dedented); "mutant" gives the
    module's source with one small semantic change (see _mutate), and
    functions unchanged."""

    def __init__(
        self, source: str, filename: str, expected: CodeType, mutate: bool,
        defs: Optional[Dict[Tuple[str, int], ast.stmt]] = None,
    ) -> None:
        self.source = source
        self.text = source
        self.mutation: Optional[str] = None
        if mutate:
            self.text, self.mutation = _mutate(source, filename, expected)
        self._defs = defs

    def __call__(self, code: CodeType) -> str:
        if code.co_name == "<module>":
            return self.text
        if self._defs is None:
            self._defs = _def_lines(ast.parse(self.source))
        node = self._defs.get((code.co_name, code.co_firstlineno))
        if node is None:
            raise LookupError("no def %s at line %d" % (code.co_name, code.co_firstlineno))
        lines = self.source.split("\n")[node.lineno - 1 : node.end_lineno]
        lines[-1] = lines[-1].encode()[: node.end_col_offset].decode()
        indent = lines[0].encode()[: node.col_offset].decode()
        keep = _string_lines("\n".join(lines))
        return "\n".join(
            line[len(indent):] if number not in keep and line.startswith(indent) else line
            for number, line in enumerate(lines, 1)
        ) + "\n"


def _raw_signature(code: CodeType) -> object:
    """A crude, independent fingerprint of compiled code (raw bytes and
    tables, no normalizing): tells whether a mutation changed anything."""
    return (
        code.co_code, code.co_names, code.co_varnames, code.co_cellvars,
        code.co_freevars, code.co_flags, getattr(code, "co_exceptiontable", b""),
        tuple(
            _raw_signature(c) if isinstance(c, CodeType) else (type(c), _short_repr(c, 10 ** 9))
            for c in code.co_consts
        ),
    )


def _mutate(source: str, filename: str, expected: CodeType) -> Tuple[str, Optional[str]]:
    """The source with the first candidate change that alters the compiled
    code: one of the first three "+" turned into "-", else one of the first
    three "==" into "!=", else one of the first three simple statements
    (assignment, call, import, return, raise) replaced by "pass".  A change
    in dead code or in an unevaluated annotation alters nothing and is
    passed over; (source, None) when no candidate alters anything."""
    original = _raw_signature(expected)
    for text, description in _mutations(source):
        try:
            changed = _raw_signature(_compile(text, filename)) != original
        except Exception:
            changed = True  # no longer compiles: the oracle must say "invalid"
        if changed:
            return text, description
    return source, None


def _mutations(source: str) -> Iterator[Tuple[str, str]]:
    lines = source.split("\n")
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        tokens = []
    for old, new in (("+", "-"), ("==", "!=")):
        found = [t for t in tokens if t.type == tokenize.OP and t.string == old][:3]
        for token in found:
            row, col = token.start
            changed = list(lines)
            changed[row - 1] = lines[row - 1][:col] + new + lines[row - 1][col + len(old) :]
            yield "\n".join(changed), "line %d: %r -> %r" % (row, old, new)
    simple = (ast.Assign, ast.AugAssign, ast.Import, ast.ImportFrom, ast.Return, ast.Raise)
    statements = [
        node for node in ast.walk(ast.parse(source))
        if isinstance(node, simple)
        or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call))
    ]
    statements.sort(key=lambda node: (node.lineno, node.col_offset))
    tried = 0
    for node in statements:
        first, last = node.lineno, node.end_lineno or node.lineno
        head = lines[first - 1].encode()[: node.col_offset].decode()
        tail = lines[last - 1].encode()[node.end_col_offset :].decode().strip()
        if head.strip() or (tail and not tail.startswith("#")):
            continue  # shares its line with another statement
        changed = lines[: first - 1] + [head + "pass"] + [""] * (last - first) + lines[last:]
        yield "\n".join(changed), "line %d: statement replaced by pass" % first
        tried += 1
        if tried == 3:
            return


# ---------------------------------------------------------- command line


def _version() -> str:
    return "%d.%d" % sys.version_info[:2]


def python_sources(root: str) -> List[str]:
    """Every .py file under root (for the standard library: tests
    included), sorted; site-packages and __pycache__ excluded."""
    found: List[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "__pycache__"))
        found.extend(os.path.join(dirpath, n) for n in sorted(filenames) if n.endswith(".py"))
    return found


@dataclass
class _Options:
    decompiler: str
    sample: int
    timeout: float


def _check_module(
    path: str, relpath: str, options: _Options, announce: Callable[[List[str], List[str]], None]
) -> Dict[str, Any]:
    """One module's record (a JSON-ready dict).  announce gets the function
    keys and sampled keys as soon as they are known, so the parent can
    account for them if this process is killed later."""
    record: Dict[str, Any] = {"path": relpath, "functions": [], "standalone": []}
    try:
        with open(path, "rb") as f:
            source = importlib.util.decode_source(f.read())
        expected = _compile(source, path)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError) as e:
        record.update(status=SKIPPED, detail="%s: %s" % (type(e).__name__, _first_line(e)))
        return record
    functions = code_objects(expected)
    # The standalone sample: functions made by def statements (not lambdas,
    # comprehensions, class bodies, 3.12+ type-parameter and alias scopes)
    # whose free variables the scaffolding can assign.
    defs = _def_lines(ast.parse(source)) if options.sample else {}
    sampled = [
        (key, code) for key, code in functions
        if (code.co_name, code.co_firstlineno) in defs
        and all(name.isidentifier() for name in code.co_freevars)
        and zlib.crc32(("%s::%s" % (relpath, key)).encode()) % options.sample == 0
    ]
    announce([key for key, _ in functions], [key for key, _ in sampled])
    decompile: Decompiler
    if options.decompiler == "unpyc":
        decompile = _default_decompiler()
    else:
        stand_in = SourceDecompiler(
            source, path, expected, options.decompiler == "mutant", defs or None)
        record["mutation"] = stand_in.mutation
        decompile = stand_in
    outputs: List[str] = []

    def keeping_output(code: CodeType) -> str:
        text = decompile(code)
        outputs.append(text)
        return text

    result = roundtrip_code(expected, path, decompile=keeping_output)
    record.update(status=result.status, detail=result.detail, seconds=round(result.seconds, 3))
    record["marked"] = bool(outputs) and _MARK.search(outputs[0]) is not None
    record["functions"] = [_function_record(r) for r in result.functions]
    table = symtable.symtable(source, path, "exec") if sampled else None
    for key, code in sampled:
        # The stand-ins give each function's original def (never mutated).
        alone = roundtrip_function(
            code, decompile=decompile, qualname=_DUPLICATE.sub("", key), module=table)
        alone.qualname = key
        record["standalone"].append(_function_record(alone))
    return record


def _function_record(result: FunctionResult) -> Dict[str, Any]:
    record = {"qualname": result.qualname, "status": result.status}
    if result.detail:
        record["detail"] = result.detail
    return record


def _serve(conn: "multiprocessing.connection.Connection", options: _Options) -> None:
    """A worker: checks the modules it is sent, one at a time."""
    warnings.simplefilter("ignore")
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # huge int literals exist in Lib/test
    while True:
        task = conn.recv()
        if task is None:
            return
        path, relpath = task

        def announce(keys: List[str], sampled: List[str]) -> None:
            conn.send(("keys", (keys, sampled)))

        conn.send(("done", _check_module(path, relpath, options, announce)))


class _Worker:
    """A worker process the parent can kill when a module takes too long:
    the decompiler is C and cannot be interrupted from Python."""

    def __init__(self, context: Any, options: _Options) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, options), daemon=True)
        self.process.start()
        child.close()
        self.task: Optional[Tuple[str, str]] = None
        self.started = 0.0
        self.keys: Tuple[List[str], List[str]] = ([], [])
        self.dead = False

    def send(self, task: Tuple[str, str]) -> None:
        self.task, self.started, self.keys = task, time.monotonic(), ([], [])
        self.conn.send(task)

    def collect(self, ready: bool, timeout: float) -> Optional[Dict[str, Any]]:
        """The record of the module being checked once there is one: the
        worker's own, or one saying it died or overran (then it is dead)."""
        if ready:
            try:
                kind, payload = self.conn.recv()
            except (EOFError, OSError):
                self.stop()
                return self._failed(CRASH, "worker died (exit code %s)" % self.process.exitcode)
            if kind == "keys":
                self.keys = payload
                return None
            self.task = None
            result: Dict[str, Any] = payload
            return result
        if time.monotonic() - self.started > timeout:
            self.stop()
            return self._failed(TIMEOUT, "over the %g s limit" % timeout)
        return None

    def _failed(self, status: str, detail: str) -> Dict[str, Any]:
        assert self.task is not None
        keys, sampled = self.keys
        record = {
            "path": self.task[1], "status": status, "detail": detail,
            "seconds": round(time.monotonic() - self.started, 3),
            "functions": [{"qualname": k, "status": status} for k in keys],
            "standalone": [{"qualname": k, "status": status} for k in sampled],
        }
        self.task, self.dead = None, True
        return record

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def run_modules(
    tasks: Sequence[Tuple[str, str]], options: _Options, jobs: int
) -> List[Dict[str, Any]]:
    """Checks (path, relpath) tasks in `jobs` spawned worker processes, each
    under options.timeout seconds; a worker that overruns is killed and
    replaced ("timeout"), one that dies is replaced ("crash")."""
    import multiprocessing.connection

    context = multiprocessing.get_context("spawn")
    pending = list(reversed(tasks))
    workers = [_Worker(context, options) for _ in range(max(1, min(jobs, len(tasks))))]
    records: List[Dict[str, Any]] = []
    try:
        for worker in workers:
            if pending:
                worker.send(pending.pop())
        busy = [w for w in workers if w.task]
        while busy:
            deadline = min(w.started for w in busy) + options.timeout
            ready = multiprocessing.connection.wait(
                [w.conn for w in busy], max(0.0, deadline - time.monotonic()))
            for index, worker in enumerate(workers):
                if not worker.task:
                    continue
                record = worker.collect(worker.conn in ready, options.timeout)
                if record is None:
                    continue
                records.append(record)
                if worker.dead:
                    worker = workers[index] = _Worker(context, options)
                if pending:
                    worker.send(pending.pop())
            busy = [w for w in workers if w.task]
    finally:
        for worker in workers:
            if not worker.task and not worker.dead:
                worker.conn.send(None)
                worker.process.join(5)
            worker.stop()
    records.sort(key=lambda r: str(r["path"]))
    return records


def _failing_keys(record: Mapping[str, Any]) -> Iterator[Tuple[str, bool]]:
    """(known-failures key, failing?) for each result in a module record."""
    if record["status"] == SKIPPED:
        return
    path = record["path"]
    yield path, record["status"] != EQUIVALENT
    for f in record["functions"]:
        yield "%s::%s" % (path, f["qualname"]), f["status"] != EQUIVALENT
    for f in record["standalone"]:
        yield "%s::%s (standalone)" % (path, f["qualname"]), f["status"] != EQUIVALENT


def read_known(path: str) -> Set[str]:
    """The entries of a known-failures file ("#" starts a comment); none
    when the file does not exist."""
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        lines = (line.split(" #")[0].strip() for line in f)
        return {line for line in lines if line and not line.startswith("#")}


def compare_known(
    records: Sequence[Mapping[str, Any]], known: Set[str]
) -> Tuple[List[str], List[str], List[str]]:
    """(new, fixed, stale): failing but not listed; listed and now
    equivalent; listed for a module that was run, with no such result."""
    results = dict(kv for r in records for kv in _failing_keys(r))
    run = {r["path"] for r in records}
    new = sorted(k for k, failing in results.items() if failing and k not in known)
    fixed = sorted(k for k in known if results.get(k) is False)
    stale = sorted(
        k for k in known if k not in results and k.split("::")[0] in run)
    return new, fixed, stale


def write_known(path: str, records: Sequence[Mapping[str, Any]], known: Set[str]) -> None:
    """Rewrites the known-failures file with the current failures of the
    modules that were run, keeping the entries of the others."""
    run = {r["path"] for r in records}
    entries = {k for k in known if k.split("::")[0] not in run}
    entries.update(k for r in records for k, failing in _failing_keys(r) if failing)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(
            "# Known round-trip failures of unpyc on CPython %s: `path` for a module,\n"
            "# `path::qualname` for a code object in it (`[2]`, `[3]`: the second,\n"
            "# third one of that qualname), `... (standalone)` for a def decompiled\n"
            "# alone.  Written by python -m unpyc.roundtrip --update-known; this list\n"
            "# only ever shrinks.\n" % _version())
        f.writelines(entry + "\n" for entry in sorted(entries))


def summarize(
    records: Sequence[Mapping[str, Any]], decompiler: str, seconds: float
) -> Dict[str, Any]:
    """Counts by status of modules, functions and standalone functions."""

    def count(statuses: Iterable[str]) -> Dict[str, int]:
        counts: Dict[str, int] = {}
        for status in statuses:
            counts[status] = counts.get(status, 0) + 1
        return counts

    ran = [r for r in records if r["status"] != SKIPPED]
    mutated = [r for r in ran if r.get("mutation")]
    marked = [r for r in ran if r.get("marked")]
    return {
        "version": _version(),
        "decompiler": decompiler,
        "modules": len(ran),
        "skipped": len(records) - len(ran),
        "module_status": count(r["status"] for r in ran),
        "function_status": count(f["status"] for r in ran for f in r["functions"]),
        "standalone_status": count(f["status"] for r in ran for f in r["standalone"]),
        # Modules whose output says it is not the original (the honest
        # failures), and equivalent ones that say so all the same.
        "marked": sum(1 for r in marked if r["status"] != EQUIVALENT),
        "marked_equivalent": sum(1 for r in marked if r["status"] == EQUIVALENT),
        "mutated": len(mutated),
        "mutated_missed": sum(1 for r in mutated if r["status"] == EQUIVALENT),
        "seconds": round(seconds, 1),
    }


def summary_table(summaries: Iterable[Mapping[str, Any]]) -> str:
    """The per-version table of one or more summaries (those of one
    version, e.g. chunks of a run, are added up)."""
    merged: Dict[str, Dict[str, Any]] = {}
    for summary in summaries:
        row = merged.setdefault(summary["version"], {})
        for key, value in summary.items():
            if isinstance(value, dict):
                target = row.setdefault(key, {})
                for status, n in value.items():
                    target[status] = target.get(status, 0) + n
            elif isinstance(value, (int, float)):
                row[key] = row.get(key, 0) + value

    def cells(counts: Mapping[str, int]) -> Tuple[int, str]:
        total = sum(counts.values())
        percent = 100.0 * counts.get(EQUIVALENT, 0) / total if total else 0.0
        return total, "%.2f" % percent

    # marked n/e: modules whose output carries an engine mark ("# unpyc:"),
    # not equivalent / equivalent all the same.
    header = "%-7s %7s %7s %9s %7s %12s %12s %12s %8s %7s %10s %7s %10s %7s" % (
        "version", "modules", "mod eq%", "functions", "fn eq%", "differs m/f",
        "invalid m/f", "errors m/f", "timeout", "crash", "marked n/e", "skipped",
        "standalone", "sa eq%")
    lines = [header]
    for version in sorted(merged, key=lambda v: tuple(int(x) for x in v.split("."))):
        row = merged[version]
        ms, fs, ss = row["module_status"], row["function_status"], row["standalone_status"]
        modules, module_pct = cells(ms)
        functions, function_pct = cells(fs)
        standalone, standalone_pct = cells(ss)

        def pair(status: str) -> str:
            return "%d/%d" % (ms.get(status, 0), fs.get(status, 0))

        marked = "%d/%d" % (row.get("marked", 0), row.get("marked_equivalent", 0))
        lines.append("%-7s %7d %7s %9d %7s %12s %12s %12s %8d %7d %10s %7d %10d %7s" % (
            version, modules, module_pct, functions, function_pct, pair(DIFFERS),
            pair(INVALID), pair(ERROR), ms.get(TIMEOUT, 0), ms.get(CRASH, 0), marked,
            row["skipped"], standalone, standalone_pct))
    return "\n".join(lines)


def _tasks(args: "argparse.Namespace", root: str) -> List[Tuple[str, str]]:
    """(path, path relative to root) of the modules to check."""
    if (args.stdlib or args.root) and not args.files:
        paths = python_sources(root)
    elif args.stdlib or args.root:
        paths = [os.path.join(root, f) for f in args.files]
    else:
        paths = [os.path.abspath(f) for f in args.files]
    missing = [p for p in paths if not os.path.isfile(p)]
    if missing:
        raise SystemExit("unpyc.roundtrip: no such file: %s" % ", ".join(missing))
    k, n = (int(x) for x in args.chunk.split("/"))
    tasks = []
    for path in paths[k::n]:
        relpath = os.path.relpath(path, root)
        if relpath.startswith(os.pardir):
            relpath = path
        tasks.append((path, relpath.replace(os.sep, "/")))
    return tasks


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--verify-pyc"]:
        return _verify_pyc_command(argv[1:])
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m unpyc.roundtrip",
        description="Decompile, recompile and compare: modules and functions.")
    parser.add_argument("files", nargs="*",
                        help="modules to check (with --stdlib or --root: paths relative to it)")
    parser.add_argument("--stdlib", action="store_true",
                        help="this interpreter's standard library, Lib/test included")
    parser.add_argument("--root", metavar="DIR",
                        help="every .py file under DIR (a corpus of packages), named relative to it")
    parser.add_argument("--chunk", default="0/1", help="K/N: only every N-th module from the K-th")
    parser.add_argument("--jobs", default="1", help="worker processes, or 'auto'")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per module")
    parser.add_argument("--sample-functions", type=int, default=0, metavar="K",
                        help="also decompile about one function in K alone (fixed sample)")
    parser.add_argument("--decompiler", choices=("unpyc", "identity", "mutant"), default="unpyc")
    parser.add_argument("--json", help="write every result and the summary here")
    parser.add_argument("--known", help="known failures file (tests/known_failures/3.X.txt)")
    parser.add_argument("--update-known", action="store_true",
                        help="rewrite --known with the current failures")
    args = parser.parse_args(argv)
    if not args.files and not args.stdlib and not args.root:
        parser.error("give files, --stdlib or --root")
    if args.stdlib and args.root:
        parser.error("--stdlib and --root exclude each other")
    if args.update_known and not args.known:
        parser.error("--update-known needs --known")
    if args.decompiler == "unpyc":
        _default_decompiler()
    jobs = (os.cpu_count() or 1) if args.jobs == "auto" else int(args.jobs)
    options = _Options(args.decompiler, args.sample_functions, args.timeout)
    started = time.monotonic()
    # Results name modules by their path relative to the stdlib or --root,
    # or to the current folder for files given alone.
    if args.root:
        root = os.path.abspath(args.root)
    else:
        root = sysconfig.get_paths()["stdlib"] if args.stdlib else os.getcwd()
    records = run_modules(_tasks(args, root), options, jobs)
    summary = summarize(records, args.decompiler, time.monotonic() - started)
    known = read_known(args.known) if args.known else set()
    new, fixed, stale = compare_known(records, known)
    print(summary_table([summary]))
    print("%.1f s; %d new failures, %d fixed, %d stale known entries" % (
        summary["seconds"], len(new), len(fixed), len(stale)))
    for label, keys in (("NEW", new), ("FIXED", fixed), ("STALE", stale)):
        for key in keys[:50]:
            print("  %s %s" % (label, key))
        if len(keys) > 50:
            print("  ... and %d more %s" % (len(keys) - 50, label))
    if summary["mutated_missed"]:
        print("mutations not caught: %d" % summary["mutated_missed"])
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "new": new, "fixed": fixed, "stale": stale,
                       "modules": records}, f)
    if args.update_known:
        write_known(args.known, records, known)
        print("rewrote %s: %d new entries, %d removed" % (
            args.known, len(new), len(fixed) + len(stale)))
        new, fixed, stale = [], [], []
    broken = summary["module_status"].get(TIMEOUT, 0) + summary["module_status"].get(CRASH, 0)
    return 1 if new or fixed or stale or broken or summary["mutated_missed"] else 0


if __name__ == "__main__":
    sys.exit(main())
