"""Bytecode that keeps values on the stack across statements (as
torch.compile's Dynamo writes it; CPython's compiler never does) decompiles
to source with the same effects: engine/recover/spill.c holds the values
in __stack temporaries, in the order the bytecode computes them.

No source compiles to such bytecode, so these code objects are assembled by
hand (3.11 instructions, the explorer's Python) and the check is the one
that is left: the decompiled def, compiled and run, gives what the
original code gives, with the same side effects in the same order.  The
Dynamo code of real torch.compile runs is checked the same way in
test_explorer.py (results under unpyc.debug()).
"""

from __future__ import annotations

import dis
import sys
import types
from typing import Any, Callable, List, Tuple

import pytest

import unpyc
from unpyc._transformed_code import KEPT_STACK_NOTE  # the engine's comment, as the explorer reads it

pytestmark = pytest.mark.skipif(
    sys.version_info[:2] != (3, 11), reason="the code objects are assembled from 3.11 opcodes")

def _template(log: List[Any], a: Any, b: Any) -> None:
    pass


def _assemble(ops: List[Tuple[str, int]], consts: Tuple[Any, ...] = (None,),
              names: Tuple[str, ...] = (), varnames: Tuple[str, ...] = ("log", "a", "b"),
              exception_table: bytes = b"") -> types.FunctionType:
    """A function (log, a, b) running ops (name, arg), with the inline
    caches each instruction takes."""
    code = bytearray()
    for name, arg in [("RESUME", 0)] + ops:
        op = dis.opmap[name]
        code += bytes([op, arg]) + bytes(2 * dis._inline_cache_entries[op])  # type: ignore[attr-defined]
    co = _template.__code__.replace(
        co_code=bytes(code), co_consts=consts, co_names=names, co_varnames=varnames,
        co_nlocals=len(varnames), co_stacksize=16, co_linetable=b"",
        co_exceptiontable=exception_table)
    return types.FunctionType(co, {})


def _unit(ops: List[Tuple[str, int]], k: int) -> int:
    """Where ops[k] starts, in code units (RESUME first, inline caches)."""
    return 1 + sum(1 + dis._inline_cache_entries[dis.opmap[name]]  # type: ignore[attr-defined]
                   for name, _ in ops[:k])


def _exception_table(entries: List[Tuple[int, int, int, int, bool]]) -> bytes:
    """3.11's table of (start, end, target, depth, lasti), in code units:
    each number in 6-bit groups, most significant first, 0x40 on all but
    the last, 0x80 on an entry's first byte (Objects/exception_handling_notes.txt)."""
    table = bytearray()
    for start, end, target, depth, lasti in entries:
        for k, number in enumerate((start, end - start, target, depth << 1 | lasti)):
            groups = [number & 63]
            while number >> 6:
                number >>= 6
                groups.insert(0, number & 63)
            encoded = [g | 64 for g in groups[:-1]] + groups[-1:]
            encoded[0] |= 128 if k == 0 else 0
            table += bytes(encoded)
    return bytes(table)


def _from_source(function: types.FunctionType) -> Callable[..., Any]:
    source = unpyc.decompile(function.__code__)
    assert KEPT_STACK_NOTE in source, source
    namespace: dict = {}
    exec(compile(source, "<decompiled>", "exec"), namespace)
    return namespace[function.__code__.co_name]


def _same_run(function: types.FunctionType, a: Any, b: Any) -> Tuple[Any, List[Any]]:
    """Runs the original code and the decompiled source on the same
    arguments; both give the same result and the same log."""
    log: List[Any] = []
    expected = function(log, a, b)
    copy_log: List[Any] = []
    got = _from_source(function)(copy_log, a, b)
    assert got == expected and copy_log == log, (got, expected, copy_log, log)
    return got, log


def test_a_value_computed_before_a_store_keeps_the_old_value() -> None:
    # LOAD a; a = 10; return old a + new a
    f = _assemble([("LOAD_FAST", 1), ("LOAD_CONST", 1), ("STORE_FAST", 1),
                   ("LOAD_FAST", 1), ("BINARY_OP", 0), ("RETURN_VALUE", 0)],
                  consts=(None, 10))
    assert _same_run(f, 1, 0) == (11, [])


