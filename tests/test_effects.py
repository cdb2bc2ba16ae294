"""unpyc.effects: the effect-order check that decides whether debug() may run
the decompiled form of Dynamo's code (kept-stack source, not Dynamo's
bytecode) instead of Dynamo's own bytecode.

The check must accept what the engine decompiles correctly and reject
what runs differently: plain functions, with loops (one differing only
from its second iteration on) and exception handlers; random programs
against variants of themselves, every pair it calls equal run on many
inputs; code objects assembled by hand (as test_kept_stack.py does: no
source compiles to Dynamo's bytecode) against the source the engine gives
and against reordered sources; then real torch.compile runs of the
side-effect + graph-break patterns (Dynamo rebuilds an OrderedDict
subclass with a for loop), whose transformed codes are all checked, each
rejected one running as Dynamo's bytecode under debug(), and which must
give the same results and program state under prepare_debug() and
debug() as without unpyc.
The torch scenarios of test_explorer.py check the same through the
explorer: every transformed code there runs from source under debug(),
which it does only when this check accepts it.
"""

from __future__ import annotations

import dis
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, Dict, List

import pytest

import unpyc
from unpyc.effects import same_effects

HERE = Path(__file__).resolve().parent
needs_311 = pytest.mark.skipif(
    sys.version_info[:2] != (3, 11), reason="the code objects are assembled from 3.11 opcodes")


def _def_code(source: str, name: str) -> types.CodeType:
    namespace: dict = {}
    exec(compile(source, "<source>", "exec"), namespace)
    code: types.CodeType = namespace[name].__code__
    return code


def _decompiled_code(code: types.CodeType) -> types.CodeType:
    return _def_code(unpyc.decompile(code), code.co_name)


def test_the_same_code_has_the_same_effects() -> None:
    def f(log: List[Any], a: Any, b: Any) -> Any:
        log.append(a)
        if b:
            log[0] = b.x
            return a + 1
        del log[1]
        return log.pop()

    assert same_effects(f.__code__, f.__code__).equal


def test_locals_and_the_stack_do_not_count() -> None:
    def through_locals(log: List[Any], a: Any, b: Any) -> Any:
        first = log.append(a)
        second = b.attr
        result = (first, second)
        return result

    def in_one_expression(log: List[Any], a: Any, b: Any) -> Any:
        return log.append(a), b.attr

    assert same_effects(through_locals.__code__, in_one_expression.__code__).equal


def test_calls_in_another_order_differ() -> None:
    def one_then_two(log: List[Any], a: Any, b: Any) -> None:
        log.append(1)
        log.append(2)

    def two_then_one(log: List[Any], a: Any, b: Any) -> None:
        log.append(2)
        log.append(1)

    verdict = same_effects(one_then_two.__code__, two_then_one.__code__)
    assert not verdict.equal and "append" in verdict.reason, verdict


def test_a_read_moved_past_an_effect_differs() -> None:
    # b.attr read before the call, or after it (the call may change it).
    def read_first(log: List[Any], a: Any, b: Any) -> Any:
        value = b.attr
        log.append(a)
        return value

    def read_after(log: List[Any], a: Any, b: Any) -> Any:
        log.append(a)
        return b.attr

    assert not same_effects(read_first.__code__, read_after.__code__).equal


def test_one_list_is_not_two_equal_lists() -> None:
    def shared(log: List[Any], a: Any, b: Any) -> Any:
        items = [a]
        return items, items

    def two(log: List[Any], a: Any, b: Any) -> Any:
        return [a], [a]

    assert not same_effects(shared.__code__, two.__code__).equal


def test_a_branch_compares_both_ways() -> None:
    def store_when_true(log: List[Any], a: Any, b: Any) -> None:
        if a:
            log[0] = 1
        else:
            log[1] = 2

    def not_swapped(log: List[Any], a: Any, b: Any) -> None:
        if not a:
            log[1] = 2
        else:
            log[0] = 1

    def swapped(log: List[Any], a: Any, b: Any) -> None:
        if a:
            log[1] = 2
        else:
            log[0] = 1

    assert same_effects(store_when_true.__code__, not_swapped.__code__).equal
    assert not same_effects(store_when_true.__code__, swapped.__code__).equal


