"""Starred items in calls and displays among plain ones (3.8 joins the runs with BUILD_*_UNPACK, 3.9+ extend one container)."""


def call_positional(f, a, b, x, y):
    f(*a, *b)
    f(1, *a)
    f(x, *a)
    f(*a, x)
    f(*a, 1, 2)
    f(x, y, *a, x, *b, y)
    return f(a.b, *a, f(b), *(b or a), b if a else x)


def call_keywords(f, a, b, x):
    f(**a, **b)
    f(k=1, **a)
    f(**a, k=1)
    f(k=a, j=b, **a, m=x, **b)
    f(**a)
    f(x, **a)
    return f(*a, *b, k=1, **a)


def call_keyword_displays(f, a, b):
    f(**{'a b': 1}, **a)
    f(**a, **{1: 2})
    f(**{**a, **b})
    f(*a, **{**a, 'k': 1})
    return f(**{'k': a, 'j': b}, **b)


def starred_displays_in_calls(f, a, x):
    f(x, *(x,), *a)
    return f(x, *(1, 2), *a)


def method_calls(o, a, b):
    o.m(*a, *b)
    o.m(1, 2, *a, **b, **a)
    return o.m(o, *a, key=b, **a).n(*b, *a)


def displays(a, b, c):
    x = [*a, *b]
    y = [1, *a, c, *b, 2]
    z = (*a, *b)
    u = (c, *a, b)
    v = {*a, *b}
    w = {c, *a, 1, *b}
    return x, y, z, u, v, w


def single_starred(a):
    return [*a], (*a,), {*a}, {**a}


def dict_displays(a, b, c):
    x = {**a, **b}
    y = {'k': 1, **a}
    z = {**a, 'k': c, 'j': 2}
    w = {c: 1, **a, c + 1: 2, **b}
    return x, y, z, w


def operands_with_branches(f, a, b, c):
    x = [*(a or b), *(b and c)]
    y = f(*(a if c else b), *[c for c in a])
    z = {**(a or {}), **(b if c else {})}
    return x, y, z, (*(w := a), *w)


def starred_in_tests(f, a, b):
    if [*a, *b]:
        return 1
    while {**a, **b}:
        a = {}
    return [f(*a, *b) for _ in b]


def starred_lambdas(a, b):
    g = lambda *p: (*p, *a)
    h = lambda **k: {**k, **b}
    return g, h


async def starred_awaits(f, a, b):
    return [*await f(), *a], f(*await a, **await b, **a)


def nested_starred(f, a, b):
    return f(*[*a, *b], *(f(*a, *b),), **{**a, **b})


def starred_subscripts(d, a, b):
    d[(*a, *b)] = [*a, *b]
    return d[(*a,)]


def branch_operands(f, a, b, c, d):
    f(*(a or (b, c)), d)
    x = [*(a or (b, c)), d]
    y = {**(a or {'k': b}), 'j': c}
    return f(*a, **(b or {'k': c})), x, y


def folded_singletons(f, a, b):
    return [a, *b, None], (a, *b, True, None), f(*a, None, False, ...)


def jump_to_extended_arg(a, b, c, d):
    # The chain's way out lands on the EXTENDED_ARG of the `and`'s jump.
    x = (a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a)
    return x, [*a, *((b < c < a) and d)]


def long_operand_after_short(a, b, c):
    # The second display's operands span far more code than the first's.
    x = [*a, *b]
    return x, [*a, *(b or (c.x0, c.x1, c.x2, c.x3, c.x4, c.x5, c.x6, c.x7, c.x8, c.x9, c.x10, c.x11, c.x12, c.x13, c.x14, c.x15, c.x16, c.x17, c.x18, c.x19, c.x20, c.x21, c.x22, c.x23, c.x24, c.x25, c.x26, c.x27, c.x28, c.x29, c.x30, c.x31, c.x32, c.x33, c.x34, c.x35, c.x36, c.x37, c.x38, c.x39, c.x40, c.x41, c.x42, c.x43, c.x44, c.x45, c.x46, c.x47, c.x48, c.x49, c.x50, c.x51, c.x52, c.x53, c.x54, c.x55, c.x56, c.x57, c.x58, c.x59))]


class StarredBases(*(object,), *()):
    items = [*range(2), *range(3)]


class StarredKeywordBases(object, **{'metaclass': type}, **{}):
    pass


merged = {**{'a': 1}, **{'b': 2}}
joined = [*merged, *merged.values()]
print(*joined, *merged, sep='')
