"""unpyc.effects: the effect-order check that decides whether debug() may run
the decompiled form of Dynamo's code (kept-stack source, not Dynamo's
bytecode) instead of Dynamo's own bytecode.

The check must accept what the engine decompiles correctly and reject
what runs differently: code objects assembled by hand (as
test_kept_stack.py does: no source compiles to Dynamo's bytecode) against
the source the engine gives and against reordered sources, then real
torch.compile runs of the side-effect + graph-break patterns, whose
transformed codes are all checked and which must give the same results
and program state under prepare_debug() and debug() as without unpyc.
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
from typing import Any, List

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

    for code in (generator.__code__, after_loop.__code__):
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
KNOWN_REJECTED = {
    "no_grad_block": "a graph break inside torch.no_grad(): Dynamo's code calls print "
                     "inside a try/finally it builds around values already on the stack; "
                     "the engine reads a __stack name in the finally before it binds it "
                     "(engine/recover, try regions with a kept stack), which the check "
                     "finds (UnboundLocalError)",
}


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
    from unpyc import explorer
    from unpyc.errors import VerificationError

    checked, rejected, loops = [], {}, []
    for code in _transformed_codes_of_patterns():
        try:
            source = unpyc.decompile(code.replace(co_qualname=code.co_name), verify=True)
        except VerificationError as error:
            source = str(error.source)
        name = "__transformed"
        runnable = explorer._closure_wrapper(explorer._renamed_def(source, name), name,
                                             code.co_freevars)
        verdict = same_effects(code, explorer._def_code(runnable, name, name, code))
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