def test_statements_run_after_the_values_under_them() -> None:
    # log.append('first') stays on the stack while the statement
    # log.append('second') runs, then `del a`; returns (first's result,).
    append_to_log = [("LOAD_FAST", 0), ("LOAD_METHOD", 0)]
    f = _assemble(append_to_log + [("LOAD_CONST", 1), ("PRECALL", 1), ("CALL", 1)] +
                  append_to_log + [("LOAD_CONST", 2), ("PRECALL", 1), ("CALL", 1),
                                   ("POP_TOP", 0), ("DELETE_FAST", 1),
                                   ("BUILD_TUPLE", 1), ("RETURN_VALUE", 0)],
                  consts=(None, "first", "second"), names=("append",))
    assert _same_run(f, 1, 2) == ((None,), ["first", "second"])


def test_a_copied_list_is_one_object() -> None:
    # L = [a]; COPY; L.extend([b]) through the copy; return (L, L)
    f = _assemble([("LOAD_FAST", 1), ("BUILD_LIST", 1), ("COPY", 1),
                   ("LOAD_FAST", 2), ("BUILD_LIST", 1), ("LIST_EXTEND", 1),
                   ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_CONST", 1),
                   ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
                   ("BUILD_TUPLE", 2), ("RETURN_VALUE", 0)],
                  consts=(None, "logged"), names=("append",))
    (first, second), log = _same_run(f, 1, 2)
    assert first == [1, 2] and log == ["logged"]
    namespace_result = _from_source(f)([], 1, 2)
    assert namespace_result[0] is namespace_result[1]


def test_a_test_with_values_kept_under_it_is_an_if_statement() -> None:
    # LOAD a; c = 5; if b: return a + 1 else: return a + 2
    f = _assemble([("LOAD_FAST", 1), ("LOAD_CONST", 1), ("STORE_FAST", 3),
                   ("LOAD_FAST", 2), ("POP_JUMP_FORWARD_IF_FALSE", 4),
                   ("LOAD_CONST", 2), ("BINARY_OP", 0), ("RETURN_VALUE", 0),
                   ("LOAD_CONST", 3), ("BINARY_OP", 0), ("RETURN_VALUE", 0)],
                  consts=(None, 5, 1, 2), varnames=("log", "a", "b", "c"))
    assert _same_run(f, 10, True) == (11, [])
    assert _same_run(f, 10, False) == (12, [])


def test_an_argument_never_rebound_needs_no_temporary() -> None:
    # LOAD a; LOAD log.append('x') result; c = 5; return (a, result, c):
    # `a` waits across two statements under its own name (the function
    # never stores it), the call's result in a temporary.
    f = _assemble([("LOAD_FAST", 1), ("LOAD_FAST", 0), ("LOAD_METHOD", 0),
                   ("LOAD_CONST", 1), ("PRECALL", 1), ("CALL", 1),
                   ("LOAD_CONST", 2), ("STORE_FAST", 3),
                   ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_CONST", 1),
                   ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
                   ("LOAD_FAST", 3), ("BUILD_TUPLE", 3), ("RETURN_VALUE", 0)],
                  consts=(None, "x", 5), names=("append",), varnames=("log", "a", "b", "c"))
    source = unpyc.decompile(f.__code__)
    assert "__stack0 = log.append('x')" in source and "= a\n" not in source, source
    assert "return a, __stack0, c" in source, source
    assert _same_run(f, 7, 0) == ((7, None, 5), ["x", "x"])