def test_what_the_walk_does_not_model_is_different() -> None:
    def generator(log: List[Any], a: Any, b: Any) -> Any:
        yield log.append(a)

    def after_loop(log: List[Any], a: Any, b: Any) -> None:
        for item in a:
            pass
        log.append(item)  # unbound where a is empty

    def deletes_maybe_unbound(log: List[Any], a: Any, b: Any) -> None:
        if a:
            kept = b
        log.append(a)
        del kept  # UnboundLocalError where a is false

    for code in (generator.__code__, after_loop.__code__, deletes_maybe_unbound.__code__):
        verdict = same_effects(code, code)
        assert not verdict.equal and verdict.reason.startswith("cannot tell"), verdict


# ---- loops: an answer "equal" holds for any number of iterations ----


def _verdicts(expected: Any, *others: Any) -> List[bool]:
    return [same_effects(expected.__code__, other.__code__).equal for other in others]


def test_a_loop_equals_itself_and_its_other_spellings() -> None:
    def for_loop(log: List[Any], a: Any, b: Any) -> Any:
        total = 0
        for item in a:
            total = total + item
            log.append(total)
        return total

    def through_temporaries(log: List[Any], a: Any, b: Any) -> Any:
        total = 0
        iterator = a
        for current in iterator:
            kept = total + current
            total = kept
            method = log.append
            method(kept)
        return total

    def while_loop(log: List[Any], a: Any, b: Any) -> Any:
        while a:
            log.append(a.pop())
            if b:
                break
        return b

    assert _verdicts(for_loop, for_loop, through_temporaries) == [True, True]
    assert _verdicts(while_loop, while_loop) == [True]


def test_loops_that_differ_in_some_iteration_differ() -> None:
    def appends_running_total(log: List[Any], a: Any, b: Any) -> None:
        total = 0
        for item in a:
            total = total + item
            log.append(total)

    def appends_item(log: List[Any], a: Any, b: Any) -> None:
        total = 0
        for item in a:
            total = total + item
            log.append(item)

    def appends_previous(log: List[Any], a: Any, b: Any) -> None:
        total = 0
        for item in a:
            log.append(total + item)
            total = item

    def swaps_then_appends(log: List[Any], a: Any, b: Any) -> None:
        first, second = log, b
        for item in a:
            first.append(item)
            first, second = second, first

    def appends_to_first_only(log: List[Any], a: Any, b: Any) -> None:
        first, second = log, b
        for item in a:
            first.append(item)
            second = first

    def twice_a_round(log: List[Any], a: Any, b: Any) -> None:
        total = 0
        for item in a:
            total = total + item
            log.append(total)
            log.append(total)

    def once_after(log: List[Any], a: Any, b: Any) -> None:
        total = 0
        for item in a:
            total = total + item
        log.append(total)

    # The second differs from the first only from the second iteration on.
    assert _verdicts(appends_running_total, appends_item, appends_previous, twice_a_round,
                     once_after) == [False] * 4
    assert _verdicts(swaps_then_appends, appends_to_first_only) == [False]


def test_nested_loops() -> None:
    def nested(log: List[Any], a: Any, b: Any) -> None:
        for row in a:
            for item in row:
                log.append((row, item))
            log.append(row)

    def inner_last_swapped(log: List[Any], a: Any, b: Any) -> None:
        for row in a:
            for item in row:
                log.append((item, row))
            log.append(row)

    assert _verdicts(nested, nested, inner_last_swapped) == [True, False]


# ---- exception handlers (3.11+) ----


def test_handlers_are_compared_on_every_way_an_exception_takes() -> None:
    def caught(log: List[Any], a: Any, b: Any) -> Any:
        try:
            log.append(a)
            value = a.attr
        except ValueError as error:
            log.append(error)
            return None
        return value

    def other_kind(log: List[Any], a: Any, b: Any) -> Any:
        try:
            log.append(a)
            value = a.attr
        except TypeError as error:
            log.append(error)
            return None
        return value

    def read_outside(log: List[Any], a: Any, b: Any) -> Any:
        try:
            log.append(a)
        except ValueError as error:
            log.append(error)
            return None
        return a.attr

    def not_caught(log: List[Any], a: Any, b: Any) -> Any:
        log.append(a)
        return a.attr

    def with_block(log: List[Any], a: Any, b: Any) -> None:
        with a:
            log.append(b)
        log.append(a)

    def with_block_around_both(log: List[Any], a: Any, b: Any) -> None:
        with a:
            log.append(b)
            log.append(a)

    assert _verdicts(caught, caught, other_kind, read_outside, not_caught) == [
        True, False, False, False]
    assert _verdicts(with_block, with_block, with_block_around_both) == [True, False]


