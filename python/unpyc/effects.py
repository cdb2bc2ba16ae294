"""Whether two code objects perform the same effects in the same order.

The explorer runs the decompiled form of Dynamo's transformed code under
``unpyc.debug()`` only where it cannot run differently from Dynamo's own
bytecode.  Where the engine kept Dynamo's stack values in ``__stackN``
temporaries, the source does not compile back to Dynamo's bytecode, so
the byte-for-byte check cannot prove it; this module compares what the
two codes do instead.

Both codes are walked symbolically, side by side.  A value is an
expression of where it came from: an argument, a constant, a cell, the
result of the n-th effect, an attribute or item or global read (tagged
with the number of effects before the read, since any effect may change
what it reads), an operator applied to values, a container built (tagged
with its allocation number, since two lists of equal items are two
objects).  Local variables and stack shuffles only move values around, so
they disappear into the expressions.  What is compared is the sequence of
effects, each with its operands: calls, attribute / item / global / cell
stores and deletes, imports, and how the code ends (return, raise); and at
each conditional jump the condition, after which both sides of the branch
are compared in turn.

Loops: the pair of positions the two walks reach after an observation is
a loop head when a path comes back to it.  There the two states are
generalized (anti-unified): a slot (stack entry, local, the exception
being handled) whose value is the same on every arrival keeps it; the
others become variables, one variable for the slots that held equal
values on every arrival, so what the invariant says is only which values
are equal.  The walk goes on from the generalized pair, and a later
arrival that is an instance of it (its slots fit the variables and the
kept values) is covered by that walk and ends there; one that is not
generalizes the head further.  Since generalizing only merges, this
ends, and every path of the loop, however many times it runs, is
compared: an answer "equal" holds for any number of iterations.

Exception handlers (the exception table of 3.11+): an effect, a raise,
and, inside a protected range, every instruction that may raise (a read,
an operator, a truth test) has a second successor, the handler with the
stack cut to its depth and the exception pushed, or, outside every
range, the exception leaving the code; both are compared like any path.

Globals the caller vouches for (stable_globals: bound before the code
runs, rebound by nothing while it runs; the explorer names the globals
Dynamo installs for its code, _torch_hooks.stable_globals) are read as
what they name, untagged, and such a read cannot raise: the engine,
told the same names, moves their reads past calls (engine/recover/
fold.c), and the two codes then compare equal.  A false claim is the
caller's: this module takes it as given.

The walk is honest rather than complete: whatever it does not model (an
opcode it does not know, generators, a value a loop may leave unbound,
a walk too long) makes the answer "different", never "equal".  Reads
(attributes, items, globals, operators) are taken to have no effect of
their own, as everywhere in this module; they are tagged with the
effects before them, so one moved past an effect is a difference.
"""

from __future__ import annotations

import ast
import dis
import sys
import types
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, Iterable, List, NamedTuple, Optional, Tuple

__all__ = ["Verdict", "same_effects"]

Value = Any  # nested tuples of str, int and constants: see the module docstring
NULL: Value = ("null",)
UNBOUND: Value = ("unbound",)
NO_EXCEPTION: Value = ("no_exception",)
MAX_OBSERVATIONS = 20000
# Effects are numbered on from a new base after each generalization, so
# that a result or read made after it never equals one made before.
EPOCH = 10 ** 9
MAX_STEPS_PER_PATH = 50000
ALLOCATED = {"BUILD_LIST": "new_list", "BUILD_SET": "new_set", "BUILD_MAP": "new_dict"}
NEW_OBJECTS = frozenset(ALLOCATED.values()) | {"new_function"}
MUTATOR = {"LIST_APPEND": "append", "LIST_EXTEND": "extend", "SET_ADD": "add",
           "SET_UPDATE": "update", "DICT_UPDATE": "update", "DICT_MERGE": "update"}
CONDITIONAL = {  # opname suffix -> (test, jump when the test is)
    "IF_TRUE": ("truth", True), "IF_FALSE": ("truth", False),
    "IF_NONE": ("is_none", True), "IF_NOT_NONE": ("is_none", False)}
NO_OP = {"NOP", "RESUME", "CACHE", "EXTENDED_ARG", "PRECALL", "COPY_FREE_VARS",
         "MAKE_CELL"}
# What may raise without being an effect: inside a protected range each
# is a point where the handler may take over.
MAY_RAISE = frozenset({
    "LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF", "LOAD_ATTR", "LOAD_METHOD", "BINARY_SUBSCR",
    "BINARY_SLICE", "BINARY_OP", "COMPARE_OP", "CONTAINS_OP", "UNARY_NEGATIVE", "UNARY_INVERT",
    "UNARY_POSITIVE", "UNARY_NOT", "TO_BOOL", "GET_LEN", "FORMAT_VALUE", "FORMAT_SIMPLE",
    "FORMAT_WITH_SPEC", "CONVERT_VALUE", "BUILD_SET", "BUILD_MAP", "BUILD_CONST_KEY_MAP",
    "UNPACK_SEQUENCE", "UNPACK_EX", "SET_ADD", "SET_UPDATE", "DICT_UPDATE", "DICT_MERGE",
    "CHECK_EXC_MATCH"})


@dataclass(frozen=True)
class Verdict:
    """equal, or the first difference found (or what the walk could not
    decide) in reason."""

    equal: bool
    reason: str


class Op(NamedTuple):
    """One instruction, as dis reads it (arg 0 where it has none)."""

    opname: str
    arg: int
    argval: Any
    argrepr: str
    offset: int