def test_a_del_of_a_bound_local_lets_the_values_wait_past_it() -> None:
    # c = 'x'; log.append(a) waits while `del c` runs; d = its result:
    # as Dynamo deletes its temporaries before it stores the graph's
    # output.  Deleting a local the call does not read is no effect, so
    # the call is written where its result is stored, with no temporary.
    f = _assemble([("LOAD_CONST", 1), ("STORE_FAST", 3),
                   ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_FAST", 1),
                   ("PRECALL", 1), ("CALL", 1), ("DELETE_FAST", 3), ("STORE_FAST", 4),
                   ("LOAD_FAST", 4), ("RETURN_VALUE", 0)],
                  consts=(None, "x"), names=("append",), varnames=("log", "a", "b", "c", "d"))
    source = unpyc.decompile(f.__code__)
    assert "    del c\n    d = log.append(a)\n" in source and "__stack" not in source.split(
        "(the same effects")[1], source
    assert _same_run(f, 7, 0) == (None, [7])


def test_a_del_of_what_a_waiting_value_reads_comes_after_it() -> None:
    # The same with log.append(c): the call reads c, so it is assigned
    # before the del.
    f = _assemble([("LOAD_CONST", 1), ("STORE_FAST", 3),
                   ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_FAST", 3),
                   ("PRECALL", 1), ("CALL", 1), ("DELETE_FAST", 3), ("STORE_FAST", 4),
                   ("LOAD_FAST", 4), ("RETURN_VALUE", 0)],
                  consts=(None, "x"), names=("append",), varnames=("log", "a", "b", "c", "d"))
    source = unpyc.decompile(f.__code__)
    assert "__stack0 = log.append(c)\n    del c\n    d = __stack0\n" in source, source
    assert _same_run(f, 7, 0) == (None, ["x"])


def test_cpython_code_has_no_temporaries() -> None:
    # The same effects written as source come out as that source.
    def written(log: List[Any], a: Any, b: Any) -> Any:
        old = a
        a = 10
        return old + a

    assert KEPT_STACK_NOTE not in unpyc.decompile(written, on_mismatch="raise")


# Values whose copy was stored (COPY; STORE_FAST: a walrus) and that wait
# on the stack under a later statement: Dynamo's side-effect code loads
# object_setattr_ignore_descriptor and the object this way, calls through
# the stored names, then calls the values still on the stack (issue 15).
# The store ran when the value was computed, so the source must bind the
# name before the statement that reads it.

def test_a_stored_copy_is_bound_before_the_statement_that_reads_it() -> None:
    # X = a + 1; c = X (copy); log.append(c); return (X,)
    f = _assemble([("LOAD_FAST", 1), ("LOAD_CONST", 1), ("BINARY_OP", 0),
                   ("COPY", 1), ("STORE_FAST", 3),
                   ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_FAST", 3),
                   ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
                   ("BUILD_TUPLE", 1), ("RETURN_VALUE", 0)],
                  consts=(None, 1), names=("append",), varnames=("log", "a", "b", "c"))
    assert _same_run(f, 4, 0) == ((5,), [5])


def test_a_stored_constant_copy_is_bound_before_the_statement() -> None:
    # 7 (copy stored to c); log.append(c); d = 7 (the value left); return (c, d)
    f = _assemble([("LOAD_CONST", 1), ("COPY", 1), ("STORE_FAST", 3),
                   ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_FAST", 3),
                   ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
                   ("STORE_FAST", 4), ("LOAD_FAST", 3), ("LOAD_FAST", 4),
                   ("BUILD_TUPLE", 2), ("RETURN_VALUE", 0)],
                  consts=(None, 7), names=("append",),
                  varnames=("log", "a", "b", "c", "d"))
    assert _same_run(f, 0, 0) == ((7, 7), [7])


def stored_callable_called_twice() -> types.FunctionType:
    """Dynamo's `holder.a = ...; holder.busy = True` before a graph break:
    f = (c := log.append) and its argument (d := a) wait on the stack;
    c(d) runs through the names, then f(d) from the stack."""
    return _assemble([("PUSH_NULL", 0), ("LOAD_FAST", 0), ("LOAD_ATTR", 0),
                      ("COPY", 1), ("STORE_FAST", 3),
                      ("LOAD_FAST", 1), ("LOAD_CONST", 1), ("BINARY_OP", 0),
                      ("COPY", 1), ("STORE_FAST", 4),
                      ("PUSH_NULL", 0), ("LOAD_FAST", 3), ("LOAD_FAST", 4),
                      ("LOAD_CONST", 1), ("BINARY_OP", 0),
                      ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
                      ("PRECALL", 1), ("CALL", 1), ("RETURN_VALUE", 0)],
                     consts=(None, 1), names=("append",),
                     varnames=("log", "a", "b", "c", "d"))


