"""Returns whose copied tails end alike, after an if that returns too.

3.12+ copies a small exit block into each jump to it (flowgraph.c
inline_small_exit_blocks): `if a: return m.nan` and the `.nan; return` of a
conditional expression returned after it end alike, but the branches meet
at two different instructions, not in one expression (issue 16: the
decompiler read `return (m if a else (...) if b else e).nan`).
"""


def attr_after_returned_ifexp(a, b, m, e):
    if a:
        return m.nan
    if b:
        return m.nan if a == 1 else 0.0
    return e


def attr_chain_after_returned_ifexp(a, b, x, e):
    if a:
        return x.a.b
    if b:
        return x.a.b if a == 1 else 0.0
    return e


def call_after_returned_ifexp(a, b, f, x, e):
    if a:
        return f(x)
    if b:
        return f(x) if a == 1 else 0.0
    return e


def negation_after_returned_ifexp(a, b, x, e):
    if a:
        return -x
    if b:
        return -x if a == 1 else 0.0
    return e


def subscript_after_returned_ifexp(a, b, x, e):
    if a:
        return x[0]
    if b:
        return x[0] if a == 1 else 0.0
    return e


def raise_attr_after_raised_ifexp(a, b, x, e):
    if a:
        raise x.y
    if b:
        raise x.y if a == 1 else e
    raise e


def attr_after_returned_ifexp_in_loop(xs, b, m, e):
    while xs:
        a = xs.pop()
        if a:
            return m.nan
        if b:
            return m.nan if a == 1 else 0.0
        if a is None:
            break
        if a == 2:
            continue
        e += 1
    return e


def attr_after_returned_ifexp_in_while(xs, b, m, e):
    while xs:
        a = xs.pop()
        if a:
            return m.nan
        if b:
            return m.nan if a == 1 else 0.0
    return e


def attr_after_returned_ifexp_else(a, b, m, e):
    if a:
        return m.nan
    elif b:
        return m.nan if a == 1 else 0.0
    else:
        return e.nan


def attr_of_returned_ifexp_after_if(a, b, m, e):
    if a:
        return m.nan
    return (m if b else e).nan


def attr_of_nested_returned_ifexp(a, b, m, e):
    return (m.nan if a else m.nan if b else 0.0) if e else 1.5


def attr_of_ifexp_with_nested_value(a, c, d, b, e):
    return (a if c else (b.nan if d else e)).nan


def attr_of_returned_ifexp_in_if(a, b, m, e):
    if a:
        return m.nan
    if b:
        return (m if a == 1 else e).nan
    return e


def subscript_after_if_returned_ifexp(a, b, m):
    if a:
        return m[0]
    return m[0] if b == 1 else 0.0


def attr_chain_of_returned_ifexp_after_if(a, b, m, e):
    if a:
        return m.nan.x
    return (m.nan if b else e).x


def returned_ifexp_in_for(xs, b, m):
    for a in xs:
        if a:
            return m.nan
        if b:
            return m.nan if a == 1 else 0.0
    return m


def attr_of_nested_returned_ifexp_in_for(xs, b, m, e):
    for a in xs:
        if e:
            return (m.nan if a else m.nan if b else 0.0) if e else 1.5
        e = a
    return e
