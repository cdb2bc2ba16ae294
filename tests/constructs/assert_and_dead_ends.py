"""Asserts and if / try statements whose every way returns, as 3.8-3.9
lay them out.  3.8 raises the global AssertionError (no
LOAD_ASSERTION_ERROR): an assert is the same code as `if not t: raise
AssertionError` on one line.  3.8-3.9 keep the end of an if / else or a
try / except / else whose ways all return, which nothing reaches (the
implicit return, a loop body's jump back): the else part is what puts it
there."""


def assert_messages(x, y):
    assert x is not None, x
    assert x, [i for i in x]
    assert isinstance(x, int), "x is %r" % x
    assert (x and
            y), (x,
                 y)
    return x


def assert_one_line_if(c, d):
    if not c: raise AssertionError
    if not d:
        raise AssertionError("on a line of its own")
    return c


def assert_folded_negation(it, a, b):
    if not iter(it) is it: raise AssertionError
    if a is not b: raise AssertionError("x")
    if not a in b: raise AssertionError
    assert a not in b, 3
    assert not a == b


def assert_in_loops(xs, gc):
    for x in xs:
        assert x, x
    while xs:
        assert xs.pop()
    for g, c in gc:
        if len(c) == 1:
            assert g
        else:
            assert not g


def assert_in_try(x):
    try:
        assert x
    except AssertionError:
        pass


def else_of_returning_if(c):
    if c:
        return 1
    else:
        return 2


def else_of_returning_try(self, key):
    try:
        self[key]
    except KeyError:
        return False
    else:
        return True


def else_of_elif_chain(a, b):
    if a:
        return 1
    elif b:
        return 2
    else:
        return


def else_raising_clause(a):
    try:
        v = a()
    except KeyError:
        return 1
    except ValueError as e:
        raise TypeError(e)
    else:
        v += 1
        return v


def else_in_loop_body(xs):
    for x in xs:
        if x:
            return 1
        else:
            return 2


def else_raising(a):
    if a:
        raise ValueError
    else:
        return 5


def else_in_with(a):
    with a:
        if a:
            return 1
        else:
            return 2
