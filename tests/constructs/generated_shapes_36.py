"""Shapes of generated programs (unpyc.campaign, stop 36, seed 3636)."""


def if_body_pass_else_pass(a, b):
    # 3.8-3.9: the jump over the empty else part has the line of the body's
    # `pass`, a line of its own, which read as a `break` or `continue`.
    if a:
        b()
        pass
    else:
        pass


def loop_if_body_pass_else_pass(xs, b):
    for x in xs:
        if x:
            b()
            pass
        else:
            pass
        b()


def assert_message_ifexp(a, b, c, d):
    # The message branches: each way ends in a copy of the raise (3.9+).
    assert a, b if c else d
    return 1


def assert_message_ifexp_in_loop(xs, b, c, d):
    for x in xs:
        assert x, b if c else d


def assert_message_or(a, b, c):
    assert a, b or c
    return a


def assert_message_ifexp_last(a, b, c, d):
    while a():
        assert a, b if c else d


if a:
    b
    pass
else:
    pass
assert a, b if c else d


class Annotated:
    # An annotation whose target is no simple name is evaluated and dropped
    # (module and class bodies): a constant one is no expression statement.
    (x): 0
    y.z: 1.5
    w: int = 2


(v): 0
(u): (1, 2)