def test_a_loop_inside_a_handler_range() -> None:
    def guarded_loop(log: List[Any], a: Any, b: Any) -> None:
        try:
            for item in a:
                log.append(item)
        finally:
            log.append(b)

    def finally_first(log: List[Any], a: Any, b: Any) -> None:
        try:
            for item in a:
                log.append(b)
        finally:
            log.append(item)

    assert _verdicts(guarded_loop, guarded_loop, finally_first) == [True, False]


# ---- random programs: what the check calls equal runs alike ----


class _Programs:
    """Small random programs over three locals, two lists to loop over and
    two functions that record their calls (g raises on some values): ifs,
    for loops with break and continue, try/except, raise.  Each is
    compared with variants of itself: a statement's variable changed, two
    statements swapped, a call or constant changed, an assignment through
    a temporary, a variable read in place of another that equals it only
    until the other is rebound (so they differ from some iteration on)."""

    NAMES = ["a", "b", "c"]

    def __init__(self, seed: int) -> None:
        import random

        self.random = random.Random(seed)

    def expression(self, depth: int = 0) -> str:
        r = self.random
        kind = r.randrange(5 if depth < 2 else 3)
        if kind == 0:
            return r.choice(self.NAMES + ["x"])
        if kind == 1:
            return str(r.randrange(3))
        if kind == 2:
            return r.choice(self.NAMES)
        if kind == 3:
            return "(%s - %s)" % (self.expression(depth + 1), self.expression(depth + 1))
        return "f(%s)" % self.expression(depth + 1)

    def block(self, depth: int, in_loop: bool) -> List[str]:
        lines: List[str] = []
        for _ in range(self.random.randrange(1, 4)):
            lines += self.statement(depth, in_loop)
        return lines

    def statement(self, depth: int, in_loop: bool) -> List[str]:
        r, e = self.random, self.expression

        def inner(loop: bool = in_loop) -> List[str]:
            return ["    " + line for line in self.block(depth + 1, loop)]

        kind = r.randrange(8 if depth < 2 else 3)
        if kind == 0:
            return ["g(%s)" % e()]
        if kind in (1, 2):
            return ["%s = %s" % (r.choice(self.NAMES), e())]
        if kind == 3:
            return ["if %s:" % e()] + inner() + (["else:"] + inner() if r.random() < .5 else [])
        if kind == 4:
            return ["for x in %s:" % r.choice(["xs", "ys"])] + inner(True)
        if kind == 5 and in_loop:
            return [r.choice(["break", "continue"])]
        if kind == 6:
            return ["try:"] + inner() + ["except ValueError:"] + inner()
        return ["if %s:" % e(), "    raise ValueError"]

    def variant(self, lines: List[str]) -> List[str]:
        r, lines = self.random, list(lines)
        k = r.randrange(len(lines))
        line = lines[k]
        body = line.lstrip()
        indent = line[:len(line) - len(body)]
        kind = r.randrange(5)
        if kind == 0:
            lines[k] = line.replace(r.choice(self.NAMES), r.choice(self.NAMES), 1)
        elif kind == 1 and k + 1 < len(lines) and not body.endswith(":") and \
                lines[k + 1].startswith(indent) and not lines[k + 1][len(indent):].startswith(" ") \
                and not lines[k + 1].endswith(":"):
            lines[k], lines[k + 1] = lines[k + 1], lines[k]
        elif kind == 2:
            lines[k] = line.replace("f(", "g(", 1).replace("0", "1", 1)
        elif kind == 3 and body[:4] in ("a = ", "b = ", "c = "):
            lines[k:k + 1] = [indent + "t = " + body[4:], indent + body[:4] + "t"]
        elif kind == 4 and line.startswith("    "):
            name = r.choice(self.NAMES)
            lines[k] = line.replace(name + ")", "d)", 1).replace(" " + name + ":", " d:", 1)
            lines.insert(0, "d = " + name)
        return lines

    @staticmethod
    def function(lines: List[str]) -> Any:
        source = ("def p(f, g, xs, ys, a, b, c):\n"
                  + "".join("    %s\n" % line for line in lines) + "    return a, b, c\n")
        namespace: dict = {}
        exec(compile(source, "<program>", "exec"), namespace)
        return namespace["p"]

    @staticmethod
    def run(function: Any, xs: List[int], ys: List[int], a: int, b: int, c: int,
            fails_on: int) -> Any:
        calls: List[Any] = []

        def f(v: int) -> int:
            calls.append(("f", v))
            return (v * 3 + 1) % 5

        def g(v: int) -> int:
            calls.append(("g", v))
            if v % 4 == fails_on:
                raise ValueError(v)
            return v % 3

        try:
            return calls, function(f, g, xs, ys, a, b, c)
        except Exception as error:
            return calls, type(error).__name__


