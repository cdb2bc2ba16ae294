"""A break (continue, return) under an if ending a try body in a loop.

The compiler leaves the try before the way out (compile.c
compiler_unwind_fblock: 3.8-3.10 POP_BLOCK before the break's pops, 3.11+
the protected range ends there), so the break's code (the iterator's
POP_TOP and the jump, or 3.10+'s copy of the small exit block after the
loop in place of the jump: flowgraph.c inline_small_exit_blocks) lies
past the protected range, reached only from the then part, while the
if's test jumps past it to where the body goes on.  It was read as code
after the try (or its else part): the loop stopped after the first item,
unmarked (break_in_if_in_try on 3.10, 3.12, 3.13; with a nested if before
the break, break_after_nested_if_in_try, on every version: whoosh
RomanianStemmer.stem, holdout 10, audit43).  And where the break is the
whole then part in a while loop whose exit 3.10+ copies into it, the
copy was dropped: `if x > 0: pass` (break_in_if_in_try_while_raising_exit).
Each function here runs the same from the source and from the output on
every version (or is marked).
"""


def break_after_nested_if_in_try(word, suffixes, rv):
    """`break` after a nested `if` inside `if` in a try in a for: the break
    left its `if` in the output until stop 43 (every version).
    break_after_nested_if_in_try("ab", ("c", "b"), "b"): "a" from the
    source, "ab" from the output."""
    for suffix in suffixes:
        try:
            if word.endswith(suffix):
                if suffix in rv:
                    word = word[: -len(suffix)]
                break
        except UnicodeDecodeError:
            continue
    return word


def break_in_if_in_try(word, suffixes):
    """`if c: x; break` alone in a try in a for, `except E: pass`: the break
    left its `if` in the output until stop 43 (3.10, 3.12, 3.13).
    break_in_if_in_try("ab", ("c", "b")): "a" from the source, "ab" from
    the output until stop 43."""
    for suffix in suffixes:
        try:
            if word.endswith(suffix):
                word = word[:-1]
                break
        except ValueError:
            pass
    return word


def break_in_if_in_try_while(items):
    """The same in a while loop (3.10, 3.12, 3.13).
    break_in_if_in_try_while([-1, 2, 3]): 2 from the source, 0 from the
    output."""
    i = 0
    out = 0
    while i < len(items):
        x = items[i]
        i += 1
        try:
            if x > 0:
                out = x
                break
        except TypeError:
            pass
    return out


def break_in_if_in_try_then_code(items):
    """The same with code after the try in the loop body (3.10, 3.12,
    3.13).
    break_in_if_in_try_then_code([-1, 2, 3]): 2 from the source, 0 from
    the output until stop 43."""
    out = 0
    for x in items:
        try:
            if x > 0:
                out = x
                break
        except TypeError:
            pass
        out -= 1
    return out


def break_after_nested_if_in_try_else(items):
    """break_after_nested_if_in_try with a try-else (every version).
    break_after_nested_if_in_try_else([-1, 2, 3]): 10 from the source, 0
    from the output."""
    out = 0
    for x in items:
        try:
            if x > 0:
                if x > 5:
                    out = x
                break
        except TypeError:
            continue
        else:
            out += 10
    return out


def continue_in_if_in_try(items):
    out = []
    for x in items:
        try:
            if x > 0:
                out.append(x)
                continue
        except TypeError:
            pass
        out.append(-1)
    return out


def return_in_if_in_try(items):
    for x in items:
        try:
            if x > 0:
                x += 1
                return x
        except TypeError:
            pass
    return 0


def break_in_if_else_in_try(items):
    out = 0
    for x in items:
        try:
            if x > 0:
                out = x
                break
            else:
                out -= 1
        except TypeError:
            pass
    return out


def break_in_if_in_try_except_continue(items):
    out = 0
    for x in items:
        try:
            if x > 0:
                out = x
                break
        except TypeError:
            continue
    return out


def break_in_if_in_try_finally(items, log):
    out = 0
    for x in items:
        try:
            if x > 0:
                out = x
                break
        finally:
            log.append(x)
    return out


