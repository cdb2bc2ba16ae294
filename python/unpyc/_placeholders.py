"""Named stand-ins for the constants of a code object that have no literal.

Code made by tools holds objects in co_consts that no source literal makes
and marshal cannot write: Dynamo's holds devices, dtypes, functions,
modules, dicts, slices.  The engine reads marshal data, so each such
constant is replaced, before marshal.dumps, by a stand-in: a bytes constant
b'__unpyc_const_N', one per object (recursively inside tuples, frozensets
and nested code objects).  The source shown names it __unpyc_const_N, with
a comment block on top saying what each one is.

The two ways back, both exact:
- verification compiles the source with each name turned back into its
  bytes literal and compares the result with the stand-in code;
- compile_with_objects compiles the source the same way, then puts the
  real objects in place of the stand-ins in co_consts, so the code runs
  like the original, with the lines of the text it came from.
"""

from __future__ import annotations

import ast
import dis
import io
import re
import tokenize
import types
import warnings
from typing import Dict, Iterable, Iterator, List, Set, Tuple

from . import _engine
from ._objects import without_addresses

# Constants marshal writes and reads back as what they were, and the engine
# prints as literals.  Anything else, subclasses of these included, gets a
# stand-in: marshal rejects most, writes others (bytearray, buffers, lists,
# dicts) as something else, and a mutable object's identity matters.
_LITERAL_TYPES = (type(None), bool, int, float, complex, str, bytes, type(Ellipsis))

# The opcodes the C extension's scan for code loaded as values reads:
# LOAD_CONST, MAKE_FUNCTION, and EXTENDED_ARG and CACHE (from 3.11 on), which
# may come between them.
_VALUE_OPS = (dis.opmap["LOAD_CONST"], dis.opmap["MAKE_FUNCTION"], dis.EXTENDED_ARG,
              dis.opmap.get("CACHE", dis.EXTENDED_ARG))