class Handler(NamedTuple):
    """One entry of the exception table: the range [start, end) it
    protects, in bytes, where its handler starts, the stack depth the
    handler keeps, and whether the offset of the raise is pushed."""

    start: int
    end: int
    target: int
    depth: int
    lasti: bool


def _handlers(code: types.CodeType) -> List[Handler]:
    """The exception table of code (3.11+; empty before): each entry is
    varints of 6 bits a byte, 0x40 marking that more follow, 0x80 the
    first byte of an entry."""
    table = getattr(code, "co_exceptiontable", b"")
    numbers: List[int] = []
    position = 0
    while position < len(table):
        number = table[position] & 0x3F
        while table[position] & 0x40:
            position += 1
            number = (number << 6) | (table[position] & 0x3F)
        numbers.append(number)
        position += 1
    if len(numbers) % 4:
        raise Undecided("an exception table that does not parse")
    entries = [numbers[k:k + 4] for k in range(0, len(numbers), 4)]
    return [Handler(start * 2, (start + length) * 2, target * 2, depth_lasti >> 1,
                    bool(depth_lasti & 1)) for start, length, target, depth_lasti in entries]


class Undecided(Exception):
    """The walk met something it does not model."""


@dataclass
class State:
    """One path's position in a code object, with what it holds."""

    index: int
    stack: List[Value] = field(default_factory=list)
    local: Dict[str, Value] = field(default_factory=dict)
    events: int = 0
    allocated: int = 0
    visited: frozenset[int] = frozenset()  # jump targets since the last observation
    escaped: frozenset[int] = frozenset()  # objects the code made that an effect saw
    steps: int = 0
    kw_names: Tuple[str, ...] = ()
    # Tests this path took, with their outcome, since its last effect.
    known: Dict[Value, bool] = field(default_factory=dict)
    exc_info: Value = NO_EXCEPTION  # the exception being handled (sys.exc_info())
    raising: Optional[Value] = None  # an exception leaving the code

    def copy(self) -> "State":
        return State(self.index, list(self.stack), dict(self.local), self.events,
                     self.allocated, self.visited, self.escaped, self.steps, self.kw_names,
                     dict(self.known), self.exc_info, self.raising)

    def slots(self) -> Dict[Value, Value]:
        """What the state holds, by place: stack entries, locals (unbound
        ones left out), the exception being handled."""
        places: Dict[Value, Value] = {("stack", k): v for k, v in enumerate(self.stack)}
        places.update((("local", name), v) for name, v in self.local.items() if v != UNBOUND)
        places[("exc_info",)] = self.exc_info
        return places


@dataclass(frozen=True)
class Observation:
    """What a path does next: an effect (successor: its state after), a
    branch on a test (successors: when the test holds, when it does not),
    or its end (no successor)."""

    kind: str  # "effect", "branch" or "end"
    key: Value
    successors: Tuple[State, ...]


def _const(value: object) -> Value:
    if isinstance(value, tuple):
        return ("tuple", tuple(_const(v) for v in value))
    if isinstance(value, types.CodeType):
        return ("code", value.co_name, value.co_code, tuple(_const(c) for c in value.co_consts),
                value.co_names, value.co_varnames, value.co_freevars)
    return ("const", type(value).__name__, repr(value))


def _is_const(v: Value, python_value: object) -> bool:
    return bool(v == _const(python_value))


def _int_const(v: Value) -> Optional[int]:
    if isinstance(v, tuple) and len(v) == 3 and v[0] == "const" and v[1] == "int":
        return int(v[2])
    return None