def test_stored_callables_called_through_their_names_then_from_the_stack() -> None:
    f = stored_callable_called_twice()
    assert _same_run(f, 1, 0) == (None, [3, 2])


LOAD_CELL_THEN_A = [("LOAD_CLOSURE", 3), ("LOAD_FAST", 1), ("BUILD_TUPLE", 2),
                    ("RETURN_VALUE", 0)]
# The cell waits on the stack while log.append('x') runs.
CELL_KEPT_ACROSS_A_STATEMENT = [
    ("LOAD_CLOSURE", 3), ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_CONST", 1),
    ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0), ("LOAD_FAST", 1), ("BUILD_TUPLE", 2),
    ("RETURN_VALUE", 0)]


def _cell_function(body: List[Tuple[str, int]]) -> types.FunctionType:
    """A function of (log, a, b) with the free variable `cell_var`, whose
    code (body) returns (its cell, a): Dynamo passes cells so to the
    functions that rebuild a closure for a resume function."""
    cell_var = "the cell's value"

    def template(log: List[Any], a: Any, b: Any) -> Any:
        return cell_var

    # localsplus: log, a, b, cell_var; LOAD_CLOSURE takes its index.
    ops = [("COPY_FREE_VARS", 1), ("RESUME", 0)] + body
    code = bytearray()
    for name, arg in ops:
        op = dis.opmap[name]
        code += bytes([op, arg]) + bytes(2 * dis._inline_cache_entries[op])  # type: ignore[attr-defined]
    co = template.__code__.replace(co_code=bytes(code), co_consts=(None, "x"),
                                   co_names=("append",), co_stacksize=8,
                                   co_linetable=b"", co_exceptiontable=b"")
    return types.FunctionType(co, {}, "template", None, template.__closure__)


@pytest.mark.parametrize("body", [LOAD_CELL_THEN_A, CELL_KEPT_ACROSS_A_STATEMENT],
                         ids=["in-an-expression", "kept-across-a-statement"])
def test_a_cell_used_as_a_value_is_the_cell(body: List[Tuple[str, int]]) -> None:
    f = _cell_function(body)
    source = unpyc.decompile(f.__code__)
    assert "(lambda: cell_var).__closure__[0]" in source, source
    # The def runs as a closure over the same cell.
    wrapped = "def outer(cell_var):\n" + "".join(
        "    " + line + "\n" for line in source.splitlines()) + "    return template\n"
    namespace: dict = {}
    exec(compile(wrapped, "<decompiled>", "exec"), namespace)
    inner = namespace["outer"](None).__code__
    assert f.__closure__ is not None
    copy = types.FunctionType(inner, {}, "template", None, f.__closure__)
    log: List[Any] = []
    cell, a = copy(log, 5, 0)
    assert cell is f.__closure__[0] and a == 5
    assert f([], 5, 0) == (cell, 5)
    assert log == (["x"] if body is CELL_KEPT_ACROSS_A_STATEMENT else [])


def test_a_def_waiting_under_a_statement_is_not_recovered() -> None:
    # c = <function with default a>, made before log.append('x') runs:
    # a def statement after the call would read a's default too late.
    def made(x: Any = None) -> Any:
        return x

    f = _assemble([("LOAD_FAST", 1), ("BUILD_TUPLE", 1), ("LOAD_CONST", 1),
                   ("MAKE_FUNCTION", 1),
                   ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_CONST", 2),
                   ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
                   ("STORE_FAST", 3), ("LOAD_FAST", 3), ("RETURN_VALUE", 0)],
                  consts=(None, made.__code__, "x"), names=("append",),
                  varnames=("log", "a", "b", "c"))
    source = unpyc.decompile(f.__code__)
    assert "unpyc: could not recover this statement under a function waiting" in source, source
    with pytest.raises(unpyc.VerificationError) as caught:
        unpyc.decompile(f.__code__, on_mismatch="raise")
    assert caught.value.unrecovered > 0