def test_what_the_check_calls_equal_runs_alike() -> None:
    programs = _Programs(seed=15)
    r = programs.random
    proven = proven_variants = 0
    for _ in range(150):
        lines = programs.block(0, False)
        function = programs.function(lines)
        proven += same_effects(function.__code__, function.__code__).equal
        for _ in range(4):
            variant_lines = programs.variant(lines)
            try:
                variant = programs.function(variant_lines)
            except SyntaxError:  # a swap that put break or continue out of its loop
                continue
            if variant_lines == lines or not same_effects(function.__code__,
                                                          variant.__code__).equal:
                continue
            proven_variants += 1
            for _ in range(40):
                arguments = ([r.randrange(4) for _ in range(r.randrange(4))],
                             [r.randrange(4) for _ in range(r.randrange(3))],
                             r.randrange(3), r.randrange(3), r.randrange(3), r.randrange(4))
                assert programs.run(function, *arguments) == programs.run(variant, *arguments), (
                    lines, variant_lines, arguments)
    # The check proves most programs equal to themselves (the rest read a
    # loop's variable after it, which may be unbound), and some variants.
    assert proven >= 120 and proven_variants >= 20, (proven, proven_variants)


# ---- Dynamo-like code assembled by hand (see test_kept_stack.py) ----


@needs_311
def test_kept_stack_sources_have_the_effects_of_their_bytecode() -> None:
    import test_kept_stack as kept

    assembled = [
        kept._assemble([("LOAD_FAST", 1), ("LOAD_CONST", 1), ("BINARY_OP", 0),
                        ("COPY", 1), ("STORE_FAST", 3),
                        ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_FAST", 3),
                        ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
                        ("BUILD_TUPLE", 1), ("RETURN_VALUE", 0)],
                       consts=(None, 1), names=("append",), varnames=("log", "a", "b", "c")),
        kept._assemble([("LOAD_FAST", 1), ("BUILD_LIST", 1), ("COPY", 1),
                        ("LOAD_FAST", 2), ("BUILD_LIST", 1), ("LIST_EXTEND", 1),
                        ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_CONST", 1),
                        ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
                        ("BUILD_TUPLE", 2), ("RETURN_VALUE", 0)],
                       consts=(None, "logged"), names=("append",)),
        kept.stored_callable_called_twice(),
    ]
    for function in assembled:
        verdict = same_effects(function.__code__, _decompiled_code(function.__code__))
        assert verdict.equal, (verdict, unpyc.decompile(function.__code__))


@needs_311
def test_a_reordered_source_of_dynamo_like_code_is_rejected() -> None:
    import test_kept_stack as kept

    # Dynamo's setattr before a graph break: f = (c := log.append) and
    # (d := a + 1) wait on the stack; c(d + 1) runs, then f(d).
    function = kept._assemble(
        [("PUSH_NULL", 0), ("LOAD_FAST", 0), ("LOAD_ATTR", 0), ("COPY", 1), ("STORE_FAST", 3),
         ("LOAD_FAST", 1), ("LOAD_CONST", 1), ("BINARY_OP", 0), ("COPY", 1), ("STORE_FAST", 4),
         ("PUSH_NULL", 0), ("LOAD_FAST", 3), ("LOAD_FAST", 4), ("LOAD_CONST", 1),
         ("BINARY_OP", 0), ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
         ("PRECALL", 1), ("CALL", 1), ("RETURN_VALUE", 0)],
        consts=(None, 1), names=("append",), varnames=("log", "a", "b", "c", "d"))
    # What the engine wrote before the fix: the call through c before the
    # walrus binding c (UnboundLocalError), and the two calls swapped.
    wrong_order = (
        "def f(log, a, b):\n"
        "    c(d + 1)\n"
        "    return (c := log.append)((d := a + 1))\n")
    swapped = (
        "def f(log, a, b):\n"
        "    __stack0 = (c := log.append)\n"
        "    __stack1 = (d := a + 1)\n"
        "    __stack0(__stack1)\n"
        "    return c(d + 1)\n")
    right = (
        "def f(log, a, b):\n"
        "    __stack0 = (c := log.append)\n"
        "    __stack1 = (d := a + 1)\n"
        "    c(d + 1)\n"
        "    return __stack0(__stack1)\n")
    code = function.__code__
    assert same_effects(code, _def_code(right, "f")).equal
    for source in (wrong_order, swapped):
        verdict = same_effects(code, _def_code(source, "f"))
        assert not verdict.equal, source
    assert "UnboundLocalError" in same_effects(code, _def_code(wrong_order, "f")).reason