class Walker:
    """The symbolic run of one code object (of the running interpreter)."""

    def __init__(self, code: types.CodeType, stable_globals: FrozenSet[str]) -> None:
        if code.co_flags & (0x20 | 0x80 | 0x200):  # generator, coroutine, async generator
            raise Undecided("%s is a generator or coroutine" % code.co_name)
        self.code = code
        self.stable_globals = stable_globals
        self.instructions = [Op(i.opname, i.arg or 0, i.argval, i.argrepr, i.offset)
                             for i in dis.get_instructions(code) if i.opname != "CACHE"]
        self.at_offset = {i.offset: k for k, i in enumerate(self.instructions)}
        self.cells = set(code.co_cellvars) | set(code.co_freevars)
        self.null_after = sys.version_info >= (3, 13)
        self.handlers = _handlers(code)

    def _handler(self, offset: int) -> Optional[Handler]:
        for handler in self.handlers:
            if handler.start <= offset < handler.end:
                return handler
        return None

    def _unwind(self, state: State, exception: Value) -> State:
        """state (a copy) where the instruction just run raised exception:
        at the handler of its range, or leaving the code."""
        state = state.copy()
        handler = self._handler(self.instructions[state.index - 1].offset)
        if handler is None:
            state.raising = exception
            return state
        if handler.depth > len(state.stack):
            raise Undecided("a handler deeper than the stack")
        del state.stack[handler.depth:]
        if handler.lasti:
            state.stack.append(("lasti",))
        state.stack.append(exception)
        state.index = self.at_offset[handler.target]
        return state

    def _protected(self, state: State) -> bool:
        """Whether the instruction just run is in a protected range."""
        return self._handler(self.instructions[state.index - 1].offset) is not None

    def start(self) -> State:
        state = State(0)
        nargs = (self.code.co_argcount + self.code.co_kwonlyargcount
                 + bool(self.code.co_flags & 0x04) + bool(self.code.co_flags & 0x08))
        # An argument that is a cell is the cell itself in its slot (MAKE_CELL).
        for name in self.code.co_varnames[:nargs]:
            if name not in self.cells:
                state.local[name] = ("arg", name)
        return state

    # -- values --

    def _read(self, state: State, *what: Value) -> Value:
        """A read of something effects may change: tagged with how many
        effects came before it."""
        return what + (state.events,)

    def _allocate(self, state: State, kind: str, items: Value) -> Value:
        state.allocated += 1
        return (kind, state.allocated, items)

    def _pop(self, state: State, n: int = 1) -> List[Value]:
        if n > len(state.stack):
            raise Undecided("stack underflow at %d" % self.instructions[state.index].offset)
        if n == 0:
            return []
        values = state.stack[-n:]
        del state.stack[-n:]
        return values

    def _push_with_null(self, state: State, value: Value) -> None:
        state.stack.extend([value, NULL] if self.null_after else [NULL, value])

    # -- the walk --

    def next_observation(self, state: State) -> Observation:
        """Runs state (in place) up to its next observation."""
        if state.raising is not None:
            return Observation("end", ("reraise", state.raising), ())
        state.visited = frozenset()
        while True:
            if state.index >= len(self.instructions):
                raise Undecided("%s runs off its end" % self.code.co_name)
            state.steps += 1
            if state.steps > MAX_STEPS_PER_PATH:
                raise Undecided("a path longer than %d instructions" % MAX_STEPS_PER_PATH)
            instruction = self.instructions[state.index]
            state.index += 1
            observation = self._step(state, instruction)
            if observation is None:
                observation = self._raise_point(state, instruction)
            if observation is not None:
                return observation

    def _raise_point(self, state: State, ins: Op) -> Optional[Observation]:
        """An instruction that may raise, run inside a protected range: the
        value it made, with the handler as a second way on."""
        if ins.opname not in MAY_RAISE or not self._protected(state):
            return None
        if ins.opname == "LOAD_GLOBAL" and ins.argval in self.stable_globals:
            return None  # bound, by the caller's word
        if ins.opname == "UNPACK_SEQUENCE" and (ins.arg == 0 or state.stack[-1][0] != "item"):
            return None  # a tuple of known length
        made = next((v for v in reversed(state.stack[-2:]) if v != NULL), NULL)
        key = ("may_raise", made)
        return Observation("may_raise", key, (state, self._unwind(state, ("raised_by", key))))

    def _jump(self, state: State, target: int) -> None:
        if target in state.visited:
            raise Undecided("a loop with no effect or test at offset %d" % target)
        state.visited = state.visited | {target}
        state.index = self.at_offset[target]

    def _effect(self, state: State, key: Value, result: bool = True) -> Observation:
        """An effect; its result (when it has one) is pushed.  Its second
        successor is where the effect raising leads."""
        state.escaped = state.escaped | _objects_in(key)
        state.known = {}
        number = state.events
        state.events += 1
        raised = self._unwind(state, ("exception", number))
        if result:
            state.stack.append(("result", number))
        return Observation("effect", key, (state, raised))

    def _step(self, state: State, ins: Op) -> Optional[Observation]:
        name = ins.opname
        if name in NO_OP:
            return None
        for handler in (self._stack_op, self._variable_op, self._container_op,
                        self._operator_op, self._function_op, self._call_op, self._store_op,
                        self._iteration_op, self._flow_op):
            handled, observation = handler(state, ins)
            if handled:
                return observation
        raise Undecided("%s at offset %d is not modelled" % (name, ins.offset))

    def _stack_op(self, state: State, ins: Op) -> Tuple[bool, Optional[Observation]]:
        name, stack = ins.opname, state.stack
        if name == "POP_TOP":
            self._pop(state)
        elif name == "PUSH_NULL":
            stack.append(NULL)
        elif name == "COPY":
            if ins.arg > len(stack):
                raise Undecided("COPY below the stack")
            stack.append(stack[-ins.arg])
        elif name == "SWAP":
            if ins.arg > len(stack):
                raise Undecided("SWAP below the stack")
            stack[-1], stack[-ins.arg] = stack[-ins.arg], stack[-1]
        elif name == "KW_NAMES":
            state.kw_names = tuple(self.code.co_consts[ins.arg])
        elif name == "END_FOR":  # 3.12 pops the iterator with it, 3.13 leaves it to a POP_TOP
            self._pop(state, 2 if sys.version_info < (3, 13) else 1)
        elif name == "PUSH_EXC_INFO":
            (exception,) = self._pop(state)
            stack.extend([state.exc_info, exception])
            state.exc_info = exception
        elif name == "POP_EXCEPT":
            (state.exc_info,) = self._pop(state)
        elif name == "CHECK_EXC_MATCH":
            (kind,) = self._pop(state)
            stack.append(self._read(state, "exception_matches", stack[-1], kind))
        else:
            return False, None
        return True, None

    def _load_fast(self, state: State, variable: str) -> Value:
        value: Value = state.local.get(variable, UNBOUND)
        if value[0] == "maybe_unbound":
            raise Undecided("%s may be unbound where a loop reads it" % variable)
        if value == UNBOUND and variable in self.cells:
            return ("cell", variable)
        if value == UNBOUND:
            raise Undecided("%s read before a store binds it (UnboundLocalError)" % variable)
        return value

    def _variable_op(self, state: State, ins: Op
                     ) -> Tuple[bool, Optional[Observation]]:
        name, stack = ins.opname, state.stack
        if name == "LOAD_CONST":
            stack.append(_const(ins.argval))
        elif name in ("LOAD_FAST", "LOAD_FAST_CHECK"):
            stack.append(self._load_fast(state, ins.argval))
        elif name == "LOAD_FAST_LOAD_FAST":
            stack.extend(self._load_fast(state, v) for v in ins.argval)
        elif name == "LOAD_FAST_AND_CLEAR":
            stack.append(state.local.pop(ins.argval, UNBOUND))
        elif name == "STORE_FAST":
            state.local[ins.argval] = self._pop(state)[0]
        elif name == "STORE_FAST_LOAD_FAST":
            state.local[ins.argval[0]] = self._pop(state)[0]
            stack.append(self._load_fast(state, ins.argval[1]))
        elif name == "STORE_FAST_STORE_FAST":
            state.local[ins.argval[0]] = self._pop(state)[0]
            state.local[ins.argval[1]] = self._pop(state)[0]
        elif name == "DELETE_FAST":
            self._load_fast(state, ins.argval)  # del of an unbound local raises
            state.local[ins.argval] = UNBOUND
        elif name == "LOAD_CLOSURE":
            stack.append(("cell", ins.argval))
        elif name == "LOAD_DEREF":
            stack.append(self._read(state, "deref", ins.argval))
        elif name == "LOAD_GLOBAL":
            value = (("stable_global", ins.argval) if ins.argval in self.stable_globals
                     else self._read(state, "global", ins.argval))
            if ins.arg & 1:
                self._push_with_null(state, value)
            else:
                stack.append(value)
        elif name == "LOAD_NAME":
            stack.append(self._read(state, "name", ins.argval))
        else:
            return False, None
        return True, None

    def _container_op(self, state: State, ins: Op
                      ) -> Tuple[bool, Optional[Observation]]:
        name, stack = ins.opname, state.stack
        if name == "BUILD_TUPLE":
            stack.append(("tuple", tuple(self._pop(state, ins.arg))))
        elif name in ALLOCATED:
            count = ins.arg * 2 if name == "BUILD_MAP" else ins.arg
            stack.append(self._allocate(state, ALLOCATED[name], tuple(self._pop(state, count))))
        elif name == "BUILD_CONST_KEY_MAP":
            keys = self._pop(state)[0]
            values = self._pop(state, ins.arg)
            if keys[0] != "tuple":
                raise Undecided("BUILD_CONST_KEY_MAP without constant keys")
            pairs = tuple(v for pair in zip(keys[1], values) for v in pair)
            stack.append(self._allocate(state, "new_dict", pairs))
        elif name == "BUILD_SLICE":
            parts = self._pop(state, ins.arg)
            stack.append(("slice",) + tuple(parts + [_const(None)] * (3 - len(parts))))
        elif name == "BUILD_STRING":
            stack.append(self._read(state, "string", tuple(self._pop(state, ins.arg))))
        elif name in MUTATOR:
            return True, self._mutate(state, ins)
        elif name == "MAP_ADD":
            key, value = self._pop(state, 2)
            return True, self._effect(state, ("store_item", stack[-ins.arg], key, value), False)
        elif name == "LIST_TO_TUPLE":
            stack.append(self._read(state, "tuple_of", self._pop(state)[0]))
        elif name in ("UNPACK_SEQUENCE", "UNPACK_EX"):
            self._unpack(state, ins)
        else:
            return False, None
        return True, None

    def _mutate(self, state: State, ins: Op) -> Optional[Observation]:
        """LIST_EXTEND and the like: the call of the container's method,
        which source writes as one; or, on a container the code just made
        that nothing else holds yet, filling it (a display the compiler
        builds empty and extends, `**{...}` merged into a new dict)."""
        (item,) = self._pop(state)
        target = state.stack[-ins.arg]
        filled = self._filled(state, target, item, ins.opname)
        if filled is not None:
            state.stack[-ins.arg] = filled
            return None
        method = self._read(state, "attr", target, MUTATOR[ins.opname])
        if ins.opname == "DICT_MERGE":
            method = ("merge_keywords", target)
        return self._effect(state, ("call", method, (item,), ()), False)

    def _filled(self, state: State, target: Value, item: Value, opname: str) -> Optional[Value]:
        """target with item added, where target is a container the code
        made, held by one stack slot alone and seen by no effect yet, and
        what item adds is known; else None."""
        if (target[0] not in ("new_list", "new_set", "new_dict") or target[1] in state.escaped
                or _mentions(state.stack + list(state.local.values()), target[1]) != 1):
            return None
        if opname in ("LIST_APPEND", "SET_ADD"):
            added: Optional[Tuple[Value, ...]] = (item,)
        elif opname in ("LIST_EXTEND", "SET_UPDATE") and item[0] == "tuple":
            added = item[1]
        elif (item[0] == ("new_dict" if opname.startswith("DICT") else "new_list")
              and item[1] not in state.escaped):
            added = item[2]
        else:
            added = None
        if added is None or (opname == "DICT_MERGE" and target[2]):
            return None
        return (target[0], target[1], target[2] + added)

    def _unpack(self, state: State, ins: Op) -> None:
        (value,) = self._pop(state)
        if ins.opname == "UNPACK_SEQUENCE" and value[0] == "tuple" and len(value[1]) == ins.arg:
            state.stack.extend(reversed(value[1]))
            return
        count = ins.arg if ins.opname == "UNPACK_SEQUENCE" else (ins.arg & 0xFF) + 1 + (ins.arg >> 8)
        unpacked = self._read(state, "unpack", value, ins.opname, ins.arg)
        state.stack.extend(("item", unpacked, k) for k in reversed(range(count)))

    def _subscript(self, state: State, container: Value, index: Value) -> Value:
        """container[index]; a constant index of a tuple is its item (a
        tuple never changes)."""
        position = _int_const(index)
        if container[0] == "tuple" and position is not None and -len(container[1]) <= position < len(container[1]):
            return container[1][position]
        return self._read(state, "subscr", container, index)

    def _attribute(self, state: State, owner: Value, attribute: str) -> Value:
        """owner.attribute; the closure of a function the code made is its
        tuple of cells (so `(lambda: x).__closure__[0]` is the cell of x)."""
        if owner[0] == "new_function" and attribute == "__closure__":
            return dict(owner[3]).get(8, _const(None))
        return self._read(state, "attr", owner, attribute)

    def _operator_op(self, state: State, ins: Op
                     ) -> Tuple[bool, Optional[Observation]]:
        name, stack = ins.opname, state.stack
        if name == "BINARY_SUBSCR":
            container, index = self._pop(state, 2)
            stack.append(self._subscript(state, container, index))
        elif name == "BINARY_SLICE":
            container, lower, upper = self._pop(state, 3)
            stack.append(self._read(state, "subscr", container, ("slice", lower, upper, _const(None))))
        elif name == "LOAD_ATTR":
            (owner,) = self._pop(state)
            value = self._attribute(state, owner, ins.argval)
            if sys.version_info >= (3, 12) and ins.arg & 1:
                self._push_with_null(state, value)
            else:
                stack.append(value)
        elif name == "LOAD_METHOD":
            (owner,) = self._pop(state)
            self._push_with_null(state, self._attribute(state, owner, ins.argval))
        elif name in ("BINARY_OP", "COMPARE_OP", "IS_OP", "CONTAINS_OP"):
            left, right = self._pop(state, 2)
            operator = ins.argrepr if name in ("BINARY_OP", "COMPARE_OP") else "%s %d" % (name, ins.arg)
            if operator.startswith("bool(") and operator.endswith(")"):
                operator = operator[5:-1]
            stack.append(self._read(state, "operator", operator, left, right))
        elif name in ("UNARY_NEGATIVE", "UNARY_INVERT", "UNARY_POSITIVE", "GET_LEN"):
            stack.append(self._read(state, "operator", name, self._pop(state)[0]))
        elif name in ("UNARY_NOT", "TO_BOOL"):
            stack.append((name, self._pop(state)[0], state.events))
        elif name == "FORMAT_VALUE":
            spec = self._pop(state)[0] if ins.arg & 4 else _const(None)
            stack.append(self._read(state, "format", self._pop(state)[0], spec, ins.arg & 3))
        elif name in ("FORMAT_SIMPLE", "FORMAT_WITH_SPEC", "CONVERT_VALUE"):
            operands = self._pop(state, 2 if name == "FORMAT_WITH_SPEC" else 1)
            stack.append(self._read(state, "format", name, ins.arg, tuple(operands)))
        elif name == "CALL_INTRINSIC_1" and ins.argrepr == "INTRINSIC_LIST_TO_TUPLE":
            stack.append(self._read(state, "tuple_of", self._pop(state)[0]))
        else:
            return False, None
        return True, None

    def _function_op(self, state: State, ins: Op) -> Tuple[bool, Optional[Observation]]:
        """A function made of a code constant, with what MAKE_FUNCTION's
        flags take (3.13: SET_FUNCTION_ATTRIBUTE adds those after)."""
        if ins.opname == "MAKE_FUNCTION":
            (code,) = self._pop(state)
            if code[0] != "code":
                raise Undecided("MAKE_FUNCTION of no code constant")
            attributes: Dict[int, Value] = {}
            for flag in (8, 4, 2, 1):
                if ins.arg & flag:
                    attributes[flag] = self._pop(state)[0]
            state.stack.append(self._allocate(state, "new_function", code)
                               + (tuple(sorted(attributes.items())),))
        elif ins.opname == "SET_FUNCTION_ATTRIBUTE":
            function, value = self._pop(state, 2)[::-1]
            if function[0] != "new_function":
                raise Undecided("SET_FUNCTION_ATTRIBUTE on no function made here")
            attributes = dict(function[3])
            attributes[ins.arg] = value
            state.stack.append(function[:3] + (tuple(sorted(attributes.items())),))
        else:
            return False, None
        return True, None

    def _call_op(self, state: State, ins: Op) -> Tuple[bool, Optional[Observation]]:
        name = ins.opname
        if name in ("CALL", "CALL_KW"):
            names = state.kw_names
            if name == "CALL_KW":
                names_value = self._pop(state)[0]
                if names_value[0] != "tuple":
                    raise Undecided("CALL_KW without constant names")
                names = tuple(ast.literal_eval(n[2]) for n in names_value[1])
            state.kw_names = ()
            arguments = self._pop(state, ins.arg)
            function, positional = self._callable(state, arguments[:len(arguments) - len(names)])
            keywords = tuple(zip(names, arguments[len(arguments) - len(names):]))
            return True, self._effect(state, ("call", function, tuple(positional), keywords))
        if name == "CALL_FUNCTION_EX":
            mapping = self._pop(state)[0] if ins.arg & 1 else None
            (arguments,) = self._pop(state)
            function, self_argument = self._callable(state, [])
            if self_argument:
                raise Undecided("CALL_FUNCTION_EX on a method")
            spread: Value = (arguments[1] if arguments[0] == "tuple"
                             else self._fresh_items(state, arguments) or (("star", arguments),))
            spread_keywords = () if mapping is None else (("**", mapping),)
            return True, self._effect(state, ("call", function, tuple(spread), spread_keywords))
        return False, None

    def _fresh_items(self, state: State, value: Value) -> Optional[Tuple[Value, ...]]:
        """The items of a tuple made of a list the code just built and
        nothing else holds (`f(*[a, b])`, a call with the arguments a, b);
        None for any other value."""
        if value[0] != "tuple_of" or value[1][0] != "new_list":
            return None
        made = value[1]
        if made[1] in state.escaped or _mentions(state.stack + list(state.local.values()),
                                                  made[1]):
            return None
        items: Tuple[Value, ...] = made[2]
        return items

    def _callable(self, state: State, arguments: List[Value]) -> Tuple[Value, List[Value]]:
        """The callable under a call's arguments: of the two slots under
        them one is NULL, or the deeper is a method and the other its self."""
        deep, shallow = self._pop(state, 2)
        if deep == NULL:
            return shallow, arguments
        if shallow == NULL:
            return deep, arguments
        return deep, [shallow] + arguments

    def _store_op(self, state: State, ins: Op) -> Tuple[bool, Optional[Observation]]:
        name, pop = ins.opname, self._pop
        if name == "STORE_ATTR":
            owner, value = pop(state, 2)[::-1]
            key: Value = ("store_attr", owner, ins.argval, value)
        elif name == "DELETE_ATTR":
            key = ("delete_attr", pop(state)[0], ins.argval)
        elif name == "STORE_SUBSCR":
            value, container, index = pop(state, 3)
            key = ("store_item", container, index, value)
        elif name == "STORE_SLICE":
            value, container, lower, upper = pop(state, 4)
            key = ("store_item", container, ("slice", lower, upper, _const(None)), value)
        elif name == "DELETE_SUBSCR":
            container, index = pop(state, 2)
            key = ("delete_item", container, index)
        elif name in ("STORE_GLOBAL", "STORE_NAME", "STORE_DEREF"):
            key = ("store_" + name[6:].lower(), ins.argval, pop(state)[0])
        elif name in ("DELETE_GLOBAL", "DELETE_NAME", "DELETE_DEREF"):
            key = ("delete_" + name[7:].lower(), ins.argval)
        elif name == "IMPORT_NAME":
            level, fromlist = pop(state, 2)
            return True, self._effect(state, ("import", ins.argval, level, fromlist))
        elif name == "IMPORT_FROM":
            return True, self._effect(state, ("import_from", state.stack[-1], ins.argval))
        else:
            return False, None
        return True, self._effect(state, key, False)

    def _iteration_op(self, state: State, ins: Op) -> Tuple[bool, Optional[Observation]]:
        """iter() and next() of a for loop, and a with statement's
        __enter__ and __exit__ on an exception: effects of their own."""
        name = ins.opname
        if name == "GET_ITER":
            return True, self._effect(state, ("iter", self._pop(state)[0]))
        if name == "FOR_ITER":
            observation = self._effect(state, ("next", state.stack[-1]))
            exhausted = observation.successors[0].copy()
            exhausted.stack.pop()
            if sys.version_info < (3, 12):
                exhausted.stack.pop()
            else:  # FOR_ITER jumps to END_FOR with a value for it to pop
                exhausted.stack.append(("exhausted",))
            exhausted.index = self.at_offset[ins.argval]
            return True, Observation("effect", observation.key,
                                     observation.successors[:1] + (exhausted,)
                                     + observation.successors[1:])
        if name == "BEFORE_WITH":
            (manager,) = self._pop(state)
            state.stack.append(self._attribute(state, manager, "__exit__"))
            return True, self._effect(state, ("enter", manager))
        if name == "WITH_EXCEPT_START":
            exit_function, exception = state.stack[-4], state.stack[-1]
            return True, self._effect(state, ("exit_on", exit_function, exception))
        return False, None

    def _raise(self, state: State, key: Value) -> Observation:
        """raise: where a handler takes it, an effect leading there; else the end."""
        if not self._protected(state):
            return Observation("end", key, ())
        number = state.events
        state.events += 1
        state.known = {}
        return Observation("effect", key, (self._unwind(state, ("exception", number)),))

    def _flow_op(self, state: State, ins: Op) -> Tuple[bool, Optional[Observation]]:
        name = ins.opname
        if name == "RETURN_VALUE":
            return True, Observation("end", ("return", self._pop(state)[0]), ())
        if name == "RETURN_CONST":
            return True, Observation("end", ("return", _const(ins.argval)), ())
        if name == "RAISE_VARARGS" and ins.arg == 0:
            if state.exc_info == NO_EXCEPTION:
                raise Undecided("raise with no exception being handled")
            return True, self._raise(state, ("reraise", state.exc_info))
        if name == "RAISE_VARARGS":
            return True, self._raise(state, ("raise", tuple(self._pop(state, ins.arg))))
        if name == "RERAISE":
            return True, self._raise(state, ("reraise", self._pop(state)[0]))
        if name in ("JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP"):
            self._jump(state, ins.argval)
            return True, None
        for suffix, (test, jumps_when) in CONDITIONAL.items():
            if name.startswith("POP_JUMP") and name.endswith(suffix):
                return True, self._branch(state, self._pop(state)[0], test, jumps_when, ins.argval, False)
        if name in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP"):
            value = state.stack[-1]
            return True, self._branch(state, value, "truth", name == "JUMP_IF_TRUE_OR_POP",
                                      ins.argval, True)
        return False, None

    def _branch(self, state: State, value: Value, test: str, jumps_when: bool, target: int,
                keeps_value_on_jump: bool) -> Optional[Observation]:
        """A conditional jump: a branch on the test of value, the same test
        however it is spelled (`not`, `is None`, a bool conversion); a test
        of a constant takes its one way."""
        if test == "truth":
            test, value, jumps_when = _plain_test(value, jumps_when)
        key = (test, value)
        # A constant, or a test this path took since its last effect (the
        # compiler does not always thread a jump to a second test of the
        # same value), goes its one way.
        outcome = _constant_outcome(value, test) if value[0] == "const" else state.known.get(key)
        if outcome is not None:
            if outcome == jumps_when:
                self._jump(state, target)
            elif keeps_value_on_jump:
                state.stack.pop()
            return None
        state.escaped = state.escaped | _objects_in(value)
        # A truth test calls __bool__, which may raise (3.13 tests only bools).
        raised: Tuple[State, ...] = ()
        if test == "truth" and sys.version_info < (3, 13) and self._protected(state):
            raised = (self._unwind(state, ("raised_by", key)),)
        jumped, fell = state.copy(), state
        if keeps_value_on_jump:
            fell.stack.pop()
        self._jump(jumped, target)
        holds, fails = (jumped, fell) if jumps_when else (fell, jumped)
        holds.known[key], fails.known[key] = True, False
        return Observation("branch", key, (holds, fails) + raised)