class StandIns:
    """The stand-ins of one code object: `code` holds them in place of the
    objects named in `objects` (name -> object, in co_consts order, each
    object once)."""

    def __init__(self, code: types.CodeType) -> None:
        self.objects: Dict[str, object] = {}
        self._by_id: Dict[int, bytes] = {}
        self.prefix = ""
        self.code = code
        self._names: Dict[bytes, str] = {}
        # Whether code or its nested code holds a constant no literal makes
        # (_LITERAL_TYPES, or tuples and frozensets of them at any depth,
        # through code objects in them) or loads a code object as a value
        # (_code_values): the C extension walks the tree.
        if _engine.stand_ins_needed(code, _VALUE_OPS):
            self.prefix = _free_prefix(code)
            self.code = self._replaced_code(code)
            self._names = {name.encode("ascii"): name for name in self.objects}

    def _replaced_code(self, code: types.CodeType) -> types.CodeType:
        # Not compared with co_consts: == of objects such as tensors may raise.
        values = _code_values(code)
        return code.replace(co_consts=tuple(
            self._stand_in(const) if index in values else self._replaced(const)
            for index, const in enumerate(code.co_consts)))

    def _replaced(self, const: object) -> object:
        if _literal(const):
            return const
        if isinstance(const, (tuple, frozenset)) and type(const) in (tuple, frozenset):
            return type(const)(self._replaced(item) for item in const)
        if isinstance(const, types.CodeType):
            return self._replaced_code(const)
        return self._stand_in(const)

    def _stand_in(self, const: object) -> bytes:
        stand_in = self._by_id.get(id(const))
        if stand_in is None:
            name = "%s%d" % (self.prefix, len(self.objects))
            self.objects[name] = const
            stand_in = self._by_id[id(const)] = name.encode("ascii")
        return stand_in

    def header(self) -> str:
        """The comment block saying what each name stands for; empty when
        the code needs no stand-in."""
        if not self.objects:
            return ""
        lines = ["# unpyc: objects this code holds as constants, which no literal makes;",
                 "# each is shown as a name (the code holds the object itself):"]
        for name, value in self.objects.items():
            lines.append("#   %s: %s = %s" % (name, _type_name(value), _short_repr(value)))
        return "\n".join(lines) + "\n"

    def shown(self, engine_text: str) -> str:
        """The engine's source for self.code with each stand-in literal
        written as its name, under the header.  Every b'<prefix>N' in it is
        a stand-in: no string or name of the code holds the prefix."""
        if not self.objects:
            return engine_text
        return self.header() + self.named(engine_text)

    def named(self, engine_text: str) -> str:
        """engine_text with each stand-in literal written as its name."""
        if not self.objects:
            return engine_text
        literal = re.compile(r"""[bB](['"])(%s\d+)\1""" % re.escape(self.prefix))
        return literal.sub(r"\2", engine_text)

    def compilable(self, text: str) -> str:
        """text with each name that is a stand-in (a NAME token, not a
        word in a comment) turned back into its bytes literal, on the same
        line."""
        if not self.objects:
            return text
        lines = io.StringIO(text).readlines()  # the lines tokenize numbers
        for row, start, end in reversed(self._name_spans(text)):
            line = lines[row - 1]
            lines[row - 1] = line[:start] + repr(line[start:end].encode("ascii")) + line[end:]
        return "".join(lines)

    def _name_spans(self, text: str) -> List[Tuple[int, int, int]]:
        spans: List[Tuple[int, int, int]] = []
        try:
            for token in tokenize.generate_tokens(io.StringIO(text).readline):
                if token.type == tokenize.NAME and token.string in self.objects:
                    spans.append((token.start[0], token.start[1], token.end[1]))
        except (tokenize.TokenError, SyntaxError):
            pass  # not valid Python: compiling it says why
        return spans

    def compile_with_objects(self, text: str, filename: str) -> types.CodeType:
        """The module code of text (source shown for self.code, or a file
        holding it) with the real objects where the names stand: it runs
        like the original code, its lines those of text.  ValueError where
        a name is used so that the compiler would fold its stand-in into
        another constant or test (the object would not be what is used)."""
        source = self.compilable(text)
        folded = _folded_names(source, self._names)
        if folded:
            raise ValueError("the compiler would fold %s with other constants; "
                             "no code with the objects can be made from this source"
                             % ", ".join(sorted(folded)))
        with warnings.catch_warnings():
            # b'...'(x): "'bytes' object is not callable" is said of a stand-in.
            warnings.simplefilter("ignore", SyntaxWarning)
            compiled = compile(source, filename, "exec", dont_inherit=True)
        left = self._names_left(compiled)
        if left:
            raise ValueError("%s stand where no literal can replace them (inside an f-string)"
                             % ", ".join(sorted(left)))
        return self._restored_code(compiled)

    def _names_left(self, code: types.CodeType) -> Set[str]:
        left = set(code.co_names) & set(self.objects)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                left |= self._names_left(const)
        return left

    def _restored_code(self, code: types.CodeType) -> types.CodeType:
        consts = tuple(self._restored(const) for const in code.co_consts)
        return code.replace(co_consts=consts)

    def _restored(self, const: object) -> object:
        if type(const) is bytes and const in self._names:
            return self.objects[self._names[const]]
        if isinstance(const, (tuple, frozenset)) and type(const) in (tuple, frozenset):
            return type(const)(self._restored(item) for item in const)
        if isinstance(const, types.CodeType):
            return self._restored_code(const)
        return const


def _constants(code: types.CodeType) -> Iterator[object]:
    """The constants of code and its nested code, those in tuples and
    frozensets too (not the containers themselves)."""
    return _constants_in(code.co_consts)


def _constants_in(items: Iterable[object]) -> Iterator[object]:
    """items and what the tuples, frozensets and code objects among them
    hold, at any depth (not the containers themselves)."""
    pending: List[object] = list(items)
    while pending:
        const = pending.pop()
        if isinstance(const, (tuple, frozenset)) and type(const) in (tuple, frozenset):
            pending.extend(const)
        elif isinstance(const, types.CodeType):
            pending.extend(const.co_consts)
        else:
            yield const