def test_a_value_dropped_from_under_a_later_one_runs_first() -> None:
    # log.append('first'); log.append('second') waits above it; SWAP 2;
    # POP_TOP drops the first from under the second, which is returned:
    # 'first' is logged first although its value goes last.
    append_to_log = [("LOAD_FAST", 0), ("LOAD_METHOD", 0)]
    f = _assemble(append_to_log + [("LOAD_CONST", 1), ("PRECALL", 1), ("CALL", 1)] +
                  append_to_log + [("LOAD_CONST", 2), ("PRECALL", 1), ("CALL", 1),
                                   ("SWAP", 2), ("POP_TOP", 0), ("RETURN_VALUE", 0)],
                  consts=(None, "first", "second"), names=("append",))
    assert _same_run(f, 1, 2) == (None, ["first", "second"])


def _try_finally_under_kept_values(function_first: bool) -> types.FunctionType:
    """Dynamo's graph break inside `with torch.no_grad()`, in small: a
    stays on the stack while log.append('body') runs in a try whose
    handler keeps nothing of the stack (depth 0); the finally body
    log.append('exit') is copied onto the normal way out, which pushes
    None, jumps, and pops it; return (a, the body's result).  With
    function_first, log.append and its argument are loaded before the
    protected range, as Dynamo does."""
    append = [("LOAD_FAST", 0), ("LOAD_METHOD", 0)]
    call = [("PRECALL", 1), ("CALL", 1)]
    load = append + [("LOAD_CONST", 1)]
    exit_call = append + [("LOAD_CONST", 2)] + call + [("POP_TOP", 0)]
    body = load + call if not function_first else call
    ops = ([("LOAD_FAST", 1)] + (load if function_first else []) + body + [("NOP", 0)]
           + exit_call + [("LOAD_CONST", 0), ("JUMP_FORWARD", 0)]
           + [("PUSH_EXC_INFO", 0)] + exit_call + [("RERAISE", 0)]
           + [("COPY", 3), ("POP_EXCEPT", 0), ("RERAISE", 1)]
           + [("NOP", 0), ("POP_TOP", 0), ("BUILD_TUPLE", 2), ("RETURN_VALUE", 0)])
    try_start = 1 + (len(load) if function_first else 0)
    handler = try_start + len(body) + 1 + len(exit_call) + 2
    cleanup = handler + 1 + len(exit_call) + 1
    after = cleanup + 3
    jump = handler - 1
    ops[jump] = ("JUMP_FORWARD", _unit(ops, after) - _unit(ops, jump + 1))
    table = _exception_table([
        (_unit(ops, try_start), _unit(ops, try_start + len(body)), _unit(ops, handler), 0, False),
        (_unit(ops, handler), _unit(ops, cleanup), _unit(ops, cleanup), 1, True)])
    return _assemble(ops, consts=(None, "body", "exit"), names=("append",),
                     exception_table=table)


@pytest.mark.parametrize("function_first", [True, False])
def test_a_try_finally_under_kept_values(function_first: bool) -> None:
    """The values under the try wait in temporaries assigned before it,
    the body's result in one assigned in the body, the finally body runs
    once on the normal way out (it ran twice: the body went on into its
    copy), and the code after the try reads the stack the body left (it
    read what the handler's walk had put there: `return ..., ...`)."""
    from unpyc.effects import same_effects

    f = _try_finally_under_kept_values(function_first)
    source = unpyc.decompile(f.__code__)
    assert source.count("log.append('exit')") == 1 and "..." not in source, source
    assert _same_run(f, 1, 0) == ((1, None), ["body", "exit"])
    body = source.split("try:\n")[1].split("finally:")[0]
    assert "'body')" in body and "'exit'" not in body, source
    namespace: dict = {}
    exec(compile(source, "<source>", "exec"), namespace)
    assert same_effects(f.__code__, namespace[f.__code__.co_name].__code__).equal
    # An exception in the body runs the finally body, then leaves.
    log: List[Any] = ["not a list"]
    with pytest.raises(AttributeError):
        namespace[f.__code__.co_name](log[0], 1, 0)