def _plain_test(value: Value, holds_when: bool) -> Tuple[str, Value, bool]:
    """The test of a value's truth as (test, operand, outcome wanted):
    `not` and bool conversions taken off, `x is None` a test of x."""
    while value[0] in ("UNARY_NOT", "TO_BOOL"):
        if value[0] == "UNARY_NOT":
            holds_when = not holds_when
        value = value[1]
    if value[0] == "operator" and value[1] in ("IS_OP 0", "IS_OP 1") and _is_const(value[3], None):
        return "is_none", value[2], holds_when if value[1] == "IS_OP 0" else not holds_when
    return "truth", value, holds_when


def _constant_outcome(value: Value, test: str) -> bool:
    if test == "is_none":
        return bool(value == _const(None))
    try:
        return bool(ast.literal_eval(value[2]))
    except (ValueError, SyntaxError):
        raise Undecided("a test of the constant %s" % (value[2],)) from None


def _objects_in(value: Value) -> frozenset[int]:
    """The numbers of the objects the code made that value holds."""
    found = set()
    pending = [value]
    while pending:
        v = pending.pop()
        if isinstance(v, tuple):
            if len(v) >= 2 and v[0] in NEW_OBJECTS and isinstance(v[1], int):
                found.add(v[1])
            pending.extend(v)
    return frozenset(found)