def _code_values(code: types.CodeType) -> Set[int]:
    """The indexes in code's co_consts of code objects it loads as values,
    not to make a function of (Dynamo passes code to its own function
    factories): no source makes such a value, so they get stand-ins.  A
    function is made of the code right after loading it (3.11+), or after
    also loading its qualified name (3.8-3.10); EXTENDED_ARG and CACHE
    entries may come between.  Read off co_code by the C extension: every
    decompile asks this of every code object (StandIns), and the
    scan in Python took a quarter of the engine's time on a module."""
    return set(_engine.code_values(code, _VALUE_OPS))


def _literal(const: object) -> bool:
    return type(const) in _LITERAL_TYPES


def _free_prefix(code: types.CodeType) -> str:
    """__unpyc_const_ (or __unpyc_const_<k>_) where no string, bytes or
    name of code or its nested code holds it, so that each name or literal
    with the prefix in the source is a stand-in."""
    texts = set(_texts(code))
    k = 0
    while True:
        prefix = "__unpyc_const_%s" % ("%d_" % k if k else "")
        if not any(prefix in text for text in texts):
            return prefix
        k += 1


def _texts(root: types.CodeType) -> Iterator[str]:
    """The names and strings of root and its nested code."""
    codes = [root]
    while codes:
        code = codes.pop()
        yield code.co_name
        yield from code.co_names + code.co_varnames + code.co_cellvars + code.co_freevars
        codes.extend(const for const in code.co_consts if isinstance(const, types.CodeType))
    for const in _constants(root):
        if isinstance(const, str):
            yield const
        elif isinstance(const, bytes):
            yield const.decode("latin-1")


def _type_name(value: object) -> str:
    cls = type(value)
    module = cls.__module__
    return cls.__qualname__ if module == "builtins" else "%s.%s" % (module, cls.__qualname__)


def _short_repr(value: object, limit: int = 160) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a repr that fails names the type alone
        text = "<%s object>" % _type_name(value)
    text = without_addresses(" ".join(text.split()))
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _folded_names(source: str, names: Dict[bytes, str]) -> Set[str]:
    """The stand-ins the compiler would fold in source (names turned into
    literals): operands of an operator or subscript whose other operands are
    constants too, and tests (a constant test is decided at compile time).
    Tuples of constants fold into one constant, which is restored whole."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()  # compiling it says why

    def stand_in(node: ast.AST) -> Set[str]:
        if isinstance(node, ast.Constant) and type(node.value) is bytes:
            name = names.get(node.value)
            return {name} if name else set()
        if isinstance(node, ast.Tuple):
            return set().union(*(stand_in(e) for e in node.elts)) if node.elts else set()
        return set()

    def constant(node: ast.AST) -> bool:
        return isinstance(node, ast.Constant) or (
            isinstance(node, ast.Tuple) and all(constant(e) for e in node.elts))

    folded: Set[str] = set()
    for node in ast.walk(tree):
        operands: List[ast.AST] = []
        if isinstance(node, ast.UnaryOp):
            operands = [node.operand]
        elif isinstance(node, ast.BinOp):
            operands = [node.left, node.right]
        elif isinstance(node, ast.Subscript):
            index = node.slice  # 3.8 wraps it in an ast.Index
            operands = [node.value, getattr(index, "value") if type(index).__name__ == "Index"
                        else index]
        if operands and all(constant(operand) for operand in operands):
            for operand in operands:
                folded |= stand_in(operand)
        for test in _tests(node):
            folded |= stand_in(test)
    return folded


def _tests(node: ast.AST) -> List[ast.AST]:
    """The expressions node tests for truth."""
    if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        return [node.test]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    if isinstance(node, ast.comprehension):
        return list(node.ifs)
    guard = getattr(node, "guard", None)  # a match statement's case
    return [guard] if isinstance(guard, ast.AST) else []