# ---- folding (engine/recover/fold.c): a temporary goes back into the one
# expression that reads it where the order of effects allows ----


def test_a_temporary_folds_past_a_local_store_but_not_past_a_call() -> None:
    from unpyc.effects import same_effects

    # a[0] waits while c = 1 runs: nothing can change a[0] in between, so
    # it is read where it is used.
    past_store = _assemble([("LOAD_FAST", 1), ("LOAD_CONST", 1), ("BINARY_SUBSCR", 0),
                            ("LOAD_CONST", 2), ("STORE_FAST", 3),
                            ("BUILD_TUPLE", 1), ("RETURN_VALUE", 0)],
                           consts=(None, 0, "c"), varnames=("log", "a", "b", "c"))
    source = unpyc.decompile(past_store.__code__)
    assert "__stack0" not in source and "return (a[0],)" in source, source
    assert _same_run(past_store, [5], 0) == ((5,), [])
    # a[0] waits while log.append(...) runs: the call may change a (a
    # caller may pass log as a), so the temporary stays.
    past_call = _assemble([("LOAD_FAST", 1), ("LOAD_CONST", 1), ("BINARY_SUBSCR", 0),
                           ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_CONST", 2),
                           ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
                           ("BUILD_TUPLE", 1), ("RETURN_VALUE", 0)],
                          consts=(None, 0, "x"), names=("append",))
    source = unpyc.decompile(past_call.__code__)
    assert "__stack0 = a[0]" in source and "return (__stack0,)" in source, source
    assert _same_run(past_call, [7], 0) == ((7,), ["x"])
    # c waits while log.append(...) runs: a local other than an argument
    # never rebound may be unbound, and its UnboundLocalError must come
    # before the call, so it stays too (arguments are kept under their
    # own names, spill.c).
    local_past_call = _assemble([("LOAD_CONST", 1), ("STORE_FAST", 3), ("LOAD_FAST", 3),
                                 ("LOAD_FAST", 0), ("LOAD_METHOD", 0), ("LOAD_CONST", 2),
                                 ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
                                 ("BUILD_TUPLE", 1), ("RETURN_VALUE", 0)],
                                consts=(None, 5, "x"), names=("append",),
                                varnames=("log", "a", "b", "c"))
    source = unpyc.decompile(local_past_call.__code__)
    assert "__stack0 = c\n" in source and "return (__stack0,)" in source, source
    assert _same_run(local_past_call, 0, 0) == ((5,), ["x"])
    for function in (past_store, past_call, local_past_call):
        namespace: dict = {}
        exec(compile(unpyc.decompile(function.__code__), "<source>", "exec"), namespace)
        assert same_effects(function.__code__, namespace[function.__code__.co_name].__code__).equal


def test_a_stable_global_folds_past_a_call() -> None:
    """A global read waits while log.append(...) runs: a call may rebind
    any global, so it stays in its temporary, unless the caller vouches
    that nothing rebinds it (stable_globals, as the explorer does for the
    globals Dynamo installs); then it is read where it is used, and the
    effect check proves that source only when told the same names."""
    from unpyc.effects import same_effects

    # g waits while log.append('x') runs; return (g,)
    f = _assemble([("LOAD_GLOBAL", 2), ("LOAD_FAST", 0), ("LOAD_METHOD", 0),
                   ("LOAD_CONST", 1), ("PRECALL", 1), ("CALL", 1), ("POP_TOP", 0),
                   ("BUILD_TUPLE", 1), ("RETURN_VALUE", 0)],
                  consts=(None, "x"), names=("append", "g"))
    kept = unpyc.decompile(f.__code__)
    assert "__stack0 = g\n" in kept and "return (__stack0,)" in kept, kept
    folded = unpyc.decompile(f.__code__, stable_globals=["g"])
    assert "__stack0" not in folded and "return (g,)" in folded, folded
    namespace: dict = {}
    exec(compile(folded, "<source>", "exec"), namespace)
    folded_code = namespace[f.__code__.co_name].__code__
    assert same_effects(f.__code__, folded_code, stable_globals=["g"]).equal
    assert not same_effects(f.__code__, folded_code).equal
    log: List[Any] = []
    assert types.FunctionType(folded_code, {"g": 3})(log, 0, 0) == (3,) and log == ["x"]


