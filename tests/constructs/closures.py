"""Nested closures, nonlocal, lambdas, defaults."""


def counter():
    count = 0

    def inc(step=1):
        nonlocal count
        count += step
        return count
    return inc


def nested_three(x):
    def middle(y):
        def inner(z):
            return x + y + z
        return inner
    return middle


def lambdas(items, key=None):
    f = lambda a, b=2, *rest, c, d=4, **kw: (a, b, rest, c, d, kw)
    items.sort(key=key or (lambda item: item[0]))
    # Since 3.12 the return is copied into each branch of the
    # conditional expression the lambda returns.
    g = lambda x: x if x > 0 else -x
    return f


def keyword_only(a, b=1, *, c, d='x', **kwargs):
    return a, b, c, d, kwargs


def positional_only(a, b=2, /, c=3, *args, e, **kwargs):
    return a + b + c


def closure_in_loop(items):
    funcs = []
    for i in items:
        funcs.append(lambda i=i: i * 2)
    return funcs


def dead_captures(self):
    # The compiler drops the dead code but keeps self a cell and helper a
    # cell variable of the function.
    if 0:
        lambda: self

        def helper():
            return helper
    return self


def unused_nonlocal():
    cell = 1

    def inner():
        nonlocal cell

    return inner


def global_read_of_enclosing_local(pipe):
    # test__interpreters' script(): `global w` only reads w, but without the
    # declaration the read would be of the test's local w (a cell).
    r, w = pipe()

    def script():
        global w
        return open(w)

    class Reader:
        global w
        target = w

    def comprehension():
        global r
        return [r for _ in range(2)]

    return script, Reader, comprehension, r, w


def global_read_of_comprehension_variable(union):
    # cattrs _unions: `type` is only the variable of a comprehension
    # (3.12+ inline it here), so inner's read of the builtin needs no
    # `global` (one would make the module's own reads LOAD_GLOBAL).
    args = {str(type) for type in union}

    def inner(x):
        return type(x)

    return inner, args