def break_in_if_in_try_code_after_if(items):
    out = 0
    for x in items:
        try:
            if x > 0:
                out = x
                break
            out -= 1
        except TypeError:
            pass
    return out


def break_in_elif_in_try(items):
    out = 0
    for x in items:
        try:
            if x > 5:
                out = 5
            elif x > 0:
                out = x
                break
        except TypeError:
            pass
    return out


def break_in_if_in_try_for_else(items):
    out = 0
    for x in items:
        try:
            if x > 0:
                out = x
                break
        except TypeError:
            pass
    else:
        out = -100
    return out


def break_in_if_in_try_while_true(items):
    i = 0
    while True:
        x = items[i % len(items)]
        i += 1
        try:
            if x > 0:
                break
        except TypeError:
            pass
        if i > 10:
            return -1
    return x


def continue_in_if_in_try_while(items):
    i = 0
    out = 0
    while i < len(items):
        x = items[i]
        i += 1
        try:
            if x > 0:
                out += x
                continue
        except TypeError:
            pass
        out -= 1
    return out


def return_in_nested_if_in_try(items, limit):
    for x in items:
        try:
            if x > 0:
                if x > limit:
                    x = limit
                return x
        except TypeError:
            continue
    return 0


def continue_after_nested_if_in_try(items, limit):
    out = []
    for x in items:
        try:
            if x > 0:
                if x > limit:
                    x = limit
                out.append(x)
                continue
        except TypeError:
            continue
        out.append(0)
    return out


def break_in_if_in_try_else_part(items):
    out = 0
    for x in items:
        try:
            y = x + 1
        except TypeError:
            pass
        else:
            if y > 1:
                out = y
                break
    return out


def break_after_nested_if_while(items):
    i = 0
    out = 0
    while i < len(items):
        x = items[i]
        i += 1
        try:
            if x > 0:
                if x > 5:
                    out = x
                break
        except TypeError:
            pass
    return out


def break_in_if_in_try_value_return_after(items):
    for x in items:
        try:
            if x > 0:
                x = -x
                break
        except TypeError:
            pass
    else:
        return None
    return x


def break_in_if_in_inner_loop_try(rows):
    total = 0
    for row in rows:
        for x in row:
            try:
                if x > 0:
                    total += x
                    break
            except TypeError:
                pass
        total += 100
    return total


async def async_for_break_in_if_in_try(aiter_):
    out = 0
    async for x in aiter_:
        try:
            if x > 0:
                out = x
                break
        except TypeError:
            pass
    return out


async def async_for_break_after_nested_if_in_try(aiter_):
    out = 0
    async for x in aiter_:
        try:
            if x > 0:
                if x > 5:
                    out = x
                break
        except TypeError:
            continue
    return out


def break_in_if_in_try_with(items, cm):
    out = 0
    for x in items:
        with cm:
            try:
                if x > 0:
                    out = x
                    break
            except TypeError:
                pass
    return out


def break_in_if_in_try_while_true_raising_exit(items):
    i = 0
    while True:
        x = items[i % len(items)]
        i += 1
        try:
            if x > 0:
                break
        except TypeError:
            pass
        if i > 10:
            return -1
    return x[0]


def break_in_if_in_try_raising_exit(items):
    for x in items:
        try:
            if x > 0:
                x += 1
                break
        except TypeError:
            pass
    return x[0]


def break_in_if_in_try_while_raising_exit(items):
    i = 0
    x = 0
    while i < len(items):
        x = items[i]
        i += 1
        try:
            if x > 0:
                break
        except TypeError:
            pass
    return x[0]


def return_in_if_in_try_while(items):
    i = 0
    while i < len(items):
        x = items[i]
        i += 1
        try:
            if x > 0:
                x += 1
                return x
        except TypeError:
            pass
    return 0


def return_call_in_if_in_try_while(items):
    i = 0
    while i < len(items):
        x = items[i]
        i += 1
        try:
            if x > 0:
                if x > 5:
                    x = 5
                return x[0]
        except TypeError:
            pass
    return 0