def _mentions(values: List[Value], number: int) -> int:
    """How many times the object number appears in values."""
    count = 0
    pending = list(values)
    while pending:
        v = pending.pop()
        if isinstance(v, tuple):
            if len(v) >= 2 and v[0] in NEW_OBJECTS and v[1] == number:
                count += 1
            pending.extend(v)
    return count


def _describe(key: Value, limit: int = 300) -> str:
    text = repr(key)
    return text if len(text) <= limit else text[:limit] + "..."


def _is_variable(value: Value) -> bool:
    return bool(value[0] in ("var", "maybe_unbound"))


@dataclass
class Numbering:
    """The objects each code made, numbered in the order they first
    appear in what the path does (their identity is what counts, not when
    the code made them); while the two codes do the same, both count
    alike."""

    sides: Tuple[Dict[int, int], Dict[int, int]] = field(default_factory=lambda: ({}, {}))
    counts: List[int] = field(default_factory=lambda: [0, 0])

    def copy(self) -> "Numbering":
        return Numbering((dict(self.sides[0]), dict(self.sides[1])), list(self.counts))

    def canonical(self, value: Value, side: int, assign: bool = True) -> Value:
        """value with its objects numbered; one not numbered yet gets the
        next number, or, with assign false, a label of its own side."""
        if not isinstance(value, tuple):
            return value
        if len(value) >= 2 and value[0] in NEW_OBJECTS and isinstance(value[1], int):
            number = self.sides[side].get(value[1])
            if number is None and assign:
                number = self.sides[side][value[1]] = self.counts[side]
                self.counts[side] += 1
            label = ("unnumbered", side, value[1]) if number is None else number
            return (value[0], label) + tuple(self.canonical(v, side, assign) for v in value[2:])
        return tuple(self.canonical(v, side, assign) for v in value)

    def agrees(self, other: "Numbering", value: Value, side: int) -> bool:
        """Whether the objects in value have the same numbers in both."""
        return all(self.sides[side].get(o) == other.sides[side].get(o)
                   for o in _objects_in(value))