def test_dynamo_toy_example_reads_folded() -> None:
    """The toy example's transformed code, from a real torch.compile run:
    the walrus temporaries Dynamo binds and deletes around its calls are
    gone, the lists passed to the resume function are built inline, and
    what stays passes the effect check (tests/test_effects.py).  Before
    the fold: 22 __stack names, `(tmp_1 := ...)()` and `del tmp_1`."""
    import re

    torch = pytest.importorskip("torch", reason="torch is installed by scripts/setup.sh")
    import torch._dynamo.convert_frame

    from unpyc import _torch_hooks as hooks
    from unpyc import _transformed_code as transformed
    from unpyc.effects import same_effects

    def toy_example(a: Any, b: Any) -> Any:
        x = a / (torch.abs(a) + 1)
        if b.sum() < 0:
            b = b * -1
        return x * b

    codes: List[types.CodeType] = []
    handle = torch._dynamo.convert_frame.register_bytecode_hook(
        lambda original, transformed_code: codes.append(transformed_code))
    torch._dynamo.reset()
    try:
        compiled = torch.compile(toy_example, backend="eager")
        compiled(torch.arange(1.0, 5.0), -torch.ones(4))
    finally:
        handle.remove()
        torch._dynamo.reset()
    code = next(c for c in codes if c.co_name == "toy_example")
    source = unpyc.decompile(code.replace(co_qualname=code.co_name))
    assert ":=" not in source and "del tmp_" not in source, source
    assert re.search(r"graph_out_0 = __stack0\(a, b\)", source), source
    resume_calls = re.findall(r"return __stack\d+\(\*\[\[\], __stack\d+, \*__stack\d+\]\)",
                              source)
    assert len(resume_calls) == 2, source
    stack_names = set(re.findall(r"__stack\d+", source))
    assert len(stack_names) <= 15, (len(stack_names), source)  # 15 measured, 22 unfolded
    name = "__transformed"
    runnable = transformed.closure_wrapper(transformed.renamed_def(source, name), name,
                                           code.co_freevars)
    verdict = same_effects(code, transformed.code_of_def(runnable, name, name, code))
    assert verdict.equal, (verdict, source)
    # With the globals Dynamo installed vouched for, as the explorer does,
    # the graph is called by name (depyf's form).
    stable = hooks.stable_globals(code)
    assert any(n.startswith("__compiled_fn") for n in stable), stable
    source = unpyc.decompile(code.replace(co_qualname=code.co_name), stable_globals=stable)
    assert re.search(r"graph_out_0 = __compiled_fn_\w+\(a, b\)", source), source
    # toy_example has a free variable here (torch), so Dynamo calls a
    # factory of each resume function, __resume_at_*(cell): a call, which
    # stays before the list reads and deletes that follow it.
    assert len(re.findall(r"__stack\d+ = __resume_at_\w+\(__stack\d+\[-1\]\)", source)) == 2
    stack_names = set(re.findall(r"__stack\d+", source))
    assert len(stack_names) <= 14, (len(stack_names), source)  # 14 measured, 15 without
    runnable = transformed.closure_wrapper(transformed.renamed_def(source, name), name,
                                           code.co_freevars)
    verdict = same_effects(code, transformed.code_of_def(runnable, name, name, code), stable)
    assert verdict.equal, (verdict, source)
