"""A loop with an else part that goes round an outer loop (`else: continue`), then a `break` of the outer loop: 3.8-3.9's peephole.c threads the inner loop's break through that dead `break` (holdout 11 xmlschema XsdGroup.iter_decode)."""


def break_after_for_else_continue(items, extra):
    # xmlschema XsdGroup.iter_decode (3.8, 3.9; audit44): the output
    # dropped the `break` after the for-else, so the code after it ran.
    out = []
    while items:
        x = items.pop()
        if x is None:
            for e in extra:
                out.append(e)
                break
            else:
                continue
            break
        out.append(x)
        break
    return out


def code_then_break(items, extra):
    out = []
    while items:
        x = items.pop()
        if x is None:
            for e in extra:
                out.append(e)
                break
            else:
                continue
            out.append("after")
            break
        out.append(x)
        break
    return out


def break_under_if(items, extra):
    out = []
    while items:
        x = items.pop()
        if x is None:
            for e in extra:
                if e:
                    out.append(e)
                    break
            else:
                continue
            break
        out.append(x)
    return out


def longer_else_part(items, extra):
    out = []
    while items:
        x = items.pop()
        if x is None:
            for e in extra:
                if e:
                    out.append(e)
                    break
            else:
                out.append("none")
                continue
            break
        out.append(x)
    return out


def while_else_continue(items, extra):
    out = []
    while items:
        x = items.pop()
        if x is None:
            i = 0
            while i < len(extra):
                if extra[i]:
                    out.append(extra[i])
                    break
                i += 1
            else:
                continue
            break
        out.append(x)
    return out


def in_a_for(items, extra):
    out = []
    for x in items:
        if x is None:
            for e in extra:
                if e:
                    out.append(e)
                    break
            else:
                continue
            break
        out.append(x)
    return out


def nested_for(items, extra):
    out = []
    while items:
        x = items.pop()
        for y in [x, x]:
            if y is None:
                for e in extra:
                    if e:
                        out.append(e)
                        break
                else:
                    continue
                break
            out.append(y)
        else:
            continue
        break
    return out


def for_else_break_then_continue(items, extra):
    out = []
    while items:
        x = items.pop()
        if x is None:
            for e in extra:
                if e:
                    out.append(e)
                    break
            else:
                break
            continue
        out.append(x)
    return out


def no_else_continue_after(items, extra):
    out = []
    while items:
        x = items.pop()
        if x is None:
            for e in extra:
                if e:
                    out.append(e)
                    break
            continue
        out.append(x)
        break
    return out


def for_else_continue_then_return(items, extra):
    out = []
    while items:
        x = items.pop()
        for e in extra:
            if e == x:
                out.append(e)
                break
        else:
            continue
        return out
    return None


def in_a_try(items, extra):
    out = []
    while items:
        x = items.pop()
        try:
            for e in extra:
                if e == x:
                    out.append(e)
                    break
            else:
                continue
            break
        except TypeError:
            out.append("err")
    return out


async def async_for_else_continue(items, extra):
    out = []
    while items:
        x = items.pop()
        if x is None:
            async for e in extra:
                if e:
                    out.append(e)
                    break
            else:
                continue
            break
        out.append(x)
    return out


def inner_loop_then_break(items, extra):
    out = []
    while items:
        x = items.pop()
        for e in extra:
            for f in [e, x]:
                if f:
                    out.append(f)
                    break
            break
        else:
            continue
        break
    return out


def inner_loop_break_then_code(items, extra):
    out = []
    while items:
        x = items.pop()
        for e in extra:
            for f in [e, x]:
                if f:
                    break
            else:
                out.append("no f")
            out.append(e)
            break
        else:
            continue
        break
    return out


def while_else_break_then_continue(items, extra):
    out = []
    while items:
        x = items.pop()
        i = 0
        while i < len(extra):
            if extra[i] == x:
                out.append(i)
                break
            i += 1
        else:
            break
        continue
    return out


def else_part_with_if(items, extra):
    out = []
    while items:
        x = items.pop()
        for e in extra:
            if e == x:
                out.append(e)
                break
        else:
            if x:
                continue
            out.append("none")
            continue
        break
    return out


def for_in_while_true(items, extra):
    out = []
    while True:
        if not items:
            return out
        x = items.pop()
        for e in extra:
            if e == x:
                out.append(e)
                break
        else:
            continue
        break
    out.append("end")
    return out


def break_in_try_finally(items, extra):
    out = []
    while items:
        x = items.pop()
        for e in extra:
            try:
                if e == x:
                    break
            finally:
                out.append(e)
        else:
            continue
        break
    return out


class _Cm:
    def __init__(self, out):
        self.out = out

    def __enter__(self):
        self.out.append("in")

    def __exit__(self, *exc):
        self.out.append("out")


def in_a_with(items, extra):
    out = []
    while items:
        x = items.pop()
        with _Cm(out):
            for e in extra:
                if e == x:
                    break
            else:
                continue
            break
    return out


def outer_loop_has_else(items, extra):
    out = []
    while items:
        x = items.pop()
        for e in extra:
            if e == x:
                out.append(e)
                break
        else:
            continue
        break
    else:
        out.append("ran out")
    return out


def no_else_continue_dead_break(items, extra):
    out = []
    while items:
        x = items.pop()
        for e in extra:
            if e == x:
                out.append(e)
                break
        continue
        break
    return out


def in_a_handler(items, extra):
    out = []
    while items:
        x = items.pop()
        try:
            out.append(1 // x)
        except (ZeroDivisionError, TypeError):
            for e in extra:
                if e == x:
                    out.append(e)
                    break
            else:
                continue
            break
    return out


def in_a_generator(items, extra):
    while items:
        x = items.pop()
        for e in extra:
            if e == x:
                yield e
                break
        else:
            yield "none"
            continue
        yield "after"
        break
    yield "end"


def break_under_two_ifs(items, extra):
    out = []
    while items:
        x = items.pop()
        for e in extra:
            if e:
                if e == x:
                    out.append(e)
                    break
                out.append("e")
        else:
            continue
        if x:
            out.append("x")
        break
    return out


async def async_for_else_continue_then_code(items, extra):
    # 3.12 / 3.13 (main too): the async for's exit (END_ASYNC_FOR, then
    # the `continue`) lies in the cold code after the return; read as an
    # outer `while True:`, the else part is lost and the code after the
    # loop runs where the async for runs out.
    out = []
    while items:
        x = items.pop()
        async for e in extra:
            if e:
                break
        else:
            continue
        out.append(x)
    return out