Position = Tuple[int, int, int, int]


@dataclass
class Pair:
    """The two walks at the same point of what they do."""

    states: Tuple[State, State]
    numbering: Numbering
    # Where this path has been (position: the pair there), to find loops.
    trail: Dict[Position, Tuple[State, State, Numbering]]
    effects: int = 0

    def position(self) -> Position:
        left, right = self.states
        return left.index, right.index, len(left.stack), len(right.stack)


@dataclass
class Head:
    """At a loop head, the pair of states every arrival is an instance
    of: values kept from the arrivals, and variables where they differ."""

    states: Tuple[State, State]
    numbering: Numbering


class Comparison:
    """The walk of the two codes side by side, path by path."""

    def __init__(self, expected: types.CodeType, actual: types.CodeType,
                 stable_globals: FrozenSet[str]) -> None:
        self.walkers = Walker(expected, stable_globals), Walker(actual, stable_globals)
        self.heads: Dict[Position, Head] = {}
        self.generalizations = 0

    def run(self) -> Verdict:
        pending = [Pair((self.walkers[0].start(), self.walkers[1].start()), Numbering(), {})]
        seen = 0
        while pending:
            seen += 1
            if seen > MAX_OBSERVATIONS:
                raise Undecided("more than %d effects and branches" % MAX_OBSERVATIONS)
            pair = self._at_loop_head(pending.pop())
            if pair is None:
                continue
            ours, theirs = (w.next_observation(s) for w, s in zip(self.walkers, pair.states))
            our_key = pair.numbering.canonical(ours.key, 0)
            their_key = pair.numbering.canonical(theirs.key, 1)
            if (ours.kind, our_key, len(ours.successors)) != (
                    theirs.kind, their_key, len(theirs.successors)):
                return Verdict(False, "after %d effects: %s %s, but %s %s" % (
                    pair.effects, ours.kind, _describe(our_key), theirs.kind,
                    _describe(their_key)))
            effects = pair.effects + (ours.kind == "effect")
            for k, states in enumerate(zip(ours.successors, theirs.successors)):
                shared = k == len(ours.successors) - 1
                pending.append(Pair(states, pair.numbering if shared else pair.numbering.copy(),
                                    pair.trail if shared else dict(pair.trail), effects))
        return Verdict(True, "the same effects in the same order")

    def _at_loop_head(self, pair: Pair) -> Optional[Pair]:
        """pair, or, where its path comes back to where it was, the pair
        to walk on from that loop head (a more general one); None where
        the walk from the head covers it already."""
        if any(state.raising is not None for state in pair.states):
            return pair
        position = pair.position()
        head = self.heads.get(position)
        if head is None:
            first = pair.trail.get(position)
            if first is None:
                pair.trail[position] = (pair.states[0].copy(), pair.states[1].copy(),
                                        pair.numbering.copy())
                return pair
            head = Head(first[:2], first[2])
        elif self._covers(head, pair):
            return None
        head = self.heads[position] = self._generalized(head, pair)
        return Pair((head.states[0].copy(), head.states[1].copy()), head.numbering.copy(),
                    pair.trail, pair.effects)

    def _covers(self, head: Head, pair: Pair) -> bool:
        """Whether pair is an instance of head: its values where head keeps
        values, and equal values where head has the same variable."""
        bindings: Dict[Value, Value] = {}
        for side in (0, 1):
            kept, arrived = head.states[side].slots(), pair.states[side].slots()
            for place in set(kept) | set(arrived):
                expected: Value = kept.get(place, UNBOUND)
                value: Value = arrived.get(place, UNBOUND)
                if not _is_variable(expected):
                    if expected != value or not head.numbering.agrees(pair.numbering, value, side):
                        return False
                    continue
                if value == UNBOUND and expected[0] != "maybe_unbound":
                    return False
                label = pair.numbering.canonical(value, side, assign=False)
                if bindings.setdefault(expected, label) != label:
                    return False
        return True

    def _generalized(self, head: Head, pair: Pair) -> Head:
        """The most specific head both head and pair are instances of."""
        self.generalizations += 1
        serial = self.generalizations
        groups: Dict[Value, Value] = {}
        states = []
        for side in (0, 1):
            kept, arrived = head.states[side].slots(), pair.states[side].slots()
            places: Dict[Value, Value] = {}
            for place in sorted(set(kept) | set(arrived), key=repr):
                old: Value = kept.get(place, UNBOUND)
                new: Value = arrived.get(place, UNBOUND)
                if (not _is_variable(old) and old == new
                        and head.numbering.agrees(pair.numbering, old, side)):
                    places[place] = old
                    continue
                if NULL in (old, new):
                    raise Undecided("a loop that changes what the stack holds for a call")
                kind = ("maybe_unbound" if UNBOUND in (old, new) or old[0] == "maybe_unbound"
                        else "var")
                group = (old if _is_variable(old) else head.numbering.canonical(old, side, False),
                         pair.numbering.canonical(new, side, False), kind)
                places[place] = groups.setdefault(group, (kind, serial, len(groups)))
            states.append(self._state_at_head(places, head.states[side], pair.states[side],
                                              serial))
        # Only the objects kept values hold can appear in what follows.
        left, right = ({o: n for o, n in head.numbering.sides[side].items()
                        if o in states[side].escaped} for side in (0, 1))
        numbering = Numbering((left, right), [max(head.numbering.counts
                                                  + pair.numbering.counts)] * 2)
        return Head((states[0], states[1]), numbering)

    def _state_at_head(self, places: Dict[Value, Value], head: State, arrival: State,
                       serial: int) -> State:
        if arrival.kw_names:
            raise Undecided("keyword names pending at a loop head")
        state = State(arrival.index, events=EPOCH * serial, steps=arrival.steps,
                      allocated=max(head.allocated, arrival.allocated))
        state.stack = [places[("stack", k)] for k in range(len(arrival.stack))]
        state.local = {place[1]: v for place, v in places.items()
                       if place[0] == "local" and v != UNBOUND}
        state.exc_info = places[("exc_info",)]
        # An object a kept value holds may also be what a variable holds:
        # none is a container only the code holds any more.
        state.escaped = _objects_in(tuple(places.values()))
        return state


def same_effects(expected: types.CodeType, actual: types.CodeType,
                 stable_globals: Iterable[str] = ()) -> Verdict:
    """Whether actual performs the effects of expected in the same order,
    on the same values, on every path; stable_globals: names of globals
    the caller vouches are bound and never rebound while either runs (see
    the module docstring)."""
    try:
        return Comparison(expected, actual, frozenset(stable_globals)).run()
    except Undecided as why:
        return Verdict(False, "cannot tell: %s" % (why,))