# ---- real torch.compile runs ----


# Transformed codes whose decompiled source the check rejects, so that
# debug() runs Dynamo's bytecode for them; each with its reason.  The list
# only shrinks.
KNOWN_REJECTED: Dict[str, str] = {}


def _transformed_codes_of_patterns() -> List[types.CodeType]:
    torch = pytest.importorskip("torch", reason="torch is installed by scripts/setup.sh")
    import torch._dynamo
    import torch._dynamo.convert_frame

    sys.path.insert(0, str(HERE))
    try:
        import side_effect_patterns
    finally:
        sys.path.remove(str(HERE))
    codes: List[types.CodeType] = []
    handle = torch._dynamo.convert_frame.register_bytecode_hook(
        lambda original, transformed: codes.append(transformed))
    torch._dynamo.reset()
    try:
        side_effect_patterns.run("eager")
    finally:
        handle.remove()
        torch._dynamo.reset()
    return codes


def test_dynamo_codes_of_the_side_effect_patterns_are_accepted() -> None:
    from unpyc import _torch_hooks as hooks
    from unpyc import _transformed_code as transformed
    from unpyc.errors import VerificationError

    checked, rejected, loops = [], {}, []
    for code in _transformed_codes_of_patterns():
        # As the explorer does: the globals Dynamo installed are vouched for
        # alike to the engine and to the check.
        stable = hooks.stable_globals(code)
        try:
            source = unpyc.decompile(code.replace(co_qualname=code.co_name), on_mismatch="raise",
                                     stable_globals=stable)
        except VerificationError as error:
            source = str(error.source)
        name = "__transformed"
        runnable = transformed.closure_wrapper(transformed.renamed_def(source, name), name,
                                               code.co_freevars)
        verdict = same_effects(code, transformed.code_of_def(runnable, name, name, code), stable)
        if not verdict.equal:
            rejected[code.co_name] = verdict.reason
            continue
        checked.append(code.co_name)
        if {"GET_ITER", "FOR_ITER"} <= {i.opname for i in dis.get_instructions(code)}:
            loops.append(code.co_name)
    assert set(rejected) == set(KNOWN_REJECTED), rejected
    assert len(checked) >= 20, checked
    # Dynamo rebuilds an OrderedDict subclass with a for loop: those codes
    # are proven, not run as bytecode.
    assert {"fields_output", "ordered_dict_items", "returned_output"} <= set(loops), loops


def test_side_effect_patterns_run_the_same_under_debug(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="torch is installed by scripts/setup.sh")
    lines = {}
    for mode in ("plain", "prepare", "debug"):
        proc = subprocess.run(
            [sys.executable, str(HERE / "side_effect_patterns.py"), mode, str(tmp_path / "dump"),
             "eager"], capture_output=True, text=True, timeout=600,
            env=dict(os.environ, PYTHONHASHSEED="0", PYTHONBREAKPOINT="0"))
        assert proc.returncode == 0, proc.stderr[-4000:]
        lines[mode] = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines["plain"] and lines["prepare"] == lines["plain"] == lines["debug"], lines
    transformed = sorted((tmp_path / "dump").glob("__transformed_code_*.py"))
    assert len(transformed) >= 16, transformed
    from_bytecode = sorted(path.name for path in transformed
                           if "_bytecode = [" in path.read_text())
    # What the check rejects runs as Dynamo's bytecode, and nothing else does.
    assert from_bytecode == ["__transformed_code_0_for_%s.py" % name
                             for name in sorted(KNOWN_REJECTED)], from_bytecode
